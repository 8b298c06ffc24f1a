//! One WebSocket connection, from the upgrade to the close handshake:
//!
//! 1. The upgrade, within `handshake_timeout`: the path must name an allowed room (404
//!    otherwise, 503 past `max_rooms` or while draining).
//! 2. `session:hello`, within `hello_timeout`, checked here: its token verified (a bad or
//!    expired one is answered `session:error` and closed, code 1008); only then does the
//!    connection take a room slot.
//! 3. The session: every frame kind (binary, text, ping, pong) counts against the rate cap;
//!    a frame over a cap is counted in the room's [`FrameDrops`] here and never reaches the
//!    room; a client over its cap `flood_close_s` seconds in a row, silent `idle_timeout`,
//!    or with a write blocked `write_timeout` is closed.
//!
//! Every close the server makes is a WebSocket close handshake with a code.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::WebSocketStream;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message as _, Wire};
use village::dispatch::ServerMessage;
use village::session::{RevokeReason, SessionError, SessionFailed, SessionHello};

use crate::counters::{Counter, FrameDrops};
use crate::limits::{Flood, RateCap};
use crate::room::{close, Event, Out};
use crate::shared::{ConnSlot, NoRoom, RoomHandle, Shared};
use crate::token::{self, Claims, TokenError};

/// Frames written per flush at most (more when one batch is bigger), so one busy client
/// cannot starve its own reads.
const BATCH: usize = 256;

/// Bytes read from the socket at once. tungstenite zero-fills this much of its read buffer
/// before every read: at its default (128 KiB) that memset was half the server's CPU under
/// 40 bots. Client frames are small (a move is about 30 bytes; `frame_cap` 4 KiB); a bigger
/// frame still arrives, over several reads.
pub(crate) const READ_BUFFER: usize = 4096;

/// Bytes tungstenite gathers before a socket write (one tick of a client's frames is 1 to 3
/// KB, so still one write per tick).
const WRITE_BUFFER: usize = 8 * 1024;

/// Batches of frames queued from the room to this connection's writer at most (the bytes
/// in them are bounded by `Config::queue_bytes`).
const BATCHES: usize = 1024;

type Ws = WebSocketStream<TcpStream>;

/// Serves one accepted connection; `_slot` is its place under the connection caps.
pub(crate) async fn serve(stream: TcpStream, shared: Arc<Shared>, conn: u64, _slot: ConnSlot) {
    let cfg = shared.config.clone();
    let _ = stream.set_nodelay(true);
    // What the kernel may hold for a reader that stopped reading.
    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(cfg.send_buffer);
    let Some((mut ws, room, path)) = upgrade(stream, &shared).await else {
        return;
    };
    let mut cap = RateCap::new(cfg.rate_per_s, cfg.rate_burst);
    let mut flood = Flood::default();
    let Some((hello, who, len)) = hello(&mut ws, &shared, &room, &mut cap).await else {
        return;
    };
    let (tx, mut rx) = mpsc::channel(BATCHES);
    let queued = Arc::new(AtomicUsize::new(0));
    let open = |tx| Event::Open {
        conn,
        tx,
        queued: queued.clone(),
        hello: hello.clone(),
        who: who.clone(),
        len,
    };
    // A room that stopped between the upgrade and now: ask for it again, once.
    let room = match room.tx.send(open(tx.clone())).await {
        Ok(()) => room,
        Err(_) => match shared.room(&path) {
            Ok(again) if again.tx.send(open(tx)).await.is_ok() => again,
            _ => return close_with(&mut ws, close::TRY_LATER, "room stopped").await,
        },
    };
    let idle = tokio::time::sleep(cfg.idle_timeout);
    tokio::pin!(idle);
    loop {
        tokio::select! {
            out = rx.recv() => {
                let write = write_batch(&mut ws, out, &mut rx, &queued);
                match tokio::time::timeout(cfg.write_timeout, write).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some((code, reason)))) => {
                        close_with(&mut ws, code, reason).await;
                        break;
                    }
                    Ok(Err(())) => break,
                    Err(_) => {
                        // Blocked on a reader that does not read: drop it, no handshake.
                        shared.counters.add(Counter::WriteTimeout);
                        break;
                    }
                }
            }
            _ = &mut idle => {
                shared.counters.add(Counter::IdleTimeout);
                close_with(&mut ws, close::GOING_AWAY, "idle").await;
                break;
            }
            incoming = ws.next() => {
                idle.as_mut().reset(tokio::time::Instant::now() + cfg.idle_timeout);
                let bytes = match incoming {
                    Some(Ok(Message::Close(_))) => {
                        finish_close(&mut ws).await;
                        break;
                    }
                    Some(Ok(msg)) => match admit(&msg, &cfg, &room.drops, &mut cap) {
                        Some(bytes) => bytes,
                        None => {
                            if flood.on_drop(Instant::now(), cfg.flood_close_s) {
                                shared.counters.add(Counter::Flooding);
                                close_with(&mut ws, close::POLICY, "over the rate cap").await;
                                break;
                            }
                            continue;
                        }
                    },
                    Some(Err(_)) | None => break,
                };
                if room.tx.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(Event::Close { conn }).await;
}

