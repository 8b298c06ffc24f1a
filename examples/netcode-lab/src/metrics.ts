/**
 * The lab's measures, per strategy and entity group, from each frame's drawing against the
 * truth at the drawn time:
 * - off-speed: a moving entity (true speed >= 0.5 m/s at the drawn time) drawn more than 30%
 *   off its true speed (the village game's measure);
 * - jank: a moving entity's drawn motion stops (no change since the previous frame);
 * - position error: distance from the truth at the drawn time (p95);
 * - added delay: true now minus the true time drawn (p50, p95), and the strategy's own buffer;
 * - snaps, extrapolated frames, the largest jump (drawn step minus true step over the same
 *   drawn times, outside true teleports).
 * - error at the nominal delay: distance from the truth at (true now − the strategy's delay p50
 *   for that entity over the frames that draw it moving), which keeps counting while a drawing
 *   freezes; its p95 and the largest error at the drawn time;
 * - idle error: the error at the drawn time while the entity truly stands still (p99);
 * - teleports drawn as slides (a frame within 1 s of a teleport drawn more than 2 m from where
 *   the entity was at every time within 300 ms of the drawn time), stops and 180° turns overshot (a frame drawn more than 5 cm past where the
 *   entity stopped or turned, along its direction before).
 * Frames whose drawn times lie within 150 ms of a true teleport, or that snapped, are left out of the speed
 * measures (any strategy shows them as a jump or a glide).
 */
import type { FrameView } from "./sim.js";
import type { Truth } from "./truth.js";
import { Drew } from "./strategies.js";

/** Totals for one strategy over a set of entities and frames. */
export class Tally {
  moving = 0;
  off = 0;
  jank = 0;
  frames = 0;
  extrapolated = 0;
  snaps = 0;
  maxJump = 0;
  /** The drawn (true) time and the true time of the first and last measured frame. */
  firstTt = NaN;
  firstAt = NaN;
  lastTt = NaN;
  lastAt = NaN;
  /** How fast the drawn time ran over the window (1: real time). */
  get rate(): number { return (this.lastTt - this.firstTt) / (this.lastAt - this.firstAt); }
  readonly err: number[] = [];
  readonly delay: number[] = [];
  readonly buffer: number[] = [];
  /** The largest error at the drawn time (m). */
  errMax = 0;
  /** Errors at the drawn time while the entity stood still (m). */
  readonly idleErr: number[] = [];
  /** Per measured frame: drawn x, y, the true now and the entity, for the error at the nominal delay. */
  readonly drawnAt: number[] = [];
  /** Teleports drawn as slides, stops and turns overshot by more than 5 cm ("entity time" keys). */
  readonly slid = new Set<string>();
  readonly overshot = new Set<string>();
  readonly turnedWrong = new Set<string>();
  /** Errors at the nominal delay, once `nominal()` ran. */
  nominalErr: number[] = [];
  /** Computes the error at the nominal delay (the run's delay p50) against `truths`. */
  nominal(truths: readonly Truth[]): void {
    // each entity's own delay p50 (a far entity relayed every 10th move is drawn further back),
    // over the frames that draw it moving: while it stands still its sender may fall silent, and
    // the time drawn then stays at its last sample, so an entity that idles most of the time
    // would get a nominal delay of seconds and every strategy a large error on its walks
    const per = new Map<number, number[]>();
    const still = new Map<number, number[]>();
    for (let i = 0; i < this.drawnAt.length; i += 4) {
      const e = this.drawnAt[i + 3]!, delay = this.delay[i / 4]!;
      const moving = truths[e]!.speedAt(this.drawnAt[i + 2]! - delay) > 0;
      const into = moving ? per : still;
      if (!into.has(e)) into.set(e, []);
      into.get(e)!.push(delay);
    }
    for (const [e, ds] of still) if (!per.has(e)) per.set(e, ds);
    const nominal = new Map([...per].map(([e, ds]) => [e, quantile(ds, 0.5)]));
    const p = { x: 0, y: 0 };
    this.nominalErr = [];
    for (let i = 0; i < this.drawnAt.length; i += 4) {
      const truth = truths[this.drawnAt[i + 3]!]!;
      const d = nominal.get(this.drawnAt[i + 3]!)!;
      truth.at(this.drawnAt[i + 2]! - d, p);
      if (truth.teleportIn(this.drawnAt[i + 2]! - d - 1000, this.drawnAt[i + 2]! - d + 1000)) continue;
      this.nominalErr.push(Math.hypot(this.drawnAt[i]! - p.x, this.drawnAt[i + 1]! - p.y));
    }
  }
  get offShare(): number { return this.moving ? this.off / this.moving : 0; }
  get jankShare(): number { return this.moving ? this.jank / this.moving : 0; }
}

