//! What the room counts, for `diag:ping` with `want_stats` (the bots read it) and
//! `diag:bytes`: messages accepted, and dropped by type and code; frames unsent; moves and
//! their cost; tick lateness. Percentiles restart on `diag:bytes` with `reset`.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Meter};
use village::diag::{DiagBytes, ServerStats};
use village::dispatch::{ClientMessage, ServerMessage};

use crate::room::now_ms;

/// Samples a percentile is taken over: the latest ones.
const SAMPLES: usize = 8192;

/// The room's counts.
pub(crate) struct Stats {
    /// Bytes in by message type (the runtime's meter).
    pub meter_in: Meter<ClientMessage>,
    /// Bytes out by envelope id.
    out: BTreeMap<u32, u64>,
    since: SystemTime,
    moves: u64,
    accepted: u64,
    /// Frames dropped because a client's queue was full.
    pub unsent: u64,
    /// Inputs dropped, by message name and error code: bounded by the protocol.
    drops: BTreeMap<(&'static str, &'static str), u32>,
    tick_late: Samples,
    move_cost: Samples,
}

/// The latest [`SAMPLES`] durations, ms, in a ring, and the largest.
#[derive(Default)]
struct Samples {
    ring: Vec<f32>,
    next: usize,
    max: f32,
}

impl Samples {
    fn add(&mut self, d: Duration) {
        let ms = d.as_secs_f32() * 1e3;
        match self.ring.get_mut(self.next) {
            Some(slot) => *slot = ms,
            None => self.ring.push(ms),
        }
        self.next = (self.next + 1) % SAMPLES;
        self.max = self.max.max(ms);
    }

    fn quantile(&self, q: f32) -> f32 {
        let mut v = self.ring.clone();
        v.sort_by(f32::total_cmp);
        let i = (q * v.len() as f32).ceil() as usize;
        v.get(i.saturating_sub(1)).copied().unwrap_or(0.0)
    }
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            meter_in: Meter::new(),
            out: BTreeMap::new(),
            since: SystemTime::now(),
            moves: 0,
            accepted: 0,
            unsent: 0,
            drops: BTreeMap::new(),
            tick_late: Samples::default(),
            move_cost: Samples::default(),
        }
    }

    /// A valid message handled; a move with what it cost.
    pub fn accepted(&mut self, move_cost: Option<Duration>) {
        self.accepted += 1;
        if let Some(cost) = move_cost {
            self.moves += 1;
            self.move_cost.add(cost);
        }
    }

    /// A frame that did not decode: counted under its message's name when its id is known.
    pub fn dropped(&mut self, frame: &[u8], code: &'static str) {
        self.meter_in.record_dropped(frame.len());
        let id = Reader::new(frame).read_u64(0, u64::from(u32::MAX));
        let known = ClientMessage::MESSAGES
            .iter()
            .find(|m| Ok(u64::from(m.1)) == id);
        self.refused(known.map_or("(unknown)", |m| m.0), code);
    }

    /// A valid message the room did not act on, and why.
    pub fn refused(&mut self, name: &'static str, code: &'static str) {
        *self.drops.entry((name, code)).or_default() += 1;
    }

    pub fn sent(&mut self, frame: &Bytes) {
        let id = Reader::new(frame)
            .read_u64(0, u64::from(u32::MAX))
            .unwrap_or(0);
        *self.out.entry(id as u32).or_default() += frame.len() as u64;
    }

    pub fn tick_late(&mut self, late: Duration) {
        self.tick_late.add(late);
    }

    /// Restarts the percentiles and the byte counts (not the totals).
    pub fn reset(&mut self) {
        self.meter_in.reset();
        self.out.clear();
        self.since = SystemTime::now();
        self.tick_late = Samples::default();
        self.move_cost = Samples::default();
    }

    /// The numbers `diag:pong` carries. What a Node server would measure (heap, RSS) is 0.
    pub fn report(&self) -> ServerStats {
        let secs = self
            .since
            .elapsed()
            .map_or(0.0, |d| d.as_secs_f32())
            .max(1.0);
        // The 63 largest drop counts, and the rest as `(other)`: 64 keys at most.
        let mut drops: Vec<_> = self.drops.iter().collect();
        drops.sort_by_key(|d| std::cmp::Reverse(*d.1));
        let mut dropped: BTreeMap<String, u32> = (drops.iter().take(63))
            .map(|((name, code), n)| (format!("{name} {code}"), **n))
            .collect();
        let other: u32 = drops.iter().skip(63).map(|d| *d.1).sum();
        if other > 0 {
            dropped.insert("(other)".into(), other);
        }
        ServerStats {
            loop_lag_ms: f64::from(self.tick_late.quantile(1.0)),
            move_cost_ms: self.move_cost.quantile(0.5),
            move_cost_peak_ms: self.move_cost.max,
            rss: 0,
            heap_used: 0,
            moves_per_s: (self.move_cost.ring.len() as f32 / secs).min(65535.0) as u16,
            uptime_s: secs as u32,
            tick_late_p95_ms: Some(self.tick_late.quantile(0.95)),
            tick_late_max_ms: Some(self.tick_late.max),
            move_cost_p50_ms: Some(self.move_cost.quantile(0.5)),
            move_cost_p95_ms: Some(self.move_cost.quantile(0.95)),
            moves: Some(self.moves),
            accepted: Some(self.accepted),
            dropped: Some(dropped),
            unsent: Some(self.unsent),
        }
    }

    /// Bytes in and out by message type since the last reset (`diag:bytes`).
    pub fn bytes(&self) -> DiagBytes {
        let name = |id: &u32| ServerMessage::MESSAGES.iter().find(|m| m.1 == *id);
        DiagBytes {
            since: now_ms() - self.since.elapsed().map_or(0, |d| d.as_millis() as u64),
            out: (self.out.iter())
                .map(|(id, n)| (name(id).map_or("(unknown)", |m| m.0).to_string(), *n))
                .collect(),
            inbound: (self.meter_in.report().into_iter())
                .map(|r| (r.name.to_string(), r.bytes_in))
                .collect(),
        }
    }
}
