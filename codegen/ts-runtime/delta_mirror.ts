/**
 * The client side of a delta message (as the Rust `tuplet::delta::Mirror`): the reliable mode
 * (each payload applies to the last) and the acknowledged mode (each payload names its
 * baseline in a ring); and `probe`, whether a payload is a tracker's.
 */

import { TupletError, type Result } from "./errors.js";
import { wrongLength } from "./checks.js";
import { endRead, leave, newReader, readArrayLen, resetReader, tryNil, type Reader } from "./reader.js";
import { readInt } from "./reader_num.js";
import { Writer } from "./writer.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { noBaseline, popcount, type DeltaCodec, type Obj } from "./delta_entity.js";
import { applyFields, probeFields, sortedValue } from "./delta_list.js";
import { RING, Ring } from "./delta_ring.js";

/** `delta_payload`: a tracker's payload (`what`: a keyframe, a delta) read as a plain message. */
export function deltaPayload(what: string): TupletError {
  return new TupletError("delta_payload", `this is a delta message; apply it with a Mirror (${what} from a Tracker)`);
}

/** See `DeltaCodec.probe`. The rule is WIRE.md's ("Delta snapshots"), the same in Rust. */
export function probe<T>(d: DeltaCodec<T>, bytes: Uint8Array): TupletError | undefined {
  try {
    const r = newReader(bytes);
    const n = readArrayLen(r);
    if (n < 2) return undefined;
    readInt(r, 0, 127);
    if (tryNil(r)) {
      new Mirror(d).apply(bytes);
      return deltaPayload("a keyframe");
    }
    const mask = readInt(r, 1, Number.MAX_SAFE_INTEGER);
    if (popcount(mask) + 2 !== n) return undefined;
    probeFields(d.fields, mask, r);
    leave(r);
    endRead(r);
    return deltaPayload("a delta");
  } catch {
    return undefined;
  }
}

/**
 * The client side of one delta message: the full value rebuilt from keyframes and deltas, with
 * exactly the server's quantized numbers and entity lists in key order. Each `apply` returns a
 * new value; entities that did not change are the same objects as in the previous value (handy
 * for interpolating between two snapshots). As the Rust `tuplet::delta::Mirror`.
 *
 * - `new Mirror(delta)` matches `new Tracker(...)`: payloads apply in order; on any error the
 *   mirror is dropped until a keyframe arrives.
 * - `Mirror.acked(delta, ring)` matches `Tracker.acked(...)`: it keeps the last `ring` snapshots
 *   it applied and applies each payload to the one it names. A payload not newer than the last
 *   applied (late, duplicated) or naming a snapshot it no longer holds is refused
 *   (`no_baseline`) and changes nothing; the server keyframes when the acknowledgements (`ack`)
 *   stop advancing.
 */
export class Mirror<T> {
  private held: T | undefined;
  private seq = 0;
  private readonly reader = newReader(new Uint8Array(0));
  /** The acknowledged mode's ring of what was applied (undefined: the reliable mode). */
  private ring: Ring<T> | undefined;

  private readonly delta: DeltaCodec<T>;
  private readonly limits: Limits;

  constructor(delta: DeltaCodec<T>, limits: Limits = DEFAULT_LIMITS) {
    this.delta = delta;
    this.limits = limits;
  }

  /**
   * An empty mirror in the acknowledged mode, keeping the last `ring` snapshots applied
   * (clamped to 1..=MAX_RING; at least the tracker's ring, `RING` by default).
   */
  static acked<T>(delta: DeltaCodec<T>, ring: number = RING, limits: Limits = DEFAULT_LIMITS): Mirror<T> {
    const m = new Mirror(delta, limits);
    m.ring = new Ring(ring);
    return m;
  }

  /** The last full value, if the mirror holds one. */
  get value(): T | undefined {
    return this.ring === undefined ? this.held : this.ring.newestValue;
  }

