/**
 * Input playout: a per-player jitter buffer on the server (the Rust runtime's
 * `tuplet::netcode::playout`, the same algorithm; shared traces hold both to the same
 * applied frames and counters).
 *
 * Frames of `input:batch` are queued by sequence number and handed out one per world step.
 * The queue starts (and restarts after running dry) once it holds the target depth (or no
 * frame came for `idleFlushSteps`); an
 * underrun grows the target, a second of slack shrinks it by one (with one catch-up frame
 * on that step). A frame already applied, skipped or queued is counted and ignored; a
 * missing frame with later ones queued is waited for a bounded number of steps (none once
 * the frames behind it exceed the target depth), then skipped. The queue is a fixed ring covering sequence numbers `next .. next + capacity`:
 * a frame beyond it drops the oldest queued frames (counted). Nothing is allocated after
 * construction.
 */

/** The playout's constants (see `PLAYOUT_DEFAULTS`). */
export interface PlayoutSettings {
  /** Frames the ring holds (a power of two): the hard cap. 32 is `input:ack`'s `queued` range. */
  readonly capacity: number;
  /** Target depth at the start, frames: one batch. */
  readonly initialTarget: number;
  /** The target never shrinks below this, frames. */
  readonly minTarget: number;
  /** The target never grows past this, frames (below `capacity`). */
  readonly maxTarget: number;
  /** Frames added to the target on each underrun. */
  readonly grow: number;
  /** Steps of slack before the target shrinks by one: a second of 60 Hz steps. */
  readonly slackSteps: number;
  /** The queue must have held at least this many frames after every step of the window to shrink. */
  readonly shrinkSlack: number;
  /** Steps to wait for a missing frame while later ones are queued (ended early once the queue exceeds the target). */
  readonly gapWaitSteps: number;
  /** Steps without a new frame after which a priming queue starts below the target (a client that stopped sending gets its last frames applied). */
  readonly idleFlushSteps: number;
}

/** The default settings, for 60 Hz input frames sent four to a batch. */
export const PLAYOUT_DEFAULTS: PlayoutSettings = Object.freeze({
  capacity: 32,
  initialTarget: 4,
  minTarget: 2,
  maxTarget: 24,
  grow: 2,
  slackSteps: 60,
  shrinkSlack: 2,
  gapWaitSteps: 6,
  idleFlushSteps: 12,
});

/** What one `step` did. */
export type PlayoutState = "idle" | "priming" | "applied" | "gapWait" | "underrun";

/** Counters since the playout was created (the Rust `PlayoutStats`). */
export interface PlayoutStats {
  /** Frames pushed. */
  received: number;
  /** Frames applied. */
  applied: number;
  /** Frames already queued when pushed again. */
  duplicates: number;
  /** Frames older than the next one to apply: ignored. */
  stale: number;
  /** Sequence numbers skipped without being applied (gaps, room made by the cap). */
  skipped: number;
  /** Queued frames dropped to make room for a frame beyond the ring. */
  dropped: number;
  /** Times the queue ran dry while playing. */
  underruns: number;
  /** Times the target shrank. */
  shrinks: number;
  /** Steps with two frames applied. */
  catchups: number;
}

/** One player's input jitter buffer; `F` is the game's input frame. */
export class Playout<F> {
  readonly settings: PlayoutSettings;
  readonly stats: PlayoutStats = {
    received: 0,
    applied: 0,
    duplicates: 0,
    stale: 0,
    skipped: 0,
    dropped: 0,
    underruns: 0,
    shrinks: 0,
    catchups: 0,
  };
  /** Frames applied by the last `step`: 0, 1 or 2. */
  lastStepApplied = 0;
  private readonly slots: (F | undefined)[];
  private readonly full: Uint8Array;
  private readonly mask: number;
  private started = false;
  private playing = false;
  private next = 0;
  private heldCount = 0;
  private targetDepth: number;
  private gapWait = 0;
  private sincePush = 0;
  private windowSteps = 0;
  private windowMin = Infinity;
  private last: number | undefined;

  constructor(settings: PlayoutSettings = PLAYOUT_DEFAULTS) {
    const s = settings;
    if (!(s.capacity > 0 && (s.capacity & (s.capacity - 1)) === 0)) throw new RangeError("playout capacity must be a power of two");
    if (!(1 <= s.minTarget && s.minTarget <= s.initialTarget && s.initialTarget <= s.maxTarget && s.maxTarget < s.capacity)) {
      throw new RangeError("playout targets must satisfy 1 <= min <= initial <= max < capacity");
    }
    this.settings = s;
    this.slots = new Array<F | undefined>(s.capacity).fill(undefined);
    this.full = new Uint8Array(s.capacity);
    this.mask = s.capacity - 1;
    this.targetDepth = s.initialTarget;
  }

