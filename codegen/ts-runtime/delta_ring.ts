/**
 * The bounded ring of numbered snapshots that the acknowledged mode keeps on both sides (as the
 * Rust `tuplet::delta` ring module; WIRE.md, "Deltas against acknowledged baselines"): the
 * server's `Tracker` keeps what it sent, the client's `Mirror` what it applied.
 */

/**
 * How many snapshots a ring holds unless told otherwise: 32, 1.6 s at 20 Hz. A baseline is
 * usable while it is one of the last `size` snapshots sent; an older acknowledgement makes the
 * next payload a keyframe.
 */
export const RING = 32;

/** The largest ring: a tracker holds `size` copies of a snapshot per client. */
export const MAX_RING = 256;

/** Numbered snapshots, oldest first, at most `size` of them: pushing one more drops the oldest. */
export class Ring<V> {
  private readonly numbers: number[] = [];
  private readonly values: V[] = [];
  private readonly size: number;

  /** An empty ring of `size` slots (clamped to 1..=MAX_RING). */
  constructor(size: number) {
    this.size = Math.min(Math.max(Math.floor(size) || 1, 1), MAX_RING);
  }

  /** Adds snapshot `n` (newer than every one held), dropping the oldest when full. */
  push(n: number, v: V): void {
    if (this.numbers.length === this.size) {
      this.numbers.shift();
      this.values.shift();
    }
    this.numbers.push(n);
    this.values.push(v);
  }

  /** Snapshot `n`, if held. */
  get(n: number): V | undefined {
    for (let i = this.numbers.length - 1; i >= 0; i--) if (this.numbers[i] === n) return this.values[i];
    return undefined;
  }

  /** The newest snapshot's number (0: none). */
  get newest(): number {
    return this.numbers.length === 0 ? 0 : this.numbers[this.numbers.length - 1]!;
  }

  /** The newest snapshot, if any. */
  get newestValue(): V | undefined {
    return this.values[this.values.length - 1];
  }

  /** Forgets every snapshot. */
  clear(): void {
    this.numbers.length = 0;
    this.values.length = 0;
  }
}
