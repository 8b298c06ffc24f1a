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
 * decision; tests/fixtures/netcode/ holds the traces both are checked against. Here the type, its
 * pushes and its frames (the render time's course and the recovery easing); the ring and its
 * silences are in `interp_ring.ts`, drawing one time in `interp_draw.ts`.
 */
import { NETCODE_DEFAULTS, netcodeSettings, type NetcodeSettings } from "./settings.js";
import { DUE, INTERVAL, LAST_SENT, OFFSET, RATE, StreamTiming, TARGET, followTime } from "./timing.js";
import { wrapAngleAt } from "./curves.js";
import { type ChannelLayout, SampleRing } from "./interp_ring.js";
import { InterpState, Resync, evalAt, resyncBy, teleportReached } from "./interp_draw.js";

export { stillAcross, stillLead, type ChannelLayout } from "./interp_ring.js";
export { InterpState, Resync, resyncBy } from "./interp_draw.js";

// Named slots of the interpolator's own numbers (a Float64Array: see timing.ts).
const RENDER = 0; // the render time the clock follows (sample)
const LAST_NOW = 1; // our clock at the last sample()
const DRAWN = 2; // the render time the last frame drew
const DRAW_AT = 3; // the render time being drawn
const FRAME_DT = 4; // that frame's step of the render time (ms)
const CUT_DONE = 5; // the time of the newest teleport already drawn
const WANT = 6; // the render time the delay asks for (sample)
const SLOTS = 7;
// Times pass between the private methods as slot indices, never as doubles (boxed per call).

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

  private readonly ring: SampleRing;
  private readonly raw: Float64Array;
  private readonly prevRaw: Float64Array;
  private readonly err: Float64Array;
  private readonly scratch: Float64Array;
  private readonly hermite = new Float64Array(6); // monotoneHermiteInto's numbers
  private readonly wrap = new Float64Array(1); // an angle wrapped in place (wrapAngleAt)
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
    const n = layout.linear + layout.angle + layout.hold;
    const moving = layout.linear + layout.angle;
    this.out = new Float64Array(n);
    this.input = new Float64Array(n);
    this.raw = new Float64Array(n);
    this.prevRaw = new Float64Array(n);
    this.err = new Float64Array(moving);
    this.scratch = new Float64Array(n);
    this.timing = new StreamTiming(s);
    this.ring = new SampleRing(this.layout, Math.max(2, s.ringSize | 0), s, this.timing);
    // 95% of a difference gone within recoverMs: e^(-3) ≈ 0.05.
    this.recoverRate = 3000 / (s.recoverMs > 0 ? s.recoverMs : NETCODE_DEFAULTS.recoverMs);
  }

  /** Empties the ring and the timing (the entity left view; reused from a pool). */
  reset(): void {
    this.ring.clear();
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
    return this.ring.count;
  }

  /**
   * A sample stamped with the sender's own clock: `sentMs` (the sender's sample time, as
   * `player:move`'s `t`) arrived at `arrivedMs` (ours, e.g. `performance.now()`). Channels from
   * `channels`, or from `input` when omitted; `teleport` true marks a jump (a respawn) that
   * snaps whatever its length. Returns false (and ignores it) when it is not newer than the
   * newest sample (a duplicate or a reordered message).
   */
  pushSent(sentMs: number, arrivedMs: number, channels?: ArrayLike<number>, teleport = false): boolean {
    const ring = this.ring;
    if (ring.count > 0 && !(sentMs > ring.times[ring.slot(ring.count - 1)]!)) return false;
    const silence = ring.silenceBefore(sentMs, channels ?? this.input);
    this.timing.observe(sentMs, arrivedMs, !silence);
    if (silence) ring.stillUntil(sentMs);
    else ring.stepSeen(sentMs);
    ring.store(sentMs, channels ?? this.input, teleport);
    this.pushed = true;
    return true;
  }

  /**
   * A sample stamped on a clock shared with the drawing side (a server tick: `tick * 1000 /
   * rate`), drawn with `sampleAt(renderClock.now(...))`. Same rules as `pushSent`.
   */
  pushAt(timeMs: number, channels?: ArrayLike<number>, teleport = false): boolean {
    const ring = this.ring;
    if (ring.count > 0 && !(timeMs > ring.times[ring.slot(ring.count - 1)]!)) return false;
    const silence = ring.silenceBefore(timeMs, channels ?? this.input);
    this.timing.observeTime(timeMs, !silence);
    if (silence) ring.stillUntil(timeMs);
    else ring.stepSeen(timeMs);
    ring.store(timeMs, channels ?? this.input, teleport);
    this.pushed = true;
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
    const sender = tv[LAST_SENT]! + (nowMs - tv[LAST_SENT]! - tv[OFFSET]!) / (1 + tv[RATE]!);
    const want = sender - tv[TARGET]!;
    const r = c[RENDER]!;
    const newest = tv[LAST_SENT]!;
    // More than `clockSnapMs` behind it with samples that far ahead (after a stall), it resyncs:
    // the drawing eases over after a dry spell, snaps after a frame gap. Until its first frame
    // with a measured interval the render time is its target; then it follows.
    const resync = gap || (r === r && want - r > s.clockSnapMs && newest - r > s.clockSnapMs);
    if (r === r && !resync && this.following) {
      followTime(c, RENDER, want, dt, tv[RATE]!, s.growSlew, s.relaxSlew, s.followBandMs);
      // Time dilation: near the newest sample of a moving entity whose next sample is overdue
      // (later than `overduePercentile` of recent ones needed) the render time slows, down to
      // `dilateMin` of its pace with the buffer empty, so a late sample is waited for in motion
      // rather than at a stop; the delay it added relaxes at `relaxSlew` once samples arrive.
      // A sample on time never slows it: no saw on every interval.
      const room = newest - r;
      const overdue = sender - newest > tv[DUE]!;
      if (overdue && room < s.dilateBelowMs && dt > 0 && !(s.extrapolateMs > 0) && this.ring.newestMoves()) {
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
    if (want > c[RENDER]!) this.ring.skipStill(c, RENDER, WANT);
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

  private draw(resync: Resync): InterpState {
    const c = this.t;
    const r = c[DRAW_AT]!;
    const ring = this.ring;
    const mv = ring.moving;
    const lin = ring.linear;
    const n = ring.n;
    const prevR = c[DRAWN]!;
    let st = evalAt(ring, this.settings, this.timing, c, DRAW_AT, this.raw, this.hermite);
    if (st === InterpState.Empty) {
      this.state = st;
      return st;
    }
    const keep = Math.exp(-this.recoverRate * Math.abs(c[FRAME_DT]!) * 0.001);
    for (let k = 0; k < mv; k++) this.err[k] = this.err[k]! * keep;
    const teleported = teleportReached(ring, c, DRAW_AT, CUT_DONE);
    if (resync === Resync.Snap || teleported || prevR !== prevR) {
      this.err.fill(0);
      if (prevR === prevR) st = InterpState.Snapped;
    } else if (resync === Resync.Ease) {
      // A dry spell ended with the render time resynced: from what the last frame drew to this
      // frame's curve, eased out within `recoverMs` (about one send interval).
      const w = this.wrap;
      for (let k = 0; k < mv; k++) {
        w[0] = this.prevRaw[k]! - this.raw[k]!;
        if (k >= lin) wrapAngleAt(w, 0);
        this.err[k] = this.err[k]! + w[0]!;
      }
    } else if (this.pushed || (this.prevState === InterpState.Extrapolating && st !== InterpState.Extrapolating)) {
      // New samples changed the curve (what it says about the previous frame's time, against
      // what that frame drew), or an extrapolation ended (this frame against the last): the
      // difference eases out from here, within `recoverMs`.
      const since = this.pushed ? this.scratch : this.raw;
      if (this.pushed) evalAt(ring, this.settings, this.timing, c, DRAWN, this.scratch, this.hermite);
      const w = this.wrap;
      for (let k = 0; k < mv; k++) {
        w[0] = this.prevRaw[k]! - since[k]!;
        if (k >= lin) wrapAngleAt(w, 0);
        this.err[k] = this.err[k]! + w[0]!;
      }
    }
    for (let k = 0; k < mv; k++) {
      if (Math.abs(this.err[k]!) < 1e-9) this.err[k] = 0;
      this.out[k] = this.raw[k]! + this.err[k]!;
      if (k >= lin) wrapAngleAt(this.out, k);
      this.prevRaw[k] = this.raw[k]!;
    }
    for (let k = mv; k < n; k++) this.out[k] = this.raw[k]!;
    this.pushed = false;
    this.prevState = st;
    this.state = st;
    this.dry = r >= ring.times[ring.slot(ring.count - 1)]!;
    c[DRAWN] = r;
    ring.keep[0] = r;
    return st;
  }
}
