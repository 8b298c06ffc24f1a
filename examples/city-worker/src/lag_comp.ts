/**
 * Lag compensation in the city: a bounded history of the cars as sent (the runtime's `Rewind`,
 * one record per tick), and a driver's collisions resolved against the world as that driver
 * saw it. A view time older than `maxRewindMs` before the newest record is treated as at the
 * cap, so a laggy or lying client gains no unbounded advantage. The same `bumpAgainst` runs in
 * a predicting client on its own history of the snapshots it received.
 */

import { Rewind, type RewindSettings } from "village-protocol/runtime";
import { AI_CAR_MASS, applyOther } from "./collide.js";
import type { InputFrame } from "village-protocol";
import { bumpView, type Body, type City, type Mover, type Player } from "./sim.js";

/** The city's tick, ms. */
const TICK_MS = 50;
/** The default cap on the rewind, ms (a 250 ms link's frames meet views up to about 450 ms old). */
export const MAX_REWIND_MS = 600;
/** The longest horizon a client may run the other cars ahead, ms. */
export const MAX_AHEAD_MS = 500;
/** How far behind the server's newest tick a client draws the world, ms (the city client's interpolation). */
export const INTERP_MS = 100;

/** The history's settings: the city's tick, a cap, up to 256 cars. */
export function historySettings(maxRewindMs = MAX_REWIND_MS): RewindSettings {
  return { tickMs: TICK_MS, maxRewindMs, entities: 256, teleport: 20 };
}

const q = (v: number, s: number): number => Math.round(v * s) / s;
/** A car's channels as sent (cm, 1/64 m/s, mrad): x, y, speed, heading. */
export function carChannels(b: Body, out: number[]): number[] {
  out[0] = q(b.x, 100);
  out[1] = q(b.y, 100);
  out[2] = q(Math.min(60, b.speed), 64);
  out[3] = q(b.heading, 1000);
  return out;
}

const ghost = { x: 0, y: 0, heading: 0, speed: 0 };
const row = new Float64Array(4);
/** The last view `bumpAgainst` asked for: frames of one batch share it, and it is not asked again. */
const cached: { hist: Rewind | undefined; viewMs: number; records: number; views: number } = { hist: undefined, viewMs: Number.NaN, records: -1, views: -1 };

/**
 * Collides `m`'s car with every car of `hist` at `viewMs`, each run `aheadMs` forward along its
 * heading at its speed; `players` holds the ids of players' cars (they stand, mass 0);
 * `onContact(id)` runs right after each contact (`applyOther` gives that car its share).
 * Returns the contacts.
 */
export function bumpAgainst(m: Mover, hist: Rewind, viewMs: number, aheadMs: number, own: number, players: ReadonlySet<number>, onContact?: (id: number) => void): number {
  const c = cached;
  if (!(c.hist === hist && c.viewMs === viewMs && c.records === hist.stats.records && c.views === hist.stats.views)) {
    if (hist.view(viewMs) === undefined) return 0;
    c.hist = hist;
    c.viewMs = viewMs;
    c.records = hist.stats.records;
    c.views = hist.stats.views;
  }
  let n = 0;
  const ahead = Math.max(0, Math.min(MAX_AHEAD_MS, aheadMs)) / 1000;
  for (let i = 0; i < hist.length; i++) {
    const id = hist.id(i);
    if (id === own) continue;
    hist.read(i, row);
    // Too far to touch even after running ahead: no trigonometry.
    const reach = 4 + row[2]! * ahead;
    if (Math.abs(row[0]! - m.car.x) > reach || Math.abs(row[1]! - m.car.y) > reach) continue;
    ghost.speed = row[2]!;
    ghost.heading = row[3]!;
    ghost.x = row[0]! + Math.cos(ghost.heading) * ghost.speed * ahead;
    ghost.y = row[1]! + Math.sin(ghost.heading) * ghost.speed * ahead;
    if (bumpView(m, ghost, players.has(id) ? 0 : AI_CAR_MASS)) {
      n += 1;
      onContact?.(id);
    }
  }
  return n;
}

