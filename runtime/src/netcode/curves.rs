//! The small math of netcode, shared by the interpolator and the reconciler: angles wrapped to
//! one turn, monotone cubic Hermite segments (Fritsch–Carlson) and frame-rate independent
//! exponential easing. Pure functions. The twin of TypeScript's `curves.ts`.

use std::f64::consts::{PI, TAU};

/// `a` wrapped into [-π, π).
pub fn wrap_angle(a: f64) -> f64 {
    a - TAU * ((a + PI) / TAU).floor()
}

/// The shortest signed turn from angle `from` to angle `to`, in [-π, π).
pub fn angle_delta(to: f64, from: f64) -> f64 {
    wrap_angle(to - from)
}

/// The tangent at a sample between a secant `before` (slope into it) and `after` (slope out of
/// it): 0 when they differ in sign or either is 0 (a stop, a turn back), else their mean
/// (Catmull–Rom); [`monotone_hermite`] limits it further where it would overshoot.
pub fn monotone_tangent(before: f64, after: f64) -> f64 {
    if !(before * after > 0.0) {
        return 0.0;
    }
    0.5 * (before + after)
}

/// [`monotone_tangent`] for samples unevenly spaced: the secant `before` over `h_before` ms and
/// `after` over `h_after` ms weighted by the other's span (the slope of the parabola through
/// the three samples), so a short segment beside a long one (a relayed stream, a still pose
/// copied before a move) does not bend the curve; 0 at a stop or a turn back, as there.
pub fn spaced_tangent(before: f64, h_before: f64, after: f64, h_after: f64) -> f64 {
    if !(before * after > 0.0) {
        return 0.0;
    }
    (h_after * before + h_before * after) / (h_before + h_after)
}

/// The tangent at the newest sample, whose next neighbour is not known yet: the end slope of a
/// constant acceleration across the segment into it, from the slope `m0` at the sample before
/// to the mean slope `sec` across the segment (`2 · sec − m0`); 0 when that turns against the
/// segment (a stop ahead). Out of rest (`m0` = 0) it is twice the mean, as a ramp from a stop
/// is; on a steady or evenly accelerating path it is the slope the next sample confirms, so the
/// curve under the drawn time changes little when that sample arrives.
pub fn end_tangent(m0: f64, sec: f64) -> f64 {
    let m1 = 2.0 * sec - m0;
    if m1 * sec > 0.0 {
        m1
    } else {
        0.0
    }
}

/// A cubic Hermite segment from `p0` to `p0 + d` over `h` ms, at `u` in [0, 1], with end
/// slopes `m0`, `m1` (per ms) limited as Fritsch–Carlson does: a flat segment (`d` = 0) stays
/// flat, a slope against the segment's direction is 0, and the two are scaled into the circle
/// of radius 3, so the curve never leaves [p0, p0 + d].
pub fn monotone_hermite(p0: f64, d: f64, m0: f64, m1: f64, h: f64, u: f64) -> f64 {
    if d == 0.0 {
        return p0;
    }
    let sec = d / h;
    let mut a = (m0 / sec).max(0.0);
    let mut b = (m1 / sec).max(0.0);
    let q = a * a + b * b;
    if q > 9.0 {
        let k = 3.0 / q.sqrt();
        a *= k;
        b *= k;
    }
    let u2 = u * u;
    let u3 = u2 * u;
    p0 + d * (-2.0 * u3 + 3.0 * u2) + a * d * (u3 - 2.0 * u2 + u) + b * d * (u3 - u2)
}

/// The share of a segment of `h` ms that a constant acceleration into a stop or out of rest
/// takes, when the slope at its moving end is more than twice the segment's mean (faster than a
/// monotone cubic follows): `along` is that slope dotted with the segment's change, `dd` the
/// change's square length. `2 · dd / (along · h)`, under 1; 1 when the cubic follows (no ramp).
pub fn ramp_share(along: f64, dd: f64, h: f64) -> f64 {
    if dd > 0.0 && along * h > 2.0 * dd {
        (2.0 * dd) / (along * h)
    } else {
        1.0
    }
}

/// The share of the remaining distance to cover in a frame of `dt_ms` at `rate` per second:
/// `1 - e^(-rate · dt)`; frame-rate independent. 0 for a non-positive rate or frame.
pub fn exp_ease(rate: f64, dt_ms: f64) -> f64 {
    if !(dt_ms > 0.0) || !(rate > 0.0) {
        return 0.0;
    }
    1.0 - (-rate * dt_ms * 0.001).exp()
}
