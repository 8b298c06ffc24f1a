// The checks a real Colyseus room passes with the generated package, shared by the 0.16 room
// on Node 20 (tests/colyseus/run.mjs) and the 0.18 room on Node 22 (tests/colyseus-018/run.mjs):
// each passes its own server, room class, transport and client here.
//
// - The client sends `toWire` tuples with `room.send` and raw `encode` bytes with
//   `room.sendBytes`; the room's handlers go through `attachServer`: valid input reaches
//   them, invalid input (a bad tuple, bad bytes, an unknown name) is dropped and counted,
//   and the sender stays connected.
// - The room sends `world:snapshot` 20 times a second with `send(s2c, client, msg,
//   { tracker })`, one delta `Tracker` per client; the client's dispatcher
//   (`createDispatcher(...).attach(room)`) applies the payloads to the Mirror it owns and
//   hands its handler the full value. Each must equal the value the room's tracker was given
//   (server-quantized), tick by tick, across keyframes, a requested one, and entities that
//   enter, change and leave.
// - Colyseus's own validation (`onMessage`'s validating form: 0.16's third argument, a
//   function; 0.17+'s second, a Standard Schema, here the generated codec itself) given the
//   same bad tuple disconnects the sender, while the valid value reaches its handler as the
//   natural type: what docs/frontend.md warns about, shown.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const WAIT_MS = 10_000;