  /**
   * The acknowledgement to send in the client's next input: the number of the newest snapshot
   * applied (0: none yet, or the reliable mode).
   */
  get ack(): number {
    return this.ring === undefined ? 0 : this.ring.newest;
  }

  /**
   * `apply` as a `Result`, as a codec's `decode` returns it (what a dispatcher calls for a
   * delta message): a payload that is not bytes is `wrong_type`.
   */
  decode(payload: unknown): Result<T> {
    try {
      if (!(payload instanceof Uint8Array)) throw new TupletError("wrong_type", `expected the bytes of a Tracker's payload, found ${typeof payload}`);
      return { ok: true, value: this.apply(payload) };
    } catch (e) {
      if (e instanceof TupletError) return { ok: false, issues: [e.issue()] };
      throw e;
    }
  }

  /** Drops the mirror (for instance after a reconnect); the next payload must be a keyframe. */
  clear(): void {
    this.held = undefined;
    this.ring?.clear();
  }

  /**
   * Applies one payload and returns the full value. Reliable mode: on any error (a decode error,
   * or a delta with nothing to apply to: `no_baseline`) the mirror is dropped and the
   * TupletError thrown: ask the server for a keyframe and keep calling `apply`, which throws
   * until the keyframe arrives. Acknowledged mode: on an error nothing changes and nothing needs
   * doing.
   */
  apply(payload: Uint8Array): T {
    const r = resetReader(this.reader, payload, this.limits);
    if (this.ring !== undefined) return this.applyAcked(this.ring, r, payload);
    try {
      const [got, v] = this.read(r, payload, this.held, this.seq);
      this.seq = (got + 1) & 0x7f;
      this.held = v;
      return v;
    } catch (e) {
      this.held = undefined;
      throw e;
    }
  }

  /** Applies `[number, ago, payload]` to snapshot `number - ago` (none when `ago` is 0: a keyframe). */
  private applyAcked(ring: Ring<T>, r: Reader, payload: Uint8Array): T {
    const len = readArrayLen(r);
    if (len !== 3) throw wrongLength(len, 3);
    const n = readInt(r, 1, Number.MAX_SAFE_INTEGER);
    const ago = readInt(r, 0, n - 1);
    const newest = ring.newest;
    if (n <= newest) throw noBaseline(`snapshot ${n} (stale: ${newest} applied)`);
    let base: T | undefined;
    if (ago !== 0) {
      base = ring.get(n - ago);
      if (base === undefined) throw noBaseline(`snapshot ${n - ago} (not held)`);
    }
    const [, v] = this.read(r, payload, base, n % 128);
    ring.push(n, v);
    return v;
  }

  /**
   * Reads one payload `[seq, nil | mask, ...]` at `r` (the last value of `payload`) against
   * `held`: a keyframe whatever its number, a delta numbered `seq`.
   */
  private read(r: Reader, payload: Uint8Array, held: T | undefined, seq: number): [number, T] {
    const d = this.delta;
    const n = readArrayLen(r);
    if (n < 2) throw wrongLength(n, 2);
    const got = readInt(r, 0, 127);
    if (tryNil(r)) {
      // The fields follow as in the compact shape: read them as one under a header of n - 2.
      const rest = payload.subarray(r.pos);
      const w = new Writer(rest.length + 5);
      w.arrayLen(n - 2);
      w.raw(rest);
      const inner = newReader(w.view(), this.limits);
      const v = sortedValue(d, d.read(inner));
      endRead(inner);
      return [got, v];
    }
    if (held === undefined) throw noBaseline("this delta (no keyframe yet)");
    if (got !== seq) throw noBaseline(`delta ${got} (expected ${seq}: a message was missed)`);
    const mask = readInt(r, 0, Number.MAX_SAFE_INTEGER);
    if (popcount(mask) + 2 !== n) throw wrongLength(n, popcount(mask) + 2);
    const v = applyFields(d.fields, mask, { ...(held as Obj) }, r) as T;
    leave(r);
    endRead(r);
    return [got, v];
  }
}
