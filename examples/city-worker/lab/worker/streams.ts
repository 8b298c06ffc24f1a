/**
 * The lab's snapshot streams: the city's tuplet stream with what the lab reads of it (the
 * last snapshot sent, the size of a whole one), and the JSON twin's deltas and acks in text
 * frames.
 */

import { WorldSnapshotCodec, type InputAck, type NearbyEntity, type WorldSnapshot } from "village-protocol";
import { TupletStream, type Stream } from "../../src/streams.js";
import { jsonAck, jsonEntity, JsonTracker } from "./json_delta.js";

/** A snapshot stream the lab can read back. */
export interface LabStream extends Stream {
  /** The full snapshot's size, as this side would send it undelta'd (a reference figure). */
  fullBytes(tick: number, entities: NearbyEntity[]): number;
  /** What the client should hold now, in a form the lab's bots compare with their mirror. */
  report(): unknown;
}

function base64(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

/** The city's `TupletStream`, remembering the last snapshot it sent. */
export class LabTupletStream extends TupletStream implements LabStream {
  private last: WorldSnapshot | undefined;

  override send(ws: WebSocket, tick: number, keyframe: boolean, entities: NearbyEntity[]): number {
    const n = super.send(ws, tick, keyframe, entities);
    if (n > 0) this.last = { tick, keyframe, entities, gone: [] };
    return n;
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

/**
 * The JSON twin's snapshots and acks: the same entities, as JSON deltas in text frames, and
 * the same ack fields as JSON text (a JSON game sends all of its messages as JSON).
 */
export class JsonStream implements LabStream {
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

  sendAck(ws: WebSocket, ack: InputAck): number {
    const text = jsonAck(ack);
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
