//! One remote entity's interpolator: a fixed ring of samples drawn at an adaptive delay, and
//! only where the entity was: a teleport snaps however late it arrives, curves stay between
//! the samples, and past the newest sample the entity holds there. The twin of TypeScript's
//! `interp.ts`.

use super::curves::{monotone_hermite, spaced_tangent, wrap_angle};
use super::settings::NetcodeSettings;
use super::timing::{follow_time, StreamTiming};

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

/// What the last frame drew (TypeScript's `InterpState`, same numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum InterpState {
    /// No sample yet.
    Empty = 0,
    /// Between two samples.
    Interpolating = 1,
    /// Past the newest sample and enough missed intervals: positions move on (opt-in, bounded).
    Extrapolating = 2,
    /// At a real sample, not between two: past the newest, before the first, before a teleport.
    Holding = 3,
    /// Jumped: a teleport reached the drawn time, or a long frame gap resynced.
    Snapped = 4,
}

/// Which buffer [`Interpolator::eval_at`] draws into.
#[derive(Clone, Copy)]
enum Buf {
    Raw,
    Scratch,
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

/// How a frame draws a jump of its render time ([`resync_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resync {
    /// No jump: the render time moved on as usual.
    None,
    /// From what the last frame drew to the new time's curve, eased out within `recover_ms`.
    Ease,
    /// At once: no blending, no catching up.
    Snap,
}

/// How a frame draws a render time that `jumped` (a resync): after a dry spell (`dry`: the
/// last frame held at the newest sample; a stall ended) it eases over, so recovery converges
/// within about one send interval without a visible jump; after a `frame_gap` (a hidden tab)
/// or with samples coming all along it snaps.
pub fn resync_by(jumped: bool, frame_gap: bool, dry: bool) -> Resync {
    if !jumped {
        Resync::None
    } else if dry && !frame_gap {
        Resync::Ease
    } else {
        Resync::Snap
    }
}

/// One remote entity: a fixed ring of samples (stamped on the sender's clock or a server
/// tick's), drawn at a delay into [`Interpolator::out`]. The twin of TypeScript's
/// `Interpolator`; nothing allocates after [`Interpolator::with_settings`].
#[derive(Debug, Clone)]
pub struct Interpolator {
    layout: ChannelLayout,
    settings: NetcodeSettings,
    /// This entity's timing.
    pub timing: StreamTiming,
    state: InterpState,
    render: f64,
    last_now: f64,
    drawn: f64,
    cut_done: f64,
    /// The shortest step between two samples the sender made (ms).
    step: f64,
    n: usize,
    moving: usize,
    cap: usize,
    times: Vec<f64>,
    values: Vec<f64>,
    tangents: Vec<f64>,
    cuts: Vec<bool>,
    head: usize,
    count: usize,
    out: Vec<f64>,
    raw: Vec<f64>,
    prev_raw: Vec<f64>,
    err: Vec<f64>,
    scratch: Vec<f64>,
    prev_state: InterpState,
    pushed: bool,
    following: bool,
    /// The last frame drew at or past the newest sample: samples stopped coming (a dry spell).
    dry: bool,
    recover_rate: f64,
}

impl Interpolator {
    /// An interpolator for `layout` with the default settings.
    pub fn new(layout: ChannelLayout) -> Self {
        Interpolator::with_settings(layout, NetcodeSettings::DEFAULT)
    }

    /// An interpolator for `layout` with `settings`.
    pub fn with_settings(layout: ChannelLayout, settings: NetcodeSettings) -> Self {
        let n = layout.channels();
        let moving = layout.linear + layout.angle;
        let cap = settings.ring_size.max(2);
        let recover = if settings.recover_ms > 0.0 {
            settings.recover_ms
        } else {
            NetcodeSettings::DEFAULT.recover_ms
        };
        Interpolator {
            layout,
            settings,
            timing: StreamTiming::new(settings),
            state: InterpState::Empty,
            render: f64::NAN,
            last_now: f64::NAN,
            drawn: f64::NAN,
            cut_done: f64::NAN,
            step: f64::NAN,
            n,
            moving,
            cap,
            times: vec![0.0; cap],
            values: vec![0.0; cap * n],
            tangents: vec![0.0; cap * moving],
            cuts: vec![false; cap],
            head: 0,
            count: 0,
            out: vec![0.0; n],
            raw: vec![0.0; n],
            prev_raw: vec![0.0; n],
            err: vec![0.0; moving],
            scratch: vec![0.0; n],
            prev_state: InterpState::Empty,
            pushed: false,
            following: false,
            dry: false,
            // 95% of a difference gone within recover_ms: e^(-3) ≈ 0.05.
            recover_rate: 3000.0 / recover,
        }
    }

