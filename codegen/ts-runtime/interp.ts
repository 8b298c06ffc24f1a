declare const process: { env: Record<string, string | undefined> };
/**
 * Snapshot interpolation for remote entities (docs/netcode.md): draw each remote player a little
 * in the past, on the sender's own clock, with a delay each entity measures for itself, and only
 * where it was: a teleport snaps however late it arrives, curves stay between the samples, and
 * past the newest sample the entity holds there.
 *
 * ```ts
 * const players = new InterpolatedSet<string>({ linear: 3, angle: 1, hold: 1 });
 * room.onMessage("player:move", (m) => {
 *   const it = players.enter(m.s);            // reuses a pooled interpolator
 *   PlayerMove$interp.write(m, it.input);      // generated adapter (or fill it.input by hand)
 *   it.pushSent(m.t, performance.now());       // the sender's sample time, our arrival time
 * });
 * function frame(now: number) {
 *   for (let i = 0; i < players.size; i++) {
 *     const it = players.at(i);
 *     it.sample(now);                           // it.out: x, y, z, heading, animation
 *     draw(players.keyAt(i), it.out, it.state);
 *   }
 * }
 * ```
 *
 * Everything is preallocated when an interpolator is built: `pushSent`, `pushAt`, `sample` and
 * `sampleAt` allocate nothing. Mirrors Rust's `tuplet::netcode::Interpolator` decision for
 * decision; tests/fixtures/netcode/ holds the traces both are checked against.
 */
import { NETCODE_DEFAULTS, netcodeSettings, type NetcodeSettings } from "./settings.js";
import { INTERVAL, LAST_SENT, OFFSET, RATE, StreamTiming, TARGET, followTime } from "./timing.js";
import { HD, HH, HM0, HM1, HP0, HU, monotoneHermiteInto, spacedTangent, wrapAngle } from "./curves.js";

/** How many channels of each kind an interpolated value has (known from the schema). */
export interface ChannelLayout {
  /** Drawn by interpolation with velocity carried between samples (positions, speeds). */
  readonly linear: number;
  /** Drawn on the shortest arc, wrapping at ±π (headings in radians). */
  readonly angle: number;
  /** Held until the next sample (enum numbers, animation ids, flags, counters). */
  readonly hold: number;
}

/** What the last `sample`/`sampleAt` drew. */
export const InterpState = {
  /** No sample yet: `out` holds zeros. */
  Empty: 0,
  /** Between two samples. */
  Interpolating: 1,
  /** Past the newest sample and enough missed intervals: positions move on (opt-in, bounded). */
  Extrapolating: 2,
  /** At a real sample, not between two: past the newest, before the first, waiting for a teleport. */
  Holding: 3,
  /** Jumped: a teleport reached the drawn time, or a long frame gap resynced. */
  Snapped: 4,
} as const;
/** One of `InterpState`'s values. */
export type InterpState = (typeof InterpState)[keyof typeof InterpState];

// Named slots of the interpolator's own numbers (a Float64Array: see timing.ts).
const RENDER = 0; // the render time the clock follows (sample)
const LAST_NOW = 1; // our clock at the last sample()
const DRAWN = 2; // the render time the last frame drew
const DRAW_AT = 3; // the render time being drawn
const FRAME_DT = 4; // that frame's step of the render time (ms)
const CUT_DONE = 5; // the time of the newest teleport already drawn
const WANT = 6; // the render time the delay asks for (sample)
const STEP = 7; // the shortest step between two samples the sender made (ms)
const SLOTS = 8;
// Times pass between the private methods as slot indices, never as doubles (boxed per call).

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

/** How a frame draws a jump of its render time (`resyncBy`). */
export const Resync = {
  /** No jump: the render time moved on as usual. */
  None: 0,
  /** From what the last frame drew to the new time's curve, eased out within `recoverMs`. */
  Ease: 1,
  /** At once: no blending, no catching up. */
  Snap: 2,
} as const;
/** One of `Resync`'s values. */
export type Resync = (typeof Resync)[keyof typeof Resync];

