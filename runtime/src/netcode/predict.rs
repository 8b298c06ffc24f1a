//! Prediction of nearby entities to "now": the time the server will apply the local input.
//!
//! Remote entities are drawn in the past (interpolated at the render time), while the local
//! avatar is predicted ahead. Near the avatar that gap shows: a car the player rams is not
//! where the screen drew it. An [`Ahead`] runs one nearby entity forward from its
//! interpolated state and last known velocity, through the game's own step
//! ([`Advance::step`]), to the local input's time. When a new sample changes what it predicts
//! from (its basis), the jump between the old prediction (its offset from its start, scaled to
//! the new horizon) and the new one is not drawn: it becomes an offset that eases out (`1 − e^(−rate·Δt)` of it per frame, at most
//! [`AheadSettings::max_frame_ease`] metres a frame). The simulation ([`Ahead::state`], for
//! the game's collisions) is never touched by the easing; a disagreement past
//! [`AheadSettings::snap_above`] snaps.
//!
//! Every buffer is allocated in [`Ahead::new`]; a frame allocates nothing as long as the
//! game's state clones without allocating (`clone_from` of plain numbers). The TypeScript
//! runtime's `predict.ts` is the same algorithm; shared traces hold both to the same drawn
//! channels.

use super::offset::ease_error;
use super::reconcile::Layout;
use super::{exp_ease, wrap_angle};

/// A nearby entity's state as the game steps it: positions, velocity, whatever its step needs.
pub trait Advance: Clone {
    /// One fixed step of the game (`AheadSettings::step_ms` long) at the entity's last known
    /// velocity and input (the same code as the server's, where the game shares it).
    fn step(&mut self);
    /// Writes the drawn channels: `layout.linear` positions, then `layout.angle` headings.
    fn channels(&self, out: &mut [f64]);
}

/// The constants of [`Ahead`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AheadSettings {
    /// The game's fixed step, ms (60 Hz: 16.67). A horizon that is not a whole number of
    /// steps is drawn between the two steps around it.
    pub step_ms: f64,
    /// The most an entity is run ahead, ms: a longer horizon (a stalled render clock, a far
    /// link) is cut to this (counted). 500 ms covers a 250 ms round trip plus the render delay.
    pub max_ahead_ms: f64,
    /// Easing rate, per second: `1 − e^(−rate·Δt)` of the offset goes per frame
    /// (10/s: 86% of a disagreement is gone after 0.2 s).
    pub rate: f64,
    /// The most the easing moves the drawn position in one frame, metres (linear channels):
    /// a large disagreement glides at this pace instead of leaping.
    pub max_frame_ease: f64,
    /// A disagreement farther than this, metres, snaps instead of easing.
    pub snap_above: f64,
    /// A disagreement farther than this, metres, is counted in [`AheadStats::corrections`].
    pub count_above: f64,
}

/// The default settings (see each field).
pub const AHEAD_DEFAULTS: AheadSettings = AheadSettings {
    step_ms: 1000.0 / 60.0,
    max_ahead_ms: 500.0,
    rate: 10.0,
    max_frame_ease: 0.02,
    snap_above: 4.0,
    count_above: 0.04,
};

/// Counters of one [`Ahead`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AheadStats {
    /// Frames predicted.
    pub frames: u64,
    /// Frames whose basis changed (a disagreement measured).
    pub rebases: u64,
    /// Disagreements farther than `count_above`.
    pub corrections: u64,
    /// Disagreements past `snap_above` (snapped).
    pub snaps: u64,
    /// The largest disagreement, metres.
    pub max_disagreement: f64,
    /// Frames whose horizon was cut to `max_ahead_ms`.
    pub capped: u64,
}

/// One nearby entity predicted to the local input's time (see the module docs).
#[derive(Debug, Clone)]
pub struct Ahead<S: Advance> {
    settings: AheadSettings,
    layout: Layout,
    sim: S,
    scratch: S,
    at: Box<[f64]>,
    next: Box<[f64]>,
    raw: Box<[f64]>,
    start: Box<[f64]>,
    prev_raw: Box<[f64]>,
    prev_start: Box<[f64]>,
    error: Box<[f64]>,
    drawn: Box<[f64]>,
    basis: Option<f64>,
    horizon: f64,
    stats: AheadStats,
}

impl<S: Advance> Ahead<S> {
    /// A predictor for one entity; `state` only sizes the buffers (any state of the game).
    pub fn new(state: S, layout: Layout, settings: AheadSettings) -> Self {
        let n = layout.linear + layout.angle;
        let zeros = || vec![0.0; n].into_boxed_slice();
        Ahead {
            settings,
            layout,
            scratch: state.clone(),
            sim: state,
            at: zeros(),
            next: zeros(),
            raw: zeros(),
            start: zeros(),
            prev_raw: zeros(),
            prev_start: zeros(),
            error: zeros(),
            drawn: zeros(),
            basis: None,
            horizon: 0.0,
            stats: AheadStats::default(),
        }
    }

