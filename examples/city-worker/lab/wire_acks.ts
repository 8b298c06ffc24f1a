/**
 * The `input:ack` messages in wire_bench: each player's ack as the object sends it (its own
 * WebSocket message after the tick's snapshot, `p` and `r` left out when the snapshot carries
 * the body; tuplet's binary, the JSON twin's JSON text), its bytes labelled by field, and the
 * what-if of sending it inside the snapshot's message instead.
 */

import { InputAckCodec } from "village-protocol";

/** The parts of tuplet's ack, in the order wire_bench lists them (after the snapshot's parts). */
export const ACK_PARTS = ["input:ack: id, header, queued", "input:ack: applied (frame number)", "input:ack: tick", "input:ack: p (x, y, z in cm)", "input:ack: r (heading in mrad)"] as const;

/** The parts of the JSON twin's ack, in the same order as `ACK_PARTS`. */
export const JSON_ACK_PARTS = ['input:ack: {"t":"ack"}, "queued":N', 'input:ack: "applied":N', 'input:ack: "tick":N', 'input:ack: "p":[x,y,z]', 'input:ack: "r":N'] as const;

/** The first bytes of the JSON twin's ack (json_delta.ts, `jsonAck`). */
const JSON_ACK = new TextEncoder().encode('{"t":"ack"');

/** Whether `m` is an `input:ack` message: tuplet's (its envelope id is one byte) or the twin's. */
export function isAck(m: Uint8Array | string): boolean {
  if (typeof m === "string") return m.startsWith('{"t":"ack"');
  if (m[0] === InputAckCodec.id) return true;
  return m.length > JSON_ACK.length && JSON_ACK.every((b, i) => m[i] === b);
}

/**
 * Labels the JSON twin's ack (`{"t":"ack","applied":N,"tick":N,"queued":N}`, then `"p":[…]` and
 * `"r":N` when present) with the parts of `JSON_ACK_PARTS`, numbered from `base`: each member
 * with its leading comma; `"t":"ack"`, the braces and `queued` as one part.
 */
export function labelJsonAck(text: string, base: number): { bytes: Uint8Array; parts: Uint8Array } {
  const bytes = new TextEncoder().encode(text);
  const parts = new Uint8Array(bytes.length).fill(base);
  const which: Record<string, number> = { applied: base + 1, tick: base + 2, p: base + 3, r: base + 4 };
  for (const m of text.matchAll(/,"(applied|tick|p|r)":(\[[^\]]*\]|[^,}]*)/g)) parts.fill(which[m[1]!]!, m.index, m.index + m[0].length);
  return { bytes, parts };
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
