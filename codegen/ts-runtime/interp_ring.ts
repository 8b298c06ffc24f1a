/**
 * An interpolator's ring of samples and the decisions taken as a sample arrives: where a silence
 * began (`stillLead`, `stillAcross`), the shortest step of the sender, the teleport cut and the
 * tangents each sample gets. Mirrors Rust's `interp_ring.rs`.
 */
import type { NetcodeSettings } from "./settings.js";
import type { StreamTiming } from "./timing.js";
import { wrapAngleAt } from "./curves.js";

/** How many channels of each kind an interpolated value has (known from the schema). */
export interface ChannelLayout {
  /** Drawn by interpolation with velocity carried between samples (positions, speeds). */
  readonly linear: number;
  /** Drawn on the shortest arc, wrapping at ±π (headings in radians). */
  readonly angle: number;
  /** Held until the next sample (enum numbers, animation ids, flags, counters). */
  readonly hold: number;
}

/**
 * How long before the sample that ends a silence the entity started moving (ms): one step of the
 * sender, the shortest seen between its samples (`step`; a relay that forwards every 3rd move
 * still sends a stop and the move after it one step apart), at least a quarter of the average
 * `interval`; the interval alone before any step, `fallback` before either.
 */
export function stillLead(step: number, interval: number, fallback: number): number {
  if (interval !== interval) return step === step ? step : fallback;
  return step === step ? Math.min(interval, Math.max(step, interval / 4)) : interval;
}

/**
 * True when a position that moved `before` over `beforeMs` and then `after` over the `afterMs`
 * of a gap moved across the gap at under half its pace before: it came to rest in between
 * (a lost or relayed-away stop pose), rather than moving on through lost samples.
 */
export function stillAcross(before: number, beforeMs: number, after: number, afterMs: number): boolean {
  return after * beforeMs < 0.5 * before * afterMs;
}

/**
 * A fixed ring of samples: times, channels, tangents (per ms, moving channels) and teleport cuts,
 * oldest first from `head`. Everything is preallocated; nothing allocates after construction.
 * Times pass in as slot indices of a Float64Array where a hot path calls (a double passed to a
 * call V8 does not inline is boxed).
 */
export class SampleRing {
  /** Linear channels. */
  readonly linear: number;
  /** All channels. */
  readonly n: number;
  /** Linear + angle channels. */
  readonly moving: number;
  /** Sample times, by slot. */
  readonly times: Float64Array;
  /** Channels, `n` a slot. */
  readonly values: Float64Array;
  /** Tangents (per ms), `moving` a slot. */
  readonly tangents: Float64Array;
  /** 1 where a sample jumped (a teleport). */
  readonly cuts: Uint8Array;
  /** Samples in the ring. */
  count = 0;
  private head = 0;
  private readonly cap: number;
  private readonly step = new Float64Array(1).fill(NaN); // the sender's shortest step (ms)
  /**
   * The render time the last frame drew (NaN before one): a full ring whose oldest sample that
   * time still needs thins out its densest stretch instead of dropping it (`store`).
   */
  readonly keep: Float64Array = new Float64Array(1).fill(NaN);
  private readonly pose: Float64Array; // the still pose stillUntil copies
  private readonly sec = new Float64Array(2); // secants (secantInto)
  private readonly settings: NetcodeSettings;
  private readonly timing: StreamTiming;

  /** An empty ring of `cap` samples for `layout`, deciding with `settings` and `timing`. */
  constructor(layout: ChannelLayout, cap: number, settings: NetcodeSettings, timing: StreamTiming) {
    this.settings = settings;
    this.timing = timing;
    this.linear = layout.linear;
    this.n = layout.linear + layout.angle + layout.hold;
    this.moving = layout.linear + layout.angle;
    this.cap = cap;
    this.times = new Float64Array(cap);
    this.values = new Float64Array(cap * this.n);
    this.tangents = new Float64Array(cap * this.moving);
    this.cuts = new Uint8Array(cap);
    this.pose = new Float64Array(this.n);
  }

