// The generated dispatcher: a plain WebSocket (binary envelope) and a Colyseus-like room
// (structural type), client side and server side (`attachServer`), validation inside the
// handler (invalid input dropped and counted, the connection kept, `onInvalid` told), the
// `unknown_message` templates of Rust's dispatch, and `send` in either shape per peer.

import assert from "node:assert/strict";
import { test } from "node:test";
import { pack } from "msgpackr";
import {
  PlayerMoveCodec,
  TupletError,
  c2s,
  attachServer,
  createDispatcher,
  envelope,
  send,
  type C2sMessage,
  type Issue,
  type PlayerMove,
  type RoomLike,
  type ServerRoomLike,
} from "../../../generated/ts/src/index.js";

const move: PlayerMove = { p: [1.5, -2, 0.25], r: 0.5, t: 1700000000000, seq: 7, flags: { running: true, jumping: false, crouching: false, swimming: false, mounted: false, sitting: false, carrying: true } };

class FakeRoom implements RoomLike {
  handlers = new Map<string, (payload: unknown) => void>();
  sent: [string, unknown][] = [];
  onMessage(type: string, cb: (payload: unknown) => void): unknown {
    this.handlers.set(type, cb);
    return undefined;
  }
  send(type: string, payload: unknown): void {
    this.sent.push([type, payload]);
  }
}

test("a binary envelope reaches its typed handler; invalid and unknown input is dropped and counted", () => {
  const got: PlayerMove[] = [];
  const invalid: [string, readonly Issue[]][] = [];
  const d = createDispatcher(c2s, { "player:move": (m) => got.push(m) }, { onInvalid: (name, issues) => invalid.push([name, issues]) });
  assert.equal(d.onBytes(envelope(c2s, { name: "player:move", value: move })), true);
  assert.equal(d.onBytes(envelope(c2s, { name: "player:move", value: move }, { shape: "named" })), true);
  assert.equal(got.length, 2);
  assert.deepEqual(got[0]?.p, [1.5, -2, 0.25]);
  // Out of range (x = 6000 m): dropped, counted, reported with its path.
  const bad = Uint8Array.from([0x01, 0x94, 0x93, 0xce, 0x00, 0x09, 0x27, 0xc0, 0, 0, 0x00, 0x00]);
  assert.equal(d.onBytes(bad), false);
  assert.equal(d.dropped["player:move"], 1);
  assert.equal(invalid[0]?.[1][0]?.code, "out_of_range");
  assert.equal(invalid[0]?.[1][0]?.path, "p[0]");
  // Unknown id: Rust's template (runtime/src/dispatch.rs, WIRE.md).
  assert.equal(d.onBytes(Uint8Array.from([0xcd, 0x27, 0x0f, 0x90])), false);
  assert.equal(d.dropped["#9999"], 1);
  assert.deepEqual(invalid[1]?.[1], [{ code: "unknown_message", path: "", message: "no message has id 9999" }]);
  assert.equal(got.length, 2);
});

test("unknown_message: the templates of Rust's dispatch, the name Rust-Debug-quoted", () => {
  const invalid: [string, readonly Issue[]][] = [];
  const d = createDispatcher(c2s, {}, { onInvalid: (name, issues) => invalid.push([name, issues]) });
  assert.equal(d.onPayload("no:such", [1]), false);
  assert.equal(d.onPayload('say "hi"\n', [1]), false);
  assert.equal(d.onBytes(Uint8Array.from([0x00, 0x90])), false);
  assert.deepEqual(
    invalid.map(([name, issues]) => [name, issues[0]?.code, issues[0]?.message]),
    [
      // A name that is none of the direction's messages is reported as `#<name>`, as an
      // unknown id is as `#<id>` (`DroppedName`).
      ["#no:such", "unknown_message", 'no message is named "no:such"'],
      ['#say "hi"\n', "unknown_message", 'no message is named "say \\"hi\\"\\n"'],
      ["#0", "unknown_message", "no message has id 0"],
    ],
  );
  // envelope and send throw the same error for a name the direction lacks.
  const msg = { name: "no:such", value: {} } as unknown as C2sMessage;
  const unknown = (e: unknown): boolean =>
    e instanceof TupletError && e.issue().code === "unknown_message" && e.issue().message === 'no message is named "no:such"';
  assert.throws(() => envelope(c2s, msg), unknown);
  assert.throws(() => send(c2s, new FakeRoom(), msg), unknown);
});

/** A Colyseus server room, as @colyseus/core calls `onMessage` callbacks: (client, message). */
class FakeServerRoom implements ServerRoomLike<FakeClient> {
  handlers = new Map<string, (client: FakeClient, payload: unknown) => void>();
  unbound: string[] = [];
  onMessage(type: string, cb: (client: FakeClient, payload: unknown) => void): () => void {
    this.handlers.set(type, cb);
    return () => this.unbound.push(type);
  }
  /** A client's message arriving: Colyseus calls the one handler registered for its type. */
  receive(client: FakeClient, type: string, payload: unknown): void {
    const cb = this.handlers.get(type);
    if (cb === undefined) {
      client.left = true; // Colyseus 0.17's "not registered" fallback in production
      return;
    }
    cb(client, payload);
  }
}

