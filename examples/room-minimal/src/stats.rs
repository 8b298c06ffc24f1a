//! What the room counts, for `diag:ping` with `want_stats`: the village bots and the
//! players-per-core bench read it. The reference server also meters bytes and move cost.

use std::collections::BTreeMap;
use std::time::Duration;

use tuplet::Message;
use village::diag::ServerStats;
use village::player::PlayerMove;

/// Counts since the room opened; tick lateness, ms, since `diag:bytes` with `reset`.
#[derive(Default)]
pub(crate) struct Stats {
    accepted: u64,
    moves: u64,
    pub unsent: u64,
    /// Inputs dropped, by message name and error code; past 63 pairs, under `(other)`.
    drops: BTreeMap<(&'static str, &'static str), u32>,
    pub tick_late: Vec<f32>,
}

impl Stats {
    pub fn accept(&mut self, name: &str) {
        self.accepted += 1;
        self.moves += u64::from(name == PlayerMove::NAME);
    }

    pub fn reject(&mut self, name: &'static str, code: &'static str) {
        let mut key = (name, code);
        if self.drops.len() >= 63 && !self.drops.contains_key(&key) {
            key = ("(other)", "");
        }
        *self.drops.entry(key).or_default() += 1;
    }

    pub fn late(&mut self, late: Duration) {
        if self.tick_late.len() < 8192 {
            self.tick_late.push(late.as_secs_f32() * 1e3);
        }
    }

    /// The numbers `diag:pong` carries; none for what this room does not measure.
    pub fn report(&self) -> ServerStats {
        let mut late = self.tick_late.clone();
        late.sort_by(f32::total_cmp);
        let p95 = (late.len() * 95).div_ceil(100).saturating_sub(1);
        let dropped = self.drops.iter().map(|((name, code), n)| (format!("{name} {code}"), *n));
        ServerStats {
            tick_late_p95_ms: late.get(p95).copied(),
            tick_late_max_ms: late.last().copied(),
            moves: Some(self.moves),
            accepted: Some(self.accepted),
            dropped: Some(dropped.collect()),
            unsent: Some(self.unsent),
            ..ServerStats::default()
        }
    }
}
