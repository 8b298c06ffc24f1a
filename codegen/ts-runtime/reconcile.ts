/**
 * Client-side prediction and reconciliation of the player's own avatar (the Rust runtime's
 * `tuplet::netcode::reconcile`, the same algorithm; shared traces hold both to the same
 * drawn channels).
 *
 * The client applies each input frame at once through the game's `step` (the same code the
 * server runs) and keeps it until the server acknowledges it. When the server's state
 * arrives with the last applied sequence number (`input:ack`), `reconcile` rewinds to it,
 * replays the unacknowledged frames and turns the difference from what was predicted into
 * an error offset that decays by `1 − e^(−rate·Δt)` per frame and by at most `maxFrameEase`
 * metres a frame (`easeError`, as `Ahead` eases nearby entities); only one past `teleport`
 * snaps.
 * What is drawn is `linear` channels (positions, metres), then `angle` channels (headings,
 * radians, eased on the shortest arc). Every buffer is allocated in the constructor.
 */

import { angleDelta, expEase, wrapAngle } from "./curves.js";
import { easeError } from "./offset.js";

/** The reconciler's constants (see `RECONCILE_DEFAULTS`). */
export interface ReconcileSettings {
  /** Input frames kept until acknowledged (a power of two); past it the oldest is forgotten. */
  readonly pending: number;
  /** Easing rate, per second (10/s: 86% of a correction is gone after 0.2 s). */
  readonly rate: number;
  /** A correction farther than this, metres, snaps instead of easing; nearer ones are never drawn as a jump. */
  readonly teleport: number;
  /** The most the easing moves the drawn position in one frame, metres (2 cm: 1.2 m/s at 60 fps). */
  readonly maxFrameEase: number;
  /** A correction farther than this, metres, is counted in `stats.corrections`. */
  readonly countAbove: number;
}

/** The default settings. */
export const RECONCILE_DEFAULTS: ReconcileSettings = Object.freeze({
  pending: 128,
  rate: 10,
  teleport: 4,
  maxFrameEase: 0.02,
  countAbove: 0.04,
});

/** The game's side: its step function and what is drawn of its state. */
export interface Predictor<S, I> {
  /** How many channels `channels` writes: positions first, then headings. */
  readonly linear: number;
  readonly angle: number;
  /** Applies one input frame to `state` in place (the same code as the server's). */
  step(state: S, input: I): void;
  /** Writes the drawn channels of `state` into `out`. */
  channels(state: S, out: Float64Array): void;
  /** Copies `from` into `to` in place (the rewind). */
  copy(from: S, to: S): void;
}

/** Counters (the Rust `ReconcileStats`). */
export interface ReconcileStats {
  reconciled: number;
  corrections: number;
  snaps: number;
  maxCorrection: number;
  /** The most the easing moved the drawn position in one frame, metres. */
  maxEased: number;
  forgotten: number;
  stale: number;
}

/** What one `reconcile` did. */
export interface Correction {
  /** How far the prediction moved, metres (linear channels). */
  distance: number;
  /** Frames replayed on top of the server's state. */
  replayed: number;
  /** Whether it snapped. */
  snapped: boolean;
}

/** The Euclidean length of the first `l` channels. */
function linearNorm(e: Float64Array, l: number): number {
  let s = 0;
  for (let k = 0; k < l; k++) s += e[k]! * e[k]!;
  return Math.sqrt(s);
}

/** Prediction and reconciliation of one avatar. */
export class Reconciler<S, I> {
  readonly settings: ReconcileSettings;
  readonly stats: ReconcileStats = {
    reconciled: 0,
    corrections: 0,
    snaps: 0,
    maxCorrection: 0,
    maxEased: 0,
    forgotten: 0,
    stale: 0,
  };
  /** The drawn channels of the last `frame`. */
  readonly drawn: Float64Array;
  /** The easing offset per channel (drawn = predicted + error). */
  readonly error: Float64Array;
  /** The last `reconcile`'s outcome (one object, rewritten). */
  readonly last: Correction = { distance: 0, replayed: 0, snapped: false };
  private readonly pending: (I | undefined)[];
  private readonly has: Uint8Array;
  private readonly mask: number;
  private oldest: number;
  private next: number;
  private readonly before: Float64Array;
  private readonly after: Float64Array;

  private readonly game: Predictor<S, I>;
  /** The predicted state, owned and mutated by the reconciler. */
  readonly state: S;

