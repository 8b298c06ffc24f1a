//! One WebSocket connection: the handshake (the path names the room), the frame-size and
//! message-rate caps, and the writer that drains the room's queue for this client.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tuplet::wire::Reader;

use crate::limits::RateCap;
use crate::room::{Event, Out};
use crate::shared::Shared;

/// Frames written per flush at most (more when one batch is bigger), so one busy client
/// cannot starve its own reads.
const BATCH: usize = 256;

/// Bytes read from the socket at once. tungstenite zero-fills this much of its read buffer
/// before every read: at its default (128 KiB) that memset was half the server's CPU under
/// 40 bots. Client frames are small (a move is about 30 bytes; `frame_cap` 4 KiB); a bigger
/// frame still arrives, over several reads.
pub(crate) const READ_BUFFER: usize = 4096;

// The handshake callback's error type is tungstenite's own (an HTTP response).
#[allow(clippy::result_large_err)]
pub(crate) async fn serve(stream: TcpStream, shared: Arc<Shared>, conn: u64) {
    let _ = stream.set_nodelay(true);
    let cfg = &shared.config;
    let mut path = String::new();
    let ws_config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(cfg.hard_frame_cap))
        .max_frame_size(Some(cfg.hard_frame_cap));
    let callback = |req: &Request, resp: Response| {
        path = req.uri().path().to_string();
        Ok(resp)
    };
    let Ok(mut ws) =
        tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(ws_config)).await
    else {
        return;
    };
    let room = shared.room(&path);
    let (tx, mut rx) = mpsc::channel(cfg.queue);
    let queued = Arc::new(AtomicUsize::new(0));
    let open = Event::Open {
        conn,
        tx,
        queued: queued.clone(),
    };
    if room.send(open).await.is_err() {
        return;
    }
    let mut cap = RateCap::new(cfg.rate_per_s, cfg.rate_burst);
    loop {
        tokio::select! {
            out = rx.recv() => {
                // Every frame queued so far goes out with one flush: one socket write.
                let mut next = out;
                let mut fed = 0;
                let mut close = false;
                loop {
                    match next {
                        Some(Out::Frames(frames)) => {
                            let n = frames.len();
                            for bytes in frames {
                                if ws.feed(Message::Binary(bytes)).await.is_err() {
                                    close = true;
                                    break;
                                }
                            }
                            queued.fetch_sub(n, Ordering::Relaxed);
                            fed += n;
                        }
                        Some(Out::Close) | None => close = true,
                    }
                    if close || fed >= BATCH {
                        break;
                    }
                    match rx.try_recv() {
                        Ok(out) => next = Some(out),
                        Err(_) => break,
                    }
                }
                if ws.flush().await.is_err() {
                    break;
                }
                if close {
                    let _ = ws.close(None).await;
                    break;
                }
            }
            incoming = ws.next() => {
                let event = match incoming {
                    Some(Ok(Message::Binary(bytes))) => {
                        if bytes.len() > cfg.frame_cap {
                            dropped(conn, &bytes, "too_large")
                        } else if !cap.take(Instant::now()) {
                            dropped(conn, &bytes, "rate_limited")
                        } else {
                            Event::Input { conn, bytes }
                        }
                    }
                    Some(Ok(Message::Text(text))) => Event::Dropped {
                        conn,
                        id: None,
                        code: "text_frame",
                        len: text.len(),
                    },
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => continue, // ping, pong: the library answers pings
                };
                if room.send(event).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.send(Event::Close { conn }).await;
}

/// A frame dropped before decoding, attributed to its message type when the envelope id
/// can be read.
fn dropped(conn: u64, bytes: &[u8], code: &'static str) -> Event {
    let id = Reader::new(bytes)
        .read_u64(0, u64::from(u32::MAX))
        .ok()
        .map(|id| id as u32);
    Event::Dropped {
        conn,
        id,
        code,
        len: bytes.len(),
    }
}
