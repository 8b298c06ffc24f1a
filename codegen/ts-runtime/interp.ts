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
  /** The lower envelope of arrival − sent (ms); NaN before the first sample. */
  offset = NaN;
  /** Average interval between samples on the sender's clock (ms); NaN before two samples. */
  interval = NaN;
  /** Mean deviation of the interval (ms). */
  intervalJitter = 0;
  /** Average lateness: arrival − (sent + offset) (ms). */
  late = 0;
  /** Mean deviation of the lateness (ms). */
  lateJitter = 0;
  /** The delay the statistics ask for (ms), within its bounds. */
  target: number;
  private lastSent = NaN;
  private lastArrived = NaN;
  private readonly s: NetcodeSettings;

  /** Timing under settings `s`. */
  constructor(s: NetcodeSettings) {
    this.s = s;
    this.target = s.minDelayMs;
  }

  /** Forgets everything (an entity left view; a pooled interpolator is reused). */
  reset(): void {
    this.offset = NaN;
    this.interval = NaN;
    this.intervalJitter = 0;
    this.late = 0;
    this.lateJitter = 0;
    this.target = this.s.minDelayMs;
    this.lastSent = NaN;
    this.lastArrived = NaN;
  }

  /** True once an interval was measured. */
  get warm(): boolean {
    return this.interval === this.interval;
  }

  /**
   * One sample sent at `sentMs` (sender's clock) arrived at `arrivedMs` (ours). `countInterval`
   * false skips the interval statistics (after a silence: a stationary sender stops sending).
   */
  observe(sentMs: number, arrivedMs: number, countInterval: boolean): void {
    const s = this.s;
    const raw = arrivedMs - sentMs;
    if (this.offset !== this.offset) {
      this.offset = raw;
    } else {
      const creep = Math.max(0, arrivedMs - this.lastArrived) * s.offsetCreep;
      this.offset = Math.min(this.offset + creep, raw);
    }
    const late = Math.min(arrivedMs - sentMs - this.offset, s.maxDelayMs);
    if (this.lastSent !== this.lastSent) {
      this.late = late;
    } else {
      const iv = sentMs - this.lastSent;
      const w = Math.min(1 - Math.exp(-iv / s.statsMs), s.statsMaxWeight);
      if (countInterval && iv > 0) {
        if (this.interval !== this.interval) {
          this.interval = iv;
        } else {
          this.intervalJitter += w * (Math.abs(iv - this.interval) - this.intervalJitter);
          this.interval += w * (iv - this.interval);
        }
      }
      this.lateJitter += w * (Math.abs(late - this.late) - this.lateJitter);
      this.late += w * (late - this.late);
    }
    this.lastSent = sentMs;
    this.lastArrived = arrivedMs;
    this.target = this.targetDelay();
  }

  /** Records a sample's time on a clock that needs no offset (a server tick); intervals only. */
  observeTime(timeMs: number, countInterval: boolean): void {
    const s = this.s;
    if (this.lastSent === this.lastSent) {
      const iv = timeMs - this.lastSent;
      if (countInterval && iv > 0) {
        if (this.interval !== this.interval) {
          this.interval = iv;
        } else {
          const w = Math.min(1 - Math.exp(-iv / s.statsMs), s.statsMaxWeight);
          this.intervalJitter += w * (Math.abs(iv - this.interval) - this.intervalJitter);
          this.interval += w * (iv - this.interval);
        }
      }
    }
    this.lastSent = timeMs;
  }

  /** One interval + lateness + `jitterFactor` × both jitters − `dryGraceMs`, clamped to its bounds. */
  targetDelay(): number {
    const s = this.s;
    if (this.interval !== this.interval) return s.minDelayMs;
    const want = this.interval + this.late + s.jitterFactor * (this.intervalJitter + this.lateJitter) - s.dryGraceMs;
    const hi = Math.max(s.maxDelayMs, s.longIntervalCap * this.interval);
    return Math.min(Math.max(want, s.minDelayMs), hi);
  }

  /** How long the entity may be extrapolated past its newest sample (ms). */
  extrapolateLimit(): number {
    const s = this.s;
    const iv = this.interval === this.interval ? this.interval : 0;
    return Math.max(s.extrapolateMs, s.extrapolateIntervals * iv);
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
  /** The current lag behind our clock (offset + delay, ms): render time = now − lag. */
  lag = NaN;
  /** The time drawn by the last frame on the samples' clock (sender or server ms). */
  renderTime = NaN;

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
  private lastNow = NaN;
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
    this.lag = NaN;
    this.renderTime = NaN;
    this.lastNow = NaN;
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
    const dt = this.lastNow === this.lastNow ? nowMs - this.lastNow : 0;
    const gap = dt > s.resyncGapMs;
    this.lastNow = nowMs;
    if (t.offset !== t.offset) {
      this.state = InterpState.Empty;
      return this.state;
    }
    const want = t.offset + t.target;
    if (this.lag !== this.lag || gap || !t.warm) {
      this.lag = want;
    } else if (want > this.lag) {
      this.lag = Math.min(want, this.lag + s.growSlew * dt);
    } else {
      this.lag = Math.max(want, this.lag - s.relaxSlew * dt);
    }
    return this.draw(nowMs - this.lag, dt, gap);
  }

  /**
   * Draws the samples' clock time `renderTimeMs` (from a `RenderClock`) into `out`. A step of the
   * render time longer than `resyncGapMs` resyncs.
   */
  sampleAt(renderTimeMs: number): InterpState {
    const dt = this.renderTime === this.renderTime ? renderTimeMs - this.renderTime : 0;
    return this.draw(renderTimeMs, dt, dt > this.settings.resyncGapMs);
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
        if (c >= lin) d = wrapAngle(d);
        m = d / dtp;
      }
      this.tangents[i * mv + c] = m;
    }
    this.pushed = true;
  }

  /** Draws render time `r` into `raw` (no recovery offset); returns the state and the segment. */
  private evalAt(r: number, out: Float64Array): InterpState {
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
      const lim = this.timing.extrapolateLimit();
      const ex = Math.min(r - ta, lim);
      for (let c = 0; c < mv; c++) {
        const v = this.values[a * n + c]! + this.tangents[a * mv + c]! * ex;
        out[c] = c >= lin ? wrapAngle(v) : v;
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
      if (c >= lin) d = wrapAngle(d);
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
      out[c] = c >= lin ? wrapAngle(v) : v;
    }
    return InterpState.Interpolating;
  }

  private seg = 0;

  private draw(r: number, dt: number, resync: boolean): InterpState {
    const mv = this.moving;
    const lin = this.layout.linear;
    const n = this.n;
    const prevR = this.renderTime;
    let st = this.evalAt(r, this.raw);
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
      this.evalAt(prevR, this.scratch);
      for (let c = 0; c < mv; c++) {
        let d = this.prevRaw[c]! - this.scratch[c]!;
        if (c >= lin) d = wrapAngle(d);
        this.err[c] = this.err[c]! + d;
      }
      this.evalAt(r, this.raw);
    }
    for (let c = 0; c < mv; c++) {
      if (Math.abs(this.err[c]!) < 1e-9) this.err[c] = 0;
      const v = this.raw[c]! + this.err[c]!;
      this.out[c] = c >= lin ? wrapAngle(v) : v;
      this.prevRaw[c] = this.raw[c]!;
    }
    for (let c = mv; c < n; c++) this.out[c] = this.raw[c]!;
    this.pushed = false;
    this.prevState = st;
    this.state = st;
    this.renderTime = r;
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
