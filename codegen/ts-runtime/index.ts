/** The tuplet TypeScript runtime: embedded in each generated package. */

export { Code, TupletError, formatPath, issueAt, toIssue, attempt } from "./errors.js";
export type { Issue, Result, Seg, KeySeg } from "./errors.js";
export { DEFAULT_LIMITS } from "./limits.js";
export type { Limits } from "./limits.js";
export {
  newReader,
  resetReader,
  endRead,
  remaining,
  peekKind,
  tryNil,
  readShape,
  readArrayLen,
  readMapLen,
  leave,
  readBool,
  readStr,
  readBin,
  isNamed,
  mapEntries,
  readList,
  readMap,
} from "./reader.js";
export {
  readInt,
  readIntKey,
  readBigInt,
  readBigIntKey,
  readVariant,
  readF64,
  readF32,
} from "./reader_num.js";
export { skipValue, skipValues } from "./reader_skip.js";
export type { Kind, Shape, Reader } from "./reader.js";
export { Writer } from "./writer.js";
export { quantize, quantizeF32, dequantize, dequantizeF32, wireBound, roundHalfAwayFromZero } from "./quant.js";
export { utf8Length, isWellFormed, checkWellFormed, encodeUtf8, encodeUtf8Into, decodeUtf8, compareUtf8 } from "./utf8.js";
export {
  checkInt,
  checkF64,
  checkF32,
  checkLen,
  wrongLength,
  missing,
  absent,
  missingIndex,
  duplicate,
  unknownNumber,
  unknownName,
  unknownFlags,
  notOneKey,
} from "./checks.js";
export * as fail from "./fail.js";
export { floatText, intText, rustDisplay, rustExp, rustDebugStr } from "./format.js";
export { Tracker, EntityRows, Mirror, entityDelta, deltaOf, dNum, dWhole, dList, dSkip, noBaseline, RING, MAX_RING } from "./delta.js";
export type { DeltaCodec, EntityDelta, DeltaField, Sent, WriteFn, ReadFn } from "./delta.js";
export { Interpolator, InterpState, Resync, resyncBy, stillAcross, stillLead } from "./interp.js";
export type { ChannelLayout } from "./interp.js";
export { InterpolatedSet } from "./pool.js";
export { StreamTiming, followTime, holdTarget } from "./timing.js";
export { NETCODE_DEFAULTS, netcodeSettings } from "./settings.js";
export type { NetcodeSettings } from "./settings.js";
export { RenderClock } from "./render_clock.js";
export { TAU, wrapAngle, angleDelta, monotoneTangent, spacedTangent, endTangent, rampShare, monotoneHermite, monotoneHermiteInto, HP0, HD, HM0, HM1, HH, HU, expEase } from "./curves.js";
export { feed, feedCarried, EntityFeed, unitOf } from "./interp_adapter.js";
export type { InterpAdapter, InterpClock, InterpClockKind } from "./interp_adapter.js";
export { Playout, PLAYOUT_DEFAULTS } from "./playout.js";
export type { PlayoutSettings, PlayoutState, PlayoutStats } from "./playout.js";
export { Reconciler, RECONCILE_DEFAULTS } from "./reconcile.js";
export type { Predictor, ReconcileSettings, ReconcileStats, Correction } from "./reconcile.js";
export { easeError } from "./offset.js";
export { Ahead, AHEAD_DEFAULTS } from "./predict.js";
export type { Advancer, AheadSettings, AheadStats } from "./predict.js";
export { Rewind, REWIND_DEFAULTS } from "./rewind.js";
export type { RewindSettings, RewindStats } from "./rewind.js";