/// The upgrade, bounded in time; the room its path names.
// The handshake callback's error type is tungstenite's own (an HTTP response).
#[allow(clippy::result_large_err)]
async fn upgrade(stream: TcpStream, shared: &Shared) -> Option<(Ws, RoomHandle, String)> {
    let cfg = &shared.config;
    let mut found: Option<RoomHandle> = None;
    let mut path = String::new();
    // tungstenite gathers written frames up to `write_buffer_size` before writing (128 KiB
    // by default): bytes out of the room's bounded queue but not yet on the socket. Small,
    // so a stalled reader's backlog stays in the queue the room counts.
    let ws_config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_message_size(Some(cfg.hard_frame_cap))
        .max_frame_size(Some(cfg.hard_frame_cap));
    let callback = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        path = req.uri().path().to_string();
        match shared.room(&path) {
            Ok(room) => {
                found = Some(room);
                Ok(resp)
            }
            Err(why) => {
                let (counter, status) = match why {
                    NoRoom::NotAllowed => (Counter::RoomNotAllowed, StatusCode::NOT_FOUND),
                    NoRoom::Full => (Counter::RoomsFull, StatusCode::SERVICE_UNAVAILABLE),
                    NoRoom::Draining => (Counter::Draining, StatusCode::SERVICE_UNAVAILABLE),
                };
                shared.counters.add(counter);
                let mut refusal = ErrorResponse::new(Some(counter.name().to_string()));
                *refusal.status_mut() = status;
                Err(refusal)
            }
        }
    };
    let accept = tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(ws_config));
    let result = tokio::time::timeout(cfg.handshake_timeout, accept).await;
    match result {
        Ok(Ok(ws)) => Some((ws, found?, path)),
        Ok(Err(_)) => {
            if found.is_some() || path.is_empty() {
                shared.counters.add(Counter::HandshakeFailed);
            }
            None
        }
        Err(_) => {
            shared.counters.add(Counter::HandshakeTimeout);
            None
        }
    }
}

