// A dispatcher of only some messages of a direction (`s2cOnly([...])`, `c2sOnly([...])`): the
// listed ones reach their handlers, the direction's others are ignored and counted or dropped
// as errors (`others`), an id no message has is dropped either way; and the error texts a
// frontend meets first: a missing field is `missing_field` at its path (explicit `null` stays
// `wrong_type ... found nil`), an unknown enum name lists the valid names.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ChatSayCodec,
  PlayerCorrectionCodec,
  PlayerLeftCodec,
  PlayerMoveCodec,
  PlayerMoveRelayedCodec,
  PROTOCOL_VERSION,
  SessionHelloCodec,
  c2sOnly,
  createDispatcher,
  envelope,
  s2c,
  s2cOnly,
  send,
  type Issue,
  type MessagesOf,
  type PlayerCorrection,
  type PlayerMoveRelayed,
  type SocketLike,
} from "../../../generated/ts/src/index.js";

const relayed: PlayerMoveRelayed = { s: "abcdefghi", p: [1, 2, 3], r: 0.5, t: 1700000000000 };
const correctionValue: PlayerCorrection = { pos: [0, 0, 0], heading: 0, accepted_seq: 1, reason: "OutOfBounds", medium: "Land" };

test("s2cOnly: the listed messages reach their handlers; the direction's others are ignored and counted", () => {
  const page = s2cOnly([PlayerMoveRelayedCodec, PlayerLeftCodec]);
  // The type holds the listed messages only, by wire name.
  const names: (keyof MessagesOf<[typeof PlayerMoveRelayedCodec, typeof PlayerLeftCodec]>)[] = ["player:move", "player:left"];
  assert.deepEqual(Object.keys(page.byName).sort(), [...names].sort());
  const got: PlayerMoveRelayed[] = [];
  const invalid: string[] = [];
  const d = createDispatcher(page, { "player:move": (m) => got.push(m) }, { onInvalid: (name, issues) => invalid.push(`${name} ${issues[0]?.code}`) });
  assert.equal(d.onBytes(envelope(s2c, { name: "player:move", value: relayed })), true);
  assert.deepEqual(got, [relayed]);
  // player:correction is an s2c message the page left out: ignored, counted, nobody told.
  const correction = envelope(s2c, { name: "player:correction", value: correctionValue });
  assert.equal(d.onBytes(correction), false);
  assert.equal(d.onBytes(correction), false);
  assert.deepEqual({ ...d.ignored }, { [`#${PlayerCorrectionCodec.id}`]: 2 });
  assert.deepEqual({ ...d.dropped }, {});
  // An id no s2c message has is still dropped as unknown_message.
  assert.equal(d.onBytes(Uint8Array.from([0xcd, 0x27, 0x0f, 0x90])), false);
  assert.deepEqual(invalid, ["#9999 unknown_message"]);
  // A listed message without a handler is ignored, not counted (as with a whole direction).
  assert.equal(d.onBytes(envelope(s2c, { name: "player:left", value: { s: "abcdefghi", reason: "Closed" } })), false);
  assert.deepEqual({ ...d.dropped }, { "#9999": 1 });
});

test("others: \"error\" drops the direction's other messages as unknown_message, reported", () => {
  const invalid: [string, readonly Issue[]][] = [];
  const d = createDispatcher(s2cOnly([PlayerMoveRelayedCodec]), { "player:move": () => {} }, { others: "error", onInvalid: (name, issues) => invalid.push([name, issues]) });
  const correction = envelope(s2c, { name: "player:correction", value: correctionValue });
  assert.equal(d.onBytes(correction), false);
  assert.equal(d.dropped[`#${PlayerCorrectionCodec.id}`], 1);
  assert.deepEqual({ ...d.ignored }, {});
  assert.deepEqual(invalid, [[`#${PlayerCorrectionCodec.id}`, [{ code: "unknown_message", path: "", message: `message ${PlayerCorrectionCodec.id} of s2c is not one this dispatcher reads` }]]]);
});

