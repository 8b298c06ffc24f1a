//! One remote entity's interpolator: a fixed ring of samples drawn at an adaptive delay, and
//! only where the entity was: a teleport snaps however late it arrives, curves stay between
//! the samples, and past the newest sample the entity holds there. Here the type, its pushes
//! and its frames (the render time's course and the recovery easing); the ring and its
//! silences are in `interp_ring.rs`, drawing one time in `interp_draw.rs`. The twin of
//! TypeScript's `interp.ts`.

use super::curves::wrap_angle;
use super::interp_draw::{eval_into, resync_by, teleport_reached, InterpState, Resync};
use super::interp_ring::{ChannelLayout, SampleRing};
use super::settings::NetcodeSettings;
use super::timing::{follow_time, StreamTiming};

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
    ring: SampleRing,
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
            ring: SampleRing::new(layout, settings.ring_size.max(2)),
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
        self.ring.count
    }

    /// True when the ring holds no sample.
    pub fn is_empty(&self) -> bool {
        self.ring.count == 0
    }

    /// Empties the ring and the timing (the entity left view; reused from a pool).
    pub fn reset(&mut self) {
        self.ring.clear();
        self.timing.reset();
        self.state = InterpState::Empty;
        self.prev_state = InterpState::Empty;
        self.render = f64::NAN;
        self.last_now = f64::NAN;
        self.drawn = f64::NAN;
        self.cut_done = f64::NAN;
        self.pushed = false;
        self.following = false;
        self.dry = false;
        self.out.fill(0.0);
        self.err.fill(0.0);
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
        if matches!(self.ring.newest_time(), Some(t) if !(sent_ms > t)) {
            return false;
        }
        let s = &self.settings;
        let silence = self
            .ring
            .silence_before(s, self.timing.interval(), sent_ms, channels);
        self.timing.observe(sent_ms, arrived_ms, !silence);
        if silence {
            self.ring.still_until(s, self.timing.interval(), sent_ms);
        } else {
            self.ring.step_seen(sent_ms);
        }
        self.ring.store(s, sent_ms, channels, teleport);
        self.pushed = true;
        true
    }

    /// A sample stamped on a clock shared with the drawing side (a server tick), drawn with
    /// [`Interpolator::sample_at`]. Same rules as [`Interpolator::push_sent`].
    pub fn push_at(&mut self, time_ms: f64, channels: &[f64]) -> bool {
        self.push_at_teleport(time_ms, channels, false)
    }

    /// [`Interpolator::push_at`] with `teleport` true for a jump that snaps.
    pub fn push_at_teleport(&mut self, time_ms: f64, channels: &[f64], teleport: bool) -> bool {
        if matches!(self.ring.newest_time(), Some(t) if !(time_ms > t)) {
            return false;
        }
        let s = &self.settings;
        let silence = self
            .ring
            .silence_before(s, self.timing.interval(), time_ms, channels);
        self.timing.observe_time(time_ms, !silence);
        if silence {
            self.ring.still_until(s, self.timing.interval(), time_ms);
        } else {
            self.ring.step_seen(time_ms);
        }
        self.ring.store(s, time_ms, channels, teleport);
        self.pushed = true;
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
        let sender = self.timing.sender_now(now_ms);
        let want = sender - self.timing.target();
        let r = self.render;
        let newest = self.timing.last_sent();
        // More than `clock_snap_ms` behind it with samples that far ahead (after a stall), it
        // resyncs: the drawing eases over after a dry spell, snaps after a frame gap.
        let resync =
            gap || (!r.is_nan() && want - r > s.clock_snap_ms && newest - r > s.clock_snap_ms);
        let mut next = want;
        if !r.is_nan() && !resync && self.following {
            let rate = self.timing.rate();
            next = follow_time(
                r,
                want,
                dt,
                rate,
                s.grow_slew,
                s.relax_slew,
                s.follow_band_ms,
            );
            // Time dilation: near the newest sample of a moving entity whose next sample is
            // overdue (later than `overdue_percentile` of recent ones needed) the render time
            // slows, down to `dilate_min` of its pace with the buffer empty, so a late sample is
            // waited for in motion rather than at a stop; the delay it added relaxes at
            // `relax_slew`. A sample on time never slows it: no saw on every interval.
            let room = newest - r;
            let overdue = sender - newest > self.timing.due();
            if overdue
                && room < s.dilate_below_ms
                && dt > 0.0
                && !(s.extrapolate_ms > 0.0)
                && self.ring.newest_moves()
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
            next = self.ring.skip_still(next, want);
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

    fn draw(&mut self, r: f64, step: f64, resync: Resync) -> InterpState {
        let mv = self.ring.moving;
        let lin = self.layout.linear;
        let n = self.ring.n;
        let prev_r = self.drawn;
        let iv = self.timing.interval();
        let mut st = eval_into(&self.ring, &self.settings, iv, r, &mut self.raw);
        if st == InterpState::Empty {
            self.state = st;
            return st;
        }
        let keep = (-self.recover_rate * step.abs() * 0.001).exp();
        for e in self.err.iter_mut() {
            *e *= keep;
        }
        let teleported = teleport_reached(&self.ring, r, &mut self.cut_done);
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
                eval_into(&self.ring, &self.settings, iv, prev_r, &mut self.scratch);
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
        self.dry = self.ring.newest_time().is_some_and(|t| r >= t);
        self.drawn = r;
        self.ring.keep = r;
        st
    }
}