/**
 * How a frame draws a render time that `jumped` (a resync): after a dry spell (`dry`: the last
 * frame held at the newest sample; a stall ended) it eases over, so recovery converges within
 * about one send interval without a visible jump; after a `frameGap` (a hidden tab) or with
 * samples coming all along it snaps.
 */
export function resyncBy(jumped: boolean, frameGap: boolean, dry: boolean): Resync {
  if (!jumped) return Resync.None;
  return dry && !frameGap ? Resync.Ease : Resync.Snap;
}

/**
 * One remote entity: a fixed ring of samples (stamped on the sender's clock or a server tick's),
 * drawn at a delay into `out`. Fill `input` (or pass channels) and push; `sample(now)` each frame.
 */
export class Interpolator {
  /** The channel layout. */
  readonly layout: ChannelLayout;
  /** The settings (defaults: `NETCODE_DEFAULTS`). */
  readonly settings: NetcodeSettings;
  /** The drawn channels after `sample`: linear, then angle, then hold. */
  readonly out: Float64Array;
  /** Scratch the caller (or a generated adapter) fills before `pushSent()`/`pushAt()` without channels. */
  readonly input: Float64Array;
  /** This entity's timing: offset, rate, interval, lateness, target delay. */
  readonly timing: StreamTiming;
  /** What the last frame drew. */
  state: InterpState = InterpState.Empty;
  private readonly t = new Float64Array(SLOTS).fill(NaN);
  /** The current lag behind our clock (ms): render time = now − lag. */
  get lag(): number { return this.t[LAST_NOW]! - this.t[RENDER]!; }
  /** The time drawn by the last frame on the samples' clock (sender or server ms). */
  get renderTime(): number { return this.t[DRAWN]!; }

  private readonly n: number; // channels
  private readonly moving: number; // linear + angle
  private readonly cap: number;
  private readonly times: Float64Array;
  private readonly values: Float64Array;
  private readonly tangents: Float64Array; // per ms, linear + angle
  private readonly cuts: Uint8Array;
  private head = 0;
  private count = 0;
  private readonly raw: Float64Array;
  private readonly prevRaw: Float64Array;
  private readonly err: Float64Array;
  private readonly scratch: Float64Array;
  private readonly hermite = new Float64Array(6); // monotoneHermiteInto's numbers
  private prevState: InterpState = InterpState.Empty;
  private pushed = false;
  private following = false;
  /** The last frame drew at or past the newest sample: samples stopped coming (a dry spell). */
  private dry = false;
  private readonly recoverRate: number;

  /** An interpolator for `layout`, with `settings` over the defaults. */
  constructor(layout: ChannelLayout, settings?: Partial<NetcodeSettings>) {
    const s = netcodeSettings(settings);
    this.layout = { linear: layout.linear, angle: layout.angle, hold: layout.hold };
    this.settings = s;
    this.n = layout.linear + layout.angle + layout.hold;
    this.moving = layout.linear + layout.angle;
    this.cap = Math.max(2, s.ringSize | 0);
    this.times = new Float64Array(this.cap);
    this.values = new Float64Array(this.cap * this.n);
    this.tangents = new Float64Array(this.cap * this.moving);
    this.cuts = new Uint8Array(this.cap);
    this.out = new Float64Array(this.n);
    this.input = new Float64Array(this.n);
    this.raw = new Float64Array(this.n);
    this.prevRaw = new Float64Array(this.n);
    this.err = new Float64Array(this.moving);
    this.scratch = new Float64Array(this.n);
    this.timing = new StreamTiming(s);
    // 95% of a difference gone within recoverMs: e^(-3) ≈ 0.05.
    this.recoverRate = 3000 / (s.recoverMs > 0 ? s.recoverMs : NETCODE_DEFAULTS.recoverMs);
  }

  /** Empties the ring and the timing (the entity left view; reused from a pool). */
  reset(): void {
    this.head = 0;
    this.count = 0;
    this.timing.reset();
    this.state = InterpState.Empty;
    this.prevState = InterpState.Empty;
    this.t.fill(NaN);
    this.pushed = false;
    this.following = false;
    this.dry = false;
    this.out.fill(0);
    this.err.fill(0);
  }

