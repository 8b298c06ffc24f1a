/**
 * The render clock for server-stamped snapshots (a `world:snapshot`'s `tick * 1000 / rate`):
 * our estimate of the server's clock, minus an adaptive delay, that never jolts. It runs at the
 * server's measured rate (a loaded server's tick runs slow and drifts: its timing follows with
 * `clockRateBlockMs` and `clockRateFollowMs`, and on a jittery link holds to a steadier line,
 * `clockRateSteadyMs`, until the tick's rate departs from it), follows its target faster or
 * slower than that by its distance over `clockFollowMs`, at most `clockSlew` (5%), snaps only
 * when the target is more than `clockSnapMs` away (a first snapshot, a server restart, a hidden
 * tab), and never runs past the newest snapshot (plus `extrapolateMs`).
 *
 * ```ts
 * import { InterpolatedSet, RenderClock } from "./runtime/index.js";
 * const npcs = new InterpolatedSet<number>({ linear: 2, angle: 0, hold: 0 });
 * const clock = new RenderClock();
 * function onSnapshot(snap: { tick: number; entities: { id: number; x: number; y: number }[] }): void {
 *   clock.observe((snap.tick * 1000) / 20, performance.now());
 *   for (const e of snap.entities) npcs.enter(e.id).pushAt((snap.tick * 1000) / 20, [e.x, e.y]);
 * }
 * function frame(now: number): void {
 *   const t = clock.now(now);
 *   for (let i = 0; i < npcs.size; i++) npcs.at(i).sampleAt(t);
 * }
 * ```
 *
 * Mirrors Rust's `tuplet::netcode::RenderClock`.
 */
import { netcodeSettings, type NetcodeSettings } from "./settings.js";
import { LAST_SENT, OFFSET, RATE, StreamTiming, TARGET, followTime, senderNow } from "./timing.js";

// Named slots (doubles in a Float64Array box nothing when stored).
const TIME = 0; // the render time of the last now()
const LAST_NOW = 1; // our clock then
const SLOTS = 2;

/** Server time for drawing tick-stamped snapshots; runs at the server's rate, slews toward its target (at most 5%), snaps past a threshold. */
export class RenderClock {
  /** The settings (defaults: `NETCODE_DEFAULTS`). */
  readonly settings: NetcodeSettings;
  /** The snapshots' timing: offset and rate of the server's clock against ours, interval, lateness. */
  readonly timing: StreamTiming;
  private readonly t = new Float64Array(SLOTS).fill(NaN);
  /** Our clock minus the render time (ms) at the last `now()`. */
  get lag(): number { return this.t[LAST_NOW]! - this.t[TIME]!; }
  /** True when the last `now()` snapped instead of slewing. */
  snapped = false;
  /** How many times the clock snapped. */
  snaps = 0;

  /** A render clock with `settings` over the defaults. */
  constructor(settings?: Partial<NetcodeSettings>) {
    this.settings = netcodeSettings(settings);
    const s = this.settings;
    this.timing = new StreamTiming({ ...s, rateBlockMs: s.clockRateBlockMs, rateFollowMs: s.clockRateFollowMs, rateSteadyMs: s.clockRateSteadyMs });
  }

  /** A snapshot stamped `serverTimeMs` on the server's clock arrived at our `arrivedMs`. */
  observe(serverTimeMs: number, arrivedMs: number): void {
    this.timing.observe(serverTimeMs, arrivedMs, true);
  }

  /** The server-clock time to draw at our clock's `nowMs` (NaN before the first snapshot). */
  now(nowMs: number): number {
    const s = this.settings;
    const tm = this.timing;
    const c = this.t;
    const last = c[LAST_NOW]!;
    const dt = last === last ? nowMs - last : 0;
    c[LAST_NOW] = nowMs;
    this.snapped = false;
    const tv = tm.v;
    if (tv[OFFSET] !== tv[OFFSET]) return NaN;
    const want = senderNow(tv, nowMs) - tv[TARGET]!;
    const time = c[TIME]!;
    const off = Math.abs(want - time - Math.max(dt, 0) / (1 + tv[RATE]!));
    if (time !== time || off > s.clockSnapMs || dt > s.resyncGapMs) {
      if (time === time) {
        this.snaps++;
        this.snapped = true;
      }
      c[TIME] = want;
    } else {
      // Toward the target in proportion to how far it is (`clockFollowMs`), at most `clockSlew`:
      // a jittery target moves the clock's pace little, a far one at the most.
      const slew = Math.min(s.clockSlew, off / s.clockFollowMs);
      followTime(c, TIME, want, dt, tv[RATE]!, slew, slew, s.followBandMs);
    }
    // Never past the newest snapshot (and what extrapolation may add): there every entity
    // holds anyway, and the next snapshot then starts from where the drawing stands.
    const newest = tv[LAST_SENT]! + Math.max(s.extrapolateMs, 0);
    if (c[TIME]! > newest) c[TIME] = newest;
    return c[TIME]!;
  }

  /** Forgets everything (a new connection). */
  reset(): void {
    this.timing.reset();
    this.t.fill(NaN);
    this.snapped = false;
  }
}
