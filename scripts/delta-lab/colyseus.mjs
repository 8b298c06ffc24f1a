// The delta lab's @colyseus/schema row: replays a recorded trajectory (examples/delta-lab,
// `delta-lab record`) through @colyseus/schema's own change tracking, one StateView per
// client as a Colyseus room with filters does (SchemaSerializer: the first message is
// encodeAll + encodeAllView, then each tick encode + encodeView per client, then
// discardChanges), and writes every client's message as a frame (row 3) for sizes.py.
//
//   node colyseus.mjs TRAJECTORY OUT [--check N]
//
// --check N decodes the first N clients' messages with @colyseus/schema's Decoder and
// compares each client's state with the trajectory (its view, every field) after every tick.
//
// The entity schema gives Colyseus its most compact fixed-width types for this world (a
// square of ±300 m): positions and heading as int16 (cm, mrad), speed as uint16 (1/64 m/s),
// kind and anim uint8; the map key is the entity id. No framing byte is counted (the
// Colyseus protocol byte, like tuplet's envelope id, is left out of every row).
//
// @colyseus/schema 5 (Colyseus 0.18's) can mark a primitive field unreliable (`@unreliable`,
// or `unreliable: true` in `schema()`): its later changes then leave the ordered patch for a
// separate message on the transport's unreliable channel, where a lost one stays lost until
// the field changes again. Positions, heading and speed would be the candidates here. None
// is marked: every row of the lab is an ordered, reliable stream (tuplet's deltas, the JSON
// deltas), so all of Colyseus's bytes are counted in one message per client and tick, as
// 0.16 to 0.18 send them over WebSocket, which has no unreliable channel.

import { createReadStream, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Decoder, Encoder, MapSchema, StateView, schema, t } from "@colyseus/schema";

const Entity = schema(
  {
    kind: t.uint8(),
    x: t.int16(),
    y: t.int16(),
    z: t.int16(),
    heading: t.int16(),
    speed: t.uint16(),
    anim: t.uint8(),
    owner: t.string().optional(),
    label: t.string().optional(),
  },
  "Entity",
);
const State = schema(
  {
    tick: t.uint32(),
    entities: t.map(Entity).view(),
  },
  "State",
);

const FIELDS = ["id", "kind", "x", "y", "z", "heading", "speed", "anim", "owner", "label"];
const ROW = 3;

const [trajectory, outPath, ...rest] = process.argv.slice(2);
if (!trajectory || !outPath) {
  console.error("usage: node colyseus.mjs TRAJECTORY OUT [--check N]");
  process.exit(2);
}
const checkAt = rest.indexOf("--check");
const checked = checkAt >= 0 ? Number(rest[checkAt + 1]) : 0;

// The initial full state of 400 entities exceeds the 8 KB default.
Encoder.BUFFER_SIZE = 128 * 1024;

const state = new State();
state.entities = new MapSchema();
const encoder = new Encoder(state);
const byId = new Map();
let views = [];
let decoders = [];
const chunks = [];
let bytes = 0;

function frame(client, msg) {
  const head = Buffer.alloc(6);
  head[0] = ROW;
  head[1] = client;
  head.writeUInt32LE(msg.length, 2);
  chunks.push(head, Buffer.from(msg));
  bytes += 6 + msg.length;
}

function apply(record) {
  const [id, kind, x, y, z, heading, speed, anim, owner, label] = record;
  let e = byId.get(id);
  const values = { kind, x, y, z, heading, speed, anim, owner: owner ?? undefined, label: label ?? undefined };
  if (e === undefined) {
    e = new Entity();
    for (const [k, v] of Object.entries(values)) if (v !== undefined) e[k] = v;
    byId.set(id, e);
    state.entities.set(String(id), e);
    return;
  }
  // Assign only what changed, as a game loop that tracks its own fields would.
  for (const [k, v] of Object.entries(values)) if (e[k] !== v) e[k] = v;
}

function check(client, tick, ids, records) {
  const got = decoders[client].state.entities;
  const want = new Set(ids.map(String));
  if (got.size !== want.size) throw new Error(`tick ${tick}: client ${client} holds ${got.size} entities, wants ${want.size}`);
  for (const id of ids) {
    const e = got.get(String(id));
    const r = records.get(id);
    if (!e) throw new Error(`tick ${tick}: client ${client} lacks entity ${id}`);
    for (let i = 1; i < FIELDS.length; i++) {
      if ((e[FIELDS[i]] ?? null) !== (r[i] ?? null)) {
        throw new Error(`tick ${tick}: client ${client} entity ${id}.${FIELDS[i]} is ${e[FIELDS[i]]}, wants ${r[i]}`);
      }
    }
  }
}

const records = new Map();
let first = true;
const lines = createInterface({ input: createReadStream(trajectory), crlfDelay: Infinity });
let header = null;
for await (const line of lines) {
  if (header === null) {
    header = JSON.parse(line);
    continue;
  }
  const t = JSON.parse(line);
  state.tick = t.t;
  for (const r of t.e) {
    records.set(r[0], r);
    apply(r);
  }
  if (first) {
    // Every client joins on the first tick: its view, then the full state.
    encoder.discardChanges();
    views = t.v.map((ids) => {
      const view = new StateView();
      for (const id of ids) view.add(byId.get(id));
      return { view, ids: new Set(ids) };
    });
    decoders = views.slice(0, checked).map(() => {
      const s = new State();
      return new Decoder(s);
    });
    const it = { offset: 0 };
    encoder.encodeAll(it);
    const sharedOffset = it.offset;
    views.forEach(({ view }, c) => {
      const msg = encoder.encodeAllView(view, sharedOffset, { ...it });
      view.changes.clear();
      frame(c, msg);
      if (c < checked) decoders[c].decode(msg);
    });
    first = false;
  } else {
    t.v.forEach((ids, c) => {
      const v = views[c];
      const now = new Set(ids);
      for (const id of v.ids) if (!now.has(id)) v.view.remove(byId.get(id));
      for (const id of ids) if (!v.ids.has(id)) v.view.add(byId.get(id));
      v.ids = now;
    });
    const it = { offset: 0 };
    encoder.encode(it);
    const sharedOffset = it.offset;
    views.forEach(({ view }, c) => {
      const msg = encoder.encodeView(view, sharedOffset, it);
      frame(c, msg);
      if (c < checked) decoders[c].decode(msg);
    });
    encoder.discardChanges();
  }
  for (let c = 0; c < checked; c++) check(c, t.t, t.v[c], records);
}
writeFileSync(outPath, Buffer.concat(chunks, bytes));