  /** Samples in the ring. */
  get length(): number {
    return this.count;
  }

  /**
   * A sample stamped with the sender's own clock: `sentMs` (the sender's sample time, as
   * `player:move`'s `t`) arrived at `arrivedMs` (ours, e.g. `performance.now()`). Channels from
   * `channels`, or from `input` when omitted; `teleport` true marks a jump (a respawn) that
   * snaps whatever its length. Returns false (and ignores it) when it is not newer than the
   * newest sample (a duplicate or a reordered message).
   */
  pushSent(sentMs: number, arrivedMs: number, channels?: ArrayLike<number>, teleport = false): boolean {
    if (this.count > 0 && !(sentMs > this.times[this.slot(this.count - 1)]!)) return false;
    const silence = this.silenceBefore(sentMs, channels ?? this.input);
    this.timing.observe(sentMs, arrivedMs, !silence);
    if (silence) this.stillUntil(sentMs);
    else this.stepSeen(sentMs);
    this.store(sentMs, channels ?? this.input, teleport);
    return true;
  }

  /**
   * A sample stamped on a clock shared with the drawing side (a server tick: `tick * 1000 /
   * rate`), drawn with `sampleAt(renderClock.now(...))`. Same rules as `pushSent`.
   */
  pushAt(timeMs: number, channels?: ArrayLike<number>, teleport = false): boolean {
    if (this.count > 0 && !(timeMs > this.times[this.slot(this.count - 1)]!)) return false;
    const silence = this.silenceBefore(timeMs, channels ?? this.input);
    this.timing.observeTime(timeMs, !silence);
    if (silence) this.stillUntil(timeMs);
    else this.stepSeen(timeMs);
    this.store(timeMs, channels ?? this.input, teleport);
    return true;
  }

  /**
   * Draws the frame at our clock's `nowMs` (the same clock as `arrivedMs`): the render time
   * moves on at the sender's rate and toward the sender's time minus the target delay (drawing
   * further back at most `growSlew`, closer at most `relaxSlew`; at once after a frame gap
   * longer than `resyncGapMs`), then it is drawn into `out`.
   */
  sample(nowMs: number): InterpState {
    const s = this.settings;
    const tm = this.timing;
    const c = this.t;
    const last = c[LAST_NOW]!;
    const dt = last === last ? nowMs - last : 0;
    const gap = dt > s.resyncGapMs;
    c[LAST_NOW] = nowMs;
    const tv = tm.v;
    if (tv[OFFSET] !== tv[OFFSET]) {
      this.state = InterpState.Empty;
      return this.state;
    }
    const want = tv[LAST_SENT]! + (nowMs - tv[LAST_SENT]! - tv[OFFSET]!) / (1 + tv[RATE]!) - tv[TARGET]!;
    const r = c[RENDER]!;
    const newest = tv[LAST_SENT]!;
    // More than `clockSnapMs` behind it with samples that far ahead (after a stall), it resyncs:
    // the drawing eases over after a dry spell, snaps after a frame gap. Until its first frame
    // with a measured interval the render time is its target; then it follows.
    const resync = gap || (r === r && want - r > s.clockSnapMs && newest - r > s.clockSnapMs);
    if (r === r && !resync && this.following) {
      followTime(c, RENDER, want, dt, tv[RATE]!, s.growSlew, s.relaxSlew);
      // Time dilation: near the newest sample of a moving entity the render time slows, down to
      // `dilateMin` of its pace with the buffer empty, so a late sample is waited for in motion
      // rather than at a stop; the delay it added relaxes at `relaxSlew` once samples arrive.
      const room = newest - r;
      if (room < s.dilateBelowMs && dt > 0 && !(s.extrapolateMs > 0) && this.newestMoves()) {
        const f = room > 0 ? s.dilateMin + ((1 - s.dilateMin) * room) / s.dilateBelowMs : s.dilateMin;
        const slow = r + (f * dt) / (1 + tv[RATE]!);
        if (c[RENDER]! > slow) c[RENDER] = slow;
      }
    } else {
      c[RENDER] = want;
      this.following = tv[INTERVAL] === tv[INTERVAL];
    }
    // Past the newest sample the entity holds there whatever the render time, so the render
    // time stops there (a late sample, a delay still growing): the next sample then starts from
    // where the drawing stands, without catching up, and the delay has grown by the wait.
    if (c[RENDER]! > newest && !(s.extrapolateMs > 0)) c[RENDER] = newest;
    // Behind its target inside a still segment (a silence), it may skip ahead to the segment's end.
    c[WANT] = want;
    if (want > c[RENDER]!) this.skipStill();
    c[DRAW_AT] = c[RENDER]!;
    c[FRAME_DT] = dt; // a recovery eases out on our clock, even while the render time stands
    return this.draw(resyncBy(resync, gap, this.dry));
  }