  /** `state` is the predicted state, owned and mutated from now on; frames are numbered from `firstSeq`. */
  constructor(game: Predictor<S, I>, state: S, firstSeq: number, settings: ReconcileSettings = RECONCILE_DEFAULTS) {
    this.game = game;
    this.state = state;
    if (!(settings.pending > 0 && (settings.pending & (settings.pending - 1)) === 0)) throw new RangeError("pending must be a power of two");
    this.settings = settings;
    const n = game.linear + game.angle;
    this.drawn = new Float64Array(n);
    this.error = new Float64Array(n);
    this.before = new Float64Array(n);
    this.after = new Float64Array(n);
    this.pending = new Array<I | undefined>(settings.pending).fill(undefined);
    this.has = new Uint8Array(settings.pending);
    this.mask = settings.pending - 1;
    this.oldest = firstSeq >>> 0;
    this.next = firstSeq >>> 0;
    game.channels(state, this.drawn);
  }

  /** Frames predicted but not acknowledged yet. */
  get unacked(): number {
    return (this.next - this.oldest) >>> 0;
  }

  /** The sequence number the next predicted frame gets. */
  get nextSeq(): number {
    return this.next;
  }

  /** Applies one input frame now and keeps it until acknowledged; returns its sequence number. */
  predict(input: I): number {
    this.game.step(this.state, input);
    if (this.unacked >= this.settings.pending) {
      this.drop(this.oldest);
      this.oldest = (this.oldest + 1) >>> 0;
      this.stats.forgotten += 1;
    }
    const seq = this.next;
    this.pending[seq & this.mask] = input;
    this.has[seq & this.mask] = 1;
    this.next = (seq + 1) >>> 0;
    return seq;
  }

  private drop(seq: number): void {
    this.pending[seq & this.mask] = undefined;
    this.has[seq & this.mask] = 0;
  }

  /**
   * The server's state after it applied frame `acked`: forgets frames up to it, rewinds,
   * replays the rest, eases (or snaps) the difference. `undefined` when the ack is too old.
   */
  reconcile(server: S, acked: number): Correction | undefined {
    let from = (acked + 1) >>> 0;
    if (((this.oldest - from) | 0) > 0) {
      this.stats.stale += 1;
      return undefined;
    }
    if (((from - this.next) | 0) > 0) from = this.next;
    while (this.oldest !== from) {
      this.drop(this.oldest);
      this.oldest = (this.oldest + 1) >>> 0;
    }
    const g = this.game;
    g.channels(this.state, this.before);
    g.copy(server, this.state);
    let replayed = 0;
    for (let seq = this.oldest; seq !== this.next; seq = (seq + 1) >>> 0) {
      if (this.has[seq & this.mask] === 1) {
        g.step(this.state, this.pending[seq & this.mask] as I);
        replayed += 1;
      }
    }
    g.channels(this.state, this.after);
    const l = g.linear;
    let d2 = 0;
    for (let k = 0; k < l; k++) {
      const d = this.before[k]! - this.after[k]!;
      d2 += d * d;
    }
    const distance = Math.sqrt(d2);
    const snapped = distance > this.settings.teleport;
    for (let k = 0; k < this.error.length; k++) {
      if (snapped) this.error[k] = 0;
      else if (k < l) this.error[k]! += this.before[k]! - this.after[k]!;
      else this.error[k] = angleDelta(this.error[k]! + this.before[k]!, this.after[k]!);
    }
    this.stats.reconciled += 1;
    if (distance > this.settings.countAbove) this.stats.corrections += 1;
    if (snapped) this.stats.snaps += 1;
    if (distance > this.stats.maxCorrection) this.stats.maxCorrection = distance;
    this.last.distance = distance;
    this.last.replayed = replayed;
    this.last.snapped = snapped;
    return this.last;
  }

  /** One drawn frame, `dtMs` after the last: decays the offset, returns the drawn channels. */
  frame(dtMs: number): Float64Array {
    const keep = 1 - expEase(this.settings.rate, dtMs);
    this.game.channels(this.state, this.drawn);
    const l = this.game.linear;
    const before = linearNorm(this.error, l);
    easeError(this.error, l, keep, this.settings.maxFrameEase);
    const eased = before - linearNorm(this.error, l);
    if (eased > this.stats.maxEased) this.stats.maxEased = eased;
    for (let k = 0; k < this.drawn.length; k++) {
      this.drawn[k]! += this.error[k]!;
      if (k >= l) this.drawn[k] = wrapAngle(this.drawn[k]!);
    }
    return this.drawn;
  }
}
