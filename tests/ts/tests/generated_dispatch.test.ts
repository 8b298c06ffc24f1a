// The generated dispatcher: a plain WebSocket (binary envelope) and a Colyseus-like room
// (structural type), validation inside the handler (invalid input dropped and counted, the
// connection kept, `onInvalid` told), and `send` in either shape per peer.

import assert from "node:assert/strict";
import { test } from "node:test";
import { pack } from "msgpackr";
import {
  PlayerMoveCodec,
  c2s,
  createDispatcher,
  envelope,
  send,
  type C2sMessage,
  type Issue,
  type PlayerMove,
  type RoomLike,
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
  // Unknown id.
  assert.equal(d.onBytes(Uint8Array.from([0xcd, 0x27, 0x0f, 0x90])), false);
  assert.equal(d.dropped["#9999"], 1);
  assert.equal(got.length, 2);
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
