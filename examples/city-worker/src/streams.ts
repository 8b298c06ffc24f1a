/**
 * The two ways a city sends its snapshots: tuplet's delta `Tracker` on the generated
 * `world:snapshot` codec (binary frames), and the JSON twin's deltas (text frames).
 */

import { EntityRows, Tracker, Writer, WorldSnapshot$delta, WorldSnapshotCodec, type NearbyEntity, type WorldSnapshot } from "village-protocol";
import { jsonEntity, JsonTracker } from "./json_delta.js";

/** One client's snapshot stream: per-client delta state, and what it last sent (for the lab). */
export interface Stream {
  /** Makes the next snapshot a keyframe. */
  requestKeyframe(): void;
  /** Sends this tick's snapshot on `ws` (nothing when nothing changed); returns bytes sent. */
  send(ws: WebSocket, tick: number, keyframe: boolean, entities: NearbyEntity[]): number;
  /** The full snapshot's size, as this side would send it undelta'd (a reference figure). */
  fullBytes(tick: number, entities: NearbyEntity[]): number;
  /** What the client should hold now, in a form the lab's bots compare with their mirror. */
  report(): unknown;
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

function base64(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

/**
 * Each entity's quantized row, made once per tick and shared by every client's tracker (as
 * the JSON twin makes each entity's JSON once: json_delta.ts). The simulation makes a tick's
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
  private last: WorldSnapshot | undefined;

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
    this.last = v;
    // Not a view of `out` (reused): workerd reads the bytes after `send` returns.
    ws.send(slabbed(out.view()));
    return out.length;
  }

  fullBytes(tick: number, entities: NearbyEntity[]): number {
    return 1 + WorldSnapshotCodec.encode({ tick, keyframe: true, entities, gone: [] }).length;
  }

  /** The last snapshot sent, entities in key order (as a `Mirror` holds them), compact bytes in base64. */
  report(): unknown {
    const v = this.last;
    if (v === undefined) return null;
    const sorted = { ...v, entities: v.entities.slice().sort((a, b) => a.id - b.id) };
    return { tick: v.tick, bytes: base64(WorldSnapshotCodec.encode(sorted)) };
  }
}

/** The JSON twin's snapshots: the same entities, as JSON deltas in text frames. */
export class JsonStream implements Stream {
  private readonly tracker = new JsonTracker(Number.POSITIVE_INFINITY);
  private last: { tick: number; entities: NearbyEntity[] } | undefined;

  requestKeyframe(): void {
    this.tracker.requestKeyframe();
  }

  send(ws: WebSocket, tick: number, _keyframe: boolean, entities: NearbyEntity[]): number {
    const text = this.tracker.encode(tick, entities);
    if (text === undefined) return 0;
    this.last = { tick, entities };
    ws.send(text);
    return text.length;
  }

  fullBytes(tick: number, entities: NearbyEntity[]): number {
    return JSON.stringify({ t: "snap", tick, kf: true, add: entities.map(jsonEntity) }).length;
  }

  report(): unknown {
    const v = this.last;
    if (v === undefined) return null;
    return { tick: v.tick, entities: v.entities.map(jsonEntity).sort((a, b) => a.id - b.id) };
  }
}
