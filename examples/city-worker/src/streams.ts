/**
 * How a city sends its snapshots and acks: tuplet's delta `Tracker` on the generated
 * `world:snapshot` codec, and `input:ack`, in binary frames.
 */

import { EntityRows, InputAckCodec, Tracker, Writer, WorldSnapshot$delta, WorldSnapshotCodec, type InputAck, type NearbyEntity, type WorldSnapshot } from "village-protocol";

/** One client's snapshot stream: its per-client delta state, and how its acks are written. */
export interface Stream {
  /** Makes the next snapshot a keyframe. */
  requestKeyframe(): void;
  /** Sends this tick's snapshot on `ws` (nothing when nothing changed); returns bytes sent. */
  send(ws: WebSocket, tick: number, keyframe: boolean, entities: NearbyEntity[]): number;
  /** Sends an `input:ack` on `ws` (after the tick's snapshot); returns bytes sent. */
  sendAck(ws: WebSocket, ack: InputAck): number;
}

/**
 * The offset of a player slot's keyframes within the 5 s cadence (100 ticks at 20 Hz):
 * distinct for slots 0..99 (61 is prime to 100), so the keyframes of players who joined
 * together do not all fall on one tick.
 */
export function keyframePhase(slot: number): number {
  return (slot * 61) % 100;
}

/** One writer for every client's envelope (encoding is synchronous). */
const out = /*@__PURE__*/ new Writer(2048);

/**
 * Each entity's quantized row, made once per tick and shared by every client's tracker (as
 * the lab's JSON twin makes each entity's JSON once). The simulation makes a tick's
 * entity objects for that tick and never changes them (sim.ts, `view`), so a row found by an
 * object is always that object's; the rows are dropped when the tick moves on, which bounds
 * them to one tick of the cities this isolate runs.
 */
const rows = /*@__PURE__*/ new EntityRows();
let rowsTick = Number.NaN;

/**
 * Where sent snapshots' bytes live: slabs of 64 KiB, filled front to back and never written
 * twice, one client's message after another. workerd reads the bytes of `WebSocket.send`
 * after the call returns (and keeps their buffer alive until then), so a message must not be
 * a view of memory written again later; a copy per message (`Writer.finish`) is safe but
 * allocates an `ArrayBuffer` per client per tick, and each is external memory the isolate's
 * garbage collector accounts for. A slab is one allocation for a tick's worth of messages.
 */
const SLAB = 64 * 1024;
let slab = new Uint8Array(SLAB);
let slabAt = 0;

/** `bytes` copied into the slab (a fresh one when it does not fit): a view nobody writes again. */
function slabbed(bytes: Uint8Array): Uint8Array {
  if (bytes.length > SLAB) return bytes.slice();
  if (slabAt + bytes.length > SLAB) {
    slab = new Uint8Array(SLAB);
    slabAt = 0;
  }
  const at = slabAt;
  slab.set(bytes, at);
  slabAt += bytes.length;
  return slab.subarray(at, slabAt);
}

/** `world:snapshot` through a tuplet `Tracker`: the envelope id, then the tracker's payload. */
export class TupletStream implements Stream {
  private readonly tracker = new Tracker<WorldSnapshot>(WorldSnapshot$delta, 0);

  requestKeyframe(): void {
    this.tracker.requestKeyframe();
  }

  send(ws: WebSocket, tick: number, keyframe: boolean, entities: NearbyEntity[]): number {
    const v: WorldSnapshot = { tick, keyframe, entities, gone: [] };
    out.reset();
    out.uint(WorldSnapshotCodec.id);
    if (tick !== rowsTick) {
      rows.clear();
      rowsTick = tick;
    }
    if (this.tracker.encodeInto(v, out, rows) === "nothing") return 0;
    // Not a view of `out` (reused): workerd reads the bytes after `send` returns.
    ws.send(slabbed(out.view()));
    return out.length;
  }

  sendAck(ws: WebSocket, ack: InputAck): number {
    out.reset();
    out.uint(InputAckCodec.id);
    InputAckCodec.writeTo(out, ack);
    ws.send(slabbed(out.view()));
    return out.length;
  }
}
