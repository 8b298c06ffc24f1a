/**
 * Drawing one time from an interpolator's ring: the curve between two samples, holding at a real
 * sample (past the newest, before the first, before a teleport), the opt-in bounded
 * extrapolation, the teleport snap, and how a jump of the render time is drawn (`resyncBy`).
 * Free functions over a `SampleRing`; times pass as slot indices of a Float64Array (a double
 * passed to a call V8 does not inline is boxed). Mirrors Rust's `interp_draw.rs`.
 */
import type { NetcodeSettings } from "./settings.js";
import { INTERVAL, type StreamTiming } from "./timing.js";
import { HD, HH, HM0, HM1, HP0, HU, monotoneHermiteInto, wrapAngleAt } from "./curves.js";
import type { SampleRing } from "./interp_ring.js";

/** What the last `sample`/`sampleAt` drew. */
export const InterpState = {
  /** No sample yet: `out` holds zeros. */
  Empty: 0,
  /** Between two samples. */
  Interpolating: 1,
  /** Past the newest sample and enough missed intervals: positions move on (opt-in, bounded). */
  Extrapolating: 2,
  /** At a real sample, not between two: past the newest, before the first, waiting for a teleport. */
  Holding: 3,
  /** Jumped: a teleport reached the drawn time, or a long frame gap resynced. */
  Snapped: 4,
} as const;
/** One of `InterpState`'s values. */
export type InterpState = (typeof InterpState)[keyof typeof InterpState];

/** How a frame draws a jump of its render time (`resyncBy`). */
export const Resync = {
  /** No jump: the render time moved on as usual. */
  None: 0,
  /** From what the last frame drew to the new time's curve, eased out within `recoverMs`. */
  Ease: 1,
  /** At once: no blending, no catching up. */
  Snap: 2,
} as const;
/** One of `Resync`'s values. */
export type Resync = (typeof Resync)[keyof typeof Resync];

/**
 * How a frame draws a render time that `jumped` (a resync): after a dry spell (`dry`: the last
 * frame held at the newest sample; a stall ended) it eases over, so recovery converges within
 * about one send interval without a visible jump; after a `frameGap` (a hidden tab) or with
 * samples coming all along it snaps.
 */
export function resyncBy(jumped: boolean, frameGap: boolean, dry: boolean): Resync {
  if (!jumped) return Resync.None;
  return dry && !frameGap ? Resync.Ease : Resync.Snap;
}

/**
 * Draws the time in `t[at]` from `ring` into `out` (no recovery offset) and returns the state;
 * extrapolation waits `extrapolateAfter` of `timing`'s intervals. `hermite` holds
 * `monotoneHermiteInto`'s numbers.
 */
export function evalAt(ring: SampleRing, s: NetcodeSettings, timing: StreamTiming, t: Float64Array, at: number, out: Float64Array, hermite: Float64Array): InterpState {
  const r = t[at]!;
  const n = ring.n;
  const lin = ring.linear;
  const mv = ring.moving;
  const values = ring.values;
  const times = ring.times;
  const tangents = ring.tangents;
  if (ring.count === 0) return InterpState.Empty;
  const j = ring.segmentAt(t, at);
  if (j < 0) {
    const o = ring.slot(0);
    for (let c = 0; c < n; c++) out[c] = values[o * n + c]!;
    return InterpState.Holding;
  }
  const a = ring.slot(j);
  for (let c = 0; c < n; c++) out[c] = values[a * n + c]!;
  const ta = times[a]!;
  if (j + 1 >= ring.count) {
    // past the newest sample: hold, or (opt-in) move positions on after missed intervals
    const iv = timing.v[INTERVAL]!;
    if (!(s.extrapolateMs > 0) || iv !== iv) return InterpState.Holding;
    const ex = r - ta - s.extrapolateAfter * iv;
    if (!(ex > 0) || ex > s.extrapolateMs) return InterpState.Holding;
    for (let c = 0; c < lin; c++) out[c] = out[c]! + tangents[a * mv + c]! * ex;
    return InterpState.Extrapolating;
  }
  const b = ring.slot(j + 1);
  if (ring.cuts[b] === 1) return InterpState.Holding; // a teleport next: wait at this side of it
  const h = times[b]! - ta;
  const u = (r - ta) / h;
  // Into a stop or out of rest faster than a monotone cubic follows (the slope at the moving end
  // over twice the segment's mean, along the position): a constant acceleration over the share
  // `rampShare` of the segment at that end, standing still over the rest.
  const k = Math.min(s.teleportChannels, lin);
  let dd = 0;
  let along0 = 0;
  let along1 = 0;
  let still0 = true;
  let still1 = true;
  for (let c = 0; c < k; c++) {
    const d = values[b * n + c]! - values[a * n + c]!;
    const m0 = tangents[a * mv + c]!;
    const m1 = tangents[b * mv + c]!;
    dd += d * d;
    along0 += m0 * d;
    along1 += m1 * d;
    if (m0 !== 0) still0 = false;
    if (m1 !== 0) still1 = false;
  }
  // rampShare, written out (a double returned from a call V8 does not inline is boxed)
  let ramp = 0; // 1: into a stop, 2: out of rest
  let share = 1;
  if (still1 && !still0 && dd > 0 && along0 * h > 2 * dd) {
    ramp = 1;
    share = (2 * dd) / (along0 * h);
  } else if (still0 && !still1 && dd > 0 && along1 * h > 2 * dd) {
    ramp = 2;
    share = (2 * dd) / (along1 * h);
  }
  const hp = hermite;
  hp[HH] = h;
  hp[HU] = u;
  for (let c = 0; c < mv; c++) {
    const p0 = values[a * n + c]!;
    hp[HD] = values[b * n + c]! - p0;
    if (c >= lin) wrapAngleAt(hp, HD);
    const d = hp[HD]!;
    if (ramp === 1) {
      const v = u < share ? u / share : 1;
      out[c] = p0 + d * v * (2 - v);
    } else if (ramp === 2) {
      const v = u > 1 - share ? (u - 1 + share) / share : 0;
      out[c] = p0 + d * v * v;
    } else {
      hp[HP0] = p0;
      hp[HM0] = tangents[a * mv + c]!;
      hp[HM1] = tangents[b * mv + c]!;
      monotoneHermiteInto(out, c, hp);
    }
    if (c >= lin) wrapAngleAt(out, c);
  }
  return InterpState.Interpolating;
}

/**
 * True when a teleport at or before the time in `t[at]` is newer than the one in `t[done]`, the
 * newest drawn so far (then it goes there).
 */
export function teleportReached(ring: SampleRing, t: Float64Array, at: number, done: number): boolean {
  let newest = NaN;
  for (let j = ring.segmentAt(t, at); j >= 0; j--) {
    const k = ring.slot(j);
    if (ring.cuts[k] === 1) {
      newest = ring.times[k]!;
      break;
    }
  }
  if (newest !== newest) return false;
  const last = t[done]!;
  if (last === last && newest <= last) return false;
  t[done] = newest;
  return true;
}
