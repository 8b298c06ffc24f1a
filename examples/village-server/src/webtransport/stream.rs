//! A session's two channels read as one: the reliable stream the client opens (frames
//! after their length) and datagrams; the caps every frame passes; how a session ends.

use std::time::{Duration, Instant};

use bytes::Bytes;
use tuplet::{Dispatch, Encoding};
use village::dispatch::ServerMessage;
use village::session::SessionFailed;
use wtransport::{Connection, RecvStream, SendStream, VarInt};

use crate::counters::FrameDrops;
use crate::join::Refused;
use crate::limits::RateCap;

use super::frames::{self, FrameReader};

/// The reliable stream of a session.
pub(super) struct Stream {
    pub send: SendStream,
    recv: RecvStream,
    frames: FrameReader,
}

/// One frame from either channel: the stream's next, or a datagram.
pub(super) enum Incoming {
    Frame(Bytes),
    /// The stream or the session ended (`Some`: as a protocol error, with its reason).
    Ended(Option<&'static str>),
}

/// The next frame from the stream (waiting for the client to open it) or a datagram.
pub(super) async fn next(
    connection: &Connection,
    stream: &mut Option<Stream>,
    cap: usize,
) -> Incoming {
    if let Some(s) = stream.as_mut() {
        match s.frames.next_frame() {
            Ok(Some(frame)) => return Incoming::Frame(frame),
            Ok(None) => {}
            Err(_) => return Incoming::Ended(Some("frame over the hard cap")),
        }
    }
    let mut chunk = [0u8; 4096];
    loop {
        match stream.as_mut() {
            None => tokio::select! {
                bi = connection.accept_bi() => match bi {
                    Ok((send, recv)) => {
                        *stream = Some(Stream { send, recv, frames: FrameReader::new(cap) });
                    }
                    Err(_) => return Incoming::Ended(None),
                },
                d = connection.receive_datagram() => return match d {
                    Ok(d) => Incoming::Frame(d.payload()),
                    Err(_) => Incoming::Ended(None),
                },
            },
            Some(s) => tokio::select! {
                n = s.recv.read(&mut chunk) => match n {
                    Ok(Some(n)) => {
                        s.frames.extend(&chunk[..n]);
                        match s.frames.next_frame() {
                            Ok(Some(frame)) => return Incoming::Frame(frame),
                            Ok(None) => {}
                            Err(_) => return Incoming::Ended(Some("frame over the hard cap")),
                        }
                    }
                    _ => return Incoming::Ended(None),
                },
                d = connection.receive_datagram() => return match d {
                    Ok(d) => Incoming::Frame(d.payload()),
                    Err(_) => Incoming::Ended(None),
                },
            },
        }
    }
}

/// A frame within the caps: its bytes for the room; any other is counted in `drops`.
pub(super) fn admit(
    frame: Bytes,
    cfg: &crate::config::Config,
    drops: &FrameDrops,
    cap: &mut RateCap,
) -> Option<Bytes> {
    if !cap.take(Instant::now()) {
        FrameDrops::add(&drops.rate_limited);
        return None;
    }
    if frame.len() > cfg.frame_cap {
        FrameDrops::add(&drops.too_large);
        return None;
    }
    Some(frame)
}

/// Answers a refused hello: `session:error` on the stream (when there is one to tell),
/// then the close.
pub(super) async fn answer(connection: &Connection, stream: &mut Stream, refused: Refused) {
    if let Some(error) = refused.error {
        let refusal = ServerMessage::from(SessionFailed { error, fatal: true });
        if let Ok(bytes) = refusal.to_envelope(Encoding::Compact) {
            let mut out = Vec::with_capacity(bytes.len() + 4);
            frames::put(&mut out, &bytes);
            let write = stream.send.write_all(&out);
            let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
        }
    }
    end(connection, refused.code, refused.reason);
}

/// Closes the session with a WebSocket close code and reason.
pub(super) fn end(connection: &Connection, code: u16, reason: &str) {
    connection.close(VarInt::from_u32(u32::from(code)), reason.as_bytes());
}
