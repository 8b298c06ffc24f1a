// A plain `ws` server (no framework) on the generated package's server dispatcher: one
// `createServerDispatcher(c2s, handlers, { out: s2c })` for every socket, `onBytes(socket,
// data)` on each frame, handlers that get the sender, `send(socket, msg)` with that socket's
// own Tracker for `world:snapshot`. Two `ws` clients on 127.0.0.1, each with a client
// dispatcher (`createDispatcher`) and its Mirror: both receive keyframes and deltas whose full
// values equal what the server was given, tick by tick; bad input from one is dropped and
// counted for that client alone, and it stays connected.
//
//   cd tests/colyseus-018 && npm test     (scripts/test runs it; Node 22 from node_modules)

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { WebSocket, WebSocketServer } from "ws";

import { loadGenerated } from "../colyseus/checks.mjs";

const WAIT_MS = 10_000;
let gen;
let wss;
let url;
let server; // what the test inspects: the dispatcher, handled messages, what was sent

before(async () => {
  gen = await loadGenerated("node22");
  const { c2s, s2c, createServerDispatcher } = gen;
  const moves = [];
  const sent = new Map(); // socket -> (tick -> { value: canonical hex, kind: keyframe or delta })
  const dispatcher = createServerDispatcher(
    c2s,
    {
      "player:join": (ws, j) => (ws.player = j.name),
      "player:move": (ws, m) => moves.push(`${ws.player} ${m.seq}`),
      "world:keyframe": (ws) => dispatcher.tracker(ws, "world:snapshot").requestKeyframe(),
      "diag:ping": (ws, p) => dispatcher.send(ws, { name: "diag:pong", value: { nonce: p.nonce, sent: p.sent, server_time: Date.now() } }),
    },
    { out: s2c, keyframeEvery: 1000, onInvalid: (name, issues, ws) => server.invalid.push(`${ws.player} ${name} ${issues[0].code}`) },
  );
  wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    for (const ws of wss.clients) {
      if (ws.player === undefined) continue;
      // Each player sees the NPCs shifted by its own offset: distinct streams per socket.
      const value = worldAt(tick, ws.player === "ann" ? 0 : 3);
      const kind = dispatcher.send(ws, { name: "world:snapshot", value });
      if (kind !== "nothing") sent.get(ws).set(tick, { value: hex(gen.WorldSnapshotCodec.encode(value)), kind });
    }
  }, 50);
  wss.on("connection", (ws) => {
    sent.set(ws, new Map());
    ws.on("message", (data, isBinary) => {
      if (!isBinary) return server.invalid.push(`${ws.player} (text)`);
      dispatcher.onBytes(ws, data);
    });
    ws.on("close", () => dispatcher.forget(ws));
  });
  await new Promise((resolve) => wss.once("listening", resolve));
  url = `ws://127.0.0.1:${wss.address().port}`;
  server = { dispatcher, moves, sent, invalid: [], timer, socketOf: (name) => [...wss.clients].find((w) => w.player === name) };
});

after(async () => {
  clearInterval(server?.timer);
  for (const ws of wss?.clients ?? []) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
});

function worldAt(tick, shift) {
  const entities = [];
  for (let i = 0; i < 4; i++) {
    if ((tick + 3 * i) % 12 >= 9) continue; // in and out of view
    const a = i + shift + tick / 40;
    entities.push({ id: 50 + i, kind: "Npc", pos: [10 * Math.cos(a), 0, 10 * Math.sin(a)], heading: 0.25 * i, speed: 1.5, anim: tick % 4 });
  }
  return { tick, keyframe: false, entities, gone: [] };
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

/** A `ws` client with a client dispatcher (whose Mirror rebuilds `world:snapshot`). */
async function connect(name) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const got = { snapshots: new Map(), order: [], pongs: [], invalid: [] };
  const d = gen.createDispatcher(
    gen.s2c,
    {
      "world:snapshot": (v) => {
        got.order.push(v.tick);
        got.snapshots.set(v.tick, hex(gen.WorldSnapshotCodec.encode(v)));
      },
      "diag:pong": (p) => got.pongs.push(p.nonce),
    },
    { onInvalid: (n, i) => got.invalid.push(`${n} ${i[0].code}`) },
  );
  ws.on("message", (data) => d.onBytes(new Uint8Array(data)));
  const send = (msg) => gen.send(gen.c2s, ws, msg);
  send({ name: "player:join", value: { name, colour: 1 } });
  let nonce = 0;
  const sync = async () => {
    const mine = ++nonce;
    send({ name: "diag:ping", value: { nonce: mine, sent: 0, want_stats: false } });
    await waitUntil(`${name}: diag:pong`, () => got.pongs.includes(mine));
  };
  return { ws, got, send, sync };
}

