// createServerDispatcher: one dispatcher for every client of a server on plain sockets.
// `(client, bytes)` in; the handler gets the sender and the full value; a delta message goes
// through the sender's own Mirror; bad input is dropped, counted in total and per client, and
// reported with the sender; `tracker(client, name)` and `send(client, msg)` keep one Tracker
// per client for what the server sends; hostile names find nothing on Object.prototype.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  c2s,
  createDispatcher,
  createServerDispatcher,
  envelope,
  Mirror,
  PlayerMoveCodec,
  s2c,
  send,
  Tracker,
  WorldSnapshot$delta,
  WorldSnapshotCodec,
  type C2sMessages,
  type PlayerMove,
  type S2cMessages,
  type SocketDispatcher,
  type WorldSnapshot,
} from "../../../generated/ts/src/index.js";

/** A server's record of a player: what the dispatcher is keyed by. */
interface Player {
  readonly name: string;
  readonly frames: Uint8Array[];
  readonly ws: { send(data: Uint8Array): void };
}

function player(name: string): Player {
  const frames: Uint8Array[] = [];
  return { name, frames, ws: { send: (d) => frames.push(d) } };
}

const move = (seq: number): PlayerMove => ({ p: [1 + seq * 0.5, 0, 2], r: 0.25, t: 1_764_000_000_000 + seq, seq });

function world(tick: number, n = 4): WorldSnapshot {
  const entities = Array.from({ length: n }, (_, i) => ({
    id: 10 + i,
    kind: "Npc" as const,
    pos: [i + tick * 0.25, 0, 2] as [number, number, number],
    heading: 0.5 + 0.5 * i,
    speed: 1.25,
    anim: tick % 3,
  }));
  return { tick, keyframe: false, entities, gone: [] };
}

function canonical(v: WorldSnapshot): string {
  return Buffer.from(WorldSnapshotCodec.encode(v)).toString("hex");
}

test("the handler gets the sender; bad input is dropped, counted per client, reported with its sender", () => {
  const got: string[] = [];
  const invalid: string[] = [];
  const server: SocketDispatcher<C2sMessages, Player> = createServerDispatcher(
    c2s,
    { "player:move": (p: Player, m) => got.push(`${p.name} ${m.seq}`) },
    { onInvalid: (name, issues, p) => invalid.push(`${p.name} ${name} ${issues[0]!.code}`) },
  );
  const [ann, bob] = [player("ann"), player("bob")];
  assert.equal(server.onBytes(ann, envelope(c2s, { name: "player:move", value: move(1) })), true);
  assert.equal(server.onBytes(bob, envelope(c2s, { name: "player:move", value: move(2) }).buffer as ArrayBuffer), true, "an ArrayBuffer (a Durable Object's frame)");
  const bad = envelope(c2s, { name: "player:move", value: move(3) });
  bad[bad.length - 1] = 0xc1; // the seq's byte: a reserved marker
  assert.equal(server.onBytes(bob, bad), false);
  assert.equal(server.onBytes(bob, new Uint8Array([0xcd, 0x7f])), false, "a truncated envelope id");
  assert.equal(server.onBytes(ann, new Uint8Array([0xcd, 0x7f, 0x7f, 0x90])), false, "an id no message has");
  assert.equal(server.onPayload(ann, "toString", [1]), false, "a name from Object.prototype finds no message");
  assert.equal(server.onPayload(ann, "player:move", PlayerMoveCodec.toWire(move(4))), true, "a payload a transport framed by name");
  assert.equal(server.onBytes(ann, envelope(c2s, { name: "chat:message", value: { text: "hi", channel: "Local" } })), false, "no handler: ignored");
  assert.deepEqual(got, ["ann 1", "bob 2", "ann 4"]);
  assert.deepEqual(invalid, ["bob player:move reserved_marker", "bob #? truncated", "ann #32639 unknown_message", "ann toString unknown_message"]);
  assert.deepEqual({ ...server.dropped }, { "player:move": 1, "#?": 1, "#32639": 1, toString: 1 });
  assert.deepEqual({ ...server.droppedBy(bob) }, { "player:move": 1, "#?": 1 });
  assert.deepEqual({ ...server.droppedBy(ann) }, { "#32639": 1, toString: 1 });
  assert.deepEqual({ ...server.droppedBy(player("cat")) }, {}, "a client that sent nothing");
  server.forget(bob);
  assert.deepEqual({ ...server.droppedBy(bob) }, {}, "forget drops a client's counts");
  assert.equal(server.dropped["player:move"], 1, "the totals stay");
});

