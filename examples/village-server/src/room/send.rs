//! Sending: fan-out to the players a message is for (built once, encoded once per shape),
//! direct answers, and each player's bounded queue of frames gathered for its next flush.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use tokio::sync::mpsc;
use tuplet::relay::dist2_xz;
use tuplet::Meter;
use village::dispatch::ServerMessage;

use crate::config::Config;
use crate::fanout::Frames;
use crate::stats::RoomStats;

use super::event::Out;
use super::state::{Player, Room};

impl Room {
    /// A one-off event: to every nearby viewer, every time, and to nobody else.
    pub(super) fn event_to_nearby(&mut self, idx: usize, msg: ServerMessage) {
        let Some(at) = self.slots[idx].as_ref().map(|p| p.pos) else {
            return;
        };
        let config = Arc::clone(&self.config);
        self.fan_out(
            || msg,
            at,
            Some(idx),
            None,
            |d2, _| config.tiers.is_near(d2),
        );
    }

    /// Sends the message `make` builds to every joined player but `skip` that
    /// `want(d2, seen)` accepts, where `d2` is its squared ground distance to `origin` and
    /// `seen` whether it already got a pose of `mover` (slot, gen), which this marks. The
    /// message is built only when someone gets it, and encoded once per shape in use.
    pub(super) fn fan_out(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        skip: Option<usize>,
        mover: Option<(usize, u32)>,
        want: impl Fn(f32, bool) -> bool,
    ) {
        self.fan_out_core(make, origin, |i| Some(i) != skip, mover, want);
    }

    /// [`Room::fan_out`] to the joined players whose slot `to` accepts, sender included.
    pub(super) fn fan_out_to(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        to: impl Fn(usize) -> bool,
        want: impl Fn(f32, bool) -> bool,
    ) {
        self.fan_out_core(make, origin, to, None, want);
    }

    pub(super) fn fan_out_core(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        to_slot: impl Fn(usize) -> bool,
        mover: Option<(usize, u32)>,
        want: impl Fn(f32, bool) -> bool,
    ) {
        let mut to = std::mem::take(&mut self.recipients);
        to.clear();
        for &i in &self.joined {
            let Some(v) = self.slots[i]
                .as_mut()
                .filter(|v| v.detached_at.is_none() && to_slot(i))
            else {
                continue;
            };
            let seen = mover.is_some_and(|(m, gen)| v.seen[m] == gen);
            if !want(dist2_xz(v.pos, origin), seen) {
                continue;
            }
            if let Some((m, gen)) = mover {
                v.seen[m] = gen;
            }
            to.push(i);
        }
        if !to.is_empty() {
            let msg = make();
            let mut frames = Frames::new(&msg);
            for &i in &to {
                let Some(v) = self.slots[i].as_mut() else {
                    continue;
                };
                if let Some(bytes) = frames.get(v.shape) {
                    push(
                        v,
                        bytes,
                        &msg,
                        &self.config,
                        &self.meter_out,
                        &mut self.stats,
                    );
                    if !self.config.flush_per_tick {
                        flush(v, &mut self.stats);
                    }
                }
            }
        }
        self.recipients = to;
    }

    /// A direct answer: queued after what was gathered for `idx`, and written at once.
    pub(super) fn send_to(&mut self, idx: usize, msg: &ServerMessage) {
        if let Some(p) = self.slots[idx].as_mut() {
            if let Some(bytes) = Frames::new(msg).get(p.shape) {
                push(
                    p,
                    bytes,
                    msg,
                    &self.config,
                    &self.meter_out,
                    &mut self.stats,
                );
            }
            flush(p, &mut self.stats);
        }
    }
}

/// Whether `p` is behind: a frame was refused for it (its queue at `Config::queue_bytes`)
/// and the queue has not yet drained to half of that.
pub(super) fn behind(p: &mut Player, config: &Config) -> bool {
    let queued = p.queued.load(Ordering::Relaxed) + p.pending_bytes;
    if queued < config.queue_bytes / 2 {
        p.behind_since = None;
    }
    p.behind_since.is_some()
}

/// Gathers one frame for `p`'s next flush; when `Config::queue_bytes` are already waiting
/// for it (a stalled client), the frame is counted as unsent instead.
pub(super) fn push(
    p: &mut Player,
    bytes: Bytes,
    msg: &ServerMessage,
    config: &Config,
    meter: &Meter<ServerMessage>,
    stats: &mut RoomStats,
) {
    let queued = p.queued.load(Ordering::Relaxed) + p.pending_bytes;
    if queued + bytes.len() > config.queue_bytes {
        p.behind_since.get_or_insert_with(Instant::now);
        stats.unsent += 1;
        return;
    }
    meter.record_out(msg, bytes.len(), 1);
    p.pending_bytes += bytes.len();
    p.pending.push(bytes);
}

/// Hands the frames gathered for `p` to its connection, which writes them with one flush.
pub(super) fn flush(p: &mut Player, stats: &mut RoomStats) {
    if p.pending.is_empty() {
        return;
    }
    let frames = std::mem::replace(&mut p.pending, Vec::with_capacity(16));
    let n = frames.len();
    let bytes = std::mem::take(&mut p.pending_bytes);
    p.queued.fetch_add(bytes, Ordering::Relaxed);
    match p.tx.try_send(Out::Frames(frames, bytes)) {
        Ok(()) => {}
        Err(e) => {
            p.queued.fetch_sub(bytes, Ordering::Relaxed);
            if let mpsc::error::TrySendError::Full(_) = e {
                stats.unsent += n as u64;
            }
        }
    }
}