  /**
   * Draws the samples' clock time `renderTimeMs` (from a `RenderClock`) into `out`. A step of the
   * render time longer than `resyncGapMs` resyncs: it eases over after a dry spell (the clock
   * caught up after a stall), snaps otherwise (a hidden tab).
   */
  sampleAt(renderTimeMs: number): InterpState {
    const c = this.t;
    const prev = c[DRAWN]!;
    const dt = prev === prev ? renderTimeMs - prev : 0;
    c[DRAW_AT] = renderTimeMs;
    c[FRAME_DT] = dt;
    return this.draw(resyncBy(dt > this.settings.resyncGapMs, false, this.dry));
  }

  /**
   * Moves the render time up to the time the delay asks for (`WANT`) when it lies in a segment whose two samples stand at the
   * same place (in place: a double returned from a call V8 does not inline is boxed).
   */
  private skipStill(): void {
    const c = this.t;
    const want = c[WANT]!;
    const j = this.segmentAt(RENDER);
    if (j < 0 || j + 1 >= this.count) return;
    const a = this.slot(j);
    const b = this.slot(j + 1);
    const n = this.n;
    for (let k = 0; k < this.moving; k++) if (this.values[a * n + k] !== this.values[b * n + k]) return;
    c[RENDER] = Math.min(want, this.times[b]!);
  }

  /** True when the newest sample's moving channels differ from the one before (the entity moves). */
  private newestMoves(): boolean {
    if (this.count < 2) return false;
    const a = this.slot(this.count - 1);
    const b = this.slot(this.count - 2);
    if (this.cuts[a] === 1) return false;
    const n = this.n;
    for (let k = 0; k < this.moving; k++) if (this.values[a * n + k] !== this.values[b * n + k]) return true;
    return false;
  }

  // ---- the ring ----

  private slot(j: number): number {
    return (this.head + j) % this.cap;
  }

