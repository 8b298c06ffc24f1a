//! What the room counts, for `diag:ping` with `want_stats` (the bots read it). Percentiles
//! restart on `diag:bytes` with `reset`; the reference server also keeps byte meters.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use village::diag::ServerStats;

/// The room's counts; moves, accepted and unsent since the room opened.
#[derive(Default)]
pub(crate) struct Stats {
    pub moves: u64,
    pub accepted: u64,
    pub unsent: u64,
    /// Inputs dropped, by message name and error code: 63 keys, then `(other)`.
    drops: BTreeMap<(&'static str, &'static str), u32>,
    /// Tick lateness and move cost, ms, the first 8192 of each since the reset.
    pub tick_late: Vec<f32>,
    pub move_cost: Vec<f32>,
    since: Option<Instant>,
}

impl Stats {
    pub fn dropped(&mut self, name: &'static str, code: &'static str) {
        let key = if self.drops.len() < 63 { (name, code) } else { ("(other)", "") };
        *self.drops.entry(key).or_default() += 1;
    }

    pub fn sample(samples: &mut Vec<f32>, d: Duration) {
        if samples.len() < 8192 {
            samples.push(d.as_secs_f32() * 1e3);
        }
    }

    pub fn reset(&mut self) {
        (self.tick_late, self.move_cost) = (Vec::new(), Vec::new());
        self.since = Some(Instant::now());
    }

    /// The numbers `diag:pong` carries (a Node server's heap and RSS are 0 here).
    pub fn report(&self) -> ServerStats {
        let q = |v: &[f32], q: f32| {
            let mut v = v.to_vec();
            v.sort_by(f32::total_cmp);
            let i = (q * v.len() as f32).ceil() as usize;
            v.get(i.saturating_sub(1)).copied().unwrap_or(0.0)
        };
        let secs = self.since.map_or(1.0, |t| t.elapsed().as_secs_f32().max(1.0));
        let dropped =
            (self.drops.iter()).map(|((name, code), n)| (format!("{name} {code}"), *n)).collect();
        ServerStats {
            loop_lag_ms: f64::from(q(&self.tick_late, 1.0)),
            move_cost_ms: q(&self.move_cost, 0.5),
            move_cost_peak_ms: q(&self.move_cost, 1.0),
            rss: 0,
            heap_used: 0,
            moves_per_s: (self.move_cost.len() as f32 / secs) as u16,
            uptime_s: secs as u32,
            tick_late_p95_ms: Some(q(&self.tick_late, 0.95)),
            tick_late_max_ms: Some(q(&self.tick_late, 1.0)),
            move_cost_p50_ms: Some(q(&self.move_cost, 0.5)),
            move_cost_p95_ms: Some(q(&self.move_cost, 0.95)),
            moves: Some(self.moves),
            accepted: Some(self.accepted),
            dropped: Some(dropped),
            unsent: Some(self.unsent),
        }
    }
}