test("a delta message a client sends goes through that client's own mirror", () => {
  // The village's only delta message runs server to client; a dispatcher of that direction
  // stands in for a protocol whose clients send one.
  const got: [string, string][] = [];
  const invalid: string[] = [];
  const server = createServerDispatcher(s2c, { "world:snapshot": (p: Player, v) => got.push([p.name, canonical(v)]) }, { onInvalid: (n, i, p) => invalid.push(`${p.name} ${n} ${i[0]!.code}`) });
  const [ann, bob] = [player("ann"), player("bob")];
  const trackers = new Map([
    [ann, new Tracker(WorldSnapshot$delta, 4)],
    [bob, new Tracker(WorldSnapshot$delta, 4)],
  ]);
  const expected: [string, string][] = [];
  for (let tick = 1; tick <= 10; tick++) {
    for (const p of [ann, bob]) {
      // Bob's world lags Ann's by 3 ticks and has one entity fewer: distinct baselines.
      const v = p === ann ? world(tick) : world(Math.max(1, tick - 3), 3);
      send(s2c, p.ws, { name: "world:snapshot", value: v }, { tracker: trackers.get(p)! });
      if (trackers.get(p)!.last === "nothing") continue;
      expected.push([p.name, canonical(v)]);
      assert.equal(server.onBytes(p, p.frames.at(-1)!), true, `${p.name} tick ${tick}`);
    }
  }
  assert.deepEqual(got, expected);
  assert.deepEqual(invalid, []);
  assert.ok(server.mirror(ann, "world:snapshot") instanceof Mirror);
  assert.notEqual(server.mirror(ann, "world:snapshot"), server.mirror(bob, "world:snapshot"));
  // A delta Ann never had the keyframe of (a new client object, no mirror yet): no_baseline, dropped.
  const late = player("late");
  const t = new Tracker(WorldSnapshot$delta, 0);
  send(s2c, late.ws, { name: "world:snapshot", value: world(1) }, { tracker: t });
  send(s2c, late.ws, { name: "world:snapshot", value: world(2) }, { tracker: t });
  assert.equal(server.onBytes(late, late.frames[1]!), false);
  assert.deepEqual(invalid, ["late world:snapshot no_baseline"]);
  assert.equal(server.onBytes(late, late.frames[0]!), true, "a keyframe heals it");
});

test("send(client, msg) keeps one Tracker per client; a client's dispatcher mirrors what it was sent", () => {
  const server = createServerDispatcher(c2s, {}, { out: s2c, keyframeEvery: 5, socketOf: (p: Player) => p.ws });
  const clients = [player("ann"), player("bob")];
  const views = new Map(clients.map((p) => [p, [] as string[]]));
  const sent = new Map(clients.map((p) => [p, [] as string[]]));
  const dispatchers = new Map(clients.map((p) => [p, createDispatcher(s2c, { "world:snapshot": (v) => views.get(p)!.push(canonical(v)) })]));
  const kinds: string[] = [];
  for (let tick = 1; tick <= 12; tick++) {
    for (const p of clients) {
      // Ann's world stands still after tick 6: nothing changes, nothing is sent.
      const v = p.name === "ann" ? world(Math.min(tick, 6)) : world(tick, 2 + (tick % 3));
      const what = server.send(p, { name: "world:snapshot", value: v });
      if (p.name === "ann") kinds.push(what);
      if (what !== "nothing") sent.get(p)!.push(canonical(v));
    }
    if (tick === 3) server.tracker(clients[1]!, "world:snapshot").requestKeyframe();
  }
  assert.equal(server.send(clients[0]!, { name: "diag:pong", value: { nonce: 7, sent: 1, server_time: 2 } }), "message");
  for (const p of clients) for (const f of p.frames) dispatchers.get(p)!.onBytes(f);
  assert.deepEqual(views, sent);
  assert.deepEqual(kinds, ["keyframe", "delta", "delta", "delta", "delta", "keyframe", "nothing", "nothing", "nothing", "nothing", "keyframe", "nothing"]);
  assert.notEqual(server.tracker(clients[0]!, "world:snapshot"), server.tracker(clients[1]!, "world:snapshot"));
  assert.ok(server.tracker(clients[0]!, "world:snapshot") instanceof Tracker);
  // The frames are copies: a later send does not change an earlier frame.
  const first = Buffer.from(clients[1]!.frames[0]!).toString("hex");
  server.send(clients[1]!, { name: "world:snapshot", value: world(40, 4) });
  assert.equal(Buffer.from(clients[1]!.frames[0]!).toString("hex"), first);
  server.forget(clients[1]!);
  assert.equal(server.send(clients[1]!, { name: "world:snapshot", value: world(41, 4) }), "keyframe", "a forgotten client starts over with a keyframe");
});

test("without { out } a server dispatcher cannot send, and a plain message has no tracker", () => {
  const bare = createServerDispatcher(c2s, {});
  assert.throws(() => bare.send(player("x"), { name: "player:join", value: { name: "x", colour: 0 } } as never), /needs \{ out: s2c \}/);
  const server = createServerDispatcher<C2sMessages, Player, S2cMessages>(c2s, {}, { out: s2c, socketOf: (p) => p.ws });
  assert.throws(() => server.tracker(player("x"), "diag:pong"), /not a delta message/);
});
