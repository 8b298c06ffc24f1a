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
const LOOP_AT = 10; // the sender's time the loops' offsets are at
const LOOP_OFFSET = 11; // the (fast) loop's offset there
const LOOP_ERROR = 12; // the loop's mean error (ms): what it takes a block's error at
// The argument of the private steps: a double passed to a call V8 does not inline is boxed.
const ARG = 13;
/** Slot: the delay `overduePercentile` of recent samples needed (the next one is overdue past it). */
export const DUE = 14;
const LOOP_RATE = 15; // the (fast) loop's rate
const STEADY_OFFSET = 16; // the steady loop's offset at LOOP_AT
const STEADY_RATE = 17; // the steady loop's rate
const STEADY_ERROR = 18; // the steady loop's mean error (ms)
const STEADY_BIAS = 19; // the steady loop's recent mean error, signed (ms)
const FAST_SHARE = 20; // the fast loop's share of the line (0 to 1)
const LINE_OFFSET = 21; // the line's offset at LOOP_AT (the shares' mix)
const SLOTS = 22;

/** The weight of each block's error in the steady loop's recent mean error (`fastShare`). */
const STEADY_BIAS_WEIGHT = 0.35;
/**
 * The steady loop counts as departed when its recent mean error passes this many of the fast
 * loop's mean errors (plus `STEADY_FLOOR_MS`).
 */
const STEADY_DEPARTED = 1.2;
/** Below this share of that bound the steady loop counts as on track. */
const STEADY_ON_TRACK = 0.4;
/** The fast loop's share falls by at most this much per block. */
const STEADY_RETURN = 0.1;
/** A floor under that bound (ms), for a link without jitter. */
const STEADY_FLOOR_MS = 0.5;

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
 * slots `v` of a `StreamTiming`: the loop's offset, rate and mean error live in slots `o`, `r`
 * and `er` (the fast loop's or the steady one's); the block's `error` (ms) against the loop's
 * line, `dtMs` (the sender's ms) since the block before. An error past 3 times the loop's mean error (a block
 * the link held up) counts only that far, so a stall moves the loop little while a lasting
 * change of rate, whose errors repeat, widens the bound in a few blocks. The offset moves
 * `2k` and the rate `k²` of the error per `dtMs`, `k = dtMs / followMs` (at most 1); the rate
 * stays within `maxRate`.
 */
function rateLoop(v: Float64Array, o: number, r: number, er: number, error: number, dtMs: number, followMs: number, maxRate: number): void {
  const bound = 3 * v[er]! + 1;
  const e = Math.min(Math.max(error, -bound), bound);
  v[er] = v[er]! + 0.25 * (Math.abs(e) - v[er]!);
  const k = Math.min(1, dtMs / followMs);
  v[o] = v[o]! + v[r]! * dtMs + Math.min(1, 2 * k) * e;
  v[r] = Math.min(Math.max(v[r]! + (k * k * e) / dtMs, -maxRate), maxRate);
}

/**
 * The innovation test between the two loops of a `StreamTiming` with `rateSteadyMs`: the fast
 * loop's share of the line, in place in `slots[i]` (its share one block before). The steady
 * loop's recent mean error `bias` (ms, signed) against `noise`, the fast loop's mean error: a
 * jittery link leaves the steady loop's errors around zero (share 0, the steady line), a tick
 * whose rate changes sends them one way block after block (share 1 past `STEADY_DEPARTED` of
 * the noise, in between from `STEADY_ON_TRACK` of it). The share falls by at most
 * `STEADY_RETURN` a block, so a swing that eases for a block or two is still followed.
 */
export function fastShare(slots: Float64Array, i: number, bias: number, noise: number): void {
  const bound = STEADY_DEPARTED * noise + STEADY_FLOOR_MS;
  const g = Math.min(1, Math.max(0, (Math.abs(bias) - STEADY_ON_TRACK * bound) / ((1 - STEADY_ON_TRACK) * bound)));
  slots[i] = Math.max(g, slots[i]! - STEADY_RETURN);
}

/**
 * The timing of one stream. The offset and the rate follow the least arrival − sent of each
 * block of `rateBlockMs` with a loop (`rateLoop`; a block held up whole by a stall is skipped;
 * with `rateSteadyMs`, a second, steadier loop gives the line while the fast loop only
 * departs from it as noise does: `fastShare`), the offset carried along at the rate between
 * blocks; the delay covers what `latePercentile` of recent samples needed (the interval before
 * each plus its lateness), and a margin.
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
    v[LOOP_RATE] = 0;
    v[STEADY_RATE] = 0;
    v[STEADY_BIAS] = 0;
    v[FAST_SHARE] = 1;
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
    v[OFFSET] = v[LOOP_AT] === v[LOOP_AT] ? v[LINE_OFFSET]! + v[RATE]! * (sentMs - v[LOOP_AT]!) : v[BLOCK_MIN]!;
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
      v[STEADY_OFFSET] = v[BLOCK_MIN]!;
      v[STEADY_ERROR] = v[LOOP_ERROR]!;
      v[LINE_OFFSET] = v[BLOCK_MIN]!;
      return;
    }
    const dt = v[BLOCK_AT]! - v[LOOP_AT]!;
    if (!(dt > 0)) return;
    const min = v[BLOCK_MIN]!;
    rateLoop(v, LOOP_OFFSET, LOOP_RATE, LOOP_ERROR, min - (v[LOOP_OFFSET]! + v[LOOP_RATE]! * dt), dt, s.rateFollowMs, s.maxRate);
    if (s.rateSteadyMs > 0) {
      const e = min - (v[STEADY_OFFSET]! + v[STEADY_RATE]! * dt);
      rateLoop(v, STEADY_OFFSET, STEADY_RATE, STEADY_ERROR, e, dt, s.rateSteadyMs, s.maxRate);
      v[STEADY_BIAS] = v[STEADY_BIAS]! + STEADY_BIAS_WEIGHT * (e - v[STEADY_BIAS]!);
      fastShare(v, FAST_SHARE, v[STEADY_BIAS]!, v[LOOP_ERROR]!);
      // The line: the steady loop's, moved toward the fast loop's by the fast loop's share.
      const w = v[FAST_SHARE]!;
      v[LINE_OFFSET] = v[STEADY_OFFSET]! + w * (v[LOOP_OFFSET]! - v[STEADY_OFFSET]!);
      v[RATE] = v[STEADY_RATE]! + w * (v[LOOP_RATE]! - v[STEADY_RATE]!);
    } else {
      v[LINE_OFFSET] = v[LOOP_OFFSET]!;
      v[RATE] = v[LOOP_RATE]!;
    }
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
