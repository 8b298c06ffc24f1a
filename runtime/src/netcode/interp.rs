//! One remote entity's interpolator: a fixed ring of samples drawn at an adaptive delay.

use super::settings::Settings;
use super::timing::StreamTiming;
use std::f64::consts::PI;

/// How many channels of each kind an interpolated value has (known from the schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// Drawn by interpolation with velocity carried (positions, speeds).
    pub linear: usize,
    /// Drawn on the shortest arc, wrapping at ±π (headings in radians).
    pub angle: usize,
    /// Held until the next sample (enum numbers, animation ids, flags, counters).
    pub hold: usize,
}

impl Layout {
    /// All channels.
    pub fn channels(&self) -> usize {
        self.linear + self.angle + self.hold
    }
}

/// What the last frame drew (TypeScript's `InterpState`, same numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum State {
    /// No sample yet.
    Empty = 0,
    /// Between two samples.
    Interpolating = 1,
    /// Past the newest sample, moving on at its velocity (bounded).
    Extrapolating = 2,
    /// Past the extrapolation bound (or before the first sample): standing still.
    Holding = 3,
    /// Jumped: a teleport reached the drawn time, or a long frame gap resynced.
    Snapped = 4,
}

/// `a` wrapped into [-π, π).
pub fn wrap_angle(a: f64) -> f64 {
    let tau = 2.0 * PI;
    a - tau * ((a + PI) / tau).floor()
}

/// One remote entity: a fixed ring of samples (stamped on the sender's clock or a server
/// tick's), drawn at a delay into [`Interpolator::out`]. The twin of TypeScript's
/// `Interpolator`; nothing allocates after [`Interpolator::with_settings`].
#[derive(Debug, Clone)]
pub struct Interpolator {
    layout: Layout,
    settings: Settings,
    /// This entity's timing.
    pub timing: StreamTiming,
    state: State,
    /// The current lag behind our clock (offset + delay, ms).
    pub lag: f64,
    /// The time drawn by the last frame on the samples' clock.
    pub render_time: f64,
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
    prev_state: State,
    last_now: f64,
    pushed: bool,
    recover_rate: f64,
    seg: usize,
}

impl Interpolator {
    /// An interpolator for `layout` with the default settings.
    pub fn new(layout: Layout) -> Self {
        Interpolator::with_settings(layout, Settings::DEFAULT)
    }

    /// An interpolator for `layout` with `settings`.
    pub fn with_settings(layout: Layout, settings: Settings) -> Self {
        let n = layout.channels();
        let moving = layout.linear + layout.angle;
        let cap = settings.ring_size.max(2);
        Interpolator {
            layout,
            settings,
            timing: StreamTiming::new(settings),
            state: State::Empty,
            lag: f64::NAN,
            render_time: f64::NAN,
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
            prev_state: State::Empty,
            last_now: f64::NAN,
            pushed: false,
            recover_rate: 3000.0 / settings.recover_ms,
            seg: 0,
        }
    }

    /// The channel layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The drawn channels after a frame: linear, then angle, then hold.
    pub fn out(&self) -> &[f64] {
        &self.out
    }

    /// What the last frame drew.
    pub fn state(&self) -> State {
        self.state
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
        self.state = State::Empty;
        self.prev_state = State::Empty;
        self.lag = f64::NAN;
        self.render_time = f64::NAN;
        self.last_now = f64::NAN;
        self.pushed = false;
        self.out.fill(0.0);
        self.err.fill(0.0);
    }

    fn slot(&self, j: usize) -> usize {
        (self.head + j) % self.cap
    }

    fn newest_time(&self) -> Option<f64> {
        (self.count > 0).then(|| self.times[self.slot(self.count - 1)])
    }

    /// A sample stamped with the sender's clock (`sent_ms`) that arrived at our `arrived_ms`.
    /// Returns false (and ignores it) when it is not newer than the newest sample.
    pub fn push_sent(&mut self, sent_ms: f64, arrived_ms: f64, channels: &[f64]) -> bool {
        if let Some(t) = self.newest_time() {
            if !(sent_ms > t) {
                return false;
            }
        }
        let silence = self.silence_before(sent_ms);
        self.timing.observe(sent_ms, arrived_ms, !silence);
        if silence {
            self.still_until(sent_ms);
        }
        self.store(sent_ms, channels);
        true
    }

