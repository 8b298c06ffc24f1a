//! Lag compensation on the server: the world as a player saw it.
//!
//! A client draws other entities in the past (interpolated at its render time) and its input
//! reaches the server later still. To resolve that player's collisions and interactions
//! against what it saw, the server keeps a bounded history of entity states, one record per
//! tick ([`Rewind::record`], [`Rewind::put`]), and asks for the world at the player's view
//! time ([`Rewind::view`]: the render time its input was stamped with), drawn between the two
//! records around it as a client's interpolator would. The rewind is capped:
//! a view time older than [`RewindSettings::max_rewind_ms`] before the newest record is
//! treated as at the cap, one in the future as the newest record, a non-number as the newest
//! record too (each counted), so a laggy or lying client gains no unbounded advantage.
//!
//! The history is a ring of `ceil(max_rewind_ms / tick_ms) + 2` records of at most
//! [`RewindSettings::entities`] entities each, all allocated in [`Rewind::new`]: recording and
//! viewing allocate nothing. Channels are `linear` positions, then `angle` headings (blended on
//! the shortest arc). The TypeScript runtime's `rewind.ts` is the same algorithm; shared traces
//! hold both to the same views.

use super::reconcile::Layout;
use super::wrap_angle;

/// The constants of [`Rewind`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RewindSettings {
    /// The server's tick, ms: with `max_rewind_ms` it sizes the ring.
    pub tick_ms: f64,
    /// The most the world is rewound behind its newest record, ms. 500 ms covers a 250 ms
    /// round trip plus a render delay of 120–250 ms; Source engine games allow 1 s.
    pub max_rewind_ms: f64,
    /// The most entities one record holds; more are dropped (counted).
    pub entities: usize,
    /// An entity that moved farther than this between two records, metres (its linear
    /// channels), teleported: it is not blended across the jump but taken from the nearer record.
    pub teleport: f64,
}

/// The default settings (see each field).
pub const REWIND_DEFAULTS: RewindSettings = RewindSettings {
    tick_ms: 1000.0 / 60.0,
    max_rewind_ms: 500.0,
    entities: 256,
    teleport: 8.0,
};

/// Counters of one [`Rewind`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RewindStats {
    /// Records made.
    pub records: u64,
    /// Entities not recorded because a record was full.
    pub dropped: u64,
    /// Records whose time did not follow the newest one: the history restarted.
    pub restarts: u64,
    /// Views asked for.
    pub views: u64,
    /// Views older than the cap, answered at the cap.
    pub capped: u64,
    /// Views newer than the newest record, answered at it.
    pub ahead: u64,
    /// Views at a non-number time, answered at the newest record.
    pub invalid: u64,
}

/// A bounded history of entity states and the capped rewind (see the module docs).
#[derive(Debug, Clone)]
pub struct Rewind {
    settings: RewindSettings,
    layout: Layout,
    /// Channels per entity.
    width: usize,
    times: Box<[f64]>,
    ticks: Box<[u32]>,
    counts: Box<[usize]>,
    ids: Box<[u32]>,
    vals: Box<[f64]>,
    /// The slot of the newest record, and how many records are kept.
    head: usize,
    kept: usize,
    out_ids: Box<[u32]>,
    out_vals: Box<[f64]>,
    out_len: usize,
    stats: RewindStats,
}

impl Rewind {
    /// An empty history for entities of `layout`.
    ///
    /// # Panics
    /// If `tick_ms` is not positive or `max_rewind_ms` is negative or not a number.
    pub fn new(layout: Layout, settings: RewindSettings) -> Self {
        assert!(settings.tick_ms > 0.0, "tick_ms must be positive");
        assert!(
            settings.max_rewind_ms >= 0.0,
            "max_rewind_ms must be a non-negative number"
        );
        let slots = (settings.max_rewind_ms / settings.tick_ms).ceil() as usize + 2;
        let width = layout.linear + layout.angle;
        let per = settings.entities;
        Rewind {
            settings,
            layout,
            width,
            times: vec![0.0; slots].into_boxed_slice(),
            ticks: vec![0; slots].into_boxed_slice(),
            counts: vec![0; slots].into_boxed_slice(),
            ids: vec![0; slots * per].into_boxed_slice(),
            vals: vec![0.0; slots * per * width].into_boxed_slice(),
            head: 0,
            kept: 0,
            out_ids: vec![0; per].into_boxed_slice(),
            out_vals: vec![0.0; per * width].into_boxed_slice(),
            out_len: 0,
            stats: RewindStats::default(),
        }
    }