interface FakeClient {
  sessionId: string;
  left: boolean;
}

test("attachServer: one handler per message, invalid input dropped and counted, the sender stays connected", () => {
  const room = new FakeServerRoom();
  const alice: FakeClient = { sessionId: "alice", left: false };
  const bob: FakeClient = { sessionId: "bob", left: false };
  const got: [string, PlayerMove][] = [];
  const invalid: [string, string, string | undefined][] = [];
  const d = attachServer(
    room,
    c2s,
    { "player:move": (client, m) => got.push([client.sessionId, m]) },
    { onInvalid: (name, issues, client) => invalid.push([client.sessionId, name, issues[0]?.code]) },
  );
  // Every c2s message has a handler registered, so none reaches Colyseus's fallback.
  assert.deepEqual([...room.handlers.keys()].sort(), Object.keys(c2s.byName).sort());
  room.receive(alice, "player:move", PlayerMoveCodec.toWire(move)); // msgpack-decoded by Colyseus
  room.receive(alice, "player:move", PlayerMoveCodec.toWire(move, { shape: "named" })); // an old client
  room.receive(bob, "player:move", PlayerMoveCodec.encode(move)); // onMessageBytes: raw bytes
  room.receive(bob, "player:move", { x: 1 }); // missing fields
  room.receive(bob, "player:move", [[600000, 0, 0], 0, 1]); // out of range (6000 m)
  room.receive(alice, "player:move", "garbage");
  room.receive(alice, "chat:typing", ["hi"]); // a message without a handler: ignored, not dropped
  assert.deepEqual(got.map(([who]) => who), ["alice", "alice", "bob"]);
  assert.deepEqual(got[0]?.[1].p, [1.5, -2, 0.25]);
  assert.equal(d.dropped["player:move"], 3);
  assert.equal(d.dropped["chat:typing"], undefined);
  assert.deepEqual(invalid, [
    ["bob", "player:move", "missing_field"],
    ["bob", "player:move", "out_of_range"],
    ["alice", "player:move", "wrong_type"],
  ]);
  assert.equal(alice.left || bob.left, false, "nobody disconnected");
  // onPayload directly, with a name the direction lacks.
  assert.equal(d.onPayload(alice, "no:such", []), false);
  assert.equal(d.dropped["no:such"], 1);
  d.detach();
  assert.equal(room.unbound.length, room.handlers.size);
});

test("a Colyseus room: handlers attached per name, payload validated inside (msgpack value or bytes)", () => {
  const room = new FakeRoom();
  const got: PlayerMove[] = [];
  const d = createDispatcher(c2s, { "player:move": (m) => got.push(m) });
  d.attach(room);
  assert.deepEqual([...room.handlers.keys()], ["player:move"]);
  const cb = room.handlers.get("player:move");
  assert.ok(cb !== undefined);
  cb(PlayerMoveCodec.toWire(move)); // as Colyseus hands a msgpack-decoded payload
  cb(PlayerMoveCodec.toWire(move, { shape: "named" }));
  cb(PlayerMoveCodec.encode(move)); // as raw bytes
  cb({ x: 1 }); // an old client missing fields: dropped, not thrown
  cb("garbage");
  assert.equal(got.length, 3);
  assert.equal(d.dropped["player:move"], 2);
});

test("send: the compact tuple or the named map per peer, to a room or a socket", () => {
  const room = new FakeRoom();
  const msg: C2sMessage = { name: "player:move", value: move };
  send(c2s, room, msg);
  send(c2s, room, msg, { shape: "named" });
  assert.ok(Array.isArray(room.sent[0]?.[1]));
  assert.equal((room.sent[1]?.[1] as Record<string, unknown>)["rotationY"], 0.5);
  const frames: Uint8Array[] = [];
  send(c2s, { send: (b: Uint8Array) => frames.push(b) }, msg);
  assert.equal(frames[0]?.[0], 1); // the id, then the payload
  const back = PlayerMoveCodec.decode(frames[0]!.subarray(1));
  assert.ok(back.ok);
  assert.equal(back.value.seq, 7);
  // msgpackr-encoded toWire output is what a Colyseus peer sends.
  assert.equal(PlayerMoveCodec.decode(pack(PlayerMoveCodec.toWire(move))).ok, true);
  // An invalid value throws TupletError with the path.
  assert.throws(() => PlayerMoveCodec.encode({ ...move, r: 9 }), (e: Error) => e.name === "TupletError" && e.message.includes("at r"));
});

test("Standard Schema face: ~standard.validate behaves as fromWire", () => {
  const ok = PlayerMoveCodec["~standard"].validate(PlayerMoveCodec.toWire(move));
  assert.ok(!(ok instanceof Promise) && ok.issues === undefined);
  const bad = PlayerMoveCodec["~standard"].validate([[1, 2], 0, 0]);
  assert.ok(!(bad instanceof Promise) && bad.issues !== undefined);
  assert.deepEqual(bad.issues[0]?.path, ["p"]);
  assert.equal(PlayerMoveCodec["~standard"].vendor, "tuplet");
});