/** The Worker's side: the history, each player's view times, and the rewound collisions. */
export class LagComp {
  readonly hist: Rewind;
  private readonly scratch: number[] = [];
  private readonly players = new Set<number>();
  private readonly cars = new Map<number, Body>();
  /** Per player and frame (its sequence number modulo 64): the view time, the horizon, and whether the client stamped them. */
  private readonly views = new Map<string, { at: Float64Array; ahead: Float64Array; given: Uint8Array }>();

  constructor(maxRewindMs = MAX_REWIND_MS) {
    this.hist = new Rewind(3, 1, historySettings(maxRewindMs));
  }

  /** Records the cars of `city` after its tick (every AI car, every player's car). */
  record(city: City): void {
    this.hist.record(city.tick, city.tick * TICK_MS);
    this.players.clear();
    this.cars.clear();
    for (const c of city.cars) {
      this.cars.set(c.id, c);
      this.hist.put(c.id, carChannels(c, this.scratch));
    }
    for (const p of city.players.values()) {
      this.players.add(p.car.id);
      this.hist.put(p.car.id, carChannels(p.car, this.scratch));
    }
  }

  /**
   * Notes the view time of frames `first` .. `first + frames.length − 1` of `p`: a frame's own
   * stamp (`view`, the tick the client drew with the fraction to the next, and `ahead`, how far
   * past it the client ran the other cars), or, without one, the newest tick's time less the
   * client's interpolation. `bump` caps either.
   */
  stamp(p: Player, first: number, frames: readonly Pick<InputFrame, "view" | "ahead">[], tick: number): void {
    let v = this.views.get(p.name);
    if (v === undefined) {
      v = { at: new Float64Array(64).fill(Number.NaN), ahead: new Float64Array(64), given: new Uint8Array(64) };
      this.views.set(p.name, v);
    }
    for (let k = 0; k < Math.min(frames.length, 64); k++) {
      const f = frames[k]!;
      const i = (first + k) & 63;
      const given = f.view !== undefined;
      v.at[i] = given ? f.view! * TICK_MS : tick * TICK_MS - INTERP_MS;
      v.ahead[i] = given ? (f.ahead ?? 0) : 0;
      v.given[i] = given ? 1 : 0;
    }
  }

  /** Forgets a player who left. */
  leave(name: string): void {
    this.views.delete(name);
  }

  /** The view time frame `seq` of `p` is resolved at (capped by the history); NaN: the newest record. */
  viewOf(p: Player, seq: number): number {
    return this.views.get(p.name)?.at[seq & 63] ?? Number.NaN;
  }

  /** Whether the view time of frame `seq` of `p` came from the frame's stamp (not the estimate). */
  stamped(p: Player, seq: number): boolean {
    return this.views.get(p.name)?.given[seq & 63] === 1;
  }

  /**
   * Collides `p`'s car, just moved by frame `seq`, with the world as the client saw it: the
   * history at the frame's view time (capped), the cars run `ahead` forward from there (at
   * most MAX_AHEAD_MS), as the client's stamp says; the estimate, not run ahead, without one.
   */
  bumpFrame(p: Player, seq: number): number {
    const v = this.views.get(p.name);
    const i = seq & 63;
    return this.bump(p, v?.at[i] ?? Number.NaN, v?.ahead[i] ?? 0);
  }

  /** Collides `p`'s car with the world at `viewMs` (clamped to the cap); the other AI cars take their impulse now. */
  bump(p: Player, viewMs: number, aheadMs = 0): number {
    if (!p.driving) return 0;
    return bumpAgainst(p, this.hist, viewMs, aheadMs, p.car.id, this.players, this.pushNow);
  }

  /** Gives the live AI car `id` its side of the contact just resolved (one function, no allocation per frame). */
  private readonly pushNow = (id: number): void => {
    const real = this.cars.get(id);
    if (real !== undefined) applyOther(real);
  };
}
