/**
 * True trajectories at 1 ms resolution: walkers, turning cars, stop-and-go (with the sender's
 * silence while stopped) and teleports. Positions in metres, speed in m/s.
 */
import { Rng } from "./rng.js";

/** What an entity does. */
export type Kind = "walk" | "car" | "stopgo" | "teleport" | "turn" | "idle";

/** A moment the entity came to rest (or turned back): where, its direction before, until when. */
export interface Stop {
  readonly t: number;
  readonly x: number;
  readonly y: number;
  readonly dx: number;
  readonly dy: number;
  readonly until: number;
}

/** The lab's time origin: truth is kept from `T0` ms. */
export const T0 = -3000;

/** One entity's true path. */
export class Truth {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly speed: Float64Array;
  /** True times (ms) of teleports. */
  readonly teleports: number[] = [];
  /** Stops and 180° turns. */
  readonly stops: Stop[] = [];
  /** 1 at the 1 ms step a teleport lands on: `at` never draws a point between its two sides. */
  private readonly jumps: Uint8Array;
  constructor(readonly kind: Kind, durationMs: number, rng: Rng) {
    const n = durationMs - T0 + 1;
    this.jumps = new Uint8Array(n);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.speed = new Float64Array(n);
    let x = rng.range(-100, 100), y = rng.range(-100, 100), h = rng.range(-Math.PI, Math.PI);
    let v = 0, vWant = 0, turn = 0, accel = 2, change = 0, going = true, nextTeleport = rng.range(4000, 7000);
    for (let i = 0; i < n; i++) {
      const t = i + T0;
      if (t >= change) {
        switch (kind) {
          case "walk":
          case "teleport":
            vWant = rng.range(1.0, 2.2); turn = rng.range(-1, 1); accel = 2; change = t + rng.range(1000, 3000);
            break;
          case "car":
            vWant = rng.range(7, 15); turn = rng.chance(0.5) ? rng.range(-0.7, 0.7) : 0; accel = 4; change = t + rng.range(1500, 4000);
            break;
          case "stopgo":
            going = !going; vWant = going ? rng.range(2.5, 4) : 0; turn = rng.range(-0.6, 0.6); accel = 6;
            change = t + (going ? rng.range(1500, 3500) : rng.range(1000, 2500));
            break;
          case "idle": // long idles between short walks
            going = !going; vWant = going ? rng.range(1.2, 2) : 0; turn = rng.range(-0.5, 0.5); accel = 5;
            change = t + (going ? rng.range(1500, 3000) : rng.range(4000, 8000));
            break;
          case "turn": // back and forth: a sharp 180° turn every 1.5–3 s
            vWant = vWant > 0 ? -rng.range(1.5, 2.5) : rng.range(1.5, 2.5); turn = 0; accel = 12;
            change = t + rng.range(1500, 3000);
            break;
        }
      }
      const dv = vWant - v, step = accel * 0.001, before = v;
      v = Math.abs(dv) <= step ? vWant : v + Math.sign(dv) * step;
      if (before !== 0 && (v === 0 || Math.sign(v) !== Math.sign(before))) {
        const dir = Math.sign(before);
        this.stops.push({ t, x, y, dx: dir * Math.cos(h), dy: dir * Math.sin(h), until: v === 0 ? Infinity : t });
      }
      if (before === 0 && v !== 0 && this.stops.length > 0) (this.stops[this.stops.length - 1] as { until: number }).until = t;
      h += turn * 0.001 * Math.min(1, v / 2);
      x += v * Math.cos(h) * 0.001;
      y += v * Math.sin(h) * 0.001;
      if (kind === "teleport" && t >= nextTeleport) {
        const a = rng.range(-Math.PI, Math.PI), d = rng.range(40, 80);
        x += d * Math.cos(a); y += d * Math.sin(a);
        this.teleports.push(t);
        this.jumps[i] = 1;
        nextTeleport = t + rng.range(6000, 9000);
      }
      this.x[i] = x; this.y[i] = y; this.speed[i] = Math.abs(v);
    }
  }
  private idx(t: number): number {
    return Math.min(Math.max(t - T0, 0), this.x.length - 1);
  }
  /**
   * Position at true time `t`: linear between the 1 ms steps, except across a teleport, which
   * lands at its step (a sender sampling a fraction of a millisecond before it sees where the
   * entity was, not a point between).
   */
  at(t: number, out: { x: number; y: number }): void {
    const f = this.idx(t), i = Math.floor(f), j = Math.min(i + 1, this.x.length - 1), u = this.jumps[j] === 1 ? 0 : f - i;
    out.x = this.x[i]! + (this.x[j]! - this.x[i]!) * u;
    out.y = this.y[i]! + (this.y[j]! - this.y[i]!) * u;
  }
  /** Speed at true time `t`. */
  speedAt(t: number): number {
    return this.speed[Math.round(this.idx(t))]!;
  }
  /** True when a teleport lies in [a, b]. */
  teleportIn(a: number, b: number): boolean {
    for (const t of this.teleports) if (t >= a - 1 && t <= b + 1) return true;
    return false;
  }
}
