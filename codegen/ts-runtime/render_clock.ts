/**
 * The render clock for server-stamped snapshots (a `world:snapshot`'s `tick * 1000 / rate`):
 * our estimate of the server's clock, minus an adaptive delay, that never jolts. Late snapshots
 * move its target; the clock follows at most `clockSlew` (5%) fast or slow, and snaps only when
 * the target is more than `clockSnapMs` away (a first snapshot, a server restart, a hidden tab).
 *
 * ```ts
 * const clock = new RenderClock();
 * onSnapshot((snap) => {
 *   clock.observe(snap.tick * 1000 / 20, performance.now());
 *   for (const e of snap.entities) entities.enter(e.id).pushAt(snap.tick * 1000 / 20, channelsOf(e));
 * });
 * function frame(now: number) {
 *   const t = clock.now(now);
 *   for (let i = 0; i < entities.size; i++) entities.at(i).sampleAt(t);
 * }
 * ```
 *
 * Mirrors Rust's `tuplet::netcode::RenderClock`.
 */

import { NETCODE_DEFAULTS, StreamTiming, type NetcodeSettings } from "./interp.js";

/** Server time for drawing tick-stamped snapshots; slews at most 5%, snaps past a threshold. */
export class RenderClock {
  /** The settings (defaults: `NETCODE_DEFAULTS`). */
  readonly settings: NetcodeSettings;
  /** The snapshots' timing: offset of our clock to the server's, interval, lateness, jitter. */
  readonly timing: StreamTiming;
  // lag, lastNow: doubles in a Float64Array, so storing them boxes nothing
  private readonly t2 = new Float64Array(2).fill(NaN);
  /** Our clock minus the render time (ms): offset + delay, as the clock follows it. */
  get lag(): number { return this.t2[0]!; }
  /** True when the last `now()` snapped instead of slewing. */
  snapped = false;
  /** How many times the clock snapped. */
  snaps = 0;

  /** A render clock with `settings` over the defaults. */
  constructor(settings?: Partial<NetcodeSettings>) {
    this.settings = settings === undefined ? NETCODE_DEFAULTS : { ...NETCODE_DEFAULTS, ...settings };
    this.timing = new StreamTiming(this.settings);
  }

  /** A snapshot stamped `serverTimeMs` on the server's clock arrived at our `arrivedMs`. */
  observe(serverTimeMs: number, arrivedMs: number): void {
    this.timing.observe(serverTimeMs, arrivedMs, true);
  }

  /** The server-clock time to draw at our clock's `nowMs` (NaN before the first snapshot). */
  now(nowMs: number): number {
    const s = this.settings;
    const t = this.timing;
    const c = this.t2;
    const last = c[1]!;
    const dt = last === last ? nowMs - last : 0;
    c[1] = nowMs;
    this.snapped = false;
    const offset = t.v[0]!;
    if (offset !== offset) return NaN;
    const want = offset + t.v[5]!;
    const lag = c[0]!;
    if (lag !== lag || Math.abs(want - lag) > s.clockSnapMs || dt > s.resyncGapMs) {
      if (lag === lag) {
        this.snaps++;
        this.snapped = true;
      }
      c[0] = want;
    } else {
      const step = s.clockSlew * Math.max(dt, 0);
      c[0] = want > lag ? Math.min(want, lag + step) : Math.max(want, lag - step);
    }
    return nowMs - c[0]!;
  }

  /** Forgets everything (a new connection). */
  reset(): void {
    this.timing.reset();
    this.t2.fill(NaN);
    this.snapped = false;
  }
}