/// Waits for `session:hello` (within `hello_timeout`) and checks its token. `None`: the
/// connection was closed (no hello, or a refused token).
async fn hello(
    ws: &mut Ws,
    shared: &Shared,
    room: &RoomHandle,
    cap: &mut RateCap,
) -> Option<(SessionHello, Option<Claims>, usize)> {
    let cfg = &shared.config;
    let deadline = tokio::time::Instant::now() + cfg.hello_timeout;
    let (hello, len) = loop {
        let msg = match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => {
                shared.counters.add(Counter::HelloTimeout);
                close_with(ws, close::POLICY, "no session:hello").await;
                return None;
            }
            Ok(Some(Ok(Message::Close(_)))) => {
                finish_close(ws).await;
                return None;
            }
            Ok(Some(Ok(msg))) => msg,
            Ok(Some(Err(_)) | None) => return None,
        };
        let Some(bytes) = admit(&msg, cfg, &room.drops, cap) else {
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
        return Some((hello, None, len));
    };
    let checked = match &cfg.token_key {
        Some(key) => token::verify(key, token, token::now_s()),
        None => Err(TokenError::BadSignature),
    };
    match checked {
        Ok(claims) => Some((hello, Some(claims), len)),
        Err(e) => {
            shared.counters.add(Counter::TokenRefused);
            let error = match e {
                TokenError::Expired => SessionError::TokenExpired,
                // Not ours or not readable: sign in again.
                TokenError::BadSignature | TokenError::Malformed => SessionError::TokenRevoked {
                    reason: RevokeReason::LoggedOut,
                },
            };
            let refused = ServerMessage::from(SessionFailed { error, fatal: true });
            if let Ok(bytes) = refused.to_envelope(Encoding::Compact) {
                let _ = ws.send(Message::Binary(bytes.into())).await;
            }
            close_with(ws, close::POLICY, e.code()).await;
            None
        }
    }
}

/// A frame within the caps: its bytes for the room. Any frame over a cap, and every text,
/// ping and pong frame, is counted in `drops` and goes no further (the library answers
/// pings itself; a ping still takes a token, so a ping flood is a flood).
fn admit(
    msg: &Message,
    cfg: &crate::Config,
    drops: &FrameDrops,
    cap: &mut RateCap,
) -> Option<Bytes> {
    if !cap.take(Instant::now()) {
        FrameDrops::add(&drops.rate_limited);
        return None;
    }
    match msg {
        Message::Binary(bytes) if bytes.len() <= cfg.frame_cap => Some(bytes.clone()),
        Message::Binary(_) => {
            FrameDrops::add(&drops.too_large);
            None
        }
        Message::Text(_) => {
            FrameDrops::add(&drops.text_frame);
            None
        }
        _ => None,
    }
}

/// Writes one batch the room queued, and whatever else is queued up to [`BATCH`] frames,
/// with one flush. `Ok(Some(code))`: the room asked to close. `Err`: the socket failed.
async fn write_batch(
    ws: &mut Ws,
    first: Option<Out>,
    rx: &mut mpsc::Receiver<Out>,
    queued: &AtomicUsize,
) -> Result<Option<(u16, &'static str)>, ()> {
    let mut next = first;
    let mut fed = 0;
    let mut close = None;
    loop {
        match next {
            Some(Out::Frames(frames, bytes)) => {
                let n = frames.len();
                for frame in frames {
                    ws.feed(Message::Binary(frame)).await.map_err(|_| ())?;
                }
                queued.fetch_sub(bytes, Ordering::Relaxed);
                fed += n;
            }
            Some(Out::Close(code, reason)) => close = Some((code, reason)),
            None => close = Some((close::GOING_AWAY, "room closed")),
        }
        if close.is_some() || fed >= BATCH {
            break;
        }
        match rx.try_recv() {
            Ok(out) => next = Some(out),
            Err(_) => break,
        }
    }
    ws.flush().await.map_err(|_| ())?;
    Ok(close)
}

/// The server's close handshake: a close frame with `code`, then the peer's answer read
/// (bounded to a second), so the TCP close is clean rather than a reset.
async fn close_with(ws: &mut Ws, code: u16, reason: &str) {
    let frame = CloseFrame {
        code: CloseCode::from(code),
        reason: reason.to_string().into(),
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(Some(frame))).await;
    finish_close(ws).await;
}

/// After a close frame either way: flush the answer and read until the peer closes
/// (bounded to a second).
async fn finish_close(ws: &mut Ws) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = ws.flush().await;
        while let Some(Ok(_)) = ws.next().await {}
    })
    .await;
}
