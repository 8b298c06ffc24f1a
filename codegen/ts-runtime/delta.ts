/**
 * Delta snapshots (WIRE.md, "Delta snapshots"): a server keeps one `Tracker` per client and
 * per `delta` message and sends only what changed since what that client last received; the
 * client keeps one `Mirror` that rebuilds the full value, with exactly the server's quantized
 * numbers, byte for byte as the Rust `tuplet::delta`.
 *
 * Generated code describes each entity and each delta message with a small table
 * (`entityDelta`, `deltaOf`, one `dNum` / `dWhole` / `dList` / `dSkip` per field); everything
 * else happens here:
 *
 * ```ts
 * // server, every tick, for each client:
 * const bytes = client.snapshots.encode(snapshotFor(client)); // undefined: nothing changed
 * if (bytes !== undefined) client.send(WorldSnapshotCodec.id, bytes);
 * // on `world:keyframe` from that client:
 * client.snapshots.requestKeyframe();
 *
 * // client, on each `world:snapshot` payload:
 * try { render(mirror.apply(payload)); }
 * catch { send(WorldKeyframeRequestCodec, {}); } // mirror dropped; it waits for a keyframe
 * ```
 */
import type { Limits } from "./limits.js";
import type { TupletError } from "./errors.js";
import { layout, type DeltaCodec, type DeltaField, type ReadFn, type WriteFn } from "./delta_entity.js";
import { Mirror, probe } from "./delta_mirror.js";

export { dList, dNum, dSkip, dWhole, entityDelta, noBaseline } from "./delta_entity.js";
export type { DeltaCodec, DeltaField, EntityDelta, ReadFn, Sent, WriteFn } from "./delta_entity.js";
export { EntityRows } from "./delta_list.js";
export { Mirror, deltaPayload } from "./delta_mirror.js";
export { Tracker } from "./delta_tracker.js";
export { RING, MAX_RING } from "./delta_ring.js";

/**
 * Builds a delta message's description (generated code calls it once per delta message). The
 * `Mirror` code is reached through its `mirror` and `probe` methods only, so a bundle without
 * a delta message leaves it out.
 */
/* @__NO_SIDE_EFFECTS__ */
export function deltaOf<T>(fields: readonly DeltaField[], write: WriteFn<T>, read: ReadFn<T>): DeltaCodec<T> {
  const d: DeltaCodec<T> = {
    fields,
    write,
    read,
    ...layout(fields, 0),
    mirror: (limits?: Limits): Mirror<T> => new Mirror(d, limits),
    probe: (bytes: Uint8Array): TupletError | undefined => probe(d, bytes),
  };
  return d;
}