const move = (seq) => ({ p: [1, 0, 2 + seq], r: 0.5, t: 1_764_000_000_000 + seq, seq });

test("a ws server dispatches with the sender: per-socket mirrors and trackers, bad input dropped per client, the sender kept", async () => {
  const [ann, bob] = [await connect("ann"), await connect("bob")];
  ann.send({ name: "player:move", value: move(1) });
  bob.send({ name: "player:move", value: move(2) });
  const bad = gen.envelope(gen.c2s, { name: "player:move", value: move(3) });
  bad[bad.length - 1] = 0xc1; // a reserved marker where the seq is
  bob.ws.send(bad);
  bob.ws.send(new Uint8Array([0xcd, 0x7f, 0x7f])); // an id no message has
  bob.ws.send("text"); // a text frame: the server's own rule
  bob.send({ name: "player:move", value: move(4) });
  await bob.sync();
  await ann.sync();
  await waitUntil("25 snapshots each", () => ann.got.order.length >= 25 && bob.got.order.length >= 25);
  const asked = bob.got.order.at(-1);
  bob.send({ name: "world:keyframe", value: { last_tick: 0 } });
  const bobSent = server.sent.get(server.socketOf("bob"));
  const requested = () => [...bobSent].find(([t, s]) => t > asked && s.kind === "keyframe" && t <= asked + 5);
  await waitUntil("a requested keyframe", () => requested() !== undefined && bob.got.order.includes(requested()[0]));
  // The cadence is 1000 sends: the first keyframe and the requested one are the only ones.
  const keyframes = (ws) => [...server.sent.get(ws).values()].filter((x) => x.kind === "keyframe").length;
  assert.equal(keyframes(server.socketOf("bob")), 2);
  assert.equal(keyframes(server.socketOf("ann")), 1);

  assert.deepEqual([...server.moves].sort(), ["ann 1", "bob 2", "bob 4"], "the handlers got the sender (sockets interleave)");
  assert.deepEqual(server.invalid, ["bob player:move reserved_marker", "bob #32639 unknown_message", "bob (text)"]);
  const [annWs, bobWs] = [server.socketOf("ann"), server.socketOf("bob")];
  assert.deepEqual({ ...server.dispatcher.droppedBy(bobWs) }, { "player:move": 1, "#32639": 1 });
  assert.deepEqual({ ...server.dispatcher.droppedBy(annWs) }, {});
  assert.equal(bob.ws.readyState, WebSocket.OPEN, "the sender of bad input is still connected");
  assert.notEqual(server.dispatcher.tracker(annWs, "world:snapshot"), server.dispatcher.tracker(bobWs, "world:snapshot"));
  for (const [c, ws] of [
    [ann, annWs],
    [bob, bobWs],
  ]) {
    const sent = server.sent.get(ws);
    const ticks = [...sent.keys()].filter((t) => t <= c.got.order.at(-1));
    assert.deepEqual(c.got.order, ticks, "every payload sent arrived, in order");
    for (const t of ticks) assert.equal(c.got.snapshots.get(t), sent.get(t).value, `tick ${t}`);
    assert.deepEqual(c.got.invalid, []);
    const kinds = ticks.map((t) => sent.get(t).kind);
    assert.equal(kinds[0], "keyframe");
    assert.ok(kinds.filter((k) => k === "delta").length >= 20, `kinds: ${kinds}`);
  }
  assert.notEqual(ann.got.snapshots.get(ann.got.order[5]), bob.got.snapshots.get(ann.got.order[5]), "distinct streams");
  ann.ws.close();
  bob.ws.close();
});
