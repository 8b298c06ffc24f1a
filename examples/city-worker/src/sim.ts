/**
 * The city's simulation: NPCs walking between waypoints, AI cars driving a street grid,
 * players moved by their `input:batch` frames, some of them driving their own car. All of it
 * is deterministic from the city's seed and the inputs (a seeded generator, fixed steps), so
 * every object of one name runs the same city (the lab's JSON twin too).
 */

import type { InputFrame, NearbyEntity } from "village-protocol";
import { AI_CAR_MASS, applyOther, PLAYER_CAR_MASS, resolve, type CarLike } from "./collide.js";

/** A small seeded generator (mulberry32): the same seed gives the same city. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Half the city's width, metres (the village's positions allow ±5000 m). */
export const HALF = 400;
/** Streets run every BLOCK metres in both directions. */
const BLOCK = 50;
/**
 * How far a player sees, metres, and how many of the nearest entities a snapshot holds (the
 * schema allows 50; 32 makes a full JSON snapshot about the 2.8 KB of the game this follows).
 */
export const VIEW_RADIUS = 90;
export const VIEW_MAX = 32;
/**
 * Player slots whose ids come before the NPCs' (a city's default cap): the bodies a player
 * sees most are other players and their cars, and a key up to 127 is one byte on the wire.
 */
export const FIRST_PLAYER_IDS = 50;

/**
 * Entity ids, small because every delta entry carries one (and every JSON update its `id`): with `firstPlayers` = 0, NPCs
 * from 1, then the AI cars, then per player slot two ids (the player, their car); with
 * `firstPlayers` = N, the first N slots' pairs first (ids 1..2N), then the NPCs, the AI cars,
 * and the slots past N.
 */

/** Anything that moves (or stands) in the city. */
export interface Body {
  readonly id: number;
  readonly kind: "Npc" | "Vehicle";
  x: number;
  y: number;
  heading: number;
  speed: number;
  anim: number;
  owner?: string;
  label?: string;
}

interface Npc extends Body {
  tx: number;
  ty: number;
  /** Ticks left standing still. */
  wait: number;
}

/** An AI car, driving or parked. */
export interface Car extends Body {
  /** Cruising speed, m/s (0: parked). */
  cruise: number;
}

/** A connected player: their body, their own car, and what their inputs did. */
export interface Player {
  readonly name: string;
  readonly slot: number;
  readonly body: Body;
  readonly car: Body;
  driving: boolean;
  /** Input frames applied, and the sequence number the next batch should start at. */
  frames: number;
  nextFirst: number;
  /** Batches whose `first` was not the expected one (frames lost or repeated upstream). */
  gaps: number;
}

function wrapAngle(a: number): number {
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a < -Math.PI) a += 2 * Math.PI;
  return a;
}

function clampPos(v: number): number {
  return Math.max(-HALF, Math.min(HALF, v));
}

/** How fast an AI car gets back to its cruising speed after a collision, m/s². */
export const AI_ACCEL = 4;

/** After a collision moved a driver's car: kept inside the city, the driver with it. */
export function settle(p: Mover): void {
  p.car.x = clampPos(p.car.x);
  p.car.y = clampPos(p.car.y);
  if (p.driving) {
    p.body.x = p.car.x;
    p.body.y = p.car.y;
  }
}

/**
 * Collides a driving player's car with one car of a view (a rewound or predicted state, not
 * moved): the player's side of the contact alone. Returns whether they touched.
 */
export function bumpView(p: Mover, other: CarLike, otherMass = AI_CAR_MASS): boolean {
  if (!p.driving || !resolve(p.car, PLAYER_CAR_MASS, other, otherMass)) return false;
  settle(p);
  return true;
}

/** What one input frame moves: a player's body and car, and whether they drive. */
export interface Mover {
  readonly body: Body;
  readonly car: Body;
  driving: boolean;
}

/**
 * Applies one input frame (walking or driving): the step the server runs and a predicting
 * client replays, the same code on both.
 */
