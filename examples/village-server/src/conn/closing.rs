//! Closes: the server's close handshake, bounded in time and frames read; a close on a
//! protocol error with its RFC 6455 code; the answer to a peer's close.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use yawc::close::CloseCode;
use yawc::{Frame, OpCode, WebSocketError};

use crate::counters::Counter;
use crate::room::close;
use crate::shared::Shared;

use super::upgrade::Ws;

/// The most frames a close reads while it waits for the peer's answer. A peer that floods
/// through the close (pings above all: the library queues a pong for each) is dropped after
/// these rather than read for the close's whole second.
pub(super) const CLOSE_READ_FRAMES: usize = 64;

/// The server's close handshake: a close frame with `code`, then the peer's answer read
/// (bounded to a second and to [`CLOSE_READ_FRAMES`] frames), so the TCP close is clean
/// rather than a reset.
pub(super) async fn close_with(ws: &mut Ws, code: u16, reason: &str) {
    let frame = Frame::close(CloseCode::from(code), reason);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        if ws.send(frame).await.is_ok() {
            let mut read = 0;
            while let Some(f) = ws.next().await {
                read += 1;
                if f.opcode() == OpCode::Close || read >= CLOSE_READ_FRAMES {
                    break;
                }
            }
        }
    })
    .await;
}

/// Sends a close frame (within a second) and ends the connection without waiting for the
/// peer's reply: for a connection that holds nothing the server owes a wait.
pub(super) async fn close_now(ws: &mut Ws, code: u16, reason: &str) {
    let frame = Frame::close(CloseCode::from(code), reason);
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.send(frame)).await;
}

/// After a read error. The peer closing or the socket failing ends the connection there.
/// A protocol error (a frame the library refused) is answered with a close frame: its
/// RFC 6455 code (1009 too big, 1007 text not UTF-8, 1003 an unknown opcode, 1002 the
/// rest) and the library's reason, counted `protocol_error`. The library queues that close
/// itself for an error in one frame and writes it at the next read, which then ends at
/// once; for an error in assembling a fragmented message it queues none, and the server
/// sends it.
pub(super) async fn close_on_error(ws: &mut Ws, shared: &Shared, err: WebSocketError) {
    let code = match err {
        WebSocketError::ConnectionClosed | WebSocketError::IoError(_) => return,
        WebSocketError::FrameTooLarge => close::TOO_BIG,
        WebSocketError::InvalidUTF8 => close::NOT_UTF8,
        WebSocketError::InvalidOpCode(_) => close::UNSUPPORTED,
        _ => close::PROTOCOL,
    };
    shared.counters.add(Counter::ProtocolError);
    let next = tokio::time::timeout(Duration::from_millis(100), ws.next_frame()).await;
    if !matches!(next, Ok(Err(WebSocketError::ConnectionClosed))) {
        close_with(ws, code, &err.to_string()).await;
    }
}

/// After the peer's close frame: the library queued its answer; flush it and read until the
/// peer closes (bounded to a second and to [`CLOSE_READ_FRAMES`] frames).
pub(super) async fn finish_close(ws: &mut Ws) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = ws.flush().await;
        let mut read = 0;
        while read < CLOSE_READ_FRAMES && ws.next().await.is_some() {
            read += 1;
        }
    })
    .await;
}
