/**
 * Exponential easing, frame-rate independent: the share of the remaining distance to cover in a
 * frame of `dtMs` milliseconds at `rate` per second, `1 - e^(-rate * dt)`. Two frames of 8 ms
 * cover exactly what one frame of 16 ms does, which a fixed "20% per frame" lerp does not.
 * Mirrors Rust's `tuplet::netcode::exp_ease`.
 */
export function expEase(rate: number, dtMs: number): number {
  if (!(dtMs > 0) || !(rate > 0)) return 0;
  return 1 - Math.exp(-rate * dtMs * 0.001);
}

/**
 * Eases corrections to one's own (predicted) avatar out over time instead of snapping: when the
 * server corrects a value, `correct(shown, corrected)` adds the difference to an offset; each
 * frame `apply(values, dtMs)` shrinks the offset by `expEase(rate, dtMs)` and adds what is left
 * to the simulated values (after collision, so a correction never pushes through a wall).
 * Preallocated; nothing allocates per call. Mirrors Rust's `tuplet::netcode::Easer`.
 */
export class Easer {
  /** The correction still to ease out, per channel (shown minus simulated). */
  readonly offset: Float64Array;
  /** Easing rate per second (10: about 63% of a correction gone in 100 ms, 95% in 300 ms). */
  rate: number;

  /** An easer of `channels` values at `rate` per second. */
  constructor(channels: number, rate = 10) {
    this.offset = new Float64Array(channels);
    this.rate = rate;
  }

  /**
   * A correction arrived: the simulation jumps from `shown` to `corrected`; the drawn value keeps
   * `shown` this frame and eases toward the simulation from now on.
   */
  correct(shown: ArrayLike<number>, corrected: ArrayLike<number>): void {
    const o = this.offset;
    for (let i = 0; i < o.length; i++) o[i] = o[i]! + (shown[i] ?? 0) - (corrected[i] ?? 0);
  }

  /** Shrinks the offset by one frame of `dtMs` and adds it to `values` (in place). */
  apply(values: { [i: number]: number; readonly length: number }, dtMs: number): void {
    const keep = 1 - expEase(this.rate, dtMs);
    const o = this.offset;
    for (let i = 0; i < o.length; i++) {
      const v = o[i]! * keep;
      o[i] = Math.abs(v) < 1e-9 ? 0 : v;
      values[i] = values[i]! + o[i]!;
    }
  }

  /** Drops any correction left. */
  reset(): void {
    this.offset.fill(0);
  }
}
