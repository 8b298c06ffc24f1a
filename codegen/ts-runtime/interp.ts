/**
 * Snapshot interpolation for remote entities (docs/netcode.md): draw each remote player a little
 * in the past, on the sender's own clock, with a delay each entity measures for itself.
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
 * `sampleAt` allocate nothing. Mirrors Rust's `tuplet::netcode` (feature `netcode`) decision for
 * decision; tests/fixtures/netcode/ holds the traces both are checked against.
 */

/** How many channels of each kind an interpolated value has (known from the schema). */
export interface ChannelLayout {
  /** Drawn by interpolation with velocity carried between samples (positions, speeds). */
  readonly linear: number;
  /** Drawn on the shortest arc, wrapping at ±π (headings in radians). */
  readonly angle: number;
  /** Held until the next sample (enum numbers, animation ids, flags, counters). */
  readonly hold: number;
}

/** Every constant of the algorithm, named; `NETCODE_DEFAULTS` holds the defaults. */
export interface NetcodeSettings {
  /** Samples kept per entity (a fixed ring): enough for `maxDelayMs` at 20 Hz plus one. */
  readonly ringSize: number;
  /** The least delay drawn behind the sender's clock (ms): the floor of the adaptive delay. */
  readonly minDelayMs: number;
  /** The most delay for an entity sending at the usual rate (ms). */
  readonly maxDelayMs: number;
  /**
   * For an entity whose own interval is long (a far player relayed every 3rd or 10th move), the
   * cap is raised to this many of its intervals, so its delay still covers one interval.
   */
  readonly longIntervalCap: number;
  /** How many jitters (mean deviations of the interval and of the lateness) the delay adds. */
  readonly jitterFactor: number;
  /**
   * What the delay leaves to extrapolation (ms): a sample up to this late costs that much
   * extrapolation at the carried velocity (under a centimetre for a turning walker), so the
   * delay asks for this much less than interval + lateness + jitters.
   */
  readonly dryGraceMs: number;
  /** Time constant (ms of the sender's clock) of the averages of interval, lateness and jitter. */
  readonly statsMs: number;
  /** The most weight one sample gets in those averages (a sparse entity still averages). */
  readonly statsMaxWeight: number;
  /** How fast the delay grows toward a higher target, in ms of delay per ms (0.2: 100 ms in 0.5 s). */
  readonly growSlew: number;
  /** How fast the delay relaxes toward a lower target, in ms per ms (0.05: 150 ms over 3 s). */
  readonly relaxSlew: number;
  /**
   * The clock offset's upward creep (ms per ms of arrival time): the lower envelope of
   * arrival − sent follows a lasting rise in latency at this rate (0.005: 5 ms per second).
   */
  readonly offsetCreep: number;
  /** The least time (ms) an entity is extrapolated when its samples run dry, then it holds. */
  readonly extrapolateMs: number;
  /** ... or this many of its own intervals, when that is longer. */
  readonly extrapolateIntervals: number;
  /** A jump when fresh samples replace an extrapolation is eased out within this time (ms, 95%). */
  readonly recoverMs: number;
  /** A move longer than this (units of the first `teleportChannels` linear channels) ... */
  readonly teleportDistance: number;
  /** ... and faster than this (units per second) between two samples is a teleport: a snap. */
  readonly teleportSpeed: number;
  /** How many leading linear channels form the position the teleport test measures. */
  readonly teleportChannels: number;
  /** A frame gap longer than this (ms; a hidden tab) resyncs: no blending, no catching up. */
  readonly resyncGapMs: number;
  /** `RenderClock`: the most its time runs fast or slow while it follows its target (0.05: 5%). */
  readonly clockSlew: number;
  /** `RenderClock`: a distance from its target past which it snaps instead of slewing (ms). */
  readonly clockSnapMs: number;
}