export function stepPlayer(p: Mover, f: InputFrame): void {
  const dt = f.dt / 1000;
  const b = f.buttons;
  if (p.driving) {
    const c = p.car;
    const accel = b.forward ? 6 : b.back ? -8 : -1;
    c.speed = Math.max(0, Math.min(30, c.speed + accel * dt));
    if (b.brake) c.speed = Math.max(0, c.speed - 20 * dt);
    c.heading = wrapAngle(c.heading + (f.steer / 100) * 1.2 * dt * Math.min(1, c.speed / 5));
    c.x = clampPos(c.x + Math.cos(c.heading) * c.speed * dt);
    c.y = clampPos(c.y + Math.sin(c.heading) * c.speed * dt);
    c.anim = c.speed > 0 ? 1 : 0;
    p.body.x = c.x;
    p.body.y = c.y;
  } else {
    const s = p.body;
    s.heading = wrapAngle(s.heading + f.look[0]);
    const v = b.forward ? (b.sprint ? 5 : 1.6) : 0;
    s.speed = v;
    s.anim = v === 0 ? 0 : b.sprint ? 2 : 1;
    s.x = clampPos(s.x + Math.cos(s.heading) * v * dt);
    s.y = clampPos(s.y + Math.sin(s.heading) * v * dt);
  }
}

/** The city: NPCs, cars and players, stepped at the tick rate. */
export class City {
  readonly npcs: Npc[] = [];
  readonly cars: Car[] = [];
  readonly players = new Map<string, Player>();
  private readonly rand: () => number;
  private readonly slots: (string | undefined)[] = [];
  /** The first id of the pairs of the slots past `firstPlayers`. */
  private readonly playerBase: number;
  tick = 0;

  constructor(
    seed: number,
    npcs = 160,
    cars = 80,
    private readonly firstPlayers = FIRST_PLAYER_IDS,
  ) {
    this.rand = rng(seed);
    const base = 1 + 2 * firstPlayers;
    this.playerBase = base + npcs + cars;
    const r = this.rand;
    for (let i = 0; i < npcs; i++) {
      // Most NPCs near the centre, where players spawn: a busy square.
      const spread = i < npcs / 2 ? 80 : HALF;
      const x = (r() * 2 - 1) * spread;
      const y = (r() * 2 - 1) * spread;
      this.npcs.push({ id: base + i, kind: "Npc", x, y, heading: 0, speed: 0, anim: 0, tx: x, ty: y, wait: Math.floor(r() * 60) });
    }
    for (let i = 0; i < cars; i++) {
      const horizontal = r() < 0.5;
      const lane = (Math.floor(r() * (2 * HALF / BLOCK)) - HALF / BLOCK) * BLOCK;
      const along = (r() * 2 - 1) * HALF;
      const dir = r() < 0.5 ? 1 : -1;
      const parked = r() < 0.25;
      const cruise = parked ? 0 : 6 + r() * 8;
      const heading = horizontal ? (dir > 0 ? 0 : Math.PI) : dir > 0 ? Math.PI / 2 : -Math.PI / 2;
      this.cars.push({
        id: base + npcs + i,
        kind: "Vehicle",
        x: horizontal ? along : lane,
        y: horizontal ? lane : along,
        heading: wrapAngle(heading),
        speed: cruise,
        anim: 0,
        cruise,
      });
    }
  }

  /** Adds a player at their saved position, or near the centre; their car parked beside them. */
  join(name: string, saved?: { x: number; y: number; heading: number }): Player {
    const old = this.players.get(name);
    if (old) return old;
    let slot = this.slots.indexOf(undefined);
    if (slot < 0) slot = this.slots.push(undefined) - 1;
    this.slots[slot] = name;
    const r = rng(slot * 7919 + 13);
    const x = saved?.x ?? (r() * 2 - 1) * 30;
    const y = saved?.y ?? (r() * 2 - 1) * 30;
    const id = slot < this.firstPlayers ? 1 + 2 * slot : this.playerBase + 2 * (slot - this.firstPlayers);
    const body: Body = { id, kind: "Npc", x, y, heading: saved?.heading ?? 0, speed: 0, anim: 0, label: name };
    const car: Body = { id: id + 1, kind: "Vehicle", x: x + 3, y, heading: 0, speed: 0, anim: 0, owner: name };
    const p: Player = { name, slot, body, car, driving: false, frames: 0, nextFirst: -1, gaps: 0 };
    this.players.set(name, p);
    return p;
  }