  /** Frames queued now. */
  get held(): number {
    return this.heldCount;
  }

  /** The current target depth, frames (what `input:buffer` announces). */
  get target(): number {
    return this.targetDepth;
  }

  /** The sequence number of the last frame applied (what `input:ack` sends), if any. */
  get lastApplied(): number | undefined {
    return this.last;
  }

  /** The sequence number the next applied frame must have. */
  get nextSeq(): number {
    return this.next;
  }

  /** Queues one frame numbered `seq` (a u32). */
  pushOne(seq: number, frame: F): void {
    seq >>>= 0;
    this.stats.received += 1;
    if (!this.started) {
      this.started = true;
      this.next = seq;
    }
    const ahead = (seq - this.next) | 0;
    if (ahead < 0) {
      this.stats.stale += 1;
      return;
    }
    if (ahead >= this.settings.capacity) this.advanceTo((seq - (this.settings.capacity - 1)) >>> 0);
    const i = seq & this.mask;
    if (this.full[i] === 1) {
      this.stats.duplicates += 1;
      return;
    }
    this.slots[i] = frame;
    this.full[i] = 1;
    this.heldCount += 1;
    this.sincePush = 0;
  }

  /** Queues a batch: `frames[k]` is numbered `first + k` (wrapping at 2^32). */
  push(first: number, frames: readonly F[]): void {
    for (let k = 0; k < frames.length; k++) this.pushOne((first + k) >>> 0, frames[k]!);
  }

  /** Moves `next` forward to `to`, dropping queued frames before it; visits at most `capacity` slots. */
  private advanceTo(to: number): void {
    const span = (to - this.next) >>> 0;
    let dropped = 0;
    if (span >= this.settings.capacity) {
      for (let i = 0; i < this.settings.capacity; i++) {
        if (this.full[i] === 1) dropped += 1;
        this.clear(i);
      }
    } else {
      for (let k = 0; k < span; k++) {
        const i = (this.next + k) & this.mask;
        if (this.full[i] === 1) dropped += 1;
        this.clear(i);
      }
    }
    this.heldCount -= dropped;
    this.stats.dropped += dropped;
    this.stats.skipped += span - dropped;
    this.next = to;
    this.gapWait = 0;
  }

  private clear(i: number): void {
    this.full[i] = 0;
    this.slots[i] = undefined;
  }

  /**
   * One world step: applies at most one queued frame (two on a catch-up) through `apply`,
   * with each frame's sequence number, in order. `lastStepApplied` says how many.
   */
  step(apply: (seq: number, frame: F) => void): PlayoutState {
    this.lastStepApplied = 0;
    if (!this.started) return "idle";
    if (!this.playing) {
      this.sincePush = Math.min(this.sincePush + 1, 0xffffffff);
      const flush = this.heldCount > 0 && this.sincePush > this.settings.idleFlushSteps;
      if (this.heldCount < this.targetDepth && !flush) return "priming";
      this.playing = true;
      this.windowSteps = 0;
      this.windowMin = Infinity;
    }
    if (this.full[this.next & this.mask] === 0) {
      if (this.heldCount === 0) {
        this.stats.underruns += 1;
        this.targetDepth = Math.min(this.targetDepth + this.settings.grow, this.settings.maxTarget);
        this.playing = false;
        this.gapWait = 0;
        return "underrun";
      }
      this.gapWait += 1;
      if (this.gapWait <= this.settings.gapWaitSteps && this.heldCount <= this.targetDepth) return "gapWait";
      let k = 1;
      while (this.full[(this.next + k) & this.mask] === 0) k++;
      this.advanceTo((this.next + k) >>> 0);
    }
    let applied = this.applyNext(apply);
    this.windowMin = Math.min(this.windowMin, this.heldCount);
    this.windowSteps += 1;
    if (this.windowSteps >= this.settings.slackSteps) {
      if (this.windowMin >= this.settings.shrinkSlack && this.targetDepth > this.settings.minTarget) {
        this.targetDepth -= 1;
        this.stats.shrinks += 1;
        if (this.full[this.next & this.mask] === 1) {
          applied += this.applyNext(apply);
          this.stats.catchups += 1;
        }
      }
      this.windowSteps = 0;
      this.windowMin = Infinity;
    }
    this.lastStepApplied = applied;
    return "applied";
  }

  private applyNext(apply: (seq: number, frame: F) => void): number {
    const i = this.next & this.mask;
    if (this.full[i] === 0) return 0;
    const frame = this.slots[i] as F;
    this.clear(i);
    this.heldCount -= 1;
    this.gapWait = 0;
    const seq = this.next;
    this.next = (seq + 1) >>> 0;
    this.last = seq;
    this.stats.applied += 1;
    apply(seq, frame);
    return 1;
  }
}
