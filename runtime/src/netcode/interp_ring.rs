//! An interpolator's ring of samples and the decisions taken as a sample arrives: where a
//! silence began ([`still_lead`], [`still_across`]), the shortest step of the sender, the
//! teleport cut and the tangents each sample gets. The twin of TypeScript's `interp_ring.ts`.

use super::curves::{end_tangent, spaced_tangent, wrap_angle};
use super::settings::NetcodeSettings;

/// How many channels of each kind an interpolated value has (known from the schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChannelLayout {
    /// Drawn by interpolation with velocity carried (positions, speeds).
    pub linear: usize,
    /// Drawn on the shortest arc, wrapping at ±π (headings in radians).
    pub angle: usize,
    /// Held until the next sample (enum numbers, animation ids, flags, counters).
    pub hold: usize,
}

impl ChannelLayout {
    /// All channels.
    pub fn channels(&self) -> usize {
        self.linear + self.angle + self.hold
    }
}

/// How long before the sample that ends a silence the entity started moving (ms): one step of
/// the sender, the shortest seen between its samples (`step`; a relay that forwards every 3rd
/// move still sends a stop and the move after it one step apart), at least a quarter of the
/// average `interval`; the interval alone before any step, `fallback` before either.
pub fn still_lead(step: f64, interval: f64, fallback: f64) -> f64 {
    if interval.is_nan() {
        return if step.is_nan() { fallback } else { step };
    }
    if step.is_nan() {
        interval
    } else {
        interval.min(step.max(interval / 4.0))
    }
}

/// True when a position that moved `before` over `before_ms` and then `after` over the
/// `after_ms` of a gap moved across the gap at under half its pace before: it came to rest in
/// between (a lost or relayed-away stop pose), rather than moving on through lost samples.
pub fn still_across(before: f64, before_ms: f64, after: f64, after_ms: f64) -> bool {
    after * before_ms < 0.5 * before * after_ms
}

/// A fixed ring of samples: times, channels, tangents (per ms, moving channels) and teleport
/// cuts, oldest first from `head`. Nothing allocates after [`SampleRing::new`].
#[derive(Debug, Clone)]
pub(super) struct SampleRing {
    /// The channel layout.
    pub(super) layout: ChannelLayout,
    /// All channels.
    pub(super) n: usize,
    /// Linear + angle channels.
    pub(super) moving: usize,
    cap: usize,
    /// Sample times, by slot.
    pub(super) times: Vec<f64>,
    /// Channels, `n` a slot.
    pub(super) values: Vec<f64>,
    /// Tangents (per ms), `moving` a slot.
    pub(super) tangents: Vec<f64>,
    /// True where a sample jumped (a teleport).
    pub(super) cuts: Vec<bool>,
    head: usize,
    /// Samples in the ring.
    pub(super) count: usize,
    /// The shortest step between two samples the sender made (ms).
    step: f64,
    /// The still pose [`SampleRing::still_until`] copies.
    pose: Vec<f64>,
    /// The render time the last frame drew (NaN before one): a full ring whose oldest sample
    /// that time still needs thins out its densest stretch instead of dropping it (`store`).
    pub(super) keep: f64,
}

impl SampleRing {
    /// An empty ring of `cap` samples for `layout`.
    pub(super) fn new(layout: ChannelLayout, cap: usize) -> Self {
        let n = layout.channels();
        let moving = layout.linear + layout.angle;
        SampleRing {
            layout,
            n,
            moving,
            cap,
            times: vec![0.0; cap],
            values: vec![0.0; cap * n],
            tangents: vec![0.0; cap * moving],
            cuts: vec![false; cap],
            head: 0,
            count: 0,
            step: f64::NAN,
            pose: vec![0.0; n],
            keep: f64::NAN,
        }
    }

    /// Empties the ring and forgets the sender's step.
    pub(super) fn clear(&mut self) {
        self.head = 0;
        self.count = 0;
        self.step = f64::NAN;
        self.keep = f64::NAN;
    }

    /// The slot of ring position `j` (0: the oldest sample).
    pub(super) fn slot(&self, j: usize) -> usize {
        (self.head + j) % self.cap
    }

    /// The newest sample's time.
    pub(super) fn newest_time(&self) -> Option<f64> {
        (self.count > 0).then(|| self.times[self.slot(self.count - 1)])
    }

    /// The ring position of the newest sample at or before `r`.
    pub(super) fn segment_at(&self, r: f64) -> Option<usize> {
        (0..self.count)
            .rev()
            .find(|&j| !(self.times[self.slot(j)] > r))
    }

