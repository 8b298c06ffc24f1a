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
  /** Our clock minus the render time (ms): offset + delay, as the clock follows it. */
  lag = NaN;
  /** True when the last `now()` snapped instead of slewing. */
  snapped = false;
  /** How many times the clock snapped. */
  snaps = 0;
  private lastNow = NaN;

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
    const dt = this.lastNow === this.lastNow ? nowMs - this.lastNow : 0;
    this.lastNow = nowMs;
    this.snapped = false;
    if (t.offset !== t.offset) return NaN;
    const want = t.offset + t.target;
    if (this.lag !== this.lag || Math.abs(want - this.lag) > s.clockSnapMs || dt > s.resyncGapMs) {
      if (this.lag === this.lag) this.snaps++;
      this.snapped = this.lag === this.lag;
      this.lag = want;
    } else {
      const step = s.clockSlew * Math.max(dt, 0);
      this.lag = want > this.lag ? Math.min(want, this.lag + step) : Math.max(want, this.lag - step);
    }
    return nowMs - this.lag;
  }

  /** Forgets everything (a new connection). */
  reset(): void {
    this.timing.reset();
    this.lag = NaN;
    this.snapped = false;
    this.lastNow = NaN;
  }
}
