//! What a room reports to admins: `diag:pong`'s server stats with every drop counted,
//! and the byte meters by message type.

use std::collections::BTreeMap;
use std::time::Duration;

use village::diag::{DiagBytes, ServerStats};

use crate::counters::{Counter, FrameDrops};
use crate::stats::{rss, Drops};

use super::state::Room;

/// The most keys `Room::dropped_report` can give: the room's pairs and `(other)`, the
/// frame drops, the server's counters. `diag:pong` holds at most 64 (`ServerStats::dropped`).
const DROPPED_KEYS_MAX: usize = Drops::KEYS + 1 + FrameDrops::KINDS + Counter::ALL.len();
const _: () = assert!(DROPPED_KEYS_MAX <= 64, "the drop report must fit diag:pong");

impl Room {
    pub(super) fn server_stats(&self) -> ServerStats {
        let ms = |d: Duration| (d.as_secs_f64() * 1e3) as f32;
        let s = &self.stats;
        ServerStats {
            loop_lag_ms: s.last_tick_late_ms,
            move_cost_ms: s.move_cost_ewma_ms as f32,
            move_cost_peak_ms: s.move_cost_peak_ms as f32,
            rss: rss(),
            heap_used: 0,
            moves_per_s: s.moves_last_s.min(u32::from(u16::MAX)) as u16,
            uptime_s: self.started.elapsed().as_secs().min(u64::from(u32::MAX)) as u32,
            tick_late_p95_ms: Some(ms(s.tick_late.quantile(0.95))),
            tick_late_max_ms: Some(ms(s.tick_late.max())),
            move_cost_p50_ms: Some(ms(s.move_cost.quantile(0.5))),
            move_cost_p95_ms: Some(ms(s.move_cost.quantile(0.95))),
            moves: Some(s.moves),
            accepted: Some(s.accepted),
            dropped: Some(self.dropped_report()),
            unsent: Some(s.unsent),
        }
    }

    /// The room's drops, its connections' frame drops and the server's counters, each
    /// only when non-zero: at most `Drops::KEYS + 1 + 3 + 33` = 61 keys, within the 64
    /// `ServerStats::dropped` holds (checked at compile time: `DROPPED_KEYS_MAX`).
    pub(super) fn dropped_report(&self) -> BTreeMap<String, u32> {
        let clamp = |n: u64| n.min(u64::from(u32::MAX)) as u32;
        let mut out: BTreeMap<String, u32> = self.stats.dropped.report().collect();
        let before_hello = self.pre_hello.report();
        for (i, (name, n)) in self.frame_drops.report().into_iter().enumerate() {
            let n = n + before_hello[i].1;
            if n > 0 {
                out.insert(format!("(frame) {name}"), clamp(n));
            }
        }
        for c in Counter::ALL {
            let n = self.counters.get(c);
            if n > 0 {
                out.insert(format!("(server) {}", c.name()), clamp(n));
            }
        }
        out
    }

    pub(super) fn diag_bytes(&self) -> DiagBytes {
        let mut out = BTreeMap::new();
        let mut inbound = BTreeMap::new();
        for r in self.meter_out.report() {
            out.insert(r.name.to_string(), r.bytes_out);
        }
        for r in self.meter_in.report() {
            inbound.insert(r.name.to_string(), r.bytes_in);
        }
        DiagBytes {
            since: self.meters_since,
            out,
            inbound,
        }
    }
}
