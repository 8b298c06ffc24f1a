/**
 * The `input:ack` messages in wire_bench: each player's ack, encoded as the object sends it
 * (its own WebSocket message after the tick's snapshot, `p` and `r` left out when the snapshot
 * carries the body), its bytes labelled by field, and the what-if of sending it inside the
 * snapshot's message instead.
 */

import { InputAckCodec, Writer, type InputAck } from "village-protocol";

/** The parts of an ack, in the order wire_bench lists them (after the snapshot's parts). */
export const ACK_PARTS = ["input:ack: id, header, queued", "input:ack: applied (frame number)", "input:ack: tick", "input:ack: p (x, y, z in cm)", "input:ack: r (heading in mrad)"] as const;

const out = new Writer(64);

/** The ack as the object sends it: the envelope id, then the record. */
export function encodeAck(ack: InputAck): Uint8Array {
  out.reset();
  out.uint(InputAckCodec.id);
  InputAckCodec.writeTo(out, ack);
  return out.view().slice();
}

/** Whether `bytes` is an `input:ack` message (its envelope id is one byte). */
export function isAck(bytes: Uint8Array | string): bytes is Uint8Array {
  return typeof bytes !== "string" && bytes[0] === InputAckCodec.id;
}

/**
 * Labels an ack's bytes with its parts, numbered from `base`: the id and the record's array
 * header and `queued` as one part, then `applied`, `tick`, `p`, `r` (each a msgpack value,
 * ended by `skip`; `p` and `r` absent when the record has 3 fields).
 */
export function labelAck(bytes: Uint8Array, base: number, skip: (b: Uint8Array, p: number) => number): Uint8Array {
  const parts = new Uint8Array(bytes.length).fill(base);
  // The id (90: one byte), then the record's array header (3 to 5 fields: one byte).
  const n = bytes[1]! & 0x0f;
  let p = 2;
  const fields = [base + 1, base + 2, base, base + 3, base + 4].slice(0, n); // applied, tick, queued, p, r
  for (const part of fields) {
    const q = skip(bytes, p);
    parts.fill(part, p, q);
    p = q;
  }
  if (p !== bytes.length) throw new Error(`input:ack: ${bytes.length - p} bytes after its fields`);
  return parts;
}

/**
 * Each ack joined to the message before it (the tick's snapshot, when there is one): what
 * one WebSocket message per tick would cost, the snapshot's bytes first.
 */
export function coalesced(msgs: readonly { bytes: Uint8Array; ack: boolean }[]): Uint8Array[] {
  const outMsgs: Uint8Array[] = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    const next = msgs[i + 1];
    if (!m.ack && next !== undefined && next.ack) {
      const both = new Uint8Array(m.bytes.length + next.bytes.length);
      both.set(m.bytes, 0);
      both.set(next.bytes, m.bytes.length);
      outMsgs.push(both);
      i += 1;
    } else outMsgs.push(m.bytes);
  }
  return outMsgs;
}