    /// The channel layout.
    pub fn layout(&self) -> ChannelLayout {
        self.layout
    }

    /// The settings.
    pub fn settings(&self) -> &NetcodeSettings {
        &self.settings
    }

    /// The drawn channels after a frame: linear, then angle, then hold.
    pub fn out(&self) -> &[f64] {
        &self.out
    }

    /// What the last frame drew.
    pub fn state(&self) -> InterpState {
        self.state
    }

    /// The current lag behind our clock (ms): render time = now − lag.
    pub fn lag(&self) -> f64 {
        self.last_now - self.render
    }

    /// The time drawn by the last frame on the samples' clock (sender or server ms).
    pub fn render_time(&self) -> f64 {
        self.drawn
    }

    /// Samples in the ring.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when the ring holds no sample.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Empties the ring and the timing (the entity left view; reused from a pool).
    pub fn reset(&mut self) {
        self.head = 0;
        self.count = 0;
        self.timing.reset();
        self.state = InterpState::Empty;
        self.prev_state = InterpState::Empty;
        self.render = f64::NAN;
        self.last_now = f64::NAN;
        self.drawn = f64::NAN;
        self.cut_done = f64::NAN;
        self.step = f64::NAN;
        self.pushed = false;
        self.following = false;
        self.dry = false;
        self.out.fill(0.0);
        self.err.fill(0.0);
    }

    fn slot(&self, j: usize) -> usize {
        (self.head + j) % self.cap
    }

    fn newest_time(&self) -> Option<f64> {
        (self.count > 0).then(|| self.times[self.slot(self.count - 1)])
    }

    /// A sample stamped with the sender's own clock: `sent_ms` arrived at our `arrived_ms`.
    /// False (and ignored) when it is not newer than the newest sample.
    pub fn push_sent(&mut self, sent_ms: f64, arrived_ms: f64, channels: &[f64]) -> bool {
        self.push_sent_teleport(sent_ms, arrived_ms, channels, false)
    }

    /// [`Interpolator::push_sent`] with `teleport` true for a jump (a respawn) that snaps
    /// whatever its length.
    pub fn push_sent_teleport(
        &mut self,
        sent_ms: f64,
        arrived_ms: f64,
        channels: &[f64],
        teleport: bool,
    ) -> bool {
        if matches!(self.newest_time(), Some(t) if !(sent_ms > t)) {
            return false;
        }
        let silence = self.silence_before(sent_ms, channels);
        self.timing.observe(sent_ms, arrived_ms, !silence);
        if silence {
            self.still_until(sent_ms);
        } else {
            self.step_seen(sent_ms);
        }
        self.store(sent_ms, channels, teleport);
        true
    }

    /// A sample stamped on a clock shared with the drawing side (a server tick), drawn with
    /// [`Interpolator::sample_at`]. Same rules as [`Interpolator::push_sent`].
    pub fn push_at(&mut self, time_ms: f64, channels: &[f64]) -> bool {
        self.push_at_teleport(time_ms, channels, false)
    }

    /// [`Interpolator::push_at`] with `teleport` true for a jump that snaps.
    pub fn push_at_teleport(&mut self, time_ms: f64, channels: &[f64], teleport: bool) -> bool {
        if matches!(self.newest_time(), Some(t) if !(time_ms > t)) {
            return false;
        }
        let silence = self.silence_before(time_ms, channels);
        self.timing.observe_time(time_ms, !silence);
        if silence {
            self.still_until(time_ms);
        } else {
            self.step_seen(time_ms);
        }
        self.store(time_ms, channels, teleport);
        true
    }

