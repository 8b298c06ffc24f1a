/**
 * The easing of an error offset, one frame at a time, capped: shared by `Ahead` and the
 * `Reconciler` (the Rust runtime's `netcode::offset`).
 */

/**
 * Eases `error` by one frame: keeps `keep` of it, removing at most `maxStep` (Euclidean, over
 * the first `linear` channels) from the linear part; angles keep `keep` of theirs.
 */
export function easeError(error: Float64Array, linear: number, keep: number, maxStep: number): void {
  let e2 = 0;
  for (let k = 0; k < linear; k++) e2 += error[k]! * error[k]!;
  const removed = Math.sqrt(e2) * (1 - keep);
  const scale = removed > maxStep && maxStep >= 0 ? 1 - maxStep / Math.sqrt(e2) : keep;
  for (let k = 0; k < error.length; k++) error[k]! *= k < linear ? scale : keep;
}
