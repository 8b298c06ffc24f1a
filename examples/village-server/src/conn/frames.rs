//! Frames in and out of a connection: each read frame admitted against the caps, the
//! room's frames written in batches with one flush, the pongs the library owes flushed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bytes::Bytes;
use futures_util::SinkExt;
use tokio::sync::mpsc;
use yawc::{Frame, OpCode};

use crate::counters::FrameDrops;
use crate::limits::RateCap;
use crate::room::{close, Out};

use super::upgrade::Ws;

/// Frames written per flush at most (more when one batch is bigger), so one busy client
/// cannot starve its own reads.
pub(super) const BATCH: usize = 256;

/// A frame within the caps: its bytes for the room. Any frame over a cap, and every text,
/// ping and pong frame, is counted in `drops` and goes no further (the library answers
/// pings itself; a ping still takes a token, so a ping flood is a flood). The library
/// joins a fragmented message before it gets here: it counts once, and its size is bounded
/// by `hard_frame_cap`.
pub(super) fn admit(
    msg: &Frame,
    cfg: &crate::config::Config,
    drops: &FrameDrops,
    cap: &mut RateCap,
) -> Option<Bytes> {
    if !cap.take(Instant::now()) {
        FrameDrops::add(&drops.rate_limited);
        return None;
    }
    match msg.opcode() {
        OpCode::Binary if msg.payload().len() <= cfg.frame_cap => Some(msg.payload().clone()),
        OpCode::Binary => {
            FrameDrops::add(&drops.too_large);
            None
        }
        OpCode::Text => {
            FrameDrops::add(&drops.text_frame);
            None
        }
        _ => None,
    }
}

/// Writes one batch the room queued, and whatever else is queued up to [`BATCH`] frames,
/// with one flush. `Ok(Some(code))`: the room asked to close. `Err`: the socket failed.
pub(super) async fn write_batch(
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
                    ws.feed(Frame::binary(frame)).await.map_err(|_| ())?;
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

/// Writes the pong the library queued for a ping (within `write_timeout`; false: the
/// socket failed or stayed blocked). yawc keeps the pongs it owes in memory until the next
/// write, and a connection that gets no frames from its room writes nothing: without this a
/// ping flood held one queued pong per ping (660 MB for 4 flooders in 15 s, measured by
/// `scripts/bench hostile`). Now at most one is queued.
pub(super) async fn answer_ping(ws: &mut Ws, cfg: &crate::config::Config) -> bool {
    matches!(
        tokio::time::timeout(cfg.write_timeout, ws.flush()).await,
        Ok(Ok(()))
    )
}
