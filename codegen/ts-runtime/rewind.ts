/**
 * Lag compensation on the server: the world as a player saw it (the Rust runtime's
 * `tuplet::netcode::rewind`, the same algorithm; shared traces hold both to the same views).
 *
 * The server keeps a bounded history of entity states, one record per tick (`record`, `put`),
 * and asks for the world at a player's view time (`view`: the render time its input was
 * stamped with), blended between the two records around it. The rewind is capped: a view time
 * older than `maxRewindMs` before the newest record is treated as at the cap, one in the future
 * or a non-number as the newest record (each counted), so a laggy or lying client gains no
 * unbounded advantage. The ring holds `ceil(maxRewindMs / tickMs) + 2` records of at most
 * `entities` entities, all allocated in the constructor.
 */

import { wrapAngle } from "./curves.js";

/** The constants of `Rewind` (the Rust `RewindSettings`). */
export interface RewindSettings {
  /** The server's tick, ms: with `maxRewindMs` it sizes the ring. */
  readonly tickMs: number;
  /** The most the world is rewound behind its newest record, ms. */
  readonly maxRewindMs: number;
  /** The most entities one record holds; more are dropped (counted). */
  readonly entities: number;
  /** An entity that moved farther than this between two records, metres, is not blended. */
  readonly teleport: number;
}

/** The default settings. */
export const REWIND_DEFAULTS: RewindSettings = Object.freeze({ tickMs: 1000 / 60, maxRewindMs: 500, entities: 256, teleport: 8 });

/** Counters (the Rust `RewindStats`). */
export interface RewindStats {
  records: number;
  dropped: number;
  restarts: number;
  views: number;
  capped: number;
  ahead: number;
  invalid: number;
}

/** A bounded history of entity states and the capped rewind. */
export class Rewind {
  readonly settings: RewindSettings;
  readonly stats: RewindStats = { records: 0, dropped: 0, restarts: 0, views: 0, capped: 0, ahead: 0, invalid: 0 };
  private readonly linear: number;
  private readonly width: number;
  private readonly times: Float64Array;
  private readonly ticks: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly ids: Uint32Array;
  private readonly vals: Float64Array;
  private head = 0;
  private kept = 0;
  private readonly outIds: Uint32Array;
  private readonly outVals: Float64Array;
  private outLen = 0;
  /** The blend's fraction, passed through a slot: a double argument to a call V8 does not
   * inline is boxed, a heap number per view. */
  private readonly blendT: Float64Array = new Float64Array(1);

  /** An empty history for entities of `linear` positions, then `angle` headings. */
  constructor(linear: number, angle: number, settings: RewindSettings = REWIND_DEFAULTS) {
    if (!(settings.tickMs > 0)) throw new RangeError("tickMs must be positive");
    if (!(settings.maxRewindMs >= 0)) throw new RangeError("maxRewindMs must be a non-negative number");
    this.settings = settings;
    this.linear = linear;
    this.width = linear + angle;
    const slots = Math.ceil(settings.maxRewindMs / settings.tickMs) + 2;
    const per = settings.entities;
    this.times = new Float64Array(slots);
    this.ticks = new Uint32Array(slots);
    this.counts = new Uint32Array(slots);
    this.ids = new Uint32Array(slots * per);
    this.vals = new Float64Array(slots * per * this.width);
    this.outIds = new Uint32Array(per);
    this.outVals = new Float64Array(per * this.width);
  }

  /** How many records the ring keeps. */
  get capacity(): number {
    return this.times.length;
  }

  /** Records kept. */
  get records(): number {
    return this.kept;
  }

  /** The newest record's time, ms. */
  get newestMs(): number | undefined {
    return this.kept > 0 ? this.times[this.head]! : undefined;
  }

  /** The oldest record's time, ms. */
  get oldestMs(): number | undefined {
    return this.kept > 0 ? this.times[this.slotBack(this.kept - 1)]! : undefined;
  }

  /** The tick of the newest record. */
  get newestTick(): number | undefined {
    return this.kept > 0 ? this.ticks[this.head]! : undefined;
  }

  private slotBack(back: number): number {
    const n = this.times.length;
    return (this.head + n - (back % n)) % n;
  }

  /** Starts the record of `tick` at `timeMs`; a time not after the newest restarts the history. */
  record(tick: number, timeMs: number): void {
    if (this.kept > 0 && !(timeMs > this.times[this.head]!)) {
      this.kept = 0;
      this.stats.restarts += 1;
    }
    this.head = this.kept === 0 ? 0 : (this.head + 1) % this.times.length;
    this.kept = Math.min(this.kept + 1, this.times.length);
    this.times[this.head] = timeMs;
    this.ticks[this.head] = tick;
    this.counts[this.head] = 0;
    this.stats.records += 1;
  }