  /**
   * True when the sender went silent before a sample at `timeMs` with channels `ch`: more than
   * two intervals passed and the newest sample stood still (equal to the one before), or the
   * position across the gap moved at under half the pace of the faster of the two segments
   * before it (`stillAcross`: a relay forwarded the stop pose's repeat but skipped the pose
   * before it); or, with a single sample, when more than `maxDelayMs` passed (an entity
   * standing still as it came into view).
   */
  private silenceBefore(timeMs: number, ch: ArrayLike<number>): boolean {
    if (this.count < 2) return this.count === 1 && timeMs - this.times[this.slot(0)]! > this.settings.maxDelayMs;
    const a = this.slot(this.count - 1);
    const b = this.slot(this.count - 2);
    const iv = this.timing.interval;
    if (iv === iv && timeMs - this.times[a]! <= 2 * iv) return false;
    const n = this.n;
    let same = true;
    for (let c = 0; c < this.moving; c++) if (this.values[a * n + c] !== this.values[b * n + c]) same = false;
    if (same || iv !== iv || this.cuts[a] === 1) return same;
    const k = Math.min(this.settings.teleportChannels, this.layout.linear);
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
  private stepSeen(timeMs: number): void {
    if (this.count === 0) return;
    const d = timeMs - this.times[this.slot(this.count - 1)]!;
    const c = this.t;
    if (!(d >= c[STEP]!)) c[STEP] = d;
  }

  /**
   * After a silence the entity stood still until about one of the sender's steps before the
   * sample that ends it (`stillLead`): a copy of the still pose there keeps the whole silence
   * from becoming one slow glide.
   */
  private stillUntil(timeMs: number): void {
    const a = this.slot(this.count - 1);
    const iv = this.timing.interval;
    const at = timeMs - stillLead(this.t[STEP]!, iv, this.settings.minDelayMs);
    if (!(at > this.times[a]!)) return;
    for (let c = 0; c < this.n; c++) this.scratch[c] = this.values[a * this.n + c]!;
    this.store(at, this.scratch, false);
  }

  /** The slope (per ms) of channel `c` from ring slot `a` to slot `b`, on the shortest arc for angles. */
  private secant(a: number, b: number, c: number): number {
    const n = this.n;
    let d = this.values[b * n + c]! - this.values[a * n + c]!;
    if (c >= this.layout.linear) d = wrapAngle(d);
    return d / (this.times[b]! - this.times[a]!);
  }

  private store(timeMs: number, ch: ArrayLike<number>, teleport: boolean): void {
    const s = this.settings;
    const n = this.n;
    const lin = this.layout.linear;
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
    if (this.count === this.cap) {
      this.head = (this.head + 1) % this.cap;
      this.count--;
    }
    const i = this.slot(this.count);
    this.count++;
    this.times[i] = timeMs;
    this.cuts[i] = cut ? 1 : 0;
    for (let c = 0; c < n; c++) this.values[i * n + c] = ch[c] ?? 0;
    // The newest sample's tangent is its slope in; the one before it now has both neighbours.
    const p = this.count > 1 && !cut ? this.slot(this.count - 2) : -1;
    const q = p >= 0 && this.count > 2 && this.cuts[p] === 0 ? this.slot(this.count - 3) : -1;
    for (let c = 0; c < mv; c++) {
      const out = p >= 0 ? this.secant(p, i, c) : 0;
      this.tangents[i * mv + c] = out;
      if (p >= 0) this.tangents[p * mv + c] = q >= 0 ? spacedTangent(this.secant(q, p, c), this.times[p]! - this.times[q]!, out, this.times[i]! - this.times[p]!) : out;
    }
    this.pushed = true;
  }

  // ---- drawing ----

  /** The ring position of the newest sample at or before the time in slot `at`, or -1. */
  private segmentAt(at: number): number {
    const r = this.t[at]!;
    let j = this.count - 1;
    while (j >= 0 && this.times[this.slot(j)]! > r) j--;
    return j;
  }

  /** Draws the render time in slot `at` into `out` (no recovery offset) and returns the state. */
  private evalAt(at: number, out: Float64Array): InterpState {
    const r = this.t[at]!;
    const s = this.settings;
    const n = this.n;
    const lin = this.layout.linear;
    const mv = this.moving;
    if (this.count === 0) return InterpState.Empty;
    const j = this.segmentAt(at);
    if (j < 0) {
      const o = this.slot(0);
      for (let c = 0; c < n; c++) out[c] = this.values[o * n + c]!;
      return InterpState.Holding;
    }
    const a = this.slot(j);
    for (let c = 0; c < n; c++) out[c] = this.values[a * n + c]!;
    const ta = this.times[a]!;
    if (j + 1 >= this.count) {
      // past the newest sample: hold, or (opt-in) move positions on after missed intervals
      const iv = this.timing.v[INTERVAL]!;
      if (!(s.extrapolateMs > 0) || iv !== iv) return InterpState.Holding;
      const ex = r - ta - s.extrapolateAfter * iv;
      if (!(ex > 0) || ex > s.extrapolateMs) return InterpState.Holding;
      for (let c = 0; c < lin; c++) out[c] = out[c]! + this.tangents[a * mv + c]! * ex;
      return InterpState.Extrapolating;
    }
    const b = this.slot(j + 1);
    if (this.cuts[b] === 1) return InterpState.Holding; // a teleport next: wait at this side of it
    const h = this.times[b]! - ta;
    const u = (r - ta) / h;
    const hp = this.hermite;
    hp[HH] = h;
    hp[HU] = u;
    for (let c = 0; c < mv; c++) {
      const p0 = this.values[a * n + c]!;
      const d = this.values[b * n + c]! - p0;
      hp[HP0] = p0;
      hp[HD] = c >= lin ? wrapAngle(d) : d;
      hp[HM0] = this.tangents[a * mv + c]!;
      hp[HM1] = this.tangents[b * mv + c]!;
      monotoneHermiteInto(out, c, hp);
      if (c >= lin) out[c] = wrapAngle(out[c]!);
    }
    return InterpState.Interpolating;
  }

  /** True when a teleport at or before the time being drawn has not been drawn yet (it is marked drawn). */
  private teleportReached(): boolean {
    const c = this.t;
    let newest = NaN;
    for (let j = this.segmentAt(DRAW_AT); j >= 0; j--) {
      const k = this.slot(j);
      if (this.cuts[k] === 1) {
        newest = this.times[k]!;
        break;
      }
    }
    if (newest !== newest) return false;
    const done = c[CUT_DONE]!;
    if (done === done && newest <= done) return false;
    c[CUT_DONE] = newest;
    return true;
  }

  private draw(resync: Resync): InterpState {
    const c = this.t;
    const r = c[DRAW_AT]!;
    const mv = this.moving;
    const lin = this.layout.linear;
    const n = this.n;
    const prevR = c[DRAWN]!;
    let st = this.evalAt(DRAW_AT, this.raw);
    if (st === InterpState.Empty) {
      this.state = st;
      return st;
    }
    const keep = Math.exp(-this.recoverRate * Math.abs(c[FRAME_DT]!) * 0.001);
    for (let k = 0; k < mv; k++) this.err[k] = this.err[k]! * keep;
    const teleported = this.teleportReached();
    if (resync === Resync.Snap || teleported || prevR !== prevR) {
      this.err.fill(0);
      if (prevR === prevR) st = InterpState.Snapped;
    } else if (resync === Resync.Ease) {
      // A dry spell ended with the render time resynced: from what the last frame drew to this
      // frame's curve, eased out within `recoverMs` (about one send interval).
      for (let k = 0; k < mv; k++) {
        let d = this.prevRaw[k]! - this.raw[k]!;
        if (k >= lin) d = wrapAngle(d);
        this.err[k] = this.err[k]! + d;
      }
    } else if (this.pushed || (this.prevState === InterpState.Extrapolating && st !== InterpState.Extrapolating)) {
      // New samples changed the curve (what it says about the previous frame's time, against
      // what that frame drew), or an extrapolation ended (this frame against the last): the
      // difference eases out from here, within `recoverMs`.
      const since = this.pushed ? this.scratch : this.raw;
      if (this.pushed) this.evalAt(DRAWN, this.scratch);
      for (let k = 0; k < mv; k++) {
        let d = this.prevRaw[k]! - since[k]!;
        if (k >= lin) d = wrapAngle(d);
        this.err[k] = this.err[k]! + d;
      }
    }
    for (let k = 0; k < mv; k++) {
      if (Math.abs(this.err[k]!) < 1e-9) this.err[k] = 0;
      const v = this.raw[k]! + this.err[k]!;
      this.out[k] = k >= lin ? wrapAngle(v) : v;
      this.prevRaw[k] = this.raw[k]!;
    }
    for (let k = mv; k < n; k++) this.out[k] = this.raw[k]!;
    this.pushed = false;
    this.prevState = st;
    this.state = st;
    this.dry = r >= this.times[this.slot(this.count - 1)]!;
    c[DRAWN] = r;
    return st;
  }
}