/** The defaults, fit for metres and 10–20 Hz senders (docs/netcode.md, "Constants"). */
export const NETCODE_DEFAULTS: NetcodeSettings = /*@__PURE__*/ Object.freeze({
  ringSize: 8,
  minDelayMs: 120,
  maxDelayMs: 300,
  longIntervalCap: 1.5,
  jitterFactor: 2.5,
  dryGraceMs: 25,
  statsMs: 400,
  statsMaxWeight: 0.5,
  growSlew: 0.2,
  relaxSlew: 0.05,
  offsetCreep: 0.005,
  extrapolateMs: 200,
  extrapolateIntervals: 0.5,
  recoverMs: 300,
  teleportDistance: 8,
  teleportSpeed: 60,
  teleportChannels: 3,
  resyncGapMs: 500,
  clockSlew: 0.05,
  clockSnapMs: 500,
});

/** What the last `sample`/`sampleAt` drew. */
export const InterpState = {
  /** No sample yet: `out` holds zeros. */
  Empty: 0,
  /** Between two samples (or waiting at the first one). */
  Interpolating: 1,
  /** Past the newest sample, moving on at its velocity (bounded). */
  Extrapolating: 2,
  /** Past the extrapolation bound (or before the first sample): standing still. */
  Holding: 3,
  /** Jumped: a teleport reached the drawn time, or a long frame gap resynced. */
  Snapped: 4,
} as const;
/** One of `InterpState`'s values. */
export type InterpState = (typeof InterpState)[keyof typeof InterpState];

const TAU = 2 * Math.PI;

/** `a` wrapped into [-π, π). */
export function wrapAngle(a: number): number {
  return a - TAU * Math.floor((a + Math.PI) / TAU);
}

/**
 * Per-stream timing: the sender's clock offset (a lower envelope of arrival − sent with a slow
 * upward creep), the interval and the lateness with their jitters, and the delay they ask for.
 * One per interpolator (so each entity's delay fits its own interval); `RenderClock` has one too.
 */
export class StreamTiming {
  /**
   * Every number, in one Float64Array (fields holding doubles, and doubles returned from calls
   * V8 does not inline, are boxed: garbage per message): offset, interval, intervalJitter,
   * late, lateJitter, target, then the last sent and arrival times. The getters read it.
   */
  readonly v: Float64Array = new Float64Array(8);
  private readonly s: NetcodeSettings;

  /** Timing under settings `s`. */
  constructor(s: NetcodeSettings) {
    this.s = s;
    this.reset();
  }

  /** The lower envelope of arrival − sent (ms); NaN before the first sample. */
  get offset(): number { return this.v[0]!; }
  /** Average interval between samples on the sender's clock (ms); NaN before two samples. */
  get interval(): number { return this.v[1]!; }
  /** Mean deviation of the interval (ms). */
  get intervalJitter(): number { return this.v[2]!; }
  /** Average lateness: arrival − (sent + offset) (ms). */
  get late(): number { return this.v[3]!; }
  /** Mean deviation of the lateness (ms). */
  get lateJitter(): number { return this.v[4]!; }
  /** The delay the statistics ask for (ms), within its bounds. */
  get target(): number { return this.v[5]!; }

  /** Forgets everything (an entity left view; a pooled interpolator is reused). */
  reset(): void {
    const v = this.v;
    v[0] = NaN; // offset
    v[1] = NaN; // interval
    v[2] = 0; // intervalJitter
    v[3] = 0; // late
    v[4] = 0; // lateJitter
    v[5] = this.s.minDelayMs; // target
    v[6] = NaN; // lastSent
    v[7] = NaN; // lastArrived
  }

  /** True once an interval was measured. */
  get warm(): boolean {
    return this.v[1] === this.v[1];
  }

  /**
   * One sample sent at `sentMs` (sender's clock) arrived at `arrivedMs` (ours). `countInterval`
   * false skips the interval statistics (after a silence: a stationary sender stops sending).
   */
  observe(sentMs: number, arrivedMs: number, countInterval: boolean): void {
    const s = this.s;
    const v = this.v;
    const raw = arrivedMs - sentMs;
    if (v[0] !== v[0]) {
      v[0] = raw;
    } else {
      const creep = Math.max(0, arrivedMs - v[7]!) * s.offsetCreep;
      v[0] = Math.min(v[0]! + creep, raw);
    }
    const late = Math.min(arrivedMs - sentMs - v[0]!, s.maxDelayMs);
    if (v[6] !== v[6]) {
      v[3] = late;
    } else {
      const iv = sentMs - v[6]!;
      const w = Math.min(1 - Math.exp(-iv / s.statsMs), s.statsMaxWeight);
      if (countInterval && iv > 0) this.intervalSample(iv, w);
      v[4] = v[4]! + w * (Math.abs(late - v[3]!) - v[4]!);
      v[3] = v[3]! + w * (late - v[3]!);
    }
    v[6] = sentMs;
    v[7] = arrivedMs;
    this.writeTarget();
  }