    /// Draws the frame at our clock's `now_ms`: the render time moves on at the sender's rate
    /// and toward the sender's time minus the target delay (further back at most `grow_slew`,
    /// closer at most `relax_slew`; at once after a frame gap or more than `clock_snap_ms`
    /// behind), stops at the newest sample, and is drawn into `out`.
    pub fn sample(&mut self, now_ms: f64) -> InterpState {
        let s = self.settings;
        let dt = if self.last_now.is_nan() {
            0.0
        } else {
            now_ms - self.last_now
        };
        let gap = dt > s.resync_gap_ms;
        self.last_now = now_ms;
        if self.timing.offset().is_nan() {
            self.state = InterpState::Empty;
            return self.state;
        }
        let want = self.timing.sender_now(now_ms) - self.timing.target();
        let r = self.render;
        let newest = self.timing.last_sent();
        // More than `clock_snap_ms` behind it with samples that far ahead (after a stall), it
        // resyncs: the drawing eases over after a dry spell, snaps after a frame gap.
        let resync =
            gap || (!r.is_nan() && want - r > s.clock_snap_ms && newest - r > s.clock_snap_ms);
        let mut next = want;
        if !r.is_nan() && !resync && self.following {
            next = follow_time(r, want, dt, self.timing.rate(), s.grow_slew, s.relax_slew);
            // Time dilation: near the newest sample of a moving entity the render time slows,
            // down to `dilate_min` of its pace with the buffer empty, so a late sample is waited
            // for in motion rather than at a stop; the delay it added relaxes at `relax_slew`.
            let room = newest - r;
            if room < s.dilate_below_ms
                && dt > 0.0
                && !(s.extrapolate_ms > 0.0)
                && self.newest_moves()
            {
                let f = if room > 0.0 {
                    s.dilate_min + (1.0 - s.dilate_min) * room / s.dilate_below_ms
                } else {
                    s.dilate_min
                };
                next = next.min(r + f * dt / (1.0 + self.timing.rate()));
            }
        } else {
            self.following = self.timing.warm();
        }
        if next > newest && !(s.extrapolate_ms > 0.0) {
            next = newest;
        }
        // Behind its target inside a still segment (a silence), it may skip ahead to its end.
        if want > next {
            next = self.skip_still(next, want);
        }
        self.render = next;
        // a recovery eases out on our clock, even while the render time stands
        self.draw(next, dt, resync_by(resync, gap, self.dry))
    }

    /// Draws the samples' clock time `render_time_ms` (from a [`super::RenderClock`]). A step
    /// longer than `resync_gap_ms` resyncs: it eases over after a dry spell (the clock caught
    /// up after a stall), snaps otherwise (a hidden tab).
    pub fn sample_at(&mut self, render_time_ms: f64) -> InterpState {
        let dt = if self.drawn.is_nan() {
            0.0
        } else {
            render_time_ms - self.drawn
        };
        let jumped = dt > self.settings.resync_gap_ms;
        self.draw(render_time_ms, dt, resync_by(jumped, false, self.dry))
    }

