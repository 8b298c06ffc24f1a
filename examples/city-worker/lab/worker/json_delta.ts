/**
 * The JSON twin's snapshots: the delta scheme of the game this example follows, in JSON
 * text. Per client the server remembers what it last sent for every entity in view; an entity
 * new in view goes whole (`add`), one the client has goes as its changed fields with their new
 * values (`upd`, with its `id`), one that left goes as its id (`rm`), and a keyframe (`kf`)
 * resends everything in view. Numbers are rounded to the steps tuplet's schema uses (cm,
 * mrad, 1/100 m/s), so both sides carry the same information.
 */

import type { InputAck, NearbyEntity } from "village-protocol";

/** One entity as JSON: the village's field names, numbers rounded. */
export interface JsonEntity {
  id: number;
  kind: string;
  pos: [number, number, number];
  heading: number;
  speed: number;
  anim: number;
  owner?: string;
  label?: string;
}

/** A JSON snapshot message (one text frame). */
export interface JsonSnapshot {
  t: "snap";
  tick: number;
  kf?: true;
  add?: JsonEntity[];
  upd?: Partial<JsonEntity>[];
  rm?: number[];
}

/**
 * A JSON `input:ack` (one text frame): the fields tuplet's ack carries, under the same names.
 * `p` and `r` only when the tick's snapshot lacks the body (as on tuplet's side).
 */
export interface JsonAck {
  t: "ack";
  applied: number;
  tick: number;
  queued: number;
  p?: [number, number, number];
  r?: number;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;
const r3 = (v: number): number => Math.round(v * 1000) / 1000;

/** The JSON twin's text for an ack (`p` in cm and `r` in mrad, rounded as the snapshots are). */
export function jsonAck(ack: InputAck): string {
  const msg: JsonAck = { t: "ack", applied: ack.applied, tick: ack.tick, queued: ack.queued };
  if (ack.p !== undefined) msg.p = [r2(ack.p[0]), r2(ack.p[1]), r2(ack.p[2])];
  if (ack.r !== undefined) msg.r = r3(ack.r);
  return JSON.stringify(msg);
}

/** JSON forms already made this tick (one entity object is shared by every viewer). */
const made = new WeakMap<NearbyEntity, JsonEntity>();

/** The JSON form of an entity (rounded; made once per entity object). */
export function jsonEntity(e: NearbyEntity): JsonEntity {
  let j = made.get(e);
  if (j === undefined) {
    j = toJson(e);
    made.set(e, j);
  }
  return j;
}

function toJson(e: NearbyEntity): JsonEntity {
  const j: JsonEntity = {
    id: e.id,
    kind: e.kind,
    pos: [r2(e.pos[0]), r2(e.pos[1]), r2(e.pos[2])],
    heading: r3(e.heading),
    speed: r2(e.speed),
    anim: e.anim,
  };
  if (e.owner !== undefined) j.owner = e.owner;
  if (e.label !== undefined) j.label = e.label;
  return j;
}

const FIELDS = ["kind", "heading", "speed", "anim", "owner", "label"] as const;

/** The fields of `cur` that differ from `old`, as new values (`null`: a field that was cleared). */
function changed(old: JsonEntity, cur: JsonEntity): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  const p = cur.pos;
  const q = old.pos;
  if (p[0] !== q[0] || p[1] !== q[1] || p[2] !== q[2]) (out ??= { id: cur.id }).pos = p;
  for (const f of FIELDS) {
    if (cur[f] !== old[f]) (out ??= { id: cur.id })[f] = cur[f] ?? null;
  }
  return out;
}

/** The server side for one client: what it last sent, and the keyframe cadence. */
export class JsonTracker {
  private base = new Map<number, JsonEntity>();
  private since = 0;
  private wanted = true;

  /** A keyframe first, then every `keyframeEvery` snapshots, and on request. */
  constructor(private readonly keyframeEvery: number) {}

  /** Makes the next snapshot a keyframe. */
  requestKeyframe(): void {
    this.wanted = true;
  }

  /** The next text frame for this client, or undefined when nothing changed. */
  encode(tick: number, entities: readonly NearbyEntity[]): string | undefined {
    const keyframe = this.wanted || this.since >= this.keyframeEvery;
    const next = new Map<number, JsonEntity>();
    for (const e of entities) next.set(e.id, jsonEntity(e));
    this.since += 1;
    if (keyframe) {
      this.wanted = false;
      this.since = 1;
      this.base = next;
      const msg: JsonSnapshot = { t: "snap", tick, kf: true, add: [...next.values()] };
      return JSON.stringify(msg);
    }
    const add: JsonEntity[] = [];
    const upd: Record<string, unknown>[] = [];
    const rm: number[] = [];
    for (const [id, cur] of next) {
      const old = this.base.get(id);
      if (old === undefined) add.push(cur);
      else {
        const c = changed(old, cur);
        if (c !== undefined) upd.push(c);
      }
    }
    for (const id of this.base.keys()) if (!next.has(id)) rm.push(id);
    this.base = next;
    if (add.length === 0 && upd.length === 0 && rm.length === 0) return undefined;
    const msg: Record<string, unknown> = { t: "snap", tick };
    if (add.length > 0) msg.add = add;
    if (upd.length > 0) msg.upd = upd;
    if (rm.length > 0) msg.rm = rm;
    return JSON.stringify(msg);
  }
}

/** The client side: the entity list rebuilt from JSON snapshots. */
export class JsonMirror {
  private held: Map<number, JsonEntity> | undefined;
  /** The tick of the last snapshot applied. */
  tick = -1;

  /** The entities in view, sorted by id (undefined before the first keyframe). */
  get value(): JsonEntity[] | undefined {
    return this.held === undefined ? undefined : [...this.held.values()].sort((a, b) => a.id - b.id);
  }

  /** Applies one snapshot; throws (and drops the mirror) on a delta it cannot apply. */
  apply(msg: JsonSnapshot): void {
    try {
      if (msg.kf) this.held = new Map();
      const m = this.held;
      if (m === undefined) throw new Error("a delta before any keyframe");
      for (const e of msg.add ?? []) m.set(e.id, e);
      for (const u of msg.upd ?? []) {
        const old = m.get(u.id as number);
        if (old === undefined) throw new Error(`an update of entity ${String(u.id)}, which is not in view`);
        const e: Record<string, unknown> = { ...old };
        for (const [k, v] of Object.entries(u)) {
          if (v === null) delete e[k];
          else e[k] = v;
        }
        m.set(old.id, e as unknown as JsonEntity);
      }
      for (const id of msg.rm ?? []) if (!m.delete(id)) throw new Error(`removal of entity ${id}, which is not in view`);
      this.tick = msg.tick;
    } catch (e) {
      this.held = undefined;
      throw e;
    }
  }
}
