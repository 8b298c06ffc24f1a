/**
 * The small math of netcode, shared by the interpolator and the reconciler: angles wrapped to
 * one turn, monotone cubic Hermite segments (Fritsch–Carlson, Fritsch–Butland tangents) and
 * frame-rate independent exponential easing. Pure functions; nothing allocates.
 * Mirrors Rust's `tuplet::netcode` (`curves.rs`).
 */

/** One full turn in radians. */
export const TAU: number = 2 * Math.PI;

/** `a` wrapped into [-π, π). */
export function wrapAngle(a: number): number {
  return a - TAU * Math.floor((a + Math.PI) / TAU);
}

/**
 * `a[i]` wrapped into [-π, π), in place: for callers too large for V8 to inline `wrapAngle`
 * into, where a double returned from a call is boxed (garbage on every frame).
 */
export function wrapAngleAt(a: Float64Array, i: number): void {
  a[i] = wrapAngle(a[i]!);
}

/** The shortest signed turn from angle `from` to angle `to`, in [-π, π). */
export function angleDelta(to: number, from: number): number {
  return wrapAngle(to - from);
}

/**
 * The tangent at a sample between a secant `before` (slope into it) and `after` (slope out of
 * it): 0 when they differ in sign or either is 0 (a stop, a turn back), else their mean
 * (Catmull–Rom); `monotoneHermite` limits it further where it would overshoot.
 */
export function monotoneTangent(before: number, after: number): number {
  if (!(before * after > 0)) return 0;
  return 0.5 * (before + after);
}

/**
 * `monotoneTangent` for samples unevenly spaced: the secant `before` over `hBefore` ms and
 * `after` over `hAfter` ms weighted by the other's span (the slope of the parabola through the
 * three samples), so a short segment beside a long one (a relayed stream, a still pose copied
 * before a move) does not bend the curve; 0 at a stop or a turn back, as there.
 */
export function spacedTangent(before: number, hBefore: number, after: number, hAfter: number): number {
  if (!(before * after > 0)) return 0;
  return (hAfter * before + hBefore * after) / (hBefore + hAfter);
}

/**
 * The tangent at the newest sample, whose next neighbour is not known yet: the end slope of a
 * constant acceleration across the segment into it, from the slope `m0` at the sample before to
 * the mean slope `sec` across the segment (`2 · sec − m0`); 0 when that turns against the
 * segment (a stop ahead). Out of rest (`m0` = 0) it is twice the mean, as a ramp from a stop is;
 * on a steady or evenly accelerating path it is the slope the next sample confirms, so the curve
 * under the drawn time changes little when that sample arrives.
 */
export function endTangent(m0: number, sec: number): number {
  const m1 = 2 * sec - m0;
  return m1 * sec > 0 ? m1 : 0;
}

/**
 * The share of a segment of `h` ms that a constant acceleration into a stop or out of rest
 * takes, when the slope at its moving end is more than twice the segment's mean (faster than a
 * monotone cubic follows): `along` is that slope dotted with the segment's change, `dd` the
 * change's square length. `2 · dd / (along · h)`, under 1; 1 when the cubic follows (no ramp).
 */
export function rampShare(along: number, dd: number, h: number): number {
  return dd > 0 && along * h > 2 * dd ? (2 * dd) / (along * h) : 1;
}

/**
 * A cubic Hermite segment from `p0` to `p0 + d` over `h` ms, at `u` in [0, 1], with end slopes
 * `m0`, `m1` (per ms) limited as Fritsch–Carlson does: a flat segment (`d` = 0) stays flat, a
 * slope against the segment's direction is 0, and the two are scaled into the circle of
 * radius 3, so the curve never leaves [p0, p0 + d]. The six numbers come in `hp` (`HP0`, `HD`,
 * `HM0`, `HM1`, `HH`, `HU`) and the value goes to `out[i]`: a double passed to or returned from
 * a call V8 does not inline is boxed (garbage per frame).
 */
export function monotoneHermiteInto(out: Float64Array, i: number, hp: Float64Array): void {
  const p0 = hp[HP0]!;
  const d = hp[HD]!;
  const m0 = hp[HM0]!;
  const m1 = hp[HM1]!;
  const h = hp[HH]!;
  const u = hp[HU]!;
  if (d === 0) {
    out[i] = p0;
    return;
  }
  const sec = d / h;
  let a = m0 / sec;
  let b = m1 / sec;
  if (a < 0) a = 0;
  if (b < 0) b = 0;
  const q = a * a + b * b;
  if (q > 9) {
    const k = 3 / Math.sqrt(q);
    a *= k;
    b *= k;
  }
  const u2 = u * u;
  const u3 = u2 * u;
  // p0 (h00 + h01) = p0; the tangents' terms carry h · m = a · d.
  out[i] = p0 + d * (-2 * u3 + 3 * u2) + a * d * (u3 - 2 * u2 + u) + b * d * (u3 - u2);
}

/** Slots of `monotoneHermiteInto`'s `hp`: the start value, the change, the end slopes, the span, the position. */
export const HP0 = 0;
/** Slot of `hp`: the segment's change `d`. */
export const HD = 1;
/** Slot of `hp`: the slope at the start `m0` (per ms). */
export const HM0 = 2;
/** Slot of `hp`: the slope at the end `m1` (per ms). */
export const HM1 = 3;
/** Slot of `hp`: the span `h` (ms). */
export const HH = 4;
/** Slot of `hp`: the position `u` in [0, 1]. */
export const HU = 5;

const ONE = /*@__PURE__*/ new Float64Array(1);
const ARGS = /*@__PURE__*/ new Float64Array(6);

/** `monotoneHermiteInto`'s value, returned (Rust's `monotone_hermite`). */
export function monotoneHermite(p0: number, d: number, m0: number, m1: number, h: number, u: number): number {
  ARGS[HP0] = p0;
  ARGS[HD] = d;
  ARGS[HM0] = m0;
  ARGS[HM1] = m1;
  ARGS[HH] = h;
  ARGS[HU] = u;
  monotoneHermiteInto(ONE, 0, ARGS);
  return ONE[0]!;
}

/**
 * Exponential easing: the share of the remaining distance to cover in a frame of `dtMs` at
 * `rate` per second, `1 - e^(-rate · dt)`. Two frames of 8 ms cover exactly what one frame of
 * 16 ms does, which a fixed "20% per frame" lerp does not. 0 for a non-positive rate or frame.
 */
export function expEase(rate: number, dtMs: number): number {
  if (!(dtMs > 0) || !(rate > 0)) return 0;
  return 1 - Math.exp(-rate * dtMs * 0.001);
}