  /** Empties the ring and forgets the sender's step. */
  clear(): void {
    this.head = 0;
    this.count = 0;
    this.step[0] = NaN;
    this.keep[0] = NaN;
  }

  /** The slot of ring position `j` (0: the oldest sample). */
  slot(j: number): number {
    return (this.head + j) % this.cap;
  }

  /** The ring position of the newest sample at or before the time in `t[at]`, or -1. */
  segmentAt(t: Float64Array, at: number): number {
    const r = t[at]!;
    let j = this.count - 1;
    while (j >= 0 && this.times[this.slot(j)]! > r) j--;
    return j;
  }

  /**
   * Moves the time in `t[at]` up to the one in `t[want]` when it lies in a segment whose two
   * samples stand at the same place (in place: a double returned from a call V8 does not inline
   * is boxed).
   */
  skipStill(t: Float64Array, at: number, want: number): void {
    const j = this.segmentAt(t, at);
    if (j < 0 || j + 1 >= this.count) return;
    const a = this.slot(j);
    const b = this.slot(j + 1);
    const n = this.n;
    for (let k = 0; k < this.moving; k++) if (this.values[a * n + k] !== this.values[b * n + k]) return;
    t[at] = Math.min(t[want]!, this.times[b]!);
  }

  /** True when the newest sample's moving channels differ from the one before (the entity moves). */
  newestMoves(): boolean {
    if (this.count < 2) return false;
    const a = this.slot(this.count - 1);
    const b = this.slot(this.count - 2);
    if (this.cuts[a] === 1) return false;
    const n = this.n;
    for (let k = 0; k < this.moving; k++) if (this.values[a * n + k] !== this.values[b * n + k]) return true;
    return false;
  }

  /**
   * True when the sender went silent before a sample at `timeMs` with channels `ch`: more than
   * two intervals passed and the newest sample stood still (equal to the one before), or the
   * position across the gap moved at under half the pace of the faster of the two segments
   * before it (`stillAcross`: a relay forwarded the stop pose's repeat but skipped the pose
   * before it); or, with a single sample, when more than `maxDelayMs` passed (an entity
   * standing still as it came into view).
   */
  silenceBefore(timeMs: number, ch: ArrayLike<number>): boolean {
    if (this.count < 2) return this.count === 1 && timeMs - this.times[this.slot(0)]! > this.settings.maxDelayMs;
    const a = this.slot(this.count - 1);
    const b = this.slot(this.count - 2);
    const iv = this.timing.interval;
    if (iv === iv && timeMs - this.times[a]! <= 2 * iv) return false;
    const n = this.n;
    let same = true;
    for (let c = 0; c < this.moving; c++) if (this.values[a * n + c] !== this.values[b * n + c]) same = false;
    if (same || iv !== iv || this.cuts[a] === 1) return same;
    return this.cameToRest(timeMs, ch, a, b);
  }

  /**
   * `stillAcross` for the gap before a sample at `timeMs` with channels `ch`, after the newest
   * samples `a` and `b` (slots): out of `silenceBefore`, which runs on every push, so that one
   * stays small enough for V8 to inline (the rare gap pays for the call).
   */
  private cameToRest(timeMs: number, ch: ArrayLike<number>, a: number, b: number): boolean {
    const n = this.n;
    const k = Math.min(this.settings.teleportChannels, this.linear);
    // the faster of the two segments before the gap (the newest may already be creeping to a stop)
    const p = this.count > 2 && this.cuts[b] === 0 ? this.slot(this.count - 3) : -1;
    let before = 0;
    let before2 = 0;
    let after = 0;
    for (let c = 0; c < k; c++) {
      const d0 = this.values[a * n + c]! - this.values[b * n + c]!;
      const d2 = p >= 0 ? this.values[b * n + c]! - this.values[p * n + c]! : 0;
      const d1 = (ch[c] ?? 0) - this.values[a * n + c]!;
      before += d0 * d0;
      before2 += d2 * d2;
      after += d1 * d1;
    }
    let dist = Math.sqrt(before);
    let span = this.times[a]! - this.times[b]!;
    if (p >= 0 && Math.sqrt(before2) * span > dist * (this.times[b]! - this.times[p]!)) {
      dist = Math.sqrt(before2);
      span = this.times[b]! - this.times[p]!;
    }
    // stillAcross, written out: a double passed to a call V8 does not inline is boxed
    return Math.sqrt(after) * span < 0.5 * dist * (timeMs - this.times[a]!);
  }

