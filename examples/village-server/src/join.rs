//! What every transport does between a client's `session:hello` and its first input: the
//! hello's token judged, a player's connection slot taken, the room found (opened now if it
//! is not), a signed-in player's account claimed, and the room told. WebSocket
//! connections (`conn/`) and WebTransport sessions (`webtransport/`) share it, so both
//! meet the same caps and rooms.

use std::net::IpAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use village::session::{SessionError, SessionHello};

use crate::counters::Counter;
use crate::room::{close, Event, Out};
use crate::shared::{ConnSlot, HelloSlot, NoRoom, RoomHandle, Shared};
use crate::token::{self, Claims, ResumeClaims, TokenError};

/// Batches of frames queued from the room to a connection's writer at most (the bytes in
/// them are bounded by `Config::queue_bytes`).
pub(crate) const BATCHES: usize = 1024;

/// Who said hello.
pub(crate) enum Who {
    Guest,
    /// A join token's claims.
    Player(Claims),
    /// A resume token's claims (signature, session and room checked).
    Resume(ResumeClaims),
}

/// A hello refused (its counter already counted): the error the client is told (none when
/// the room stopped under it), and the close code and reason.
pub(crate) struct Refused {
    pub error: Option<SessionError>,
    pub code: u16,
    pub reason: &'static str,
}

/// Judges a hello's token for room path `path` (its counter already counted when refused).
pub(crate) fn judge(shared: &Shared, path: &str, hello: &SessionHello) -> Result<Who, Refused> {
    let cfg = &shared.config;
    let Some(token) = hello.token.as_deref() else {
        return Ok(Who::Guest);
    };
    if let Some(session) = hello.resume.as_deref() {
        // A resume: the token is the one the server signed for this session.
        let room_name = cfg.room_name(path).unwrap_or("");
        let (counter, error) = match token::verify_resume(&shared.sessions.resume_key, token) {
            Err(_) => (Counter::ResumeForged, SessionError::TokenInvalid),
            Ok(c) if c.s != session || c.room != room_name => {
                (Counter::ResumeMismatch, SessionError::TokenInvalid)
            }
            // Rights end with the join token's expiry, resumed or not.
            Ok(c) if c.who.as_ref().is_some_and(|w| w.exp <= token::now_s()) => {
                (Counter::TokenExpired, SessionError::TokenExpired)
            }
            Ok(c) => return Ok(Who::Resume(c)),
        };
        shared.counters.add(counter);
        return Err(Refused {
            error: Some(error),
            code: close::POLICY,
            reason: counter.name(),
        });
    }
    let checked = match &cfg.token_key {
        Some(key) => token::verify(key, token, token::now_s()),
        None => Err(TokenError::BadSignature),
    };
    match checked {
        Ok(claims) => Ok(Who::Player(claims)),
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
            Err(Refused {
                error: Some(error),
                code: close::POLICY,
                reason: e.code(),
            })
        }
    }
}

/// A player in its room: what the connection keeps while it serves it.
pub(crate) struct Joined {
    pub room: RoomHandle,
    pub rx: mpsc::Receiver<Out>,
    pub queued: Arc<AtomicUsize>,
    /// Held for as long as the connection lives.
    pub _slot: ConnSlot,
}

/// A hello as said: the message, its frame's size, and who said it.
pub(crate) struct Said {
    pub hello: SessionHello,
    pub len: usize,
    pub who: Who,
    /// The connection carries datagrams (WebTransport): its snapshots are deltas against
    /// the client's acknowledged baselines, which a lost datagram cannot break.
    pub datagrams: bool,
}

/// The hello `said` of connection `conn` from `ip`: takes a player's slot, finds the room
/// of `path` and tells it. `Err`: refused (counted), with the error and close code to
/// answer.
pub(crate) async fn join(
    shared: &Arc<Shared>,
    slot: HelloSlot,
    path: &str,
    conn: u64,
    ip: IpAddr,
    said: Said,
) -> Result<Joined, Refused> {
    let Said {
        hello,
        len,
        who,
        datagrams,
    } = said;
    let full = |counter: Counter| Refused {
        error: Some(SessionError::RoomFull(0)),
        code: close::TRY_LATER,
        reason: counter.name(),
    };
    let slot = shared.promote(slot).map_err(|counter| {
        shared.counters.add(counter);
        full(counter)
    })?;
    let room = shared.room(path).map_err(|why| {
        let counter = match why {
            NoRoom::NotAllowed => Counter::RoomNotAllowed,
            NoRoom::Full => Counter::RoomsFull,
            NoRoom::Draining => Counter::Draining,
        };
        shared.counters.add(counter);
        full(counter)
    })?;
    let (tx, rx) = mpsc::channel(BATCHES);
    let queued = Arc::new(AtomicUsize::new(0));
    // A signed-in player claims its account (the latest claim wins); a session of it in
    // another room ends there, saved, before this one loads where it was.
    let (who, ticket, saved) = match who {
        Who::Player(claims) => {
            let (ticket, saved) = claim(shared, &room, claims.account).await;
            (Who::Player(claims), ticket, saved)
        }
        other => (other, 0, None),
    };
    let open = |tx| match &who {
        Who::Resume(claims) => Event::Resume {
            conn,
            tx,
            queued: queued.clone(),
            hello: hello.clone(),
            claims: claims.clone(),
            len,
            datagrams,
        },
        Who::Guest | Who::Player(_) => Event::Open {
            conn,
            tx,
            queued: queued.clone(),
            hello: hello.clone(),
            who: match &who {
                Who::Player(c) => Some(c.clone()),
                _ => None,
            },
            len,
            ticket,
            saved,
            ip: shared.counted_as(ip),
            datagrams,
        },
    };
    // A room that stopped between the upgrade and now: ask for it again, once.
    let room = match room.tx.send(open(tx.clone())).await {
        Ok(()) => room,
        Err(_) => match shared.room(path) {
            Ok(again) if again.tx.send(open(tx)).await.is_ok() => again,
            _ => {
                return Err(Refused {
                    error: None,
                    code: close::TRY_LATER,
                    reason: "room stopped",
                })
            }
        },
    };
    Ok(Joined {
        room,
        rx,
        queued,
        _slot: slot,
    })
}

/// Claims `account` for `room`: ends its session in any other room (waiting, bounded,
/// for that room to have saved it), then loads its saved state off the reactor.
async fn claim(
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
