/**
 * Per-stream timing: the sender's clock against ours (an offset and a rate), the interval
 * between samples and its jitter, the lateness of recent samples, and the delay they ask for.
 * One per interpolator (each entity's delay fits its own interval); `RenderClock` has one too.
 * Mirrors Rust's `tuplet::netcode::StreamTiming`.
 */
import type { NetcodeSettings } from "./settings.js";

// Named slots of `StreamTiming`'s numbers (`timing.v[OFFSET]`). Doubles live in a Float64Array:
// a double stored in a field, or returned from a call V8 does not inline, is boxed (garbage per
// frame), so the hot paths read these slots by name instead of calling the getters.
/** Slot of `StreamTiming.v`: the offset. */
export const OFFSET = 0;
/** Slot: the sender's rate. */
export const RATE = 1;
/** Slot: the average interval. */
export const INTERVAL = 2;
const INTERVAL_JITTER = 3;
const NEED = 4;
/** Slot: the target delay. */
export const TARGET = 5;
/** Slot: the newest sample's time. */
export const LAST_SENT = 6;
const LAST_ARRIVED = 7;
const BLOCK_START = 8;
const BLOCK_MIN = 9;
const BLOCK_AT = 10;
// The argument of the private steps: a double passed to a call V8 does not inline is boxed.
const ARG = 11;
const SLOTS = 12;

/**
 * The render time one frame later, in place in `slots[i]`: it moves on by `dtMs` of our clock at
 * the sender's rate (`1 / (1 + rate)`), then toward `want` by at most `backSlew` (ms per ms,
 * drawing further in the past) or `aheadSlew` (closer to the present).
 */
export function followTime(slots: Float64Array, i: number, want: number, dtMs: number, rate: number, backSlew: number, aheadSlew: number): void {
  const dt = dtMs > 0 ? dtMs : 0;
  const moved = slots[i]! + dt / (1 + rate);
  const d = want - moved;
  slots[i] = moved + Math.min(Math.max(d, -backSlew * dt), aheadSlew * dt);
}

/** `StreamTiming.senderNow` over its slots `v` (inlined where a call would box its result). */
export function senderNow(v: Float64Array, nowMs: number): number {
  return v[LAST_SENT]! + (nowMs - v[LAST_SENT]! - v[OFFSET]!) / (1 + v[RATE]!);
}

/**
 * The timing of one stream. The offset is the lower envelope of arrival − sent, carried along
 * at the sender's measured rate and creeping up slowly; the rate is the median slope between
 * the least arrival − sent of recent blocks (Theil–Sen: a stall or a burst of late messages
 * moves one block, not the median); the delay covers what `latePercentile` of recent samples
 * needed (the interval before each plus its lateness), and a margin.
 */
export class StreamTiming {
  /** Every number, by its named slot (`OFFSET`, `RATE`, `INTERVAL`, `TARGET`, `LAST_SENT`). */
  readonly v: Float64Array = new Float64Array(SLOTS);
  private readonly s: NetcodeSettings;
  private readonly lates: Float64Array;
  private readonly sorted: Float64Array;
  private lateCount = 0;
  private lateHead = 0;
  private readonly blockAt: Float64Array;
  private readonly blockMin: Float64Array;
  private readonly slopes: Float64Array;
  private blockCount = 0;
  private blockHead = 0;

  /** Timing under settings `s`. */
  constructor(s: NetcodeSettings) {
    this.s = s;
    const w = Math.max(1, s.lateWindow | 0);
    this.lates = new Float64Array(w);
    this.sorted = new Float64Array(w);
    const b = Math.max(3, s.rateBlocks | 0);
    this.blockAt = new Float64Array(b);
    this.blockMin = new Float64Array(b);
    this.slopes = new Float64Array((b * (b - 1)) / 2);
    this.reset();
  }

