/**
 * A recording's clock: the server time of each snapshot against when it reached the watcher on
 * loopback. Its smoothed inverse (the floor's true clock), its least-squares line and the tick's
 * drift, the arrival of any server time, and the recording re-timed as if the tick ran at
 * another rate (the drift sweep). Used by lab/clock_lab.ts.
 */
import { WorldSnapshot$interp, type NearbyEntity } from "village-protocol";

/** A server tick on the snapshots' clock, ms (`world:snapshot`'s declared rate). */
const TICK_MS = 1000 / WorldSnapshot$interp.rate;

/** A decoded snapshot: its server time (ms), when it left the server side of the link, its entities. */
export interface Snap {
  readonly tick: number;
  readonly time: number;
  readonly at: number;
  readonly entities: readonly NearbyEntity[];
}

/**
 * The server time that reached the watcher (on loopback) at `localMs`, from the recording's
 * arrivals smoothed over ±`half` snapshots: the inverse of a monotone piecewise-linear map.
 */
export function smoothServerClock(snaps: readonly Snap[], half = 20): (localMs: number) => number {
  const n = snaps.length;
  const at = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let k = 0;
    // The mean of (arrival − time) around i, added back to i's time: its smoothed arrival.
    for (let j = Math.max(0, i - half); j <= Math.min(n - 1, i + half); j++, k++) sum += snaps[j]!.at - snaps[j]!.time;
    at[i] = snaps[i]!.time + sum / k;
  }
  for (let i = 1; i < n; i++) at[i] = Math.max(at[i]!, at[i - 1]! + 1e-6);
  return (localMs) => {
    if (localMs <= at[0]!) return snaps[0]!.time + (localMs - at[0]!);
    if (localMs >= at[n - 1]!) return snaps[n - 1]!.time + (localMs - at[n - 1]!);
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (at[mid]! <= localMs) lo = mid;
      else hi = mid;
    }
    const ta = snaps[lo]!.time;
    const tb = snaps[hi]!.time;
    return ta + ((tb - ta) * (localMs - at[lo]!)) / (at[hi]! - at[lo]!);
  };
}

/**
 * The recording's clock as a line: loopback arrival against server time, least squares (the
 * object's tick is longer than declared), through the arrivals' median: the tick's average length.
 */
export function localTime(snaps: readonly Snap[]): (t: number) => number {
  const n = snaps.length;
  let mt = 0;
  let ma = 0;
  for (const s of snaps) {
    mt += s.time / n;
    ma += s.at / n;
  }
  let num = 0;
  let den = 0;
  for (const s of snaps) {
    num += (s.time - mt) * (s.at - ma);
    den += (s.time - mt) ** 2;
  }
  const rate = num / den;
  const res = snaps.map((s) => s.at - ma - rate * (s.time - mt)).sort((x, y) => x - y);
  const mid = res[Math.floor(res.length / 2)]!;
  return (t) => ma + mid + rate * (t - mt);
}

/** How far the object's tick ran off its declared length over a recording (0.026: 2.6% slow). */
export function tickDrift(snaps: readonly Snap[]): number {
  const local = localTime(snaps);
  return (local(1000 * TICK_MS) - local(0)) / 1000 / TICK_MS - 1;
}

/**
 * When server time `t` reached the watcher on loopback: between the recorded arrivals of the
 * snapshots around it (a frame's delay counts from there, so the object's own tick lateness is
 * not in it, and the tick's varying length is).
 */
export function arrivalOf(snaps: readonly Snap[]): (t: number) => number {
  return (t) => {
    let lo = 0;
    let hi = snaps.length - 1;
    if (t <= snaps[0]!.time) return snaps[0]!.at + (t - snaps[0]!.time);
    if (t >= snaps[hi]!.time) return snaps[hi]!.at + (t - snaps[hi]!.time);
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (snaps[mid]!.time <= t) lo = mid;
      else hi = mid;
    }
    const a = snaps[lo]!;
    const b = snaps[hi]!;
    return a.at + ((b.at - a.at) * (t - a.time)) / (b.time - a.time);
  };
}


/**
 * The recording as if the object's tick ran `drift(ms)` slow (0.1: 10% slow; negative: fast)
 * against the watcher's clock, `ms` from the first arrival: each gap between arrivals is
 * stretched by 1 + drift there. Server times and entities are as recorded.
 */
export function retime(snaps: readonly Snap[], drift: (ms: number) => number): Snap[] {
  const out: Snap[] = [];
  let at = snaps[0]?.at ?? 0;
  for (let i = 0; i < snaps.length; i++) {
    const s = snaps[i]!;
    if (i > 0) at += (s.at - snaps[i - 1]!.at) * (1 + drift(snaps[i - 1]!.at - snaps[0]!.at));
    out.push({ ...s, at });
  }
  return out;
}
