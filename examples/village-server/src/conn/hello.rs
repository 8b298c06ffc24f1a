//! `session:hello`: waited for within its timeout, its join or resume token judged
//! (`join.rs`), a refusal answered with `session:error`.

use futures_util::SinkExt;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message as _, Wire};
use village::dispatch::ServerMessage;
use village::session::{SessionError, SessionFailed, SessionHello};
use yawc::{Frame, OpCode};

use crate::counters::{Counter, FrameDrops};
use crate::join::{self, Refused, Who};
use crate::limits::RateCap;
use crate::room::close;
use crate::shared::Shared;

use super::closing::{close_on_error, close_with, finish_close};
use super::frames::{admit, answer_ping};
use super::upgrade::Ws;

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
    match join::judge(shared, path, &hello) {
        Ok(who) => Some((hello, who, len)),
        Err(refused) => {
            answer(ws, refused).await;
            None
        }
    }
}

/// Answers a refused hello: `session:error` (when there is one to tell), then the close.
pub(super) async fn answer(ws: &mut Ws, refused: Refused) {
    match refused.error {
        Some(error) => refuse_with(ws, error, refused.code, refused.reason).await,
        None => close_with(ws, refused.code, refused.reason).await,
    }
}

/// Answers a refused hello with `session:error` and closes with `code`.
async fn refuse_with(ws: &mut Ws, error: SessionError, code: u16, reason: &str) {
    let refused = ServerMessage::from(SessionFailed { error, fatal: true });
    if let Ok(bytes) = refused.to_envelope(Encoding::Compact) {
        let _ = ws.send(Frame::binary(bytes)).await;
    }
    close_with(ws, code, reason).await;
}