  /** Keeps the shortest step from the newest sample to one at `timeMs` (not after a silence). */
  stepSeen(timeMs: number): void {
    if (this.count === 0) return;
    const d = timeMs - this.times[this.slot(this.count - 1)]!;
    if (!(d >= this.step[0]!)) this.step[0] = d;
  }

  /**
   * After a silence the entity stood still until about one of the sender's steps before the
   * sample that ends it (`stillLead`): a copy of the still pose there keeps the whole silence
   * from becoming one slow glide.
   */
  stillUntil(timeMs: number): void {
    const a = this.slot(this.count - 1);
    const iv = this.timing.interval;
    const at = timeMs - stillLead(this.step[0]!, iv, this.settings.minDelayMs);
    if (!(at > this.times[a]!)) return;
    for (let c = 0; c < this.n; c++) this.pose[c] = this.values[a * this.n + c]!;
    this.store(at, this.pose, false);
  }

  /**
   * The slope (per ms) of channel `c` from ring slot `a` to slot `b`, on the shortest arc for
   * angles, into `sec[to]` (a double returned from a call V8 does not inline is boxed).
   */
  private secantInto(a: number, b: number, c: number, to: number): void {
    const n = this.n;
    const sec = this.sec;
    sec[to] = this.values[b * n + c]! - this.values[a * n + c]!;
    if (c >= this.linear) wrapAngleAt(sec, to);
    sec[to] = sec[to]! / (this.times[b]! - this.times[a]!);
  }

  /**
   * Makes room in a full ring. The oldest sample drops out, unless the drawing still needs it
   * (the render time in `keep` lies before the second oldest: a stall held the drawing back
   * further than the ring spans at the sender's rate). Then the sample whose neighbours lie
   * closest together goes instead (`thinAt`), so the ring spans a longer time at a coarser step
   * rather than leave the render time behind its oldest sample, where the entity could only
   * hold and step with every sample that arrives.
   */
  private makeRoom(): void {
    const k = this.keep[0]!;
    const i = k === k && k < this.times[this.slot(1)]! ? this.thinAt() : -1;
    if (i < 0) {
      this.head = (this.head + 1) % this.cap;
      this.count--;
      return;
    }
    // the older samples move up one slot over the one that goes
    const n = this.n;
    const mv = this.moving;
    for (let j = i; j > 0; j--) {
      const to = this.slot(j);
      const from = this.slot(j - 1);
      this.times[to] = this.times[from]!;
      this.cuts[to] = this.cuts[from]!;
      for (let c = 0; c < n; c++) this.values[to * n + c] = this.values[from * n + c]!;
      for (let c = 0; c < mv; c++) this.tangents[to * mv + c] = this.tangents[from * mv + c]!;
    }
    this.head = (this.head + 1) % this.cap;
    this.count--;
    // its two neighbours meet: their tangents see each other (the newest two are never thinned)
    this.middleTangent(i - 1);
    this.middleTangent(i);
  }