    /// `r`, or up to `want` when `r` lies in a segment whose two samples stand at the same place.
    pub(super) fn skip_still(&self, r: f64, want: f64) -> f64 {
        let Some(j) = self.segment_at(r) else {
            return r;
        };
        if j + 1 >= self.count {
            return r;
        }
        let (a, b, n) = (self.slot(j), self.slot(j + 1), self.n);
        if (0..self.moving).any(|c| self.values[a * n + c] != self.values[b * n + c]) {
            return r;
        }
        want.min(self.times[b])
    }

    /// True when the newest sample's moving channels differ from the one before (it moves).
    pub(super) fn newest_moves(&self) -> bool {
        if self.count < 2 {
            return false;
        }
        let (a, b, n) = (self.slot(self.count - 1), self.slot(self.count - 2), self.n);
        !self.cuts[a] && (0..self.moving).any(|c| self.values[a * n + c] != self.values[b * n + c])
    }

    /// True when the sender went silent before a sample at `time_ms` with channels `ch`: more
    /// than two intervals (`iv`) passed and the newest sample stood still (equal to the one
    /// before), or the position across the gap moved at under half the pace of the faster of
    /// the two segments before it ([`still_across`]: a relay forwarded the stop pose's repeat
    /// but skipped the pose before it); or, with a single sample, when more than
    /// `max_delay_ms` passed (an entity standing still as it came into view).
    pub(super) fn silence_before(
        &self,
        s: &NetcodeSettings,
        iv: f64,
        time_ms: f64,
        ch: &[f64],
    ) -> bool {
        if self.count < 2 {
            return self.count == 1 && time_ms - self.times[self.slot(0)] > s.max_delay_ms;
        }
        let a = self.slot(self.count - 1);
        let b = self.slot(self.count - 2);
        if !iv.is_nan() && time_ms - self.times[a] <= 2.0 * iv {
            return false;
        }
        let n = self.n;
        let same = (0..self.moving).all(|c| self.values[a * n + c] == self.values[b * n + c]);
        if same || iv.is_nan() || self.cuts[a] {
            return same;
        }
        let k = s.teleport_channels.min(self.layout.linear);
        // the faster of the two segments before the gap (the newest may be creeping to a stop)
        let p = (self.count > 2 && !self.cuts[b]).then(|| self.slot(self.count - 3));
        let (mut before, mut before2, mut after) = (0.0, 0.0, 0.0);
        for c in 0..k {
            let d0 = self.values[a * n + c] - self.values[b * n + c];
            let d2 = p.map_or(0.0, |p| self.values[b * n + c] - self.values[p * n + c]);
            let d1 = ch.get(c).copied().unwrap_or(0.0) - self.values[a * n + c];
            before += d0 * d0;
            before2 += d2 * d2;
            after += d1 * d1;
        }
        let (mut dist, mut span) = (f64::sqrt(before), self.times[a] - self.times[b]);
        if let Some(p) = p {
            let span2 = self.times[b] - self.times[p];
            if f64::sqrt(before2) * span > dist * span2 {
                (dist, span) = (f64::sqrt(before2), span2);
            }
        }
        still_across(dist, span, f64::sqrt(after), time_ms - self.times[a])
    }

    /// Keeps the shortest step from the newest sample to one at `time_ms` (not after a silence).
    pub(super) fn step_seen(&mut self, time_ms: f64) {
        if self.count == 0 {
            return;
        }
        let d = time_ms - self.times[self.slot(self.count - 1)];
        if !(d >= self.step) {
            self.step = d;
        }
    }

    /// After a silence the entity stood still until about one of the sender's steps before the
    /// sample that ends it ([`still_lead`] with the average interval `iv`): a copy of the still
    /// pose there keeps the silence from becoming one slow glide.
    pub(super) fn still_until(&mut self, s: &NetcodeSettings, iv: f64, time_ms: f64) {
        let a = self.slot(self.count - 1);
        let at = time_ms - still_lead(self.step, iv, s.min_delay_ms);
        if !(at > self.times[a]) {
            return;
        }
        let n = self.n;
        let mut still = std::mem::take(&mut self.pose);
        still.copy_from_slice(&self.values[a * n..a * n + n]);
        self.store(s, at, &still, false);
        self.pose = still;
    }

    /// The slope (per ms) of channel `c` from slot `a` to slot `b`, on the shortest arc for angles.
    fn secant(&self, a: usize, b: usize, c: usize) -> f64 {
        let n = self.n;
        let mut d = self.values[b * n + c] - self.values[a * n + c];
        if c >= self.layout.linear {
            d = wrap_angle(d);
        }
        d / (self.times[b] - self.times[a])
    }