    /// `r`, or up to `want` when `r` lies in a segment whose two samples stand at the same place.
    fn skip_still(&self, r: f64, want: f64) -> f64 {
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
    fn newest_moves(&self) -> bool {
        if self.count < 2 {
            return false;
        }
        let (a, b, n) = (self.slot(self.count - 1), self.slot(self.count - 2), self.n);
        !self.cuts[a] && (0..self.moving).any(|c| self.values[a * n + c] != self.values[b * n + c])
    }

    // ---- the ring ----

    /// True when the sender went silent before a sample at `time_ms` with channels `ch`: more
    /// than two intervals passed and the newest sample stood still (equal to the one before),
    /// or the position across the gap moved at under half the pace of the faster of the two
    /// segments before it ([`still_across`]: a relay forwarded the stop pose's repeat but
    /// skipped the pose before it); or, with a single sample, when more than `max_delay_ms`
    /// passed (an entity standing still as it came into view).
    fn silence_before(&self, time_ms: f64, ch: &[f64]) -> bool {
        if self.count < 2 {
            return self.count == 1
                && time_ms - self.times[self.slot(0)] > self.settings.max_delay_ms;
        }
        let a = self.slot(self.count - 1);
        let b = self.slot(self.count - 2);
        let iv = self.timing.interval();
        if !iv.is_nan() && time_ms - self.times[a] <= 2.0 * iv {
            return false;
        }
        let n = self.n;
        let same = (0..self.moving).all(|c| self.values[a * n + c] == self.values[b * n + c]);
        if same || iv.is_nan() || self.cuts[a] {
            return same;
        }
        let k = self.settings.teleport_channels.min(self.layout.linear);
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
    fn step_seen(&mut self, time_ms: f64) {
        if self.count == 0 {
            return;
        }
        let d = time_ms - self.times[self.slot(self.count - 1)];
        if !(d >= self.step) {
            self.step = d;
        }
    }

    /// After a silence the entity stood still until about one of the sender's steps before the
    /// sample that ends it ([`still_lead`]): a copy of the still pose there keeps the silence
    /// from becoming one slow glide.
    fn still_until(&mut self, time_ms: f64) {
        let a = self.slot(self.count - 1);
        let at = time_ms
            - still_lead(
                self.step,
                self.timing.interval(),
                self.settings.min_delay_ms,
            );
        if !(at > self.times[a]) {
            return;
        }
        let n = self.n;
        let mut still = std::mem::take(&mut self.scratch);
        still.copy_from_slice(&self.values[a * n..a * n + n]);
        self.store(at, &still, false);
        self.scratch = still;
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

    fn store(&mut self, time_ms: f64, ch: &[f64], teleport: bool) {
        let s = self.settings;
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
            self.head = (self.head + 1) % self.cap;
            self.count -= 1;
        }
        let i = self.slot(self.count);
        self.count += 1;
        self.times[i] = time_ms;
        self.cuts[i] = cut;
        for c in 0..n {
            self.values[i * n + c] = get(c);
        }
        // The newest sample's tangent is its slope in; the one before it now has both neighbours.
        let p = (self.count > 1 && !cut).then(|| self.slot(self.count - 2));
        let q = match p {
            Some(p) if self.count > 2 && !self.cuts[p] => Some(self.slot(self.count - 3)),
            _ => None,
        };
        for c in 0..mv {
            let into = p.map_or(0.0, |p| self.secant(p, i, c));
            self.tangents[i * mv + c] = into;
            if let Some(p) = p {
                self.tangents[p * mv + c] = match q {
                    Some(q) => spaced_tangent(
                        self.secant(q, p, c),
                        self.times[p] - self.times[q],
                        into,
                        self.times[i] - self.times[p],
                    ),
                    None => into,
                };
            }
        }
        self.pushed = true;
    }

    // ---- drawing ----

    /// The ring position of the newest sample at or before `r`.
    fn segment_at(&self, r: f64) -> Option<usize> {
        (0..self.count)
            .rev()
            .find(|&j| !(self.times[self.slot(j)] > r))
    }

    /// Draws render time `r` into `raw` or `scratch` (no recovery offset); returns the state.
    fn eval_at(&mut self, r: f64, into: Buf) -> InterpState {
        if self.count == 0 {
            return InterpState::Empty;
        }
        let mut out = std::mem::take(match into {
            Buf::Raw => &mut self.raw,
            Buf::Scratch => &mut self.scratch,
        });
        let st = self.eval_into(r, &mut out);
        match into {
            Buf::Raw => self.raw = out,
            Buf::Scratch => self.scratch = out,
        }
        st
    }

    fn eval_into(&self, r: f64, out: &mut [f64]) -> InterpState {
        let s = &self.settings;
        let n = self.n;
        let lin = self.layout.linear;
        let mv = self.moving;
        let Some(j) = self.segment_at(r) else {
            let o = self.slot(0);
            out.copy_from_slice(&self.values[o * n..o * n + n]);
            return InterpState::Holding;
        };
        let a = self.slot(j);
        out.copy_from_slice(&self.values[a * n..a * n + n]);
        let ta = self.times[a];
        if j + 1 >= self.count {
            // past the newest sample: hold, or (opt-in) move positions on after missed intervals
            let iv = self.timing.interval();
            if !(s.extrapolate_ms > 0.0) || iv.is_nan() {
                return InterpState::Holding;
            }
            let ex = r - ta - s.extrapolate_after * iv;
            if !(ex > 0.0) || ex > s.extrapolate_ms {
                return InterpState::Holding;
            }
            for (c, o) in out.iter_mut().enumerate().take(lin) {
                *o += self.tangents[a * mv + c] * ex;
            }
            return InterpState::Extrapolating;
        }
        let b = self.slot(j + 1);
        if self.cuts[b] {
            return InterpState::Holding; // a teleport next: wait at this side of it
        }
        let h = self.times[b] - ta;
        let u = (r - ta) / h;
        for (c, o) in out.iter_mut().enumerate().take(mv) {
            let p0 = self.values[a * n + c];
            let mut d = self.values[b * n + c] - p0;
            if c >= lin {
                d = wrap_angle(d);
            }
            let m0 = self.tangents[a * mv + c];
            let m1 = self.tangents[b * mv + c];
            let v = monotone_hermite(p0, d, m0, m1, h, u);
            *o = if c >= lin { wrap_angle(v) } else { v };
        }
        InterpState::Interpolating
    }

    /// True when a teleport at or before `r` has not been drawn yet (it is marked drawn).
    fn teleport_reached(&mut self, r: f64) -> bool {
        let Some(j) = self.segment_at(r) else {
            return false;
        };
        let Some(k) = (0..=j).rev().map(|j| self.slot(j)).find(|&k| self.cuts[k]) else {
            return false;
        };
        let newest = self.times[k];
        if !self.cut_done.is_nan() && newest <= self.cut_done {
            return false;
        }
        self.cut_done = newest;
        true
    }

    fn draw(&mut self, r: f64, step: f64, resync: Resync) -> InterpState {
        let mv = self.moving;
        let lin = self.layout.linear;
        let n = self.n;
        let prev_r = self.drawn;
        let mut st = self.eval_at(r, Buf::Raw);
        if st == InterpState::Empty {
            self.state = st;
            return st;
        }
        let keep = (-self.recover_rate * step.abs() * 0.001).exp();
        for e in self.err.iter_mut() {
            *e *= keep;
        }
        let teleported = self.teleport_reached(r);
        if resync == Resync::Snap || teleported || prev_r.is_nan() {
            self.err.fill(0.0);
            if !prev_r.is_nan() {
                st = InterpState::Snapped;
            }
        } else if resync == Resync::Ease {
            // A dry spell ended with the render time resynced: from what the last frame drew to
            // this frame's curve, eased out within `recover_ms` (about one send interval).
            for c in 0..mv {
                let d = self.prev_raw[c] - self.raw[c];
                self.err[c] += if c >= lin { wrap_angle(d) } else { d };
            }
        } else if self.pushed
            || (self.prev_state == InterpState::Extrapolating && st != InterpState::Extrapolating)
        {
            // New samples changed the curve (what it says about the previous frame's time,
            // against what that frame drew), or an extrapolation ended (this frame against the
            // last): the difference eases out from here, within `recover_ms`.
            let since = if self.pushed {
                self.eval_at(prev_r, Buf::Scratch);
                &self.scratch
            } else {
                &self.raw
            };
            for (c, (e, &now)) in self.err.iter_mut().zip(since.iter()).enumerate() {
                let d = self.prev_raw[c] - now;
                *e += if c >= lin { wrap_angle(d) } else { d };
            }
        }
        for c in 0..mv {
            if self.err[c].abs() < 1e-9 {
                self.err[c] = 0.0;
            }
            let v = self.raw[c] + self.err[c];
            self.out[c] = if c >= lin { wrap_angle(v) } else { v };
            self.prev_raw[c] = self.raw[c];
        }
        self.out[mv..n].copy_from_slice(&self.raw[mv..n]);
        self.pushed = false;
        self.prev_state = st;
        self.state = st;
        self.dry = r >= self.times[self.slot(self.count - 1)];
        self.drawn = r;
        st
    }
}
