//! One connection. Its frames go to the room through the room's bounded channel (a client
//! faster than the room waits, and TCP slows it down). The room's frames come back through
//! a bounded queue the room never waits on: when it is full the frame is dropped, counted.

use std::time::Duration;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::timeout;
use yawc::{close::CloseCode, Frame, HttpWebSocket, OpCode};

use crate::room::{Event, Out};

/// Frames queued for one client; the largest frame read, bytes; how long the first frame
/// (`session:hello`) and each write may take.
const OUT_QUEUE: usize = 256;
const MAX_FRAME: usize = 16 * 1024;
const PATIENCE: Duration = Duration::from_secs(5);

/// Frames bounded by [`MAX_FRAME`]; no permessage-deflate.
pub(crate) fn options() -> yawc::Options {
    yawc::Options::default().with_max_payload_read(MAX_FRAME).with_max_read_buffer(MAX_FRAME)
}

/// Runs connection `conn` until either side closes it.
pub(crate) async fn run(mut ws: HttpWebSocket, conn: u64, room: mpsc::Sender<Event>) {
    // A silent socket takes no slot in the room.
    let Ok(Some(hello)) = timeout(PATIENCE, next_data(&mut ws)).await else { return };
    let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
    if room.send(Event::Open(conn, tx, hello)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = next_data(&mut ws) => {
                let Some(bytes) = frame else { break };
                if room.send(Event::Input(conn, bytes)).await.is_err() {
                    break;
                }
            }
            Some(first) = rx.recv() => {
                // Everything queued goes out with one flush, which must end in time.
                let mut batch = vec![first];
                while let Ok(next) = rx.try_recv() {
                    batch.push(next);
                }
                let write = async {
                    for out in batch {
                        let frame = match out {
                            Out::Frame(bytes) => Frame::binary(bytes),
                            Out::Close(why) => Frame::close(CloseCode::Policy, why.as_bytes()),
                        };
                        let last = frame.opcode() == OpCode::Close;
                        ws.feed(frame).await?;
                        if last {
                            break;
                        }
                    }
                    ws.flush().await
                };
                if !matches!(timeout(PATIENCE, write).await, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
    let _ = room.send(Event::Close(conn)).await;
}

/// The next data frame's payload (text too: the room drops it as not msgpack); `None` once
/// the connection closed. yawc answers pings itself.
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