    /// A sample stamped on a clock shared with the drawing side (a server tick), drawn with
    /// [`Interpolator::sample_at`] at a [`super::RenderClock`]'s time.
    pub fn push_at(&mut self, time_ms: f64, channels: &[f64]) -> bool {
        if let Some(t) = self.newest_time() {
            if !(time_ms > t) {
                return false;
            }
        }
        let silence = self.silence_before(time_ms);
        self.timing.observe_time(time_ms, !silence);
        if silence {
            self.still_until(time_ms);
        }
        self.store(time_ms, channels);
        true
    }

    /// Draws the frame at our clock's `now_ms`: the lag moves toward offset + target delay
    /// (growing at most `grow_slew`, relaxing at most `relax_slew`; at once after a frame gap
    /// longer than `resync_gap_ms`), then `now_ms − lag` is drawn.
    pub fn sample(&mut self, now_ms: f64) -> State {
        let s = self.settings;
        let dt = if self.last_now.is_nan() {
            0.0
        } else {
            now_ms - self.last_now
        };
        let gap = dt > s.resync_gap_ms;
        self.last_now = now_ms;
        if self.timing.offset.is_nan() {
            self.state = State::Empty;
            return self.state;
        }
        let want = self.timing.offset + self.timing.target;
        if self.lag.is_nan() || gap || !self.timing.warm() {
            self.lag = want;
        } else if want > self.lag {
            self.lag = want.min(self.lag + s.grow_slew * dt);
        } else {
            self.lag = want.max(self.lag - s.relax_slew * dt);
        }
        self.draw(now_ms - self.lag, dt, gap)
    }

    /// Draws the samples' clock time `render_time_ms` (from a [`super::RenderClock`]).
    pub fn sample_at(&mut self, render_time_ms: f64) -> State {
        let dt = if self.render_time.is_nan() {
            0.0
        } else {
            render_time_ms - self.render_time
        };
        let gap = dt > self.settings.resync_gap_ms;
        self.draw(render_time_ms, dt, gap)
    }

    fn silence_before(&self, time_ms: f64) -> bool {
        if self.count < 2 {
            return false;
        }
        let a = self.slot(self.count - 1);
        let b = self.slot(self.count - 2);
        let iv = self.timing.interval;
        if !iv.is_nan() && time_ms - self.times[a] <= 2.0 * iv {
            return false;
        }
        let n = self.n;
        (0..self.moving).all(|c| self.values[a * n + c] == self.values[b * n + c])
    }

    /// After a silence the entity stood still until about one interval before the sample that
    /// ends it: a copy of the still pose there keeps the silence from becoming one slow glide.
    fn still_until(&mut self, time_ms: f64) {
        let a = self.slot(self.count - 1);
        let iv = self.timing.interval;
        let at = time_ms
            - if iv.is_nan() {
                self.settings.min_delay_ms
            } else {
                iv
            };
        if !(at > self.times[a]) {
            return;
        }
        let n = self.n;
        let mut still = std::mem::take(&mut self.scratch);
        still.copy_from_slice(&self.values[a * n..a * n + n]);
        self.store(at, &still);
        self.scratch = still;
    }