  /** Our clock minus the sender's at its newest sample (ms, the lower envelope); NaN before the first. */
  get offset(): number { return this.v[OFFSET]!; }
  /** How much slower the sender's clock runs than ours (0.1: 10% slow; negative: fast). */
  get rate(): number { return this.v[RATE]!; }
  /** Average interval between samples on the sender's clock (ms); NaN before two samples. */
  get interval(): number { return this.v[INTERVAL]!; }
  /** Mean deviation of the interval (ms). */
  get intervalJitter(): number { return this.v[INTERVAL_JITTER]!; }
  /**
   * The delay (ms) that `latePercentile` of recent samples needed to arrive before the drawn
   * time reached them: the interval since the sample before plus its lateness (arrival − sent − offset).
   */
  get need(): number { return this.v[NEED]!; }
  /** The delay the statistics ask for (ms), within its bounds. */
  get target(): number { return this.v[TARGET]!; }
  /** The newest sample's time on the sender's clock (ms); NaN before the first. */
  get lastSent(): number { return this.v[LAST_SENT]!; }

  /** Forgets everything (an entity left view; a pooled interpolator is reused). */
  reset(): void {
    const v = this.v;
    v.fill(NaN);
    v[RATE] = 0;
    v[INTERVAL_JITTER] = 0;
    v[NEED] = 0;
    v[TARGET] = this.s.minDelayMs;
    this.lateCount = 0;
    this.lateHead = 0;
    this.blockCount = 0;
    this.blockHead = 0;
  }

  /** True once an interval was measured. */
  get warm(): boolean {
    return this.v[INTERVAL] === this.v[INTERVAL];
  }

  /**
   * One sample sent at `sentMs` (sender's clock) arrived at `arrivedMs` (ours). `countInterval`
   * false skips the interval statistics (after a silence: a stationary sender stops sending).
   */
  observe(sentMs: number, arrivedMs: number, countInterval: boolean): void {
    const s = this.s;
    const v = this.v;
    const raw = arrivedMs - sentMs;
    if (v[OFFSET] !== v[OFFSET]) {
      v[OFFSET] = raw;
    } else {
      const carried = v[OFFSET]! + v[RATE]! * (sentMs - v[LAST_SENT]!);
      v[OFFSET] = Math.min(carried + Math.max(0, arrivedMs - v[LAST_ARRIVED]!) * s.offsetCreep, raw);
    }
    v[ARG] = raw;
    this.block(sentMs);
    const late = Math.min(raw - v[OFFSET]!, s.maxDelayMs);
    const had = v[LAST_SENT] === v[LAST_SENT];
    if (had && countInterval) {
      v[ARG] = sentMs - v[LAST_SENT]!;
      this.intervalSample();
    }
    // What this sample needed of the delay: the time since the one before, and its lateness.
    const iv = had && countInterval ? sentMs - v[LAST_SENT]! : v[INTERVAL]!;
    v[ARG] = late + (iv === iv ? iv : 0);
    this.needSample();
    v[LAST_SENT] = sentMs;
    v[LAST_ARRIVED] = arrivedMs;
    this.writeTarget();
  }

  /** Records a sample's time on a clock that needs no offset (a server tick); intervals only. */
  observeTime(timeMs: number, countInterval: boolean): void {
    const v = this.v;
    if (v[LAST_SENT] === v[LAST_SENT] && countInterval) {
      v[ARG] = timeMs - v[LAST_SENT]!;
      this.intervalSample();
    }
    v[LAST_SENT] = timeMs;
    this.writeTarget();
  }

  /** The sender's clock at our `nowMs`, from the newest sample, the offset and the rate (NaN before a sample). */
  senderNow(nowMs: number): number {
    return senderNow(this.v, nowMs);
  }

  /** The delay the statistics ask for (ms), within its bounds. */
  targetDelay(): number {
    return this.v[TARGET]!;
  }

  /** One interval (in slot `ARG`) into the average and its jitter. */
  private intervalSample(): void {
    const s = this.s;
    const v = this.v;
    const iv = v[ARG]!;
    if (!(iv > 0)) return;
    if (v[INTERVAL] !== v[INTERVAL]) {
      v[INTERVAL] = iv;
      return;
    }
    const w = Math.min(1 - Math.exp(-iv / s.statsMs), s.statsMaxWeight);
    v[INTERVAL_JITTER] = v[INTERVAL_JITTER]! + w * (Math.abs(iv - v[INTERVAL]!) - v[INTERVAL_JITTER]!);
    v[INTERVAL] = v[INTERVAL]! + w * (iv - v[INTERVAL]!);
  }

