/**
 * Prediction of nearby entities to "now": the time the server will apply the local input (the
 * Rust runtime's `tuplet::netcode::predict`, the same algorithm; shared traces hold both to the
 * same drawn channels).
 *
 * Remote entities are drawn in the past while the local avatar is predicted ahead; near the
 * avatar that gap shows. An `Ahead` runs one nearby entity forward from its interpolated state
 * and last known velocity, through the game's own `step`, to the local input's time. When a new
 * sample changes what it predicts from (its basis), the jump between the old and the new
 * prediction becomes an offset that eases out (`1 − e^(−rate·Δt)` of it per frame, at most
 * `maxFrameEase` metres a frame); the simulation (`state`, for the game's collisions) is never
 * touched by the easing; a disagreement past `snapAbove` snaps. Every buffer is allocated in the
 * constructor; a frame allocates nothing.
 */

import { expEase, wrapAngle } from "./curves.js";
import { easeError } from "./offset.js";

/** The game's side for a nearby entity: its step and what is drawn of its state. */
export interface Advancer<S> {
  /** How many channels `channels` writes: positions first, then headings. */
  readonly linear: number;
  readonly angle: number;
  /** One fixed step of the game (`stepMs` long) at the entity's last known velocity, in place. */
  step(state: S): void;
  /** Writes the drawn channels of `state` into `out`. */
  channels(state: S, out: Float64Array): void;
  /** Copies `from` into `to` in place. */
  copy(from: S, to: S): void;
}

/** The constants of `Ahead` (the Rust `AheadSettings`). */
export interface AheadSettings {
  /** The game's fixed step, ms; a horizon between whole steps is drawn between the two around it. */
  readonly stepMs: number;
  /** The most an entity is run ahead, ms; a longer horizon is cut to this (counted). */
  readonly maxAheadMs: number;
  /** Easing rate, per second (10/s: 86% of a disagreement is gone after 0.2 s). */
  readonly rate: number;
  /** The most the easing moves the drawn position in one frame, metres (linear channels). */
  readonly maxFrameEase: number;
  /** A disagreement farther than this, metres, snaps instead of easing. */
  readonly snapAbove: number;
  /** A disagreement farther than this, metres, is counted in `stats.corrections`. */
  readonly countAbove: number;
}

/** The default settings. */
export const AHEAD_DEFAULTS: AheadSettings = Object.freeze({
  stepMs: 1000 / 60,
  maxAheadMs: 500,
  rate: 10,
  maxFrameEase: 0.02,
  snapAbove: 4,
  countAbove: 0.04,
});

/** Counters (the Rust `AheadStats`). */
export interface AheadStats {
  frames: number;
  rebases: number;
  corrections: number;
  snaps: number;
  maxDisagreement: number;
  capped: number;
}

/** One nearby entity predicted to the local input's time. */
export class Ahead<S> {
  readonly settings: AheadSettings;
  readonly stats: AheadStats = { frames: 0, rebases: 0, corrections: 0, snaps: 0, maxDisagreement: 0, capped: 0 };
  /** The drawn channels of the last `frame`. */
  readonly drawn: Float64Array;
  /** The prediction of the last frame without the easing offset. */
  readonly predicted: Float64Array;
  /** The easing offset per channel (drawn = predicted + error). */
  readonly error: Float64Array;
  /** The predicted simulation state after the last frame's whole steps (untouched by the easing). */
  readonly state: S;
  private readonly game: Advancer<S>;
  private readonly scratch: S;
  private readonly at: Float64Array;
  private readonly next: Float64Array;
  private readonly start: Float64Array;
  private readonly prevRaw: Float64Array;
  private readonly prevStart: Float64Array;
  private basis = 0;
  private hasBasis = false;
  private horizon = 0;

  /** `state` and `scratch`: two states of the game, owned and overwritten from now on. */
  constructor(game: Advancer<S>, state: S, scratch: S, settings: AheadSettings = AHEAD_DEFAULTS) {
    this.game = game;
    this.state = state;
    this.scratch = scratch;
    this.settings = settings;
    const n = game.linear + game.angle;
    this.drawn = new Float64Array(n);
    this.predicted = new Float64Array(n);
    this.error = new Float64Array(n);
    this.at = new Float64Array(n);
    this.next = new Float64Array(n);
    this.start = new Float64Array(n);
    this.prevRaw = new Float64Array(n);
    this.prevStart = new Float64Array(n);
  }

