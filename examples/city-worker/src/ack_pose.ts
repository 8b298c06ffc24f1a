/**
 * The client's side of the city's `input:ack`: where the server put the body the player
 * controls (its car while driving) after frame `applied`, the state a `Reconciler` replays the
 * unacknowledged frames on.
 *
 * The city sends each tick's snapshot before that tick's acks, on the same WebSocket, and its
 * snapshots always carry the player's own body (at distance 0, the nearest of its view), so
 * its acks leave out `p` and `r`, as Quake- and Source-style servers send only the last input
 * applied beside the snapshot: when an ack arrives, the client's `Mirror` holds the snapshot
 * of the ack's tick (or an earlier one, when nothing in view changed since, so the same
 * state), and that snapshot's entity is the body, quantized as `p` and `r` would be (both in
 * whole centimetres and milliradians). An ack that carries `p` and `r` (the Rust room server's,
 * which never sends a client its own avatar) is taken as it is.
 */

import type { InputAck, NearbyEntity } from "village-protocol";

/** The acknowledged body: position (metres), heading (radians). */
export interface AckedPose {
  x: number;
  y: number;
  heading: number;
}

/** What the client's `Mirror` holds of `world:snapshot`: its tick and entities. */
export interface HeldSnapshot {
  readonly tick: number;
  readonly entities: readonly NearbyEntity[];
}

/**
 * The body `id` after `ack.applied`: the ack's `p` and `r` when it carries them, else entity
 * `id` of `held` (the snapshot the client's Mirror holds when the ack arrives). Undefined when
 * neither says: no snapshot yet, one newer than the ack, or one without that entity.
 */
export function ackedPose(ack: InputAck, held: HeldSnapshot | undefined, id: number): AckedPose | undefined {
  if (ack.p !== undefined && ack.r !== undefined) return { x: ack.p[0], y: ack.p[1], heading: ack.r };
  if (held === undefined || held.tick > ack.tick) return undefined;
  for (const e of held.entities) if (e.id === id) return { x: e.pos[0], y: e.pos[1], heading: e.heading };
  return undefined;
}
