//! A session in its room: the client's frames to the room, the room's frames out, each
//! as a datagram when its message is unreliable and it fits, else on the stream.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tokio::sync::mpsc;
use tuplet::wire::Reader;
use tuplet::Dispatch;
use village::dispatch::ServerMessage;
use wtransport::{Connection, SendStream};

use crate::counters::Counter;
use crate::join::Joined;
use crate::limits::{Flood, RateCap};
use crate::room::{close, Event, Out};
use crate::shared::Shared;

use super::frames;
use super::stream::{admit, end, next, Incoming, Stream};

/// Whether a frame of the room's goes as a datagram on a connection whose datagrams hold
/// `max` bytes: its message is `unreliable` and it fits. A larger one goes on the stream.
/// Snapshots among them: a WebTransport session's tracker is in the acknowledged mode, so
/// a lost one costs only bytes.
fn as_datagram(frame: &[u8], max: usize) -> bool {
    if frame.len() > max {
        return false;
    }
    let mut r = Reader::new(frame);
    match r.read_u64(0, u64::from(u32::MAX)) {
        Ok(id) => ServerMessage::unreliable_id(id as u32),
        Err(_) => false,
    }
}

/// The session in its room: frames both ways until either side ends it.
pub(super) async fn run(
    connection: &Connection,
    stream: Stream,
    shared: &Shared,
    conn: u64,
    joined: Joined,
    mut cap: RateCap,
) {
    let cfg = &shared.config;
    let Joined {
        room,
        mut rx,
        queued,
        _slot,
    } = joined;
    let mut flood = Flood::default();
    let mut taken = Some(stream);
    let idle = tokio::time::sleep(cfg.idle_timeout);
    tokio::pin!(idle);
    let mut out = Vec::new();
    loop {
        tokio::select! {
            batch = rx.recv() => {
                let Some(batch) = batch else {
                    end(connection, close::GOING_AWAY, "room closed");
                    break;
                };
                let s = taken.as_mut().expect("the stream");
                let write = write_batch(connection, &mut s.send, batch, &mut rx, &queued, &mut out);
                match tokio::time::timeout(cfg.write_timeout, write).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some((code, reason)))) => {
                        end(connection, code, reason);
                        break;
                    }
                    Ok(Err(())) => break,
                    Err(_) => {
                        shared.counters.add(Counter::WriteTimeout);
                        end(connection, close::POLICY, "write timeout");
                        break;
                    }
                }
            }
            _ = &mut idle => {
                shared.counters.add(Counter::IdleTimeout);
                end(connection, close::GOING_AWAY, "idle");
                break;
            }
            incoming = next(connection, &mut taken, cfg.hard_frame_cap) => {
                idle.as_mut().reset(tokio::time::Instant::now() + cfg.idle_timeout);
                let frame = match incoming {
                    Incoming::Frame(frame) => frame,
                    Incoming::Ended(why) => {
                        if let Some(why) = why {
                            shared.counters.add(Counter::ProtocolError);
                            end(connection, close::TOO_BIG, why);
                        }
                        break;
                    }
                };
                let Some(bytes) = admit(frame, cfg, &room.drops, &mut cap) else {
                    if flood.on_drop(Instant::now(), cfg.flood_close_s) {
                        shared.counters.add(Counter::Flooding);
                        end(connection, close::POLICY, "over the rate cap");
                        break;
                    }
                    continue;
                };
                if room.tx.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(Event::Close { conn }).await;
}

/// Frames written per batch at most (more when one batch of the room's is bigger), so one
/// busy session cannot starve its own reads.
const BATCH: usize = 256;

/// Sends one batch the room queued, and whatever else is queued up to [`BATCH`] frames:
/// datagrams at once, the stream's frames in one write. `Ok(Some(code))`: the room asked
/// to close. `Err`: the stream failed.
async fn write_batch(
    connection: &Connection,
    send: &mut SendStream,
    first: Out,
    rx: &mut mpsc::Receiver<Out>,
    queued: &AtomicUsize,
    out: &mut Vec<u8>,
) -> Result<Option<(u16, &'static str)>, ()> {
    out.clear();
    let max = connection.max_datagram_size().unwrap_or(0);
    let mut next = Some(first);
    let mut fed = 0;
    let mut close = None;
    while let Some(batch) = next.take() {
        match batch {
            Out::Frames(frames, bytes) => {
                fed += frames.len();
                for frame in frames {
                    let sent = as_datagram(&frame, max) && connection.send_datagram(&frame).is_ok();
                    if !sent {
                        frames::put(out, &frame);
                    }
                }
                queued.fetch_sub(bytes, Ordering::Relaxed);
            }
            Out::Close(code, reason) => close = Some((code, reason)),
        }
        if close.is_some() || fed >= BATCH {
            break;
        }
        next = rx.try_recv().ok();
    }
    if !out.is_empty() {
        send.write_all(out).await.map_err(|_| ())?;
    }
    Ok(close)
}

#[cfg(test)]
mod tests {
    use tuplet::{Dispatch as _, Encoding, Message as _};
    use village::dispatch::ServerMessage;
    use village::player::PlayerMoveRelayed;
    use village::session::{SessionError, SessionFailed};
    use village::world::WorldSnapshot;

    use super::as_datagram;

    fn frame(msg: impl Into<ServerMessage>) -> Vec<u8> {
        msg.into().to_envelope(Encoding::Compact).expect("encodes")
    }

    #[test]
    fn unreliable_frames_larger_than_a_datagram_go_on_the_stream() {
        let moved = frame(PlayerMoveRelayed {
            s: "abcdefghi".into(),
            p: [1.0, 2.0, 3.0],
            r: 0.5,
            t: 1_000,
            seq: Some(7),
            flags: None,
        });
        const { assert!(PlayerMoveRelayed::UNRELIABLE) };
        assert!(as_datagram(&moved, 1200), "a move that fits is a datagram");
        assert!(as_datagram(&moved, moved.len()), "one that just fits too");
        assert!(
            !as_datagram(&moved, moved.len() - 1),
            "one byte over: the stream"
        );
        let failed = frame(SessionFailed {
            error: SessionError::TokenInvalid,
            fatal: true,
        });
        assert!(
            !as_datagram(&failed, 1200),
            "a reliable message: the stream"
        );
        // A snapshot (the acknowledged mode's `[number, ago, payload]`) is a datagram too.
        let mut snapshot = vec![WorldSnapshot::ID as u8];
        snapshot.extend_from_slice(&[0x93, 0x01, 0x00, 0x92, 0x01, 0xc0]);
        assert!(as_datagram(&snapshot, 1200), "a snapshot that fits");
        assert!(
            !as_datagram(&snapshot, snapshot.len() - 1),
            "one that does not"
        );
    }
}