  /** Removes a player (their slot is reused). */
  leave(name: string): void {
    const p = this.players.get(name);
    if (!p) return;
    this.players.delete(name);
    this.slots[p.slot] = undefined;
  }

  /** Applies one batch of input frames to a player (walking or driving). */
  input(p: Player, first: number, frames: readonly InputFrame[]): void {
    if (p.nextFirst >= 0 && first !== p.nextFirst) p.gaps += 1;
    p.nextFirst = first + frames.length;
    for (const f of frames) {
      p.frames += 1;
      stepPlayer(p, f);
    }
  }

  /** `vehicle:enter` of the player's own car (it must be within 6 m); returns whether they sat down. */
  enter(p: Player, vehicle: number): boolean {
    if (vehicle !== p.car.id || p.driving) return false;
    if (Math.hypot(p.car.x - p.body.x, p.car.y - p.body.y) > 6) return false;
    p.driving = true;
    return true;
  }

  /** One 50 ms step of everything the server drives. */
  step(): void {
    this.tick += 1;
    const r = this.rand;
    const dt = 0.05;
    for (const n of this.npcs) {
      if (n.wait > 0) {
        n.wait -= 1;
        if (n.speed !== 0) {
          n.speed = 0;
          n.anim = 0;
        }
        continue;
      }
      const dx = n.tx - n.x;
      const dy = n.ty - n.y;
      const d = Math.hypot(dx, dy);
      if (d < 0.5) {
        n.wait = 20 + Math.floor(r() * 100);
        n.tx = clampPos(n.x + (r() * 2 - 1) * 25);
        n.ty = clampPos(n.y + (r() * 2 - 1) * 25);
        continue;
      }
      n.speed = 1.4;
      n.anim = 1;
      n.heading = Math.atan2(dy, dx);
      const s = Math.min(d, n.speed * dt);
      n.x += (dx / d) * s;
      n.y += (dy / d) * s;
    }
    for (const c of this.cars) {
      // Back to cruising speed (or to a stop, parked) at AI_ACCEL after a collision.
      c.speed = c.speed < c.cruise ? Math.min(c.cruise, c.speed + AI_ACCEL * dt) : Math.max(c.cruise, c.speed - AI_ACCEL * dt);
      if (c.speed === 0) {
        c.anim = 0;
        continue;
      }
      c.anim = 1;
      const ox = c.x;
      const oy = c.y;
      c.x += Math.cos(c.heading) * c.speed * dt;
      c.y += Math.sin(c.heading) * c.speed * dt;
      // At a crossing (a multiple of BLOCK passed), turn left or right now and then.
      const crossed = Math.floor(ox / BLOCK) !== Math.floor(c.x / BLOCK) || Math.floor(oy / BLOCK) !== Math.floor(c.y / BLOCK);
      if (crossed && r() < 0.3) {
        c.x = Math.round(c.x / BLOCK) * BLOCK;
        c.y = Math.round(c.y / BLOCK) * BLOCK;
        c.heading = wrapAngle(c.heading + (r() < 0.5 ? Math.PI / 2 : -Math.PI / 2));
      }
      if (Math.abs(c.x) > HALF || Math.abs(c.y) > HALF) {
        c.x = clampPos(c.x);
        c.y = clampPos(c.y);
        c.heading = wrapAngle(c.heading + Math.PI);
      }
    }
    this.collideTraffic();
  }

  /**
   * The world's collisions after its step: AI cars with each other (both moved), and AI cars
   * with players' cars (only the AI car moves: a player's car is moved by its own inputs alone,
   * `bumpPresent` or a rewound view, so its client can predict it).
   */
  private collideTraffic(): void {
    const cars = this.cars;
    for (let i = 0; i < cars.length; i++) {
      const a = cars[i]!;
      for (let j = i + 1; j < cars.length; j++) {
        const b = cars[j]!;
        if (resolve(a, AI_CAR_MASS, b, AI_CAR_MASS)) applyOther(b);
      }
      for (const q of this.players.values()) resolve(a, AI_CAR_MASS, q.car, 0);
      a.x = clampPos(a.x);
      a.y = clampPos(a.y);
    }
  }

