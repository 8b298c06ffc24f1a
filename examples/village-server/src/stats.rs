//! What a room measures about itself: handler cost per move, tick lateness, counts and
//! drops, answered on `diag:ping` (with `want_stats`) to the asker alone.

use std::collections::BTreeMap;
use std::time::Duration;

/// A log-linear histogram of durations: 16 sub-buckets per power of two of nanoseconds
/// (at most about 6% off), constant memory, no allocation when recording.
#[derive(Debug, Clone)]
pub struct Histogram {
    buckets: Vec<u64>,
    count: u64,
    max: u64,
}

const SUB: u32 = 16;

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: vec![0; (64 * SUB) as usize],
            count: 0,
            max: 0,
        }
    }
}

impl Histogram {
    fn index(ns: u64) -> usize {
        if ns < u64::from(SUB) {
            return ns as usize;
        }
        let exp = 63 - ns.leading_zeros(); // >= 4
        let sub = (ns >> (exp - 4)) as u32 & (SUB - 1);
        ((exp - 3) * SUB + sub) as usize
    }

    /// The upper bound of bucket `i`, ns.
    fn upper(i: usize) -> u64 {
        let i = i as u32;
        if i < SUB {
            return u64::from(i);
        }
        let exp = i / SUB + 3;
        let sub = u64::from(i % SUB);
        ((SUB as u64 + sub + 1) << (exp - 4)) - 1
    }

    /// Records one duration.
    pub fn record(&mut self, d: Duration) {
        let ns = d.as_nanos().min(u128::from(u64::MAX)) as u64;
        self.buckets[Self::index(ns)] += 1;
        self.count += 1;
        self.max = self.max.max(ns);
    }

    /// How many durations were recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The `q` quantile (0..=1), as the upper bound of its bucket; zero when empty.
    pub fn quantile(&self, q: f64) -> Duration {
        if self.count == 0 {
            return Duration::ZERO;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Duration::from_nanos(Self::upper(i).min(self.max));
            }
        }
        Duration::from_nanos(self.max)
    }

    /// The largest duration recorded.
    pub fn max(&self) -> Duration {
        Duration::from_nanos(self.max)
    }
}

/// A room's counters since its last reset.
#[derive(Debug)]
pub(crate) struct RoomStats {
    pub move_cost: Histogram,
    pub tick_late: Histogram,
    pub move_cost_ewma_ms: f64,
    pub move_cost_peak_ms: f64,
    pub last_tick_late_ms: f64,
    pub moves: u64,
    pub accepted: u64,
    pub dropped: Drops,
    pub unsent: u64,
    /// Moves handled in the current second, and in the last whole one.
    pub moves_this_s: u32,
    pub moves_last_s: u32,
}

impl RoomStats {
    pub fn new() -> RoomStats {
        RoomStats {
            move_cost: Histogram::default(),
            tick_late: Histogram::default(),
            move_cost_ewma_ms: 0.0,
            move_cost_peak_ms: 0.0,
            last_tick_late_ms: 0.0,
            moves: 0,
            accepted: 0,
            dropped: Drops::default(),
            unsent: 0,
            moves_this_s: 0,
            moves_last_s: 0,
        }
    }

    /// Starts a new measuring window for the percentiles; the counts (moves, accepted,
    /// dropped, unsent), the smoothed cost and its all-time peak carry on.
    pub fn reset(&mut self) {
        self.move_cost = Histogram::default();
        self.tick_late = Histogram::default();
    }

    pub fn record_move(&mut self, cost: Duration) {
        self.move_cost.record(cost);
        let ms = cost.as_secs_f64() * 1e3;
        self.move_cost_ewma_ms += (ms - self.move_cost_ewma_ms) * 0.1;
        self.move_cost_peak_ms = self.move_cost_peak_ms.max(ms);
        self.moves += 1;
        self.moves_this_s += 1;
    }

    pub fn record_tick(&mut self, late: Duration) {
        self.tick_late.record(late);
        self.last_tick_late_ms = late.as_secs_f64() * 1e3;
    }

    /// Counts one dropped input of message type `kind` for `code`.
    pub fn record_drop(&mut self, kind: &'static str, code: &'static str) {
        self.dropped.add(kind, code);
    }
}

/// Room drops by `(message type, code)`: at most [`Drops::KEYS`] pairs, the rest counted
/// together as `(other)`. Keys are static names, so a repeated drop is a lookup and an add,
/// never an allocation, and the report always fits `ServerStats::dropped` (64 keys) with
/// room to spare for the server's and the connections' counters.
#[derive(Debug, Default)]
pub(crate) struct Drops {
    by_key: BTreeMap<(&'static str, &'static str), u32>,
    other: u32,
}

impl Drops {
    /// Distinct `(type, code)` pairs kept.
    pub const KEYS: usize = 24;

    /// Counts one.
    pub fn add(&mut self, kind: &'static str, code: &'static str) {
        if let Some(n) = self.by_key.get_mut(&(kind, code)) {
            *n = n.saturating_add(1);
        } else if self.by_key.len() < Self::KEYS {
            self.by_key.insert((kind, code), 1);
        } else {
            self.other = self.other.saturating_add(1);
        }
    }

    /// `"<type> <code>"` to count, and `"(other)"` when pairs past the cap were dropped:
    /// at most `KEYS + 1` entries.
    pub fn report(&self) -> impl Iterator<Item = (String, u32)> + '_ {
        self.by_key
            .iter()
            .map(|((k, c), n)| (format!("{k} {c}"), *n))
            .chain((self.other > 0).then(|| ("(other)".to_string(), self.other)))
    }
}

/// Resident set size of this process, bytes (Linux; 0 elsewhere).
pub(crate) fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_a_bucket() {
        let mut h = Histogram::default();
        for us in 1..=1000u64 {
            h.record(Duration::from_micros(us));
        }
        let p50 = h.quantile(0.5).as_secs_f64() * 1e6;
        let p95 = h.quantile(0.95).as_secs_f64() * 1e6;
        assert!((500.0..=500.0 * 1.07).contains(&p50), "{p50}");
        assert!((950.0..=950.0 * 1.07).contains(&p95), "{p95}");
        assert_eq!(h.max(), Duration::from_micros(1000));
        assert_eq!(h.quantile(1.0), Duration::from_micros(1000));
    }

    #[test]
    fn small_and_empty() {
        let mut h = Histogram::default();
        assert_eq!(h.quantile(0.5), Duration::ZERO);
        h.record(Duration::from_nanos(3));
        assert_eq!(h.quantile(0.5), Duration::from_nanos(3));
    }

    #[test]
    fn buckets_are_monotonic() {
        let mut last = 0;
        for ns in (0..100_000u64).step_by(7) {
            let i = Histogram::index(ns);
            assert!(i >= last);
            assert!(Histogram::upper(i) >= ns, "{ns}");
            last = i;
        }
    }
}

#[cfg(test)]
mod drop_tests {
    use super::*;

    #[test]
    fn drops_stay_within_their_keys_whatever_comes() {
        let mut d = Drops::default();
        let names: Vec<&'static str> = (0..500)
            .map(|i| &*Box::leak(format!("type{i}").into_boxed_str()))
            .collect();
        for (i, n) in names.iter().enumerate() {
            d.add(n, if i % 2 == 0 { "a" } else { "b" });
        }
        d.add(names[0], "a");
        let report: BTreeMap<String, u32> = d.report().collect();
        assert_eq!(report.len(), Drops::KEYS + 1);
        assert_eq!(report["type0 a"], 2);
        assert_eq!(report["(other)"], 500 - Drops::KEYS as u32);
    }
}