    fn store(&mut self, time_ms: f64, ch: &[f64]) {
        let s = self.settings;
        let n = self.n;
        let lin = self.layout.linear;
        let mv = self.moving;
        let get = |c: usize| ch.get(c).copied().unwrap_or(0.0);
        let mut cut = false;
        let mut prev = None;
        if self.count > 0 {
            let p = self.slot(self.count - 1);
            prev = Some(p);
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
        for c in 0..mv {
            let mut m = 0.0;
            if let (Some(p), false) = (prev, cut) {
                let dtp = time_ms - self.times[p];
                let mut d = self.values[i * n + c] - self.values[p * n + c];
                if c >= lin {
                    d = wrap_angle(d);
                }
                m = d / dtp;
            }
            self.tangents[i * mv + c] = m;
        }
        self.pushed = true;
    }

    /// Draws render time `r` into `out` (`raw` or `scratch`); returns the state, sets `seg`.
    fn eval_at(&mut self, r: f64, into_scratch: bool) -> State {
        let n = self.n;
        let lin = self.layout.linear;
        let mv = self.moving;
        if self.count == 0 {
            return State::Empty;
        }
        let mut out = std::mem::take(if into_scratch {
            &mut self.scratch
        } else {
            &mut self.raw
        });
        let state = 'draw: {
            let mut j = self.count as isize - 1;
            while j >= 0 && self.times[self.slot(j as usize)] > r {
                j -= 1;
            }
            if j < 0 {
                let o = self.slot(0);
                out.copy_from_slice(&self.values[o * n..o * n + n]);
                self.seg = 0;
                break 'draw State::Holding;
            }
            let j = j as usize;
            self.seg = j;
            let a = self.slot(j);
            out[mv..n].copy_from_slice(&self.values[a * n + mv..a * n + n]);
            let ta = self.times[a];
            let next = (j + 1 < self.count).then(|| self.slot(j + 1));
            let b = match next {
                Some(b) if !self.cuts[b] => b,
                _ => {
                    let lim = self.timing.extrapolate_limit();
                    let ex = (r - ta).min(lim);
                    for (c, o) in out.iter_mut().enumerate().take(mv) {
                        let v = self.values[a * n + c] + self.tangents[a * mv + c] * ex;
                        *o = if c >= lin { wrap_angle(v) } else { v };
                    }
                    break 'draw if r - ta <= lim {
                        State::Extrapolating
                    } else {
                        State::Holding
                    };
                }
            };
            let h = self.times[b] - ta;
            let u = (r - ta) / h;
            let u2 = u * u;
            let u3 = u2 * u;
            let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
            let h10 = u3 - 2.0 * u2 + u;
            let h01 = -2.0 * u3 + 3.0 * u2;
            let h11 = u3 - u2;
            for (c, o) in out.iter_mut().enumerate().take(mv) {
                let p0 = self.values[a * n + c];
                let mut d = self.values[b * n + c] - p0;
                if c >= lin {
                    d = wrap_angle(d);
                }
                let sec = d / h;
                let mut m0 = self.tangents[a * mv + c];
                let mut m1 = self.tangents[b * mv + c];
                // Fritsch–Carlson: no overshoot, no backward motion inside a segment.
                if sec == 0.0 {
                    m0 = 0.0;
                    m1 = 0.0;
                } else {
                    let al = m0 / sec;
                    let be = m1 / sec;
                    if al < 0.0 {
                        m0 = 0.0;
                    }
                    if be < 0.0 {
                        m1 = 0.0;
                    }
                    let q = (if al < 0.0 { 0.0 } else { al * al })
                        + (if be < 0.0 { 0.0 } else { be * be });
                    if q > 9.0 {
                        let k = 3.0 / q.sqrt();
                        m0 *= k;
                        m1 *= k;
                    }
                }
                let v = h00 * p0 + h10 * h * m0 + h01 * (p0 + d) + h11 * h * m1;
                *o = if c >= lin { wrap_angle(v) } else { v };
            }
            State::Interpolating
        };
        if into_scratch {
            self.scratch = out;
        } else {
            self.raw = out;
        }
        state
    }

    fn draw(&mut self, r: f64, dt: f64, resync: bool) -> State {
        let mv = self.moving;
        let lin = self.layout.linear;
        let n = self.n;
        let prev_r = self.render_time;
        let mut st = self.eval_at(r, false);
        if st == State::Empty {
            self.state = st;
            return st;
        }
        let seg_slot = self.slot(self.seg);
        let crossed = self.cuts[seg_slot]
            && !prev_r.is_nan()
            && prev_r < self.times[seg_slot]
            && r >= self.times[seg_slot];
        let keep = (-self.recover_rate * dt.max(0.0) * 0.001).exp();
        for e in self.err.iter_mut() {
            *e *= keep;
        }
        if resync || crossed {
            self.err.fill(0.0);
            st = State::Snapped;
        } else if self.pushed
            && !prev_r.is_nan()
            && matches!(self.prev_state, State::Extrapolating | State::Holding)
        {
            self.eval_at(prev_r, true);
            for c in 0..mv {
                let mut d = self.prev_raw[c] - self.scratch[c];
                if c >= lin {
                    d = wrap_angle(d);
                }
                self.err[c] += d;
            }
            self.eval_at(r, false);
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
        self.render_time = r;
        st
    }
}