    /// The predicted simulation state after the last frame's whole steps (for the game's
    /// collisions; untouched by the easing).
    pub fn state(&self) -> &S {
        &self.sim
    }

    /// The drawn channels of the last [`frame`](Self::frame).
    pub fn drawn(&self) -> &[f64] {
        &self.drawn
    }

    /// The prediction of the last frame without the easing offset.
    pub fn predicted(&self) -> &[f64] {
        &self.raw
    }

    /// The easing offset per channel (drawn = predicted + error).
    pub fn error(&self) -> &[f64] {
        &self.error
    }

    /// The counters.
    pub fn stats(&self) -> &AheadStats {
        &self.stats
    }

    /// Forgets the basis and the offset: the next frame draws its prediction as is (an
    /// entity that left view and came back, or teleported).
    pub fn reset(&mut self) {
        self.basis = None;
        self.error.fill(0.0);
    }

    /// One drawn frame, `dt_ms` after the last. `start` is the entity's state at `from_ms`
    /// (its interpolated state at the render time, with its last known velocity), `basis` a
    /// stamp of what that velocity came from (the newest sample's time: a change means new
    /// knowledge), `to_ms` the time the server will apply the local input (both on the
    /// server's clock). Returns the drawn channels.
    pub fn frame(&mut self, start: &S, basis: f64, from_ms: f64, to_ms: f64, dt_ms: f64) -> &[f64] {
        let s = self.settings;
        let mut horizon = to_ms - from_ms;
        if !(horizon > 0.0) {
            horizon = 0.0;
        }
        if horizon > s.max_ahead_ms {
            horizon = s.max_ahead_ms;
            self.stats.capped += 1;
        }
        let steps = if s.step_ms > 0.0 {
            horizon / s.step_ms
        } else {
            0.0
        };
        // A horizon a rounding error short of a whole number of steps is that number.
        let whole = (steps + 1e-9).floor();
        let frac = (steps - whole).max(0.0);
        self.sim.clone_from(start);
        for _ in 0..whole as u32 {
            self.sim.step();
        }
        self.sim.channels(&mut self.at);
        let l = self.layout.linear;
        if frac > 0.0 {
            self.scratch.clone_from(&self.sim);
            self.scratch.step();
            self.scratch.channels(&mut self.next);
            for k in 0..self.raw.len() {
                let (a, b) = (self.at[k], self.next[k]);
                self.raw[k] = if k < l {
                    a + (b - a) * frac
                } else {
                    a + wrap_angle(b - a) * frac
                };
            }
        } else {
            self.raw.copy_from_slice(&self.at);
        }
        start.channels(&mut self.start);
        let keep = 1.0 - exp_ease(s.rate, dt_ms);
        ease_error(&mut self.error, l, keep, s.max_frame_ease);
        if self.basis.is_some_and(|b| b != basis) {
            self.rebase(horizon);
        }
        for k in 0..self.drawn.len() {
            self.drawn[k] = self.raw[k] + self.error[k];
            if k >= l {
                self.drawn[k] = wrap_angle(self.drawn[k]);
            }
        }
        self.prev_raw.copy_from_slice(&self.raw);
        self.prev_start.copy_from_slice(&self.start);
        self.basis = Some(basis);
        self.horizon = horizon;
        self.stats.frames += 1;
        &self.drawn
    }

    /// The basis changed: what the last frame predicted, as an offset from its start scaled to
    /// this frame's horizon and put on this frame's start, against the new prediction; the
    /// difference joins the offset (or snaps). After a frame with no horizon there is nothing
    /// to compare: the new prediction is drawn as is.
    fn rebase(&mut self, horizon: f64) {
        if !(self.horizon > 0.0) {
            return;
        }
        self.stats.rebases += 1;
        let ratio = horizon / self.horizon;
        let l = self.layout.linear;
        let mut d2 = 0.0;
        for k in 0..l {
            let was = (self.prev_raw[k] - self.prev_start[k]) * ratio;
            let d = self.start[k] + was - self.raw[k];
            self.next[k] = d;
            d2 += d * d;
        }
        for k in l..self.raw.len() {
            let was = wrap_angle(self.prev_raw[k] - self.prev_start[k]) * ratio;
            self.next[k] = wrap_angle(self.start[k] + was - self.raw[k]);
        }
        let distance = d2.sqrt();
        let snapped = distance > self.settings.snap_above;
        for k in 0..self.error.len() {
            self.error[k] = if snapped {
                0.0
            } else if k < l {
                self.error[k] + self.next[k]
            } else {
                wrap_angle(self.error[k] + self.next[k])
            };
        }
        if distance > self.settings.count_above {
            self.stats.corrections += 1;
        }
        if snapped {
            self.stats.snaps += 1;
        }
        if distance > self.stats.max_disagreement {
            self.stats.max_disagreement = distance;
        }
    }
}

#[cfg(test)]
#[path = "predict_tests.rs"]
mod tests;