/** The value at quantile `q` of `xs` (sorted copy). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** Measures frames into tallies: one per strategy, for the entities `pick` selects, in `window`. */
export class Meter {
  readonly tallies: Tally[];
  private prev: Float64Array; // per strategy × entity: x, y, tt, valid
  private readonly p = { x: 0, y: 0 };
  constructor(
    strategies: number,
    private readonly entities: number,
    private readonly pick: (e: number) => boolean,
    private readonly window: (trueNow: number) => boolean,
  ) {
    this.tallies = Array.from({ length: strategies }, () => new Tally());
    this.prev = new Float64Array(strategies * entities * 4);
  }
  frame(f: FrameView): void {
    const { p } = this;
    f.strategies.forEach((s, si) => {
      const tl = this.tallies[si]!;
      for (let e = 0; e < this.entities; e++) {
        if (!this.pick(e)) continue;
        const o = (si * this.entities + e) * 4;
        const drew = s.drew[e]!;
        if (drew === Drew.Nothing) { this.prev[o + 3] = 0; continue; }
        const x = s.drawn[e * 3]!, y = s.drawn[e * 3 + 1]!, tt = s.drawn[e * 3 + 2]! - f.skew[e]!;
        const had = this.prev[o + 3] === 1;
        const px = this.prev[o]!, py = this.prev[o + 1]!, ptt = this.prev[o + 2]!;
        this.prev[o] = x; this.prev[o + 1] = y; this.prev[o + 2] = tt; this.prev[o + 3] = 1;
        if (!had || !this.window(f.trueNow) || f.dt <= 0) continue;
        const truth = f.truths[e]!;
        truth.at(tt, p);
        tl.frames++;
        const err = Math.hypot(x - p.x, y - p.y);
        tl.err.push(err);
        if (err > tl.errMax) tl.errMax = err;
        tl.drawnAt.push(x, y, f.trueNow, e);
        if (truth.speedAt(tt) === 0 && truth.speedAt(tt - 300) === 0) tl.idleErr.push(err);
        // a slide: more than 2 m from where the entity was at any time within 300 ms of the drawn time
        for (const tp of truth.teleports) {
          if (!(Math.abs(tt - tp) < 1000 && err > 2) || tl.slid.has(`${e} ${tp}`)) continue;
          let near = false;
          for (let k = -6; k <= 6 && !near; k++) {
            truth.at(tt + 50 * k, p);
            near = Math.hypot(x - p.x, y - p.y) <= 2;
          }
          if (!near) tl.slid.add(`${e} ${tp}`);
        }
        truth.at(tt, p);
        for (const st of truth.stops) {
          if (tt < st.t - 300 || tt > Math.max(st.until, st.t + 300)) continue;
          if ((x - st.x) * st.dx + (y - st.y) * st.dy > 0.05) (st.until - st.t < 50 ? tl.turnedWrong : tl.overshot).add(`${e} ${st.t}`);
        }
        tl.delay.push(f.trueNow - tt);
        const b = s.buffer(e);
        if (b === b) tl.buffer.push(b);
        if (drew === Drew.Extrapolated) tl.extrapolated++;
        if (drew === Drew.Snapped) tl.snaps++;
        // a teleport between the samples around the drawn times (the sender samples every 100 ms)
        const crossed = truth.teleportIn(Math.min(ptt, tt) - 150, Math.max(ptt, tt) + 150);
        if (crossed) continue;
        const vt = truth.speedAt(tt);
        const d = Math.hypot(x - px, y - py);
        // a jump: drawn further in one frame than the entity's true speed carries it
        const jump = d - Math.max(vt, truth.speedAt(ptt)) * f.dt * 0.001;
        if (jump > tl.maxJump) tl.maxJump = jump;
        if (tl.firstTt !== tl.firstTt) { tl.firstTt = tt; tl.firstAt = f.trueNow; }
        tl.lastTt = tt; tl.lastAt = f.trueNow;
        if (drew === Drew.Snapped) continue;
        if (vt < 0.5) continue;
        const vd = (d / f.dt) * 1000;
        tl.moving++;
        if (Math.abs(vd - vt) > 0.3 * vt) tl.off++;
        if (d < 1e-9) tl.jank++;
      }
    });
  }
}