test("c2sOnly: send takes a direction of only some messages", () => {
  const sent: Uint8Array[] = [];
  const socket: SocketLike = { send: (b) => void sent.push(b) };
  const out = c2sOnly([PlayerMoveCodec, ChatSayCodec]);
  send(out, socket, { name: "chat:message", value: { text: "hi", channel: "Local" } });
  const d = createDispatcher(out, { "chat:message": (m) => assert.equal(m.text, "hi") });
  assert.equal(d.onBytes(sent[0]!), true);
});

test("a missing field is missing_field at its path in validate, encode and toWire; null is nil", () => {
  const noT = { p: [1, 2, 3], r: 0.5, seq: 1 } as never;
  const first = (r: { ok: boolean; issues?: readonly Issue[] }) => r.issues?.[0];
  assert.deepEqual(first(PlayerMoveCodec.validate(noT)), { code: "missing_field", path: "t", message: "missing field t", segments: ["t"] });
  assert.deepEqual(first(PlayerMoveCodec.validate({ p: [1, 2, 3], r: 0.5, t: undefined, seq: 1 } as never))?.code, "missing_field");
  assert.throws(() => PlayerMoveCodec.encode(noT), { message: "missing_field at t: missing field t" });
  assert.throws(() => PlayerMoveCodec.toWire(noT), { message: "missing_field at t: missing field t" });
  assert.throws(() => PlayerMoveCodec.encode(noT, { shape: "named" }), { message: "missing_field at t: missing field t" });
  // Nested: a field of a record inside the message.
  const flags = { running: true, jumping: false, crouching: false, swimming: false, mounted: false, sitting: false } as never;
  assert.throws(() => PlayerMoveCodec.encode({ p: [1, 2, 3], r: 0.5, t: 1, seq: 1, flags }), { message: "missing_field at flags.carrying: missing field carrying" });
  // An explicit null is a value, nil, which an int does not take.
  assert.deepEqual(first(PlayerMoveCodec.validate({ p: [1, 2, 3], r: 0.5, t: null, seq: 1 } as never)), { code: "wrong_type", path: "t", message: "expected int, found nil", segments: ["t"] });
  // Read from the wire: a named map without the key, a short tuple.
  assert.deepEqual(first(PlayerMoveCodec.fromWire({ p: [1, 2, 3], r: 0.5, seq: 1 })), { code: "missing_field", path: "t", message: "missing field t" });
});

test("an unknown enum name lists the valid names, in validate, encode and decode", () => {
  const names = '"Local", "Room", "Party", "Trade", "Staff"';
  const want = { code: "unknown_variant", path: "channel" };
  const v = ChatSayCodec.validate({ text: "x", channel: "room" } as never);
  assert.ok(!v.ok);
  assert.deepEqual({ code: v.issues[0]!.code, path: v.issues[0]!.path }, want);
  assert.match(v.issues[0]!.message, /^unknown variant "room", expected one of "/);
  assert.throws(() => ChatSayCodec.encode({ text: "x", channel: "room" } as never), { message: `unknown_variant at channel: unknown variant "room", expected one of ${names}` });
  const w = ChatSayCodec.fromWire({ text: "x", channel: "room" });
  assert.ok(!w.ok);
  assert.equal(w.issues[0]!.message, `unknown variant "room", expected one of ${names}`);
});

test("PROTOCOL_VERSION: the schema's `pub const PROTOCOL_VERSION`, what session:hello carries", () => {
  assert.equal(PROTOCOL_VERSION, 2);
  const hello = SessionHelloCodec.decode(SessionHelloCodec.encode({ protocol: PROTOCOL_VERSION, build: "test", locale: "en" }));
  assert.ok(hello.ok && hello.value.protocol === 2);
});

test("the types follow the list: other messages and the other direction's codecs do not compile", () => {
  const reads = s2cOnly([PlayerMoveRelayedCodec]);
  // @ts-expect-error: a c2s codec (player:move is id 1 both ways, with another type) is not an S2cCodec
  s2cOnly([PlayerMoveCodec]);
  // @ts-expect-error: player:left is an s2c message, but not one of this list
  createDispatcher(reads, { "player:left": () => {} });
  const out = c2sOnly([PlayerMoveCodec]);
  const socket: SocketLike = { send: () => {} };
  // @ts-expect-error: chat:message is not in the list
  assert.throws(() => send(out, socket, { name: "chat:message", value: { text: "hi", channel: "Local" } }), /unknown_message/);
});
