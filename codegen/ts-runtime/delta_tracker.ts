/**
 * The server side of a delta message for one client (as the Rust `tuplet::delta::Tracker`):
 * the reliable mode (the baseline is what was last sent) and the acknowledged mode (the
 * baseline is the newest snapshot the client acknowledged, from a ring).
 */

import { Writer } from "./writer.js";
import { body, changes, popcount, rowOf, whole, type DeltaCodec, type Obj, type Row, type Sent } from "./delta_entity.js";
import { encodeEntities, sortedValue, type EntityRows } from "./delta_list.js";
import { RING, Ring } from "./delta_ring.js";

/** The array header at the start of `bytes`: [count, header length]. */
function header(bytes: Uint8Array): [number, number] {
  const b = bytes[0]!;
  if (b >= 0x90 && b <= 0x9f) return [b & 0x0f, 1];
  if (b === 0xdc) return [(bytes[1]! << 8) | bytes[2]!, 3];
  return [((bytes[1]! << 24) >>> 0) + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!), 5];
}

/** Writes a keyframe `[seq, nil, ...fields]` of `v` (lists sorted) to `out`. */
function writeKeyframe<T>(d: DeltaCodec<T>, v: T, seq: number, out: Writer): void {
  whole.reset();
  d.write(whole, v, false);
  const bytes = whole.view();
  const [n, h] = header(bytes);
  out.arrayLen(n + 2);
  out.uint(seq);
  out.nil();
  out.raw(bytes.subarray(h));
}

/** A copy of a baseline row that the next encode may change in place (entity rows included). */
function copyRow<T>(d: DeltaCodec<T>, row: Row): Row {
  const out = row.slice();
  for (let i = 0; i < d.fields.length; i++) {
    if (d.fields[i]!.k === 3) out[d.off[i]!] = (row[d.off[i]!] as Row[]).map((e) => e.slice());
  }
  return out;
}

/**
 * The server side for one client and one delta message: the baseline, the keyframe cadence and
 * keyframe requests. As the Rust `tuplet::delta::Tracker`, byte for byte.
 *
 * - `new Tracker(delta, keyframeEvery)`: the baseline is what was last sent, which is what the
 *   client holds on an ordered, reliable transport (a WebSocket).
 * - `Tracker.acked(delta, keyframeEvery, ring)`: every payload is a numbered snapshot; the
 *   baseline is the newest one the client acknowledged (`ack`) among the last `ring` sent. For
 *   unreliable datagrams: a lost, late or duplicated payload costs nothing but its bytes.
 */
export class Tracker<T> {
  private base: Row | undefined;
  private since = 0;
  private wanted = true;
  private seq = 0;
  private readonly out = new Writer(512);
  /** The acknowledged mode's ring of what was sent (undefined: the reliable mode). */
  private ring: Ring<Row> | undefined;
  /** The number of the next snapshot (the first is 1), and the newest acknowledged (0: none). */
  private next = 1;
  private acked = 0;
  /** What the last `encode` wrote. */
  last: Sent = "nothing";

  /**
   * A tracker that sends a keyframe first and then every `keyframeEvery` encodes (0 never
   * repeats one unless requested).
   */
  // Plain fields, not constructor parameter properties: the package's sources compile under
  // `erasableSyntaxOnly` (Vite's template, Node's type stripping).
  private readonly delta: DeltaCodec<T>;
  private readonly keyframeEvery: number;

  constructor(delta: DeltaCodec<T>, keyframeEvery: number) {
    this.delta = delta;
    this.keyframeEvery = keyframeEvery;
  }

  /** A tracker with the default cadence: a keyframe every 5 s at `ticksPerSecond`. */
  static atRate<T>(delta: DeltaCodec<T>, ticksPerSecond: number): Tracker<T> {
    return new Tracker(delta, ticksPerSecond * 5);
  }

  /**
   * A tracker in the acknowledged mode: numbered snapshots (`[number, ago, payload]`), each a
   * delta against the newest acknowledged one still among the last `ring` sent (clamped to
   * 1..=MAX_RING; `RING` is 32), else a keyframe. Keyframes also go every `keyframeEvery`
   * encodes (0: only when needed) and on request.
   */
  static acked<T>(delta: DeltaCodec<T>, keyframeEvery: number, ring: number = RING): Tracker<T> {
    const t = new Tracker(delta, keyframeEvery);
    t.ring = new Ring(ring);
    return t;
  }

