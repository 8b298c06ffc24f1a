//! One connection: its frames go to the room as they arrive; the room's frames come back
//! through a bounded queue the room never waits on (`Room::send`).

use std::time::Duration;

use bytes::Bytes;
use futures_util::{stream, SinkExt, StreamExt};
use hyper::Request;
use tokio::sync::mpsc;
use tokio::time::timeout;
use yawc::{close::CloseCode, Frame, HttpResponse, HttpWebSocket, OpCode, Options, WebSocket};

use crate::room::Shared;

/// Frames queued for one client; the largest frame read, bytes; how long the first frame
/// and each write may take.
const OUT_QUEUE: usize = 256;
const MAX_FRAME: usize = 16 * 1024;
const PATIENCE: Duration = Duration::from_secs(5);

/// Answers the upgrade request and runs the connection once upgraded. A request that is not
/// a WebSocket upgrade ends the connection.
pub(crate) async fn upgrade<B>(mut req: Request<B>, room: Shared) -> yawc::Result<HttpResponse> {
    let options =
        Options::default().with_max_payload_read(MAX_FRAME).with_max_read_buffer(MAX_FRAME);
    let (response, upgraded) = WebSocket::upgrade_with_options(&mut req, options)?;
    tokio::spawn(async move {
        if let Ok(ws) = upgraded.await {
            run(ws, room).await;
        }
    });
    Ok(response)
}

/// Runs one connection until either side closes it.
async fn run(mut ws: HttpWebSocket, room: Shared) {
    // A socket silent for 5 s takes no slot in the room.
    let Ok(Some(hello)) = timeout(PATIENCE, next_data(&mut ws)).await else { return };
    let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
    let seat = room.lock().await.open(tx, &hello);
    let idx = match seat {
        Ok(idx) => idx,
        // Refused: send what the room queued (a `session:error`), then close.
        Err(why) => return close(&mut ws, rx.try_recv().ok(), why).await,
    };
    let mut batch = Vec::with_capacity(OUT_QUEUE);
    loop {
        tokio::select! {
            frame = next_data(&mut ws) => {
                let Some(frame) = frame else { break };
                room.lock().await.on_input(idx, &frame);
            }
            n = rx.recv_many(&mut batch, OUT_QUEUE) => {
                // Everything queued goes out with one flush, which must end in time.
                let mut frames = stream::iter(batch.drain(..).map(|b| Ok(Frame::binary(b))));
                let write = timeout(PATIENCE, ws.send_all(&mut frames));
                if n == 0 || !matches!(write.await, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
    room.lock().await.close(idx);
}

/// Sends `last` if any, then closes with code 1008 (policy) and `why`.
async fn close(ws: &mut HttpWebSocket, last: Option<Bytes>, why: &str) {
    if let Some(frame) = last {
        let _ = timeout(PATIENCE, ws.send(Frame::binary(frame))).await;
    }
    let _ = timeout(PATIENCE, ws.send(Frame::close(CloseCode::Policy, why.as_bytes()))).await;
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