  /** Keeps what a sample needed (in slot `ARG`) in the window (and a sorted copy) and writes its percentile. */
  private needSample(): void {
    const need = this.v[ARG]!;
    const w = this.lates.length;
    const sorted = this.sorted;
    let n = this.lateCount;
    if (n === w) {
      // the oldest leaves the sorted copy (no sort call: V8's TypedArray sort allocates)
      const old = this.lates[this.lateHead]!;
      let i = 0;
      while (i < n - 1 && sorted[i] !== old) i++;
      for (; i < n - 1; i++) sorted[i] = sorted[i + 1]!;
      n--;
    }
    let j = n;
    while (j > 0 && sorted[j - 1]! > need) {
      sorted[j] = sorted[j - 1]!;
      j--;
    }
    sorted[j] = need;
    n++;
    this.lates[this.lateHead] = need;
    this.lateHead = (this.lateHead + 1) % w;
    this.lateCount = n;
    const k = Math.min(n - 1, Math.max(0, Math.ceil(this.s.latePercentile * n) - 1));
    this.v[NEED] = sorted[k]!;
  }

  /**
   * The least arrival − sent (in slot `ARG`) of each block of `rateBlockMs`; a closed block
   * updates the rate.
   */
  private block(sentMs: number): void {
    const v = this.v;
    const raw = v[ARG]!;
    const start = v[BLOCK_START]!;
    if (start === start && sentMs - start < this.s.rateBlockMs) {
      if (raw < v[BLOCK_MIN]!) {
        v[BLOCK_MIN] = raw;
        v[BLOCK_AT] = sentMs;
      }
      return;
    }
    if (start === start) this.closeBlock();
    v[BLOCK_START] = sentMs;
    v[BLOCK_MIN] = raw;
    v[BLOCK_AT] = sentMs;
  }

  /** The block in `BLOCK_AT`/`BLOCK_MIN` joins the recent ones; their median slope is the rate. */
  private closeBlock(): void {
    const at = this.v[BLOCK_AT]!;
    const min = this.v[BLOCK_MIN]!;
    const cap = this.blockAt.length;
    this.blockAt[this.blockHead] = at;
    this.blockMin[this.blockHead] = min;
    this.blockHead = (this.blockHead + 1) % cap;
    if (this.blockCount < cap) this.blockCount++;
    const n = this.blockCount;
    if (n < 3) return;
    const sl = this.slopes;
    let m = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dt = this.blockAt[j]! - this.blockAt[i]!;
        if (dt !== 0) sl[m++] = (this.blockMin[j]! - this.blockMin[i]!) / dt;
      }
    }
    if (m === 0) return;
    for (let i = 1; i < m; i++) {
      const x = sl[i]!;
      let j = i;
      for (; j > 0 && sl[j - 1]! > x; j--) sl[j] = sl[j - 1]!;
      sl[j] = x;
    }
    const median = m % 2 === 1 ? sl[(m - 1) / 2]! : 0.5 * (sl[m / 2 - 1]! + sl[m / 2]!);
    const lim = this.s.maxRate;
    this.v[RATE] = Math.min(Math.max(median, -lim), lim);
  }

  /** The percentile of what recent samples needed, plus the margin, clamped. */
  private writeTarget(): void {
    const s = this.s;
    const v = this.v;
    const interval = v[INTERVAL]!;
    if (interval !== interval) {
      v[TARGET] = s.minDelayMs;
      return;
    }
    const want = v[NEED]! + s.delayMarginMs;
    const hi = Math.max(s.maxDelayMs, s.longIntervalCap * interval);
    v[TARGET] = Math.min(Math.max(want, s.minDelayMs), hi);
  }
}