  /** Records a sample's time on a clock that needs no offset (a server tick); intervals only. */
  observeTime(timeMs: number, countInterval: boolean): void {
    const v = this.v;
    if (v[6] === v[6]) {
      const iv = timeMs - v[6]!;
      if (countInterval && iv > 0) this.intervalSample(iv, Math.min(1 - Math.exp(-iv / this.s.statsMs), this.s.statsMaxWeight));
    }
    v[6] = timeMs;
  }

  private intervalSample(iv: number, w: number): void {
    const v = this.v;
    if (v[1] !== v[1]) {
      v[1] = iv;
    } else {
      v[2] = v[2]! + w * (Math.abs(iv - v[1]!) - v[2]!);
      v[1] = v[1]! + w * (iv - v[1]!);
    }
  }

  /** One interval + lateness + `jitterFactor` × both jitters − `dryGraceMs`, clamped to its bounds. */
  targetDelay(): number {
    this.writeTarget();
    return this.v[5]!;
  }

  private writeTarget(): void {
    const s = this.s;
    const v = this.v;
    const interval = v[1]!;
    if (interval !== interval) {
      v[5] = s.minDelayMs;
      return;
    }
    const want = interval + v[3]! + s.jitterFactor * (v[2]! + v[4]!) - s.dryGraceMs;
    const hi = Math.max(s.maxDelayMs, s.longIntervalCap * interval);
    v[5] = Math.min(Math.max(want, s.minDelayMs), hi);
  }

  /** How long the entity may be extrapolated past its newest sample (ms). */
  extrapolateLimit(): number {
    const s = this.s;
    const iv = this.v[1]!;
    return Math.max(s.extrapolateMs, s.extrapolateIntervals * (iv === iv ? iv : 0));
  }
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
  /** This entity's timing: offset, interval, lateness, jitters, target delay. */
  readonly timing: StreamTiming;
  /** What the last frame drew. */
  state: InterpState = InterpState.Empty;
  // Doubles kept in a Float64Array and handed between the private steps through it: a double
  // stored in a field or passed to a call V8 does not inline is boxed (garbage every frame).
  // [0] lag, [1] renderTime, [2] lastNow, [3] the render time being drawn, [4] frame dt.
  private readonly t3 = new Float64Array(5).fill(NaN);
  /** The current lag behind our clock (offset + delay, ms): render time = now − lag. */
  get lag(): number { return this.t3[0]!; }
  /** The time drawn by the last frame on the samples' clock (sender or server ms). */
  get renderTime(): number { return this.t3[1]!; }

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
  private prevState: InterpState = InterpState.Empty;
  private pushed = false;
  private recoverRate: number;

  /** An interpolator for `layout`, with `settings` over the defaults. */
  constructor(layout: ChannelLayout, settings?: Partial<NetcodeSettings>) {
    const s: NetcodeSettings = settings === undefined ? NETCODE_DEFAULTS : { ...NETCODE_DEFAULTS, ...settings };
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
    // 95% of a recovery jump gone within recoverMs: e^(-3) ≈ 0.05.
    this.recoverRate = 3000 / s.recoverMs;
  }