  /**
   * Records the client's acknowledgement: `n` is the newest snapshot its mirror applied
   * (`Mirror.ack`), carried in its inputs. An older acknowledgement than one already recorded,
   * or a number never sent, is ignored. Does nothing in the reliable mode.
   */
  ack(n: number): void {
    if (this.ring !== undefined && Number.isSafeInteger(n) && n > this.acked && n < this.next) this.acked = n;
  }

  /** The number of the last snapshot written in the acknowledged mode (0: none yet, or the reliable mode). */
  get number(): number {
    return this.ring === undefined ? 0 : this.next - 1;
  }

  /** Makes the next encode a keyframe (on the client's `world:keyframe`-style request). */
  requestKeyframe(): void {
    this.wanted = true;
  }

  /**
   * Whether the next `encode` writes a keyframe (requested, due, or no baseline: none yet, or
   * no acknowledged one in the ring).
   */
  keyframeDue(): boolean {
    const base = this.ring === undefined ? this.base : this.ring.get(this.acked);
    return this.wanted || base === undefined || (this.keyframeEvery > 0 && this.since >= this.keyframeEvery);
  }

  /**
   * The next payload for this client, or undefined when nothing changed (nothing to send);
   * advances the baseline. A keyframe goes when requested, when due, or when there is no
   * baseline. An invalid value throws a TupletError with its path; the next payload is then a
   * keyframe. In the acknowledged mode, undefined means the value equals the newest snapshot,
   * which the client acknowledged.
   */
  encode(value: T, rows?: EntityRows): Uint8Array<ArrayBuffer> | undefined {
    this.out.reset();
    return this.encodeInto(value, this.out, rows) === "nothing" ? undefined : this.out.finish();
  }

  /**
   * `encode`, appending to a writer; returns what was written. `rows`: the tick's shared
   * `EntityRows` (a server that sends the same entity objects to many clients quantizes each
   * once); the bytes are the same with or without it.
   */
  encodeInto(value: T, out: Writer, rows?: EntityRows): Sent {
    const keyframe = this.keyframeDue();
    const start = out.length;
    const ring = this.ring;
    try {
      if (ring === undefined) {
        const [wrote, base] = this.write(value, keyframe ? undefined : this.base, this.seq, out, rows);
        this.base = base;
        if (wrote) this.seq = (this.seq + 1) & 0x7f;
        return this.done(keyframe, wrote);
      }
      const n = this.next;
      const held = keyframe ? undefined : ring.get(this.acked);
      out.arrayLen(3);
      out.uint(n);
      out.uint(held === undefined ? 0 : n - this.acked);
      const seq = n % 128;
      const [wrote, base] = this.write(value, held === undefined ? undefined : copyRow(this.delta, held), seq, out, rows);
      if (!wrote) {
        if (ring.newest === this.acked) {
          out.truncate(start);
          return this.done(false, false);
        }
        // The value is back at the acknowledged snapshot, but the client may hold a newer one:
        // an empty delta says so.
        out.arrayLen(2);
        out.uint(seq);
        out.uint(0);
      }
      ring.push(n, base);
      this.next = n + 1;
      return this.done(keyframe, true);
    } catch (e) {
      out.truncate(start);
      this.base = undefined;
      this.wanted = true;
      throw e;
    }
  }

  /** Advances the cadence after a payload (or nothing) was written. */
  private done(keyframe: boolean, wrote: boolean): Sent {
    if (keyframe) {
      this.wanted = false;
      this.since = 1;
      return (this.last = "keyframe");
    }
    this.since += 1;
    return (this.last = wrote ? "delta" : "nothing");
  }

  /**
   * Writes `value` numbered `seq` as a keyframe (`base` undefined) or as the changes against
   * `base` (changed in place); returns whether anything was written and the new baseline.
   */
  private write(value: T, base: Row | undefined, seq: number, out: Writer, rows: EntityRows | undefined): [boolean, Row] {
    const d = this.delta;
    if (base === undefined) {
      const v = sortedValue(d, value);
      writeKeyframe(d, v, seq, out);
      return [true, rowOf(d.fields, d.off, d.width, v as Obj)];
    }
    body.reset();
    const mask = changes(d.fields, d.off, value as Obj, base, body, (f, i) => {
      const at = d.off[i]!;
      const next = encodeEntities(f, (value as Obj)[f.name] as Obj[], base[at] as Row[], body, rows);
      if (next === undefined) return false;
      base[at] = next;
      return true;
    });
    if (mask === 0) return [false, base];
    out.arrayLen(popcount(mask) + 2);
    out.uint(seq);
    out.uint(mask);
    out.raw(body.view());
    return [true, base];
  }
}