/** The generated package (generated/ts/src), bundled by tests/ts's esbuild for `target` and imported. */
export async function loadGenerated(target) {
  const { build } = createRequire(join(root, "tests", "ts", "package.json"))("esbuild");
  const out = await build({
    entryPoints: [join(root, "generated", "ts", "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target,
    write: false,
    logLevel: "silent",
  });
  const tmp = mkdtempSync(join(tmpdir(), "tuplet-colyseus-"));
  try {
    const file = join(tmp, "village.mjs");
    writeFileSync(file, out.outputFiles[0].contents);
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

let gen; // the generated package
let Client; // the client library's Client class
let strictOnMessage; // how this version's room validates with its own hook
let leftWithError; // what onLeave's second argument is when Colyseus closed the sender for bad input

/**
 * Defines the tests (node:test) against one Colyseus line: `Room`, `Server` and
 * `WebSocketTransport` of the server, `Client` of the client library, `target` for esbuild,
 * `strict(room, codec, handler)`, which registers `player:move` with Colyseus's own
 * validating form of `onMessage`, and `leftWithError`, what `onLeave` gets as its second
 * argument when Colyseus closed a sender for bad input (0.16: `consented` false; 0.17+: the
 * close code 4002).
 */
export function colyseusChecks(lib) {
  strictOnMessage = lib.strict;
  leftWithError = lib.leftWithError;
  Client = lib.Client;
  const { VillageRoom, StrictRoom } = roomClasses(lib.Room);
  let server;
  before(async () => {
    gen = await loadGenerated(lib.target);
    server = new lib.Server({ transport: new lib.WebSocketTransport(), greet: false, gracefullyShutdown: false });
    server.define("village", VillageRoom);
    server.define("strict", StrictRoom);
    await server.listen(0, "127.0.0.1");
    endpoint = `ws://127.0.0.1:${server.transport.server.address().port}`;
  });
  after(async () => {
    if (server !== undefined) await server.gracefullyShutdown(false);
  });
  defineTests();
}

let endpoint;

const rooms = {}; // the rooms the server created, by name, for the tests to inspect

/**
 * Five NPCs walking circles: the room's world at `tick`, entities by id. NPC i is in view
 * except for 4 ticks in every 16 (from tick 5i on), so entities leave and enter again.
 */
function worldAt(tick) {
  const t = tick / 20;
  const entities = [];
  for (let i = 0; i < 5; i++) {
    if ((tick + 16 - ((5 * i) % 16)) % 16 >= 12) continue;
    const r = 8 + 4 * i;
    const a = i * 1.3 + (t * 1.25) / r;
    entities.push({
      id: 1000 + i,
      kind: i === 4 ? "Pet" : "Npc",
      pos: [r * Math.cos(a), 0, r * Math.sin(a)],
      heading: Math.atan2(Math.cos(a), -Math.sin(a)),
      speed: 1.25,
      anim: 1,
      label: i === 4 ? undefined : `Villager ${i}`,
    });
  }
  return { tick, keyframe: false, entities, gone: [] };
}

/** The two rooms, on this version's `Room`. */
function roomClasses(Room) {
  /** The room: tuplet's dispatch on top of Colyseus, and a delta tracker per client. */
  class VillageRoom extends Room {
    onCreate() {
      rooms.village = this;
      this.moves = [];
      this.chats = [];
      this.invalid = [];
      this.trackers = new Map();
      this.sent = new Map(); // client -> (tick -> { value: its canonical bytes, hex; sent: tracker.last })
      this.tick = 0;
      const { c2s, s2c, attachServer } = gen;
      this.village = attachServer(
        this,
        c2s,
        {
          "player:move": (client, m, name) => {
            this.moves.push({ from: client.sessionId, name, seq: m.seq, p: m.p });
            // Relayed back as a tuple: the client's dispatcher decodes it with fromWire.
            client.send("player:move", s2c.byName["player:move"].toWire({ s: client.sessionId, p: m.p, r: m.r, t: m.t, seq: m.seq }));
          },
          "chat:message": (client, c) => this.chats.push(c.text),
          "world:keyframe": (client) => this.trackers.get(client.sessionId)?.requestKeyframe(),
          // A barrier: Colyseus handles one client's messages in order.
          "diag:ping": (client, p) => {
            client.sendBytes("diag:pong", s2c.byName["diag:pong"].encode({ nonce: p.nonce, sent: p.sent, server_time: Date.now() }));
          },
        },
        { onInvalid: (name, issues, client) => this.invalid.push({ from: client.sessionId, name, code: issues[0].code, path: String(issues[0].path) }) },
      );
      // A name no message has would reach Colyseus's "not registered" fallback, which closes
      // the connection in production: the wildcard hands it to the dispatcher to count.
      this.onMessage("*", (client, type, payload) => this.village.onPayload(client, String(type), payload));
      this.setSimulationInterval(() => this.snapshot(), 50);
    }

    onJoin(client) {
      this.trackers.set(client.sessionId, new gen.Tracker(gen.WorldSnapshot$delta, 10));
      this.sent.set(client.sessionId, new Map());
    }

    onLeave(client) {
      this.trackers.delete(client.sessionId);
    }

    snapshot() {
      this.tick += 1;
      const value = worldAt(this.tick);
      // What the client must hold: the value the tracker is given, as its compact bytes
      // (server-quantized, entities by id).
      const canonical = hex(gen.WorldSnapshotCodec.encode(value));
      for (const client of this.clients) {
        const tracker = this.trackers.get(client.sessionId);
        if (tracker === undefined) continue;
        // The delta path of `send`: the tracker's next payload, by `client.sendBytes`.
        gen.send(gen.s2c, client, { name: "world:snapshot", value }, { tracker });
        if (tracker.last !== "nothing") this.sent.get(client.sessionId).set(this.tick, { value: canonical, sent: tracker.last, ids: value.entities.map((e) => e.id) });
      }
    }
  }

  /** Colyseus's own validation: the validating form of `onMessage` (`lib.strict`). */
  class StrictRoom extends Room {
    onCreate() {
      rooms.strict = this;
      this.moves = [];
      this.left = [];
      this.natural = [];
      strictOnMessage(this, gen.PlayerMoveCodec, (client, m) => {
        this.moves.push(m.seq);
        this.natural.push(m.p);
      });
    }

    onLeave(client, consented) {
      this.left.push({ session: client.sessionId, consented });
    }
  }
  return { VillageRoom, StrictRoom };
}

function hex(bytes) {
  return Buffer.from(bytes).toString("hex");
}

function waitUntil(what, ok) {
  return new Promise((resolve, reject) => {
    const until = Date.now() + WAIT_MS;
    const poll = () => {
      if (ok()) return resolve();
      if (Date.now() > until) return reject(new Error(`timed out: ${what}`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

/** A colyseus.js client in the village room, with a dispatcher (which owns the snapshot mirror). */
async function joinVillage() {
  const room = await new Client(endpoint).joinOrCreate("village");
  const got = { moves: [], pongs: [], snapshots: new Map(), order: [], invalid: [] };
  const dispatcher = gen.createDispatcher(
    gen.s2c,
    {
      "player:move": (m) => got.moves.push(m.seq),
      "diag:pong": (p) => got.pongs.push(p.nonce),
      // A delta message: the dispatcher's Mirror rebuilds the full value from each payload.
      "world:snapshot": (v) => {
        got.order.push(v.tick);
        got.snapshots.set(v.tick, hex(gen.WorldSnapshotCodec.encode(v)));
      },
    },
    { onInvalid: (name, issues) => got.invalid.push(`${name}: ${issues[0].code}`) },
  );
  dispatcher.attach(room);
  got.dispatcher = dispatcher;
  let nonce = 0;
  const sync = async () => {
    nonce += 1;
    const mine = nonce;
    room.send("diag:ping", gen.DiagPingCodec.toWire({ nonce: mine, sent: 0, want_stats: false }));
    await waitUntil("diag:pong", () => got.pongs.includes(mine));
  };
  return { room, got, sync };
}

const move = (seq) => ({ p: [1 + seq * 0.1, 0, 2], r: 0.5, t: 1_764_000_000_000 + seq * 100, seq });

function defineTests() {
  test("room.send(toWire) and room.sendBytes(encode) reach attachServer's handlers; bad input is dropped, counted, and the sender stays", async () => {
    const { room, got, sync } = await joinVillage();
    const { PlayerMoveCodec, ChatSayCodec } = gen;
    room.send("player:move", PlayerMoveCodec.toWire(move(1)));
    room.sendBytes("player:move", PlayerMoveCodec.encode(move(2)));
    room.send("chat:message", ChatSayCodec.toWire({ text: "hello", channel: "Local" }));
    // Bad: a tuple one field short, a position out of range, raw bytes that are not a move,
    // a name the protocol does not have.
    const short = PlayerMoveCodec.toWire(move(3)).slice(0, 2);
    const far = PlayerMoveCodec.toWire(move(4));
    far[0] = [1e9, 0, 0];
    room.send("player:move", short);
    room.send("player:move", far);
    room.sendBytes("player:move", new Uint8Array([0x93, 0xc1, 0x00, 0x00]));
    room.send("no:such", [1, 2]);
    // The plain object (what `room.send` carries by default) is the named shape: accepted.
    room.send("player:move", move(5));
    room.send("player:move", PlayerMoveCodec.toWire(move(6)));
    await sync().catch((e) => {
      throw new Error(`${e.message}; dropped ${JSON.stringify(rooms.village.invalid)}, moves ${JSON.stringify(rooms.village.moves)}`);
    });

    const v = rooms.village;
    assert.deepEqual(
      v.moves.map((m) => m.seq),
      [1, 2, 5, 6],
    );
    assert.deepEqual(v.moves[1].p, [Math.fround(1.2), 0, 2], "the bytes decoded to the natural value (f32 metres)");
    assert.deepEqual(v.chats, ["hello"]);
    assert.deepEqual(
      v.invalid.map((i) => `${i.name} ${i.code} ${i.path}`),
      ["player:move missing_field t", "player:move out_of_range p[0]", "player:move reserved_marker p", "no:such unknown_message "],
    );
    assert.deepEqual({ ...v.village.dropped }, { "player:move": 3, "no:such": 1 });
    assert.ok(v.clients.length === 1 && room.connection.isOpen, "the sender is still connected");
    assert.deepEqual(got.moves, [1, 2, 5, 6], "the room's tuples came back through the client's dispatcher");
    assert.deepEqual(got.invalid, []);
    await room.leave();
  });

  test("a delta message crosses the room as full values: send(..., { tracker }) to the client's dispatcher, across keyframes, a requested one, entries and removals", async () => {
    const { room, got } = await joinVillage();
    await waitUntil("12 snapshots", () => got.order.length >= 12);
    room.send("world:keyframe", gen.WorldKeyframeRequestCodec.toWire({ last_tick: 0 }));
    const askedAt = got.order.at(-1);
    await waitUntil("40 snapshots", () => got.order.length >= 40);
    const sent = rooms.village.sent.get(room.sessionId);
    // Every payload the room sent this client reached the handler, in order, as the value the
    // tracker was given.
    const ticks = [...sent.keys()].filter((t) => t <= got.order.at(-1));
    assert.deepEqual(got.order, ticks);
    for (const tick of ticks) assert.equal(got.snapshots.get(tick), sent.get(tick).value, `tick ${tick}`);
    assert.deepEqual(got.invalid, [], "no payload was dropped (no no_baseline, no decode error)");
    assert.ok(got.dispatcher.mirrors["world:snapshot"] instanceof gen.Mirror, "the dispatcher's own mirror");
    // What the payloads carried: keyframes (the first, every 10th, the requested one) and deltas
    // in which entities entered, changed and left.
    const kinds = ticks.map((t) => sent.get(t).sent);
    const keyframes = kinds.flatMap((k, i) => (k === "keyframe" ? [i] : []));
    const asked = ticks.indexOf(askedAt);
    assert.equal(keyframes[0], 0);
    assert.ok(keyframes.includes(10), `the tracker's cadence (every 10): ${keyframes}`);
    assert.ok(keyframes.some((i) => i > asked && i <= asked + 4 && i % 10 !== 0), `requested keyframe: ${keyframes}, asked after payload ${asked}`);
    let [entered, left, deltas] = [0, 0, 0];
    for (let i = 1; i < ticks.length; i++) {
      if (kinds[i] !== "delta") continue;
      deltas += 1;
      const [before, now] = [sent.get(ticks[i - 1]).ids, sent.get(ticks[i]).ids];
      if (now.some((id) => !before.includes(id))) entered += 1;
      if (before.some((id) => !now.includes(id))) left += 1;
    }
    assert.ok(deltas >= 25 && entered >= 3 && left >= 3, `${deltas} deltas, ${entered} with an entity entering, ${left} with one leaving`);
    await room.leave();
  });

  test("Colyseus's own validating onMessage disconnects the sender of a bad tuple (why attachServer validates inside the handler)", async () => {
    const room = await new Client(endpoint).joinOrCreate("strict");
    const closed = new Promise((resolve) => room.onLeave((code) => resolve(code)));
    room.send("player:move", gen.PlayerMoveCodec.toWire(move(1)));
    const bad = gen.PlayerMoveCodec.toWire(move(2)).slice(0, 2);
    room.send("player:move", bad);
    const code = await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("still connected")), WAIT_MS))]);
    assert.equal(code, 4002, "closed with Colyseus's WS_CLOSE_WITH_ERROR");
    const s = rooms.strict;
    await waitUntil("onLeave", () => s.left.length === 1);
    assert.deepEqual(s.moves, [1], "the good move arrived; the bad one cost the connection");
    assert.deepEqual(s.natural, [[Math.fround(1.1), 0, 2]], "the handler got the natural value (f32 metres)");
    assert.equal(s.left[0].consented, leftWithError, "an unconsented leave");
  });
}
