/**
 * Every constant of interpolation and the render clock, named, with its default
 * (docs/netcode.md, "Constants"). Mirrors Rust's `tuplet::netcode::NetcodeSettings`.
 */

/** The constants of interpolation and the render clock; `NETCODE_DEFAULTS` holds the defaults. */
export interface NetcodeSettings {
  /**
   * Samples kept per entity (a fixed ring): 16 spans 750 ms at 20 Hz, `maxDelayMs` plus the
   * wait of a 450 ms stall. While a stall holds the drawing at the newest sample the delay grows
   * by the wait, so a render time may stand further back than `maxDelayMs`. A full ring whose
   * oldest sample the drawing still needs (a faster sender, a longer stall) thins out its
   * densest stretch instead of dropping it.
   */
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
  /**
   * The share of recent samples the delay covers: each needed the interval before it plus its
   * lateness (0.98: all but the latest 2% arrive before the drawn time reaches them; 1: every
   * one of the window, so a single late burst in it is covered, at 10-20 ms more delay).
   */
  readonly latePercentile: number;
  /**
   * How many recent samples that percentile is taken over (256: 25.6 s at 10 Hz, so a message
   * the link holds up now and then keeps the delay where it is instead of stepping it up for one
   * window and down after it).
   */
  readonly lateWindow: number;
  /** Added to that percentile (ms): slack for a frame's timing. */
  readonly delayMarginMs: number;
  /** Time constant (ms of the sender's clock) of the average interval and its jitter. */
  readonly statsMs: number;
  /** The most weight one sample gets in those averages (a sparse entity still averages). */
  readonly statsMaxWeight: number;
  /** How fast the delay grows toward a higher target, in ms of delay per ms (0.2: 100 ms in 0.5 s). */
  readonly growSlew: number;
  /** How fast the delay relaxes toward a lower target, in ms per ms (0.05: 150 ms over 3 s). */
  readonly relaxSlew: number;
  /** The sender's clock is measured from the least arrival − sent of blocks this long (ms). */
  readonly rateBlockMs: number;
  /**
   * The time constant (ms) of the loop that follows those blocks' least arrival − sent with an
   * offset and a rate: shorter follows a changing rate sooner, longer smooths jitter more.
   */
  readonly rateFollowMs: number;
  /**
   * When more than 0, a second loop over the same blocks follows in this time (ms) and gives the
   * offset and the rate while the fast loop (`rateFollowMs`) departs from it only as noise does:
   * steadier on a jittery link, as fast as the fast loop when the rate changes. 0: the fast
   * loop alone.
   */
  readonly rateSteadyMs: number;
  /** The most the sender's clock may run slow or fast against ours (0.2: 20%). */
  readonly maxRate: number;
  /**
   * Past the newest sample an entity holds there. When `extrapolateMs` > 0, once this many of
   * its intervals are missed its position (never its angles) moves on at its last velocity ...
   */
  readonly extrapolateAfter: number;
  /** ... for at most this long (ms; 0: never), then it eases back to the last real sample. */
  readonly extrapolateMs: number;
  /**
   * Time dilation: when the render time comes closer than this (ms) to the newest sample of a
   * moving entity, it slows, linearly down to `dilateMin` of its pace at the newest sample
   * (0: never; it runs on and holds there).
   */
  readonly dilateBelowMs: number;
  /** The slowest pace of that dilation (0.8: 20% slow, under the 30% a player sees as a hitch). */
  readonly dilateMin: number;
  /**
   * Dilation starts only once the next sample is overdue: later than this share of recent
   * samples needed (the interval before each plus its lateness), not on every interval.
   */
  readonly overduePercentile: number;
  /**
   * The target delay holds: it moves up as soon as the statistics ask for more, down only when
   * they ask for more than this (ms) less, so a sample entering or leaving the window moves it little.
   */
  readonly targetBandMs: number;
  /**
   * Within this (ms) of its target the render time (and `RenderClock`'s) runs at the sender's
   * rate; only what lies beyond is followed, so noise in the offset and the target does not move it.
   */
  readonly followBandMs: number;
  /** A difference between what was drawn and what new samples say eases out in this time (ms, 95%). */
  readonly recoverMs: number;
  /** A move longer than this (units of the first `teleportChannels` linear channels) ... */
  readonly teleportDistance: number;
  /** ... and faster than this (units per second) between two samples is a teleport: a snap. */
  readonly teleportSpeed: number;
  /** How many leading linear channels form the position the teleport test measures. */
  readonly teleportChannels: number;
  /** A frame gap longer than this (ms; a hidden tab) resyncs: no blending, no catching up. */
  readonly resyncGapMs: number;
  /** `RenderClock`: the most its time runs fast or slow, beyond the sender's rate (0.05: 5%). */
  readonly clockSlew: number;
  /**
   * `RenderClock`: within that, it runs fast or slow by its distance from its target over this
   * time (ms): 40 ms off at 2000 ms runs 2% fast or slow.
   */
  readonly clockFollowMs: number;
  /**
   * `RenderClock`: its `rateBlockMs` and `rateFollowMs`. One snapshot stream at the server's
   * tick fills shorter blocks, and a server's tick drifts with its load: it follows sooner.
   */
  readonly clockRateBlockMs: number;
  /** `RenderClock`: its `rateFollowMs` (with `clockRateBlockMs`). */
  readonly clockRateFollowMs: number;
  /**
   * `RenderClock`: its `rateSteadyMs`: a steadier line on a jittery link, as fast when the
   * tick's rate changes.
   */
  readonly clockRateSteadyMs: number;
  /** A render time more than this away from its target (ms) snaps instead of slewing. */
  readonly clockSnapMs: number;
}

/** The defaults, fit for metres and 10–20 Hz senders (docs/netcode.md, "Constants"). */
export const NETCODE_DEFAULTS: NetcodeSettings = /*@__PURE__*/ Object.freeze({
  ringSize: 16,
  minDelayMs: 120,
  maxDelayMs: 300,
  longIntervalCap: 1.5,
  latePercentile: 0.98,
  lateWindow: 256,
  delayMarginMs: 0,
  statsMs: 400,
  statsMaxWeight: 0.5,
  growSlew: 0.2,
  relaxSlew: 0.05,
  rateBlockMs: 500,
  rateFollowMs: 8000,
  rateSteadyMs: 0,
  maxRate: 0.2,
  extrapolateAfter: 1,
  extrapolateMs: 0,
  dilateBelowMs: 250,
  dilateMin: 0.8,
  overduePercentile: 0.5,
  targetBandMs: 40,
  followBandMs: 10,
  recoverMs: 100,
  teleportDistance: 8,
  teleportSpeed: 60,
  teleportChannels: 3,
  resyncGapMs: 500,
  clockSlew: 0.05,
  clockFollowMs: 2000,
  clockRateBlockMs: 250,
  clockRateFollowMs: 450,
  clockRateSteadyMs: 1800,
  clockSnapMs: 500,
});

/** `settings` over the defaults (the defaults themselves when `settings` is undefined). */
export function netcodeSettings(settings?: Partial<NetcodeSettings>): NetcodeSettings {
  return settings === undefined ? NETCODE_DEFAULTS : { ...NETCODE_DEFAULTS, ...settings };
}