    /// How many records the ring keeps.
    pub fn capacity(&self) -> usize {
        self.times.len()
    }

    /// Records kept.
    pub fn records(&self) -> usize {
        self.kept
    }

    /// The counters.
    pub fn stats(&self) -> &RewindStats {
        &self.stats
    }

    /// The newest record's time, ms.
    pub fn newest_ms(&self) -> Option<f64> {
        (self.kept > 0).then(|| self.times[self.head])
    }

    /// The oldest record's time, ms.
    pub fn oldest_ms(&self) -> Option<f64> {
        (self.kept > 0).then(|| self.times[self.slot_back(self.kept - 1)])
    }

    /// The slot `back` records before the newest.
    fn slot_back(&self, back: usize) -> usize {
        let n = self.times.len();
        (self.head + n - back % n) % n
    }

    /// Starts the record of `tick` at `time_ms` (after the world stepped), overwriting the
    /// oldest when the ring is full; [`put`](Self::put) fills it. A time not after the newest
    /// record's restarts the history (counted).
    pub fn record(&mut self, tick: u32, time_ms: f64) {
        if self.kept > 0 && !(time_ms > self.times[self.head]) {
            self.kept = 0;
            self.stats.restarts += 1;
        }
        self.head = if self.kept == 0 {
            0
        } else {
            (self.head + 1) % self.times.len()
        };
        self.kept = (self.kept + 1).min(self.times.len());
        self.times[self.head] = time_ms;
        self.ticks[self.head] = tick;
        self.counts[self.head] = 0;
        self.stats.records += 1;
    }

    /// Adds entity `id` with its channels to the current record; false when it is full (or
    /// nothing was recorded yet).
    pub fn put(&mut self, id: u32, channels: &[f64]) -> bool {
        let per = self.settings.entities;
        let c = self.counts[self.head];
        if self.kept == 0 || c >= per {
            self.stats.dropped += 1;
            return false;
        }
        let at = self.head * per + c;
        self.ids[at] = id;
        let w = self.width;
        for (k, v) in self.vals[at * w..(at + 1) * w].iter_mut().enumerate() {
            *v = channels.get(k).copied().unwrap_or(0.0);
        }
        self.counts[self.head] = c + 1;
        true
    }

    /// The time a view of `view_ms` is answered at: the newest record's for a non-number or
    /// a time after it, `newest − max_rewind_ms` for an older time, never before the oldest
    /// record. `None` before any record. Counts nothing.
    pub fn clamp(&self, view_ms: f64) -> Option<f64> {
        let newest = self.newest_ms()?;
        let oldest = self.oldest_ms()?;
        let floor = (newest - self.settings.max_rewind_ms).max(oldest);
        Some(if view_ms.is_nan() || view_ms > newest {
            newest
        } else if view_ms < floor {
            floor
        } else {
            view_ms
        })
    }

