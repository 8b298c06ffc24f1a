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
const BLOCK_START = 7;
const BLOCK_MIN = 8;
const BLOCK_AT = 9;
const LOOP_AT = 10; // the sender's time the loop's offset is at
const LOOP_OFFSET = 11; // the loop's offset there
const LOOP_ERROR = 12; // the loop's mean error (ms): what it takes a block's error at
// The argument of the private steps: a double passed to a call V8 does not inline is boxed.
const ARG = 13;
/** Slot: the delay `overduePercentile` of recent samples needed (the next one is overdue past it). */
export const DUE = 14;
const SLOTS = 15;

/**
 * The render time one frame later, in place in `slots[i]`: it moves on by `dtMs` of our clock at
 * the sender's rate (`1 / (1 + rate)`), then toward `want` by what lies beyond `bandMs` of it
 * (within the band it runs on at the rate alone), at most `backSlew` (ms per ms, drawing further
 * in the past) or `aheadSlew` (closer to the present).
 */
export function followTime(slots: Float64Array, i: number, want: number, dtMs: number, rate: number, backSlew: number, aheadSlew: number, bandMs: number): void {
  const dt = dtMs > 0 ? dtMs : 0;
  const moved = slots[i]! + dt / (1 + rate);
  const d = want - moved;
  const beyond = d > bandMs ? d - bandMs : d < -bandMs ? d + bandMs : 0;
  slots[i] = moved + Math.min(Math.max(beyond, -backSlew * dt), aheadSlew * dt);
}

/**
 * The target delay after new statistics ask for `wanted` (ms), in place in `slots[i]` (a
 * returned double would be boxed): it holds unless `wanted` is more, or more than `bandMs` less.
 */
export function holdTarget(slots: Float64Array, i: number, wanted: number, bandMs: number): void {
  const held = slots[i]!;
  if (wanted > held || wanted < held - bandMs) slots[i] = wanted;
}

/** `StreamTiming.senderNow` over its slots `v` (inlined where a call would box its result). */
export function senderNow(v: Float64Array, nowMs: number): number {
  return v[LAST_SENT]! + (nowMs - v[LAST_SENT]! - v[OFFSET]!) / (1 + v[RATE]!);
}

/**
 * One step of the loop that follows the least arrival − sent of each block with an offset and
 * a rate (a critically damped second-order loop, as clock-sync loops are), in place in the
 * slots `v` of a `StreamTiming`: the block's `error` (ms) against the loop's line, `dtMs` (the
 * sender's ms) since the block before. An error past 3 times the loop's mean error (a block
 * the link held up) counts only that far, so a stall moves the loop little while a lasting
 * change of rate, whose errors repeat, widens the bound in a few blocks. The offset moves
 * `2k` and the rate `k²` of the error per `dtMs`, `k = dtMs / followMs` (at most 1); the rate
 * stays within `maxRate`.
 */
function rateLoop(v: Float64Array, error: number, dtMs: number, followMs: number, maxRate: number): void {
  const bound = 3 * v[LOOP_ERROR]! + 1;
  const e = Math.min(Math.max(error, -bound), bound);
  v[LOOP_ERROR] = v[LOOP_ERROR]! + 0.25 * (Math.abs(e) - v[LOOP_ERROR]!);
  const k = Math.min(1, dtMs / followMs);
  v[LOOP_OFFSET] = v[LOOP_OFFSET]! + v[RATE]! * dtMs + Math.min(1, 2 * k) * e;
  v[RATE] = Math.min(Math.max(v[RATE]! + (k * k * e) / dtMs, -maxRate), maxRate);
}

/**
 * The timing of one stream. The offset and the rate follow the least arrival − sent of each
 * block of `rateBlockMs` with a loop (`rateLoop`; a block held up whole by a stall is
 * skipped), the offset carried along at the rate between blocks; the delay covers what `latePercentile` of recent samples
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

  /** Timing under settings `s`. */
  constructor(s: NetcodeSettings) {
    this.s = s;
    const w = Math.max(1, s.lateWindow | 0);
    this.lates = new Float64Array(w);
    this.sorted = new Float64Array(w);
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
  /** The delay `overduePercentile` of recent samples needed: a next sample not there by then is overdue. */
  get due(): number { return this.v[DUE]!; }
  /** The delay the statistics ask for (ms), within its bounds, held within `targetBandMs`. */
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
    v[DUE] = 0;
    v[TARGET] = this.s.minDelayMs;
    this.lateCount = 0;
    this.lateHead = 0;
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
    v[ARG] = raw;
    this.block(sentMs);
    // Until the first block closes, the offset is the least arrival − sent so far (rate 0).
    v[OFFSET] = v[LOOP_AT] === v[LOOP_AT] ? v[LOOP_OFFSET]! + v[RATE]! * (sentMs - v[LOOP_AT]!) : v[BLOCK_MIN]!;
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
    const d = Math.min(n - 1, Math.max(0, Math.ceil(this.s.overduePercentile * n) - 1));
    this.v[DUE] = sorted[d]!;
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
    // A block whose least delay this sample undercuts by more than 3/4 of the time between them
    // was held up whole (a stall: what was sent in it arrived in a burst): it says nothing.
    if (start === start && !(raw - v[BLOCK_MIN]! < -0.75 * (sentMs - v[BLOCK_AT]!))) this.closeBlock();
    v[BLOCK_START] = sentMs;
    v[BLOCK_MIN] = raw;
    v[BLOCK_AT] = sentMs;
  }

  /**
   * The block in `BLOCK_AT`/`BLOCK_MIN` steps the loop (`rateLoop`) that follows the blocks'
   * least arrival − sent with an offset and a rate.
   */
  private closeBlock(): void {
    const v = this.v;
    const s = this.s;
    if (v[LOOP_AT] !== v[LOOP_AT]) {
      // the first block starts the loop at its least arrival − sent
      v[LOOP_AT] = v[BLOCK_AT]!;
      v[LOOP_OFFSET] = v[BLOCK_MIN]!;
      v[LOOP_ERROR] = s.maxRate * s.rateBlockMs;
      return;
    }
    const dt = v[BLOCK_AT]! - v[LOOP_AT]!;
    if (!(dt > 0)) return;
    rateLoop(v, v[BLOCK_MIN]! - (v[LOOP_OFFSET]! + v[RATE]! * dt), dt, s.rateFollowMs, s.maxRate);
    v[LOOP_AT] = v[BLOCK_AT]!;
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
    holdTarget(v, TARGET, Math.min(Math.max(want, s.minDelayMs), hi), s.targetBandMs);
  }
}
