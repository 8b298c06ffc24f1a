//! One connection: its frames go to the room as events, through the room's bounded
//! channel (a client faster than the room waits, and TCP slows it down). The room's frames
//! come back through a bounded queue the room never waits on: when it is full the frame is
//! dropped and counted (`stats.rs`), as a slow reader must not stall everyone else.

use std::time::Duration;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::timeout;
use yawc::close::CloseCode;
use yawc::{Frame, HttpWebSocket, OpCode};

use crate::room::Event;

/// Frames queued for one client before the room drops them.
pub(crate) const OUT_QUEUE: usize = 256;
/// The largest frame read, bytes (the largest valid village message is far smaller).
const MAX_FRAME: usize = 16 * 1024;
/// The first frame (`session:hello`) must arrive within this; a write must end within it.
const PATIENCE: Duration = Duration::from_secs(5);

/// What the room sends a connection.
#[derive(Debug)]
pub(crate) enum Out {
    /// One binary frame.
    Frame(Bytes),
    /// Close the connection, saying why.
    Close(&'static str),
}

/// The WebSocket settings: frames bounded by [`MAX_FRAME`], no permessage-deflate.
pub(crate) fn options() -> yawc::Options {
    yawc::Options::default()
        .with_max_payload_read(MAX_FRAME)
        .with_max_read_buffer(MAX_FRAME)
}

/// Runs connection `conn` until either side closes it.
pub(crate) async fn run(mut ws: HttpWebSocket, conn: u64, room: mpsc::Sender<Event>) {
    // A silent socket takes no slot in the room.
    let Ok(Some(hello)) = timeout(PATIENCE, next_data(&mut ws)).await else {
        return;
    };
    let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
    if room.send(Event::Open { conn, tx, hello }).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = next_data(&mut ws) => {
                let Some(bytes) = frame else { break };
                if room.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
            out = rx.recv() => {
                // The room gone: close. Else everything queued goes out with one flush,
                // which must end in time.
                let Some(mut out) = out else { break };
                let mut batch = Vec::new();
                let close = loop {
                    match out {
                        Out::Frame(bytes) => batch.push(bytes),
                        Out::Close(why) => break Some(why),
                    }
                    match rx.try_recv() {
                        Ok(next) => out = next,
                        Err(_) => break None,
                    }
                };
                if timeout(PATIENCE, write(&mut ws, batch)).await != Ok(true) {
                    break;
                }
                if let Some(why) = close {
                    let bye = Frame::close(CloseCode::Policy, why.as_bytes());
                    let _ = timeout(PATIENCE, ws.send(bye)).await;
                    break;
                }
            }
        }
    }
    let _ = room.send(Event::Close { conn }).await;
}

/// The next data frame's payload (binary, or text: the room drops text as not msgpack);
/// `None` once the connection closed. yawc answers pings itself.
async fn next_data(ws: &mut HttpWebSocket) -> Option<Bytes> {
    loop {
        let frame = ws.next().await?;
        match frame.opcode() {
            OpCode::Binary | OpCode::Text => return Some(frame.into_payload()),
            OpCode::Close => return None,
            _ => {}
        }
    }
}

async fn write(ws: &mut HttpWebSocket, batch: Vec<Bytes>) -> bool {
    for bytes in batch {
        if ws.feed(Frame::binary(bytes)).await.is_err() {
            return false;
        }
    }
    ws.flush().await.is_ok()
}