    /// Rewinds to `view_ms` (clamped as [`clamp`](Self::clamp) says, counted): afterwards
    /// [`len`](Self::len), [`id`](Self::id), [`channels`](Self::channels) and
    /// [`get`](Self::get) give the world at that time. Returns the time used; `None` (an empty
    /// world) before any record.
    pub fn view(&mut self, view_ms: f64) -> Option<f64> {
        self.stats.views += 1;
        self.out_len = 0;
        let newest = self.newest_ms()?;
        if view_ms.is_nan() {
            self.stats.invalid += 1;
        } else if view_ms > newest {
            self.stats.ahead += 1;
        } else if view_ms < newest - self.settings.max_rewind_ms {
            self.stats.capped += 1;
        }
        let at = self.clamp(view_ms)?;
        // The newest record at or before `at`, and the one after it.
        let mut back = 0;
        while back + 1 < self.kept && self.times[self.slot_back(back)] > at {
            back += 1;
        }
        let a = self.slot_back(back);
        let b = (back > 0).then(|| self.slot_back(back - 1));
        match b {
            Some(b) if self.times[a] < at => {
                let t = (at - self.times[a]) / (self.times[b] - self.times[a]);
                self.blend(a, b, t);
            }
            _ => self.copy(a),
        }
        Some(at)
    }

    fn copy(&mut self, a: usize) {
        let (per, w) = (self.settings.entities, self.width);
        let n = self.counts[a];
        self.out_ids[..n].copy_from_slice(&self.ids[a * per..a * per + n]);
        self.out_vals[..n * w].copy_from_slice(&self.vals[a * per * w..(a * per + n) * w]);
        self.out_len = n;
    }

    /// Each entity of record `a` blended toward its state in record `b` by `t`; one absent
    /// from `b`, or teleported between them, taken from the nearer record.
    fn blend(&mut self, a: usize, b: usize, t: f64) {
        let (per, w, l) = (self.settings.entities, self.width, self.layout.linear);
        let (na, nb) = (self.counts[a], self.counts[b]);
        for i in 0..na {
            let id = self.ids[a * per + i];
            // Records usually list entities in the same order: try the same index first.
            let j = if i < nb && self.ids[b * per + i] == id {
                Some(i)
            } else {
                (0..nb).find(|&j| self.ids[b * per + j] == id)
            };
            let va = (a * per + i) * w;
            let out = i * w;
            self.out_ids[i] = id;
            let Some(j) = j else {
                self.out_vals[out..out + w].copy_from_slice(&self.vals[va..va + w]);
                continue;
            };
            let vb = (b * per + j) * w;
            let mut d2 = 0.0;
            for k in 0..l {
                let d = self.vals[vb + k] - self.vals[va + k];
                d2 += d * d;
            }
            if !(d2.sqrt() <= self.settings.teleport) {
                let from = if t < 0.5 { va } else { vb };
                self.out_vals[out..out + w].copy_from_slice(&self.vals[from..from + w]);
                continue;
            }
            for k in 0..w {
                let (x, y) = (self.vals[va + k], self.vals[vb + k]);
                self.out_vals[out + k] = if k < l {
                    x + (y - x) * t
                } else {
                    wrap_angle(x + wrap_angle(y - x) * t)
                };
            }
        }
        self.out_len = na;
    }

    /// Entities in the last view.
    pub fn len(&self) -> usize {
        self.out_len
    }

    /// Whether the last view holds no entity.
    pub fn is_empty(&self) -> bool {
        self.out_len == 0
    }

    /// The id of the `i`th entity of the last view.
    pub fn id(&self, i: usize) -> u32 {
        self.out_ids[..self.out_len][i]
    }

    /// The channels of the `i`th entity of the last view.
    pub fn channels(&self, i: usize) -> &[f64] {
        assert!(i < self.out_len, "index past the view");
        &self.out_vals[i * self.width..(i + 1) * self.width]
    }

    /// The index of entity `id` in the last view.
    pub fn index_of(&self, id: u32) -> Option<usize> {
        self.out_ids[..self.out_len].iter().position(|&x| x == id)
    }

    /// The channels of entity `id` in the last view.
    pub fn get(&self, id: u32) -> Option<&[f64]> {
        Some(self.channels(self.index_of(id)?))
    }

    /// The tick of the newest record.
    pub fn newest_tick(&self) -> Option<u32> {
        (self.kept > 0).then(|| self.ticks[self.head])
    }
}

#[cfg(test)]
#[path = "rewind_tests.rs"]
mod tests;