  /** Empties the ring and the timing (the entity left view; reused from a pool). */
  reset(): void {
    this.head = 0;
    this.count = 0;
    this.timing.reset();
    this.state = InterpState.Empty;
    this.prevState = InterpState.Empty;
    this.t3.fill(NaN);
    this.pushed = false;
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
   * `channels`, or from `input` when omitted. Returns false (and ignores it) when it is not newer
   * than the newest sample (a duplicate or a reordered message).
   */
  pushSent(sentMs: number, arrivedMs: number, channels?: ArrayLike<number>): boolean {
    if (this.count > 0 && !(sentMs > this.times[this.slot(this.count - 1)]!)) return false;
    const silence = this.silenceBefore(sentMs);
    this.timing.observe(sentMs, arrivedMs, !silence);
    if (silence) this.stillUntil(sentMs);
    this.store(sentMs, channels ?? this.input);
    return true;
  }

  /**
   * A sample stamped on a clock shared with the drawing side (a server tick: `tick * 1000 /
   * rate`), drawn with `sampleAt(renderClock.now(...))`. Same rules as `pushSent`.
   */
  pushAt(timeMs: number, channels?: ArrayLike<number>): boolean {
    if (this.count > 0 && !(timeMs > this.times[this.slot(this.count - 1)]!)) return false;
    const silence = this.silenceBefore(timeMs);
    this.timing.observeTime(timeMs, !silence);
    if (silence) this.stillUntil(timeMs);
    this.store(timeMs, channels ?? this.input);
    return true;
  }

  /**
   * Draws the frame at our clock's `nowMs` (the same clock as `arrivedMs`): moves the lag toward
   * offset + target delay (growing at most `growSlew`, relaxing at most `relaxSlew`; at once after
   * a frame gap longer than `resyncGapMs`), then draws `nowMs − lag` into `out`.
   */
  sample(nowMs: number): InterpState {
    const s = this.settings;
    const t = this.timing;
    const c = this.t3;
    const last = c[2]!;
    const dt = last === last ? nowMs - last : 0;
    const gap = dt > s.resyncGapMs;
    c[2] = nowMs;
    const tv = t.v;
    const offset = tv[0]!;
    if (offset !== offset) {
      this.state = InterpState.Empty;
      return this.state;
    }
    const want = offset + tv[5]!;
    const lag = c[0]!;
    if (lag !== lag || gap || tv[1] !== tv[1]) {
      c[0] = want;
    } else if (want > lag) {
      c[0] = Math.min(want, lag + s.growSlew * dt);
    } else {
      c[0] = Math.max(want, lag - s.relaxSlew * dt);
    }
    c[3] = nowMs - c[0]!;
    c[4] = dt;
    return this.draw(gap);
  }

  /**
   * Draws the samples' clock time `renderTimeMs` (from a `RenderClock`) into `out`. A step of the
   * render time longer than `resyncGapMs` resyncs.
   */
  sampleAt(renderTimeMs: number): InterpState {
    const c = this.t3;
    const prev = c[1]!;
    const dt = prev === prev ? renderTimeMs - prev : 0;
    c[3] = renderTimeMs;
    c[4] = dt;
    return this.draw(dt > this.settings.resyncGapMs);
  }

  // ---- internals ----

  private slot(j: number): number {
    return (this.head + j) % this.cap;
  }

  /** True when the newest sample stood still (equal to the one before): the sender went silent. */
  private silenceBefore(timeMs: number): boolean {
    if (this.count < 2) return false;
    const a = this.slot(this.count - 1);
    const b = this.slot(this.count - 2);
    const iv = this.timing.interval;
    if (iv === iv && timeMs - this.times[a]! <= 2 * iv) return false;
    const n = this.n;
    for (let c = 0; c < this.moving; c++) if (this.values[a * n + c] !== this.values[b * n + c]) return false;
    return true;
  }

  /**
   * After a silence the entity stood still until about one interval before the sample that
   * ends it: a copy of the still pose there keeps the whole silence from becoming one slow glide.
   */
  private stillUntil(timeMs: number): void {
    const a = this.slot(this.count - 1);
    const iv = this.timing.interval;
    const at = timeMs - (iv === iv ? iv : this.settings.minDelayMs);
    if (!(at > this.times[a]!)) return;
    for (let c = 0; c < this.n; c++) this.scratch[c] = this.values[a * this.n + c]!;
    this.store(at, this.scratch);
  }

  private store(timeMs: number, ch: ArrayLike<number>): void {
    const s = this.settings;
    const n = this.n;
    const lin = this.layout.linear;
    const mv = this.moving;
    let cut = false;
    let prev = -1;
    if (this.count > 0) {
      prev = this.slot(this.count - 1);
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
    for (let c = 0; c < mv; c++) {
      let m = 0;
      if (prev >= 0 && !cut) {
        const dtp = timeMs - this.times[prev]!;
        let d = this.values[i * n + c]! - this.values[prev * n + c]!;
        if (c >= lin) d -= TAU * Math.floor((d + Math.PI) / TAU);
        m = d / dtp;
      }
      this.tangents[i * mv + c] = m;
    }
    this.pushed = true;
  }

  /** Draws the time in `t3[slot]` into `out` (no recovery offset); returns the state, sets `seg`. */
  private evalAt(slot: number, out: Float64Array): InterpState {
    const r = this.t3[slot]!;
    const n = this.n;
    const lin = this.layout.linear;
    const mv = this.moving;
    if (this.count === 0) return InterpState.Empty;
    // newest sample at or before r
    let j = this.count - 1;
    while (j >= 0 && this.times[this.slot(j)]! > r) j--;
    if (j < 0) {
      const o = this.slot(0);
      for (let c = 0; c < n; c++) out[c] = this.values[o * n + c]!;
      this.seg = 0;
      return InterpState.Holding;
    }
    this.seg = j;
    const a = this.slot(j);
    for (let c = mv; c < n; c++) out[c] = this.values[a * n + c]!;
    const ta = this.times[a]!;
    const next = j + 1 < this.count ? this.slot(j + 1) : -1;
    if (next < 0 || this.cuts[next] === 1) {
      const iv = this.timing.v[1]!;
      const lim = Math.max(this.settings.extrapolateMs, this.settings.extrapolateIntervals * (iv === iv ? iv : 0));
      const ex = Math.min(r - ta, lim);
      for (let c = 0; c < mv; c++) {
        const v = this.values[a * n + c]! + this.tangents[a * mv + c]! * ex;
        out[c] = c >= lin ? v - TAU * Math.floor((v + Math.PI) / TAU) : v;
      }
      return r - ta <= lim ? InterpState.Extrapolating : InterpState.Holding;
    }
    const b = next;
    const h = this.times[b]! - ta;
    const u = (r - ta) / h;
    const u2 = u * u;
    const u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1;
    const h10 = u3 - 2 * u2 + u;
    const h01 = -2 * u3 + 3 * u2;
    const h11 = u3 - u2;
    for (let c = 0; c < mv; c++) {
      const p0 = this.values[a * n + c]!;
      let d = this.values[b * n + c]! - p0;
      if (c >= lin) d -= TAU * Math.floor((d + Math.PI) / TAU);
      const sec = d / h;
      let m0 = this.tangents[a * mv + c]!;
      let m1 = this.tangents[b * mv + c]!;
      // Fritsch–Carlson: no overshoot, no backward motion inside a segment.
      if (sec === 0) {
        m0 = 0;
        m1 = 0;
      } else {
        const al = m0 / sec;
        const be = m1 / sec;
        if (al < 0) m0 = 0;
        if (be < 0) m1 = 0;
        const q = (al < 0 ? 0 : al * al) + (be < 0 ? 0 : be * be);
        if (q > 9) {
          const k = 3 / Math.sqrt(q);
          m0 *= k;
          m1 *= k;
        }
      }
      const v = h00 * p0 + h10 * h * m0 + h01 * (p0 + d) + h11 * h * m1;
      out[c] = c >= lin ? v - TAU * Math.floor((v + Math.PI) / TAU) : v;
    }
    return InterpState.Interpolating;
  }

  private seg = 0;

  private draw(resync: boolean): InterpState {
    const r = this.t3[3]!;
    const dt = this.t3[4]!;
    const mv = this.moving;
    const lin = this.layout.linear;
    const n = this.n;
    const prevR = this.t3[1]!;
    let st = this.evalAt(3, this.raw);
    if (st === InterpState.Empty) {
      this.state = st;
      return st;
    }
    const segSlot = this.slot(this.seg);
    const crossed = this.cuts[segSlot] === 1 && prevR === prevR && prevR < this.times[segSlot]! && r >= this.times[segSlot]!;
    // the recovery offset decays, then a fresh jump is added
    const keep = Math.exp(-this.recoverRate * Math.max(dt, 0) * 0.001);
    for (let c = 0; c < mv; c++) this.err[c] = this.err[c]! * keep;
    if (resync || crossed) {
      this.err.fill(0);
      st = InterpState.Snapped;
    } else if (
      this.pushed &&
      prevR === prevR &&
      (this.prevState === InterpState.Extrapolating || this.prevState === InterpState.Holding)
    ) {
      // what the new samples say about the previous frame, against what it drew
      this.evalAt(1, this.scratch);
      for (let c = 0; c < mv; c++) {
        let d = this.prevRaw[c]! - this.scratch[c]!;
        if (c >= lin) d -= TAU * Math.floor((d + Math.PI) / TAU);
        this.err[c] = this.err[c]! + d;
      }
      this.evalAt(3, this.raw);
    }
    for (let c = 0; c < mv; c++) {
      if (Math.abs(this.err[c]!) < 1e-9) this.err[c] = 0;
      const v = this.raw[c]! + this.err[c]!;
      this.out[c] = c >= lin ? v - TAU * Math.floor((v + Math.PI) / TAU) : v;
      this.prevRaw[c] = this.raw[c]!;
    }
    for (let c = mv; c < n; c++) this.out[c] = this.raw[c]!;
    this.pushed = false;
    this.prevState = st;
    this.state = st;
    this.t3[1] = r;
    return st;
  }
}

/**
 * Interpolators keyed by entity, pooled: an entity entering view reuses an interpolator a
 * leaving one gave back, so view changes allocate nothing in steady state. Live entries are
 * dense (`at(i)`, `keyAt(i)` for `i < size`), so a frame loop needs no iterator.
 */
export class InterpolatedSet<K> {
  /** The layout every interpolator here has. */
  readonly layout: ChannelLayout;
  private readonly settings: Partial<NetcodeSettings> | undefined;
  private readonly index = new Map<K, number>();
  private readonly live: Interpolator[] = [];
  private readonly keys: K[] = [];
  private readonly free: Interpolator[] = [];

  /** A set of interpolators of `layout`, with `settings` over the defaults. */
  constructor(layout: ChannelLayout, settings?: Partial<NetcodeSettings>) {
    this.layout = layout;
    this.settings = settings;
  }

  /** Live entities. */
  get size(): number {
    return this.live.length;
  }

  /** The `i`th live interpolator (`0 <= i < size`). */
  at(i: number): Interpolator {
    return this.live[i]!;
  }

  /** The key of the `i`th live interpolator. */
  keyAt(i: number): K {
    return this.keys[i]!;
  }

  /** The interpolator of `key`, if it is in view. */
  get(key: K): Interpolator | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.live[i];
  }

  /** The interpolator of `key`: the live one, or a pooled (reset) or new one. */
  enter(key: K): Interpolator {
    const i = this.index.get(key);
    if (i !== undefined) return this.live[i]!;
    const it = this.free.pop() ?? new Interpolator(this.layout, this.settings);
    this.index.set(key, this.live.length);
    this.live.push(it);
    this.keys.push(key);
    return it;
  }

  /** `key` left view: its interpolator is reset and pooled. Returns false when it was not live. */
  leave(key: K): boolean {
    const i = this.index.get(key);
    if (i === undefined) return false;
    const it = this.live[i]!;
    const last = this.live.length - 1;
    if (i !== last) {
      this.live[i] = this.live[last]!;
      this.keys[i] = this.keys[last]!;
      this.index.set(this.keys[i]!, i);
    }
    this.live.pop();
    this.keys.pop();
    this.index.delete(key);
    it.reset();
    this.free.push(it);
    return true;
  }

  /** Draws every live entity at our clock's `nowMs` (`Interpolator.sample`). */
  sampleAll(nowMs: number): void {
    for (let i = 0; i < this.live.length; i++) this.live[i]!.sample(nowMs);
  }
}