    /// Makes room in a full ring. The oldest sample drops out, unless the drawing still needs
    /// it (the render time in `keep` lies before the second oldest: a stall held the drawing
    /// back further than the ring spans at the sender's rate). Then the sample whose neighbours
    /// lie closest together goes instead ([`SampleRing::thin_at`]), so the ring spans a longer
    /// time at a coarser step rather than leave the render time behind its oldest sample, where
    /// the entity could only hold and step with every sample that arrives.
    fn make_room(&mut self) {
        let thin = if self.keep < self.times[self.slot(1)] {
            self.thin_at()
        } else {
            None
        };
        let Some(i) = thin else {
            self.head = (self.head + 1) % self.cap;
            self.count -= 1;
            return;
        };
        // the older samples move up one slot over the one that goes
        let (n, mv) = (self.n, self.moving);
        for j in (1..=i).rev() {
            let (to, from) = (self.slot(j), self.slot(j - 1));
            self.times[to] = self.times[from];
            self.cuts[to] = self.cuts[from];
            self.values.copy_within(from * n..from * n + n, to * n);
            self.tangents
                .copy_within(from * mv..from * mv + mv, to * mv);
        }
        self.head = (self.head + 1) % self.cap;
        self.count -= 1;
        // its two neighbours meet: their tangents see each other (the newest two are never thinned)
        self.middle_tangent(i - 1);
        self.middle_tangent(i);
    }

    /// The ring position to thin out: of the samples between the second oldest and the second
    /// newest, none beside a teleport or standing where a neighbour stands (a stop and its
    /// silence keep their shape), the one whose neighbours lie closest together in time (the
    /// oldest of equals).
    fn thin_at(&self) -> Option<usize> {
        let n = self.n;
        let mut best = None;
        let mut span = f64::INFINITY;
        for j in 2..self.count.saturating_sub(2) {
            let (a, b, c) = (self.slot(j - 1), self.slot(j), self.slot(j + 1));
            if self.cuts[b] || self.cuts[c] {
                continue;
            }
            let moves = |x: usize, y: usize| {
                (0..self.moving).any(|k| self.values[x * n + k] != self.values[y * n + k])
            };
            if !moves(a, b) || !moves(b, c) {
                continue;
            }
            let h = self.times[c] - self.times[a];
            if h < span {
                span = h;
                best = Some(j);
            }
        }
        best
    }

    /// The tangents at ring position `j` from its neighbours (`spaced_tangent`; the slope out of
    /// it when it is the oldest or a teleport cuts it from the one before); unchanged when a
    /// teleport cuts it from the one after.
    fn middle_tangent(&mut self, j: usize) {
        let p = self.slot(j);
        let q = (j >= 1 && !self.cuts[p]).then(|| self.slot(j - 1));
        let i = self.slot(j + 1);
        if self.cuts[i] {
            return;
        }
        let mv = self.moving;
        for c in 0..mv {
            let out = self.secant(p, i, c);
            self.tangents[p * mv + c] = match q {
                Some(q) => spaced_tangent(
                    self.secant(q, p, c),
                    self.times[p] - self.times[q],
                    out,
                    self.times[i] - self.times[p],
                ),
                None => out,
            };
        }
    }

    /// Appends a sample at `time_ms` (room made by [`SampleRing::make_room`] in a full ring), cut
    /// from the one before when `teleport` or when it jumped farther and faster than the
    /// settings allow.
    pub(super) fn store(&mut self, s: &NetcodeSettings, time_ms: f64, ch: &[f64], teleport: bool) {
        let n = self.n;
        let lin = self.layout.linear;
        let mv = self.moving;
        let get = |c: usize| ch.get(c).copied().unwrap_or(0.0);
        let mut cut = teleport;
        if self.count > 0 && !cut {
            let p = self.slot(self.count - 1);
            let k = s.teleport_channels.min(lin);
            let mut d2 = 0.0;
            for c in 0..k {
                let d = get(c) - self.values[p * n + c];
                d2 += d * d;
            }
            let dist = d2.sqrt();
            let dt_s = (time_ms - self.times[p]) * 0.001;
            cut = dist > s.teleport_distance && dist > s.teleport_speed * dt_s;
        }
        if self.count == self.cap {
            self.make_room();
        }
        let i = self.slot(self.count);
        self.count += 1;
        self.times[i] = time_ms;
        self.cuts[i] = cut;
        for c in 0..n {
            self.values[i * n + c] = get(c);
        }
        // The one before the newest now has both neighbours (`middle_tangent`); the newest's
        // tangent ends a constant acceleration from there (`end_tangent`), its slope in when
        // nothing precedes that one; 0 after a teleport.
        if self.count < 2 || cut {
            self.tangents[i * mv..i * mv + mv].fill(0.0);
            return;
        }
        self.middle_tangent(self.count - 2);
        let p = self.slot(self.count - 2);
        for c in 0..mv {
            let into = self.secant(p, i, c);
            self.tangents[i * mv + c] = end_tangent(self.tangents[p * mv + c], into);
        }
    }
}
