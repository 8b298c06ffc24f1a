//! `session:hello`: waited for within its timeout, its join or resume token checked, a
//! refusal answered with `session:error`; a signed-in player's account claimed.

use std::time::Duration;

use futures_util::SinkExt;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message as _, Wire};
use village::dispatch::ServerMessage;
use village::session::{SessionError, SessionFailed, SessionHello};
use yawc::{Frame, OpCode};

use crate::counters::{Counter, FrameDrops};
use crate::limits::RateCap;
use crate::room::{close, Event};
use crate::shared::{RoomHandle, Shared};
use crate::token::{self, Claims, ResumeClaims, TokenError};

use super::closing::{close_on_error, close_with, finish_close};
use super::frames::{admit, answer_ping};
use super::upgrade::Ws;

/// Who said hello.
pub(super) enum Who {
    Guest,
    /// A join token's claims.
    Player(Claims),
    /// A resume token's claims (signature, session and room checked).
    Resume(ResumeClaims),
}

/// Waits for `session:hello` (within `hello_timeout`) and checks its token. `None`: the
/// connection was closed (no hello, or a refused token).
pub(super) async fn hello(
    ws: &mut Ws,
    shared: &Shared,
    drops: &FrameDrops,
    path: &str,
    cap: &mut RateCap,
) -> Option<(SessionHello, Who, usize)> {
    let cfg = &shared.config;
    let deadline = tokio::time::Instant::now() + cfg.hello_timeout;
    let (hello, len) = loop {
        // The read cap holds before the hello too: the socket is metered from the upgrade.
        let msg = match tokio::time::timeout_at(deadline, ws.next_frame()).await {
            Err(_) => {
                shared.counters.add(Counter::HelloTimeout);
                close_with(ws, close::POLICY, "no session:hello").await;
                return None;
            }
            Ok(Ok(f)) if f.opcode() == OpCode::Close => {
                finish_close(ws).await;
                return None;
            }
            Ok(Ok(f)) if f.opcode() == OpCode::Ping && !answer_ping(ws, cfg).await => {
                shared.counters.add(Counter::WriteTimeout);
                return None;
            }
            Ok(Ok(f)) => f,
            Ok(Err(e)) => {
                close_on_error(ws, shared, e).await;
                return None;
            }
        };
        let Some(bytes) = admit(&msg, cfg, drops, cap) else {
            continue;
        };
        let mut r = Reader::new(&bytes);
        let hello = match r.read_u64(0, u64::from(u32::MAX)) {
            Ok(id) if id == u64::from(SessionHello::ID) => {
                SessionHello::decode(&mut r).and_then(|h| r.finish().map(|()| h))
            }
            _ => {
                shared.counters.add(Counter::BeforeHello);
                continue;
            }
        };
        match hello {
            Ok(h) => break (h, bytes.len()),
            Err(_) => shared.counters.add(Counter::BeforeHello),
        }
    };
    let Some(token) = hello.token.as_deref() else {
        return Some((hello, Who::Guest, len));
    };
    if let Some(session) = hello.resume.as_deref() {
        // A resume: the token is the one the server signed for this session.
        let room_name = cfg.room_name(path).unwrap_or("");
        let refused = match token::verify_resume(&shared.sessions.resume_key, token) {
            Err(_) => Some((Counter::ResumeForged, SessionError::TokenInvalid)),
            Ok(c) if c.s != session || c.room != room_name => {
                Some((Counter::ResumeMismatch, SessionError::TokenInvalid))
            }
            // Rights end with the join token's expiry, resumed or not.
            Ok(c) if c.who.as_ref().is_some_and(|w| w.exp <= token::now_s()) => {
                Some((Counter::TokenExpired, SessionError::TokenExpired))
            }
            Ok(c) => return Some((hello, Who::Resume(c), len)),
        };
        let (counter, error) = refused.expect("refused");
        shared.counters.add(counter);
        refuse(ws, error, counter.name()).await;
        return None;
    }
    let checked = match &cfg.token_key {
        Some(key) => token::verify(key, token, token::now_s()),
        None => Err(TokenError::BadSignature),
    };
    match checked {
        Ok(claims) => Some((hello, Who::Player(claims), len)),
        Err(e) => {
            shared.counters.add(match e {
                TokenError::BadSignature => Counter::TokenForged,
                TokenError::Expired => Counter::TokenExpired,
                TokenError::Malformed => Counter::TokenMalformed,
            });
            let error = match e {
                TokenError::Expired => SessionError::TokenExpired,
                // Not ours or not readable: sign in again.
                TokenError::BadSignature | TokenError::Malformed => SessionError::TokenInvalid,
            };
            refuse(ws, error, e.code()).await;
            None
        }
    }
}

/// Answers a refused hello with `session:error` and closes with 1008.
pub(super) async fn refuse(ws: &mut Ws, error: SessionError, reason: &str) {
    refuse_with(ws, error, close::POLICY, reason).await;
}

/// Answers a refused hello with `session:error` and closes with `code`.
pub(super) async fn refuse_with(ws: &mut Ws, error: SessionError, code: u16, reason: &str) {
    let refused = ServerMessage::from(SessionFailed { error, fatal: true });
    if let Ok(bytes) = refused.to_envelope(Encoding::Compact) {
        let _ = ws.send(Frame::binary(bytes)).await;
    }
    close_with(ws, code, reason).await;
}

/// Claims `account` for `room`: ends its session in any other room (waiting, bounded,
/// for that room to have saved it), then loads its saved state off the reactor.
pub(super) async fn claim(
    shared: &Shared,
    room: &RoomHandle,
    account: u64,
) -> (u64, Option<crate::store::Saved>) {
    let (previous, ticket) = shared.sessions.claim(account, room.id, room.tx.downgrade());
    if let Some(tx) = previous.and_then(|c| c.tx.upgrade()) {
        let (done, ended) = tokio::sync::oneshot::channel();
        if tx.send(Event::Evict { account, done }).await.is_ok() {
            let _ = tokio::time::timeout(Duration::from_secs(2), ended).await;
        }
    }
    let store = shared.sessions.store.clone();
    let saved = tokio::task::spawn_blocking(move || store.load(account))
        .await
        .ok()
        .flatten();
    (ticket, saved)
}