  /**
   * The ring position to thin out, or -1: of the samples between the second oldest and the
   * second newest, none beside a teleport or standing where a neighbour stands (a stop and its
   * silence keep their shape), the one whose neighbours lie closest together in time (the oldest
   * of equals).
   */
  private thinAt(): number {
    const n = this.n;
    let best = -1;
    let span = Infinity;
    for (let j = 2; j + 2 < this.count; j++) {
      const a = this.slot(j - 1);
      const b = this.slot(j);
      const c = this.slot(j + 1);
      if (this.cuts[b] === 1 || this.cuts[c] === 1) continue;
      let movesIn = false;
      let movesOut = false;
      for (let k = 0; k < this.moving; k++) {
        if (this.values[b * n + k] !== this.values[a * n + k]) movesIn = true;
        if (this.values[c * n + k] !== this.values[b * n + k]) movesOut = true;
      }
      if (!movesIn || !movesOut) continue;
      const h = this.times[c]! - this.times[a]!;
      if (h < span) {
        span = h;
        best = j;
      }
    }
    return best;
  }

  /**
   * The tangents at ring position `j` from its neighbours (`spacedTangent`; the slope out of it
   * when it is the oldest or a teleport cuts it from the one before); unchanged when a teleport
   * cuts it from the one after.
   */
  private middleTangent(j: number): void {
    const p = this.slot(j);
    const q = j < 1 || this.cuts[p] === 1 ? -1 : this.slot(j - 1);
    const i = this.slot(j + 1);
    if (this.cuts[i] === 1) return;
    const sec = this.sec;
    const mv = this.moving;
    for (let c = 0; c < mv; c++) {
      this.secantInto(p, i, c, 0);
      const out = sec[0]!;
      if (q < 0) {
        this.tangents[p * mv + c] = out;
        continue;
      }
      // spacedTangent, written out (its four doubles would be boxed if V8 did not inline it)
      this.secantInto(q, p, c, 1);
      const before = sec[1]!;
      const hBefore = this.times[p]! - this.times[q]!;
      const hAfter = this.times[i]! - this.times[p]!;
      this.tangents[p * mv + c] = before * out > 0 ? (hAfter * before + hBefore * out) / (hBefore + hAfter) : 0;
    }
  }

  /**
   * Appends a sample at `timeMs` (room made by `makeRoom` in a full ring), cut from the one
   * before when `teleport` or when it jumped farther and faster than the settings allow.
   */
  store(timeMs: number, ch: ArrayLike<number>, teleport: boolean): void {
    const s = this.settings;
    const n = this.n;
    const lin = this.linear;
    const mv = this.moving;
    let cut = teleport;
    if (this.count > 0 && !cut) {
      const prev = this.slot(this.count - 1);
      const k = Math.min(s.teleportChannels, lin);
      let d2 = 0;
      for (let c = 0; c < k; c++) {
        const d = (ch[c] ?? 0) - this.values[prev * n + c]!;
        d2 += d * d;
      }
      const dist = Math.sqrt(d2);
      const dtS = (timeMs - this.times[prev]!) * 0.001;
      cut = dist > s.teleportDistance && dist > s.teleportSpeed * dtS;
    }
    if (this.count === this.cap) this.makeRoom();
    const i = this.slot(this.count);
    this.count++;
    this.times[i] = timeMs;
    this.cuts[i] = cut ? 1 : 0;
    for (let c = 0; c < n; c++) this.values[i * n + c] = ch[c] ?? 0;
    // The one before the newest now has both neighbours (`middleTangent`); the newest's tangent
    // ends a constant acceleration from there (`endTangent`), its slope in when nothing precedes
    // that one; 0 after a teleport.
    if (this.count < 2 || cut) {
      for (let c = 0; c < mv; c++) this.tangents[i * mv + c] = 0;
      return;
    }
    this.middleTangent(this.count - 2);
    const p = this.slot(this.count - 2);
    const sec = this.sec;
    for (let c = 0; c < mv; c++) {
      this.secantInto(p, i, c, 0);
      const out = sec[0]!;
      // endTangent, written out (a double returned from a call V8 does not inline is boxed)
      const m1 = 2 * out - this.tangents[p * mv + c]!;
      this.tangents[i * mv + c] = m1 * out > 0 ? m1 : 0;
    }
  }
}