  /** Adds entity `id` with its channels to the current record; false when it is full. */
  put(id: number, channels: ArrayLike<number>): boolean {
    const per = this.settings.entities;
    const c = this.counts[this.head]!;
    if (this.kept === 0 || c >= per) {
      this.stats.dropped += 1;
      return false;
    }
    const at = this.head * per + c;
    this.ids[at] = id;
    const w = this.width;
    for (let k = 0; k < w; k++) this.vals[at * w + k] = channels[k] ?? 0;
    this.counts[this.head] = c + 1;
    return true;
  }

  /** The time a view of `viewMs` is answered at (see the module docs); undefined before any record. */
  clamp(viewMs: number): number | undefined {
    if (this.kept === 0) return undefined;
    const newest = this.times[this.head]!;
    const oldest = this.times[this.slotBack(this.kept - 1)]!;
    const floor = Math.max(newest - this.settings.maxRewindMs, oldest);
    if (Number.isNaN(viewMs) || viewMs > newest) return newest;
    return viewMs < floor ? floor : viewMs;
  }

  /** Rewinds to `viewMs` (clamped, counted); returns the time used, undefined before any record. */
  view(viewMs: number): number | undefined {
    this.stats.views += 1;
    this.outLen = 0;
    if (this.kept === 0) return undefined;
    const newest = this.times[this.head]!;
    if (Number.isNaN(viewMs)) this.stats.invalid += 1;
    else if (viewMs > newest) this.stats.ahead += 1;
    else if (viewMs < newest - this.settings.maxRewindMs) this.stats.capped += 1;
    const at = this.clamp(viewMs)!;
    let back = 0;
    while (back + 1 < this.kept && this.times[this.slotBack(back)]! > at) back += 1;
    const a = this.slotBack(back);
    if (back > 0 && this.times[a]! < at) {
      const b = this.slotBack(back - 1);
      this.blendT[0] = (at - this.times[a]!) / (this.times[b]! - this.times[a]!);
      this.blend(a, b);
    } else {
      this.copy(a);
    }
    return at;
  }

  private copy(a: number): void {
    const per = this.settings.entities;
    const w = this.width;
    const n = this.counts[a]!;
    for (let i = 0; i < n; i++) this.outIds[i] = this.ids[a * per + i]!;
    for (let k = 0; k < n * w; k++) this.outVals[k] = this.vals[a * per * w + k]!;
    this.outLen = n;
  }

  /** Each entity of record `a` blended toward record `b` by the fraction in `blendT`. */
  private blend(a: number, b: number): void {
    const t = this.blendT[0]!;
    const per = this.settings.entities;
    const w = this.width;
    const l = this.linear;
    const na = this.counts[a]!;
    const nb = this.counts[b]!;
    const v = this.vals;
    for (let i = 0; i < na; i++) {
      const id = this.ids[a * per + i]!;
      let j = -1;
      if (i < nb && this.ids[b * per + i] === id) j = i;
      else for (let q = 0; q < nb && j < 0; q++) if (this.ids[b * per + q] === id) j = q;
      const va = (a * per + i) * w;
      const out = i * w;
      this.outIds[i] = id;
      if (j < 0) {
        for (let k = 0; k < w; k++) this.outVals[out + k] = v[va + k]!;
        continue;
      }
      const vb = (b * per + j) * w;
      let d2 = 0;
      for (let k = 0; k < l; k++) {
        const d = v[vb + k]! - v[va + k]!;
        d2 += d * d;
      }
      if (!(Math.sqrt(d2) <= this.settings.teleport)) {
        const from = t < 0.5 ? va : vb;
        for (let k = 0; k < w; k++) this.outVals[out + k] = v[from + k]!;
        continue;
      }
      for (let k = 0; k < w; k++) {
        const x = v[va + k]!;
        const y = v[vb + k]!;
        this.outVals[out + k] = k < l ? x + (y - x) * t : wrapAngle(x + wrapAngle(y - x) * t);
      }
    }
    this.outLen = na;
  }

  /** Entities in the last view. */
  get length(): number {
    return this.outLen;
  }

  /** The id of the `i`th entity of the last view. */
  id(i: number): number {
    if (!(i < this.outLen)) throw new RangeError("index past the view");
    return this.outIds[i]!;
  }

  /** The channels of the `i`th entity of the last view (a new view of a reused buffer; `read` allocates nothing). */
  channels(i: number): Float64Array {
    if (!(i < this.outLen)) throw new RangeError("index past the view");
    return this.outVals.subarray(i * this.width, (i + 1) * this.width);
  }

  /** The index of entity `id` in the last view, or −1. */
  indexOf(id: number): number {
    for (let i = 0; i < this.outLen; i++) if (this.outIds[i] === id) return i;
    return -1;
  }

  /** The channels of entity `id` in the last view (as `channels`), or undefined. */
  get(id: number): Float64Array | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.channels(i);
  }

  /** Copies the `i`th entity's channels of the last view into `out` (allocation-free). */
  read(i: number, out: Float64Array): void {
    if (!(i < this.outLen)) throw new RangeError("index past the view");
    for (let k = 0; k < this.width; k++) out[k] = this.outVals[i * this.width + k]!;
  }
}