  /**
   * Collides a driving player's car with the world as it is now (no lag compensation): AI
   * cars take their share of the impulse, other players' cars stand. Returns the contacts.
   */
  bumpPresent(p: Player): number {
    if (!p.driving) return 0;
    let n = 0;
    for (const c of this.cars) {
      if (resolve(p.car, PLAYER_CAR_MASS, c, AI_CAR_MASS)) {
        applyOther(c);
        n += 1;
      }
    }
    for (const q of this.players.values()) if (q !== p && resolve(p.car, PLAYER_CAR_MASS, q.car, 0)) n += 1;
    settle(p);
    return n;
  }

  /** Every body this tick, as entities (shared by every viewer: built once per tick). */
  private frame: { tick: number; bodies: Body[]; xs: Float64Array; ys: Float64Array; ents: (NearbyEntity | undefined)[] } | undefined;
  private keys = new Float64Array(512);

  private bodies(): NonNullable<City["frame"]> {
    if (this.frame?.tick === this.tick) return this.frame;
    const bodies: Body[] = [...this.npcs, ...this.cars];
    for (const q of this.players.values()) {
      if (!q.driving) bodies.push(q.body);
      bodies.push(q.car);
    }
    const xs = new Float64Array(bodies.length);
    const ys = new Float64Array(bodies.length);
    for (let i = 0; i < bodies.length; i++) {
      xs[i] = bodies[i]!.x;
      ys[i] = bodies[i]!.y;
    }
    this.frame = { tick: this.tick, bodies, xs, ys, ents: new Array(bodies.length) };
    return this.frame;
  }

  /**
   * What `p` sees: the nearest bodies within the view radius, at most VIEW_MAX, itself
   * included. Call it after `step` (the bodies are read once per tick).
   */
  view(p: Player): NearbyEntity[] {
    const f = this.bodies();
    const cx = p.body.x;
    const cy = p.body.y;
    const r2 = VIEW_RADIUS * VIEW_RADIUS;
    if (this.keys.length < f.bodies.length) this.keys = new Float64Array(f.bodies.length * 2);
    // Distance² in whole cm² in the high part, the body's index in the low 12 bits: one
    // native numeric sort orders by distance, then index.
    let n = 0;
    for (let i = 0; i < f.bodies.length; i++) {
      const dx = f.xs[i]! - cx;
      const dy = f.ys[i]! - cy;
      const d = dx * dx + dy * dy;
      if (d <= r2) this.keys[n++] = Math.floor(d * 100) * 4096 + i;
    }
    const keys = this.keys.subarray(0, n);
    // Only the nearest VIEW_MAX are sent: select them, then sort those alone.
    const m = Math.min(n, VIEW_MAX);
    if (n > m) selectSmallest(keys, m);
    keys.subarray(0, m).sort();
    const out: NearbyEntity[] = [];
    for (let j = 0; j < m; j++) {
      const i = keys[j]! % 4096;
      out.push((f.ents[i] ??= entityOf(f.bodies[i]!)));
    }
    return out;
  }
}

/**
 * Moves the `k` smallest of `a` (distinct numbers) to its front, in no particular order
 * (Hoare's quickselect, middle pivot).
 */
function selectSmallest(a: Float64Array, k: number): void {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    // [lo, j] <= pivot <= [i, hi]; keep the side that holds position k - 1.
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/** A body as the village's `NearbyEntity` (natural units: metres, radians, m/s). */
export function entityOf(b: Body): NearbyEntity {
  const e: NearbyEntity = {
    id: b.id,
    kind: b.kind,
    pos: [b.x, b.y, 0],
    heading: b.heading,
    speed: Math.min(60, b.speed),
    anim: b.anim,
  };
  if (b.owner !== undefined) e.owner = b.owner;
  if (b.label !== undefined) e.label = b.label;
  return e;
}
