// Delta messages through the dispatcher and `send`: the handler of `world:snapshot` gets the
// full value across keyframes and changes (the dispatcher's own Mirror), a tracker's payload
// never reaches the plain decoder, `XCodec.decode` of one says `delta_payload`, and `send`
// takes the peer's tracker (`sendBytes` to a Colyseus client, an envelope to a socket).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  attachServer,
  Code,
  createDispatcher,
  Mirror,
  s2c,
  send,
  Tracker,
  TupletError,
  WorldSnapshot$delta,
  WorldSnapshotCodec,
  type WorldSnapshot,
} from "../../../generated/ts/src/index.js";

function world(tick: number): WorldSnapshot {
  const entities = [0, 1, 2, 3].map((i) => ({
    id: 100 + i,
    kind: "Npc" as const,
    pos: [i + tick * 0.25, 0, 2] as [number, number, number],
    heading: 0.5,
    speed: 1.25,
    anim: tick % 3,
    ...(i === 0 ? { label: "Ann" } : {}),
  }));
  return { tick, keyframe: false, entities, gone: [] };
}

/** What a client holds: the compact bytes read back (server-quantized). */
function quantized(v: WorldSnapshot): WorldSnapshot {
  const r = WorldSnapshotCodec.decode(WorldSnapshotCodec.encode(v));
  assert.ok(r.ok);
  return r.value;
}

test("the dispatcher mirrors a delta message: full values over envelopes and named payloads", () => {
  const tracker = new Tracker(WorldSnapshot$delta, 5);
  const got: WorldSnapshot[] = [];
  const byName: WorldSnapshot[] = [];
  const invalid: string[] = [];
  const sockets = createDispatcher(s2c, { "world:snapshot": (v) => got.push(v) }, { onInvalid: (n, i) => invalid.push(`${n} ${i[0]!.code}`) });
  const rooms = createDispatcher(s2c, { "world:snapshot": (v) => byName.push(v) });
  const frames: Uint8Array[] = [];
  const bytes: [string, Uint8Array][] = [];
  const socket = { send: (data: Uint8Array) => frames.push(data) };
  const client = { send: () => assert.fail("a tracker's payload goes as bytes"), sendBytes: (name: string, b: Uint8Array) => bytes.push([name, b]) };
  const clientTracker = new Tracker(WorldSnapshot$delta, 5);
  for (let tick = 1; tick <= 12; tick++) {
    send(s2c, socket, { name: "world:snapshot", value: world(tick) }, { tracker });
    send(s2c, client, { name: "world:snapshot", value: world(tick) }, { tracker: clientTracker });
    assert.equal(frames.length, tick);
    assert.ok(sockets.onBytes(frames[tick - 1]!));
    const [name, payload] = bytes[tick - 1]!;
    assert.ok(rooms.onPayload(name, payload));
    assert.deepEqual(got[tick - 1], quantized(world(tick)), `tick ${tick}`);
    assert.deepEqual(byName[tick - 1], quantized(world(tick)));
    // The plain decoder, handed the same payload, says what it is.
    const plain = WorldSnapshotCodec.decode(payload);
    assert.ok(!plain.ok);
    assert.equal(plain.issues[0]!.code, Code.DeltaPayload);
    assert.match(plain.issues[0]!.message, /this is a delta message; apply it with a Mirror \(a (keyframe|delta) from a Tracker\)/);
  }
  assert.deepEqual(invalid, []);
  assert.ok(sockets.mirrors["world:snapshot"] instanceof Mirror);
  // A reconnect: the mirror is cleared, a delta is dropped (no_baseline) until a keyframe.
  sockets.mirrors["world:snapshot"]!.clear();
  send(s2c, socket, { name: "world:snapshot", value: world(13) }, { tracker });
  assert.equal(sockets.onBytes(frames[12]!), false);
  assert.deepEqual(invalid, ["world:snapshot no_baseline"]);
  tracker.requestKeyframe();
  send(s2c, socket, { name: "world:snapshot", value: world(14) }, { tracker });
  assert.equal(tracker.last, "keyframe");
  assert.ok(sockets.onBytes(frames[13]!));
  assert.deepEqual(got.at(-1), quantized(world(14)));
  // Nothing changed: nothing is sent.
  send(s2c, socket, { name: "world:snapshot", value: world(14) }, { tracker });
  assert.equal(tracker.last, "nothing");
  assert.equal(frames.length, 14);
});

test("send of a delta message needs its tracker; a handed mirror is used; plain values still decode", () => {
  assert.throws(
    () => send(s2c, { send: () => {} }, { name: "world:snapshot", value: world(1) }),
    (e) => e instanceof TupletError && e.code === Code.DeltaPayload && /send it with \{ tracker \}/.test(e.message),
  );
  // A legacy peer gets full values in the named shape.
  const sent: unknown[] = [];
  send(s2c, { onMessage: () => {}, send: (_n: string, p: unknown) => sent.push(p) }, { name: "world:snapshot", value: world(1) }, { shape: "named" });
  assert.equal(sent.length, 1);
  assert.ok(WorldSnapshotCodec.decode(WorldSnapshotCodec.encode(world(1))).ok, "plain bytes stay plain");
  const mirror = WorldSnapshot$delta.mirror();
  const seen: number[] = [];
  const d = createDispatcher(s2c, { "world:snapshot": (v) => seen.push(v.tick) }, { mirrors: { "world:snapshot": mirror } });
  const t = new Tracker(WorldSnapshot$delta, 0);
  d.onPayload("world:snapshot", t.encode(world(7))!);
  assert.deepEqual(seen, [7]);
  assert.equal(mirror.value?.tick, 7);
  // A value that is not bytes cannot be a tracker's payload.
  assert.equal(d.onPayload("world:snapshot", [1, null]), false);
});

test("attachServer keeps one mirror per client", () => {
  type C = { id: string };
  const handlers: Record<string, (client: C, payload: unknown) => void> = {};
  const room = { onMessage: (name: string, cb: (client: C, payload: unknown) => void) => (handlers[name] = cb) };
  const got: string[] = [];
  attachServer(room, s2c, { "world:snapshot": (c: C, v) => got.push(`${c.id}:${v.tick}`) });
  const [a, b] = [{ id: "a" }, { id: "b" }];
  const [ta, tb] = [new Tracker(WorldSnapshot$delta, 0), new Tracker(WorldSnapshot$delta, 0)];
  for (let tick = 1; tick <= 3; tick++) {
    handlers["world:snapshot"]!(a, ta.encode(world(tick))!);
    if (tick !== 2) handlers["world:snapshot"]!(b, tb.encode(world(tick * 10))!);
  }
  assert.deepEqual(got, ["a:1", "b:10", "a:2", "a:3", "b:30"]);
});