  /** Forgets the basis and the offset: the next frame draws its prediction as is. */
  reset(): void {
    this.hasBasis = false;
    this.error.fill(0);
  }

  /**
   * One drawn frame, `dtMs` after the last. `start` is the entity's state at `fromMs` (its
   * interpolated state with its last known velocity), `basis` a stamp of what that velocity came
   * from (the newest sample's time), `toMs` the time the server will apply the local input (both
   * on the server's clock). Returns the drawn channels.
   */
  frame(start: S, basis: number, fromMs: number, toMs: number, dtMs: number): Float64Array {
    const s = this.settings;
    const g = this.game;
    let horizon = toMs - fromMs;
    if (!(horizon > 0)) horizon = 0;
    if (horizon > s.maxAheadMs) {
      horizon = s.maxAheadMs;
      this.stats.capped += 1;
    }
    const steps = s.stepMs > 0 ? horizon / s.stepMs : 0;
    // A horizon a rounding error short of a whole number of steps is that number.
    const whole = Math.floor(steps + 1e-9);
    const frac = Math.max(steps - whole, 0);
    g.copy(start, this.state);
    for (let i = 0; i < whole; i++) g.step(this.state);
    g.channels(this.state, this.at);
    const l = g.linear;
    const raw = this.predicted;
    if (frac > 0) {
      g.copy(this.state, this.scratch);
      g.step(this.scratch);
      g.channels(this.scratch, this.next);
      for (let k = 0; k < raw.length; k++) {
        const a = this.at[k]!;
        const b = this.next[k]!;
        raw[k] = k < l ? a + (b - a) * frac : a + wrapAngle(b - a) * frac;
      }
    } else {
      raw.set(this.at);
    }
    g.channels(start, this.start);
    const keep = 1 - expEase(s.rate, dtMs);
    easeError(this.error, l, keep, s.maxFrameEase);
    if (this.hasBasis && this.basis !== basis) this.rebase(horizon);
    for (let k = 0; k < this.drawn.length; k++) {
      const d = raw[k]! + this.error[k]!;
      this.drawn[k] = k >= l ? wrapAngle(d) : d;
    }
    this.prevRaw.set(raw);
    this.prevStart.set(this.start);
    this.basis = basis;
    this.hasBasis = true;
    this.horizon = horizon;
    this.stats.frames += 1;
    return this.drawn;
  }

  /**
   * The basis changed: what the last frame predicted, as an offset from its start scaled to this
   * frame's horizon and put on this frame's start, against the new prediction. After a frame with
   * no horizon there is nothing to compare.
   */
  private rebase(horizon: number): void {
    if (!(this.horizon > 0)) return;
    this.stats.rebases += 1;
    const ratio = horizon / this.horizon;
    const l = this.game.linear;
    const raw = this.predicted;
    const d = this.next;
    let d2 = 0;
    for (let k = 0; k < l; k++) {
      const was = (this.prevRaw[k]! - this.prevStart[k]!) * ratio;
      d[k] = this.start[k]! + was - raw[k]!;
      d2 += d[k]! * d[k]!;
    }
    for (let k = l; k < raw.length; k++) {
      const was = wrapAngle(this.prevRaw[k]! - this.prevStart[k]!) * ratio;
      d[k] = wrapAngle(this.start[k]! + was - raw[k]!);
    }
    const distance = Math.sqrt(d2);
    const snapped = distance > this.settings.snapAbove;
    for (let k = 0; k < this.error.length; k++) {
      this.error[k] = snapped ? 0 : k < l ? this.error[k]! + d[k]! : wrapAngle(this.error[k]! + d[k]!);
    }
    if (distance > this.settings.countAbove) this.stats.corrections += 1;
    if (snapped) this.stats.snaps += 1;
    if (distance > this.stats.maxDisagreement) this.stats.maxDisagreement = distance;
  }
}
