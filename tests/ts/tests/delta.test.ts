// Delta snapshots, the TypeScript side (WIRE.md, "Delta snapshots"):
// - the shared vectors (tests/fixtures/delta_vectors.json, written by the Rust tracker): the
//   TypeScript tracker writes the same bytes from the same values, and the mirror rebuilds
//   each value from the Rust bytes;
// - WIRE.md's ```wire-delta blocks: the same bytes, each payload one msgpack value for
//   @msgpack/msgpack, the mirror rebuilds each value;
// - a property test like the Rust one: after any sequence of ticks, moves, joins, leaves,
//   keyframes and dropped or corrupted payloads followed by a keyframe request, the mirror
//   equals the server's quantized state;
// - writes target/tuplet-vectors/delta_ts.json (TypeScript-encoded sequences), which the
//   ignored Rust test `ts_encoded_deltas_apply_in_rust` applies.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decode as mpDecode } from "@msgpack/msgpack";
import fc from "fast-check";
import { Code, Mirror, Tracker, TupletError, WorldSnapshotCodec, WorldSnapshot$delta } from "../../../generated/ts/src/index.js";
import type { NearbyEntity, WorldSnapshot } from "../../../generated/ts/src/index.js";
import { vectorsDir } from "./generated_support.js";
import { readRepoFile, toHex } from "./support.js";

/** Bytes as plain lowercase hex (the vectors' form). */
function plain(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "" : Buffer.from(bytes).toString("hex");
}

function unplain(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s, "hex"));
}

/** The server's value as the client must see it: quantized, entities by key. */
function quantized(v: WorldSnapshot): WorldSnapshot {
  const r = WorldSnapshotCodec.decode(WorldSnapshotCodec.encode(v));
  assert.ok(r.ok);
  r.value.entities.sort((a, b) => a.id - b.id);
  return r.value;
}

interface Step {
  sent: string;
  value: WorldSnapshot;
  bytes: string;
}

test("the shared delta vectors: same bytes as Rust, and the mirror rebuilds each value", () => {
  const doc = JSON.parse(readRepoFile("tests/fixtures/delta_vectors.json")) as {
    sequences: { keyframe_every: number; steps: (Step & { request: boolean })[] }[];
  };
  let n = 0;
  for (const seq of doc.sequences) {
    const tracker = new Tracker(WorldSnapshot$delta, seq.keyframe_every);
    const mirror = new Mirror(WorldSnapshot$delta);
    for (const step of seq.steps) {
      if (step.request) tracker.requestKeyframe();
      const bytes = tracker.encode(step.value);
      assert.equal(tracker.last, step.sent);
      assert.equal(plain(bytes), step.bytes);
      if (step.sent !== "nothing") {
        assert.deepEqual(mirror.apply(unplain(step.bytes)), quantized(step.value));
        n++;
      }
    }
  }
  assert.ok(n > 100, `${n} payloads`);
});

function wireDeltaBlocks(): Step[][] {
  const out: Step[][] = [];
  let cur: Step[] | undefined;
  let sent = "";
  let value: WorldSnapshot | undefined;
  for (const line of readRepoFile("WIRE.md").split("\n")) {
    if (cur === undefined) {
      if (line.trim() === "```wire-delta") cur = [];
      continue;
    }
    if (line.trim() === "```") {
      out.push(cur);
      cur = undefined;
    } else if (line.startsWith("sent: ")) sent = line.slice(6).trim();
    else if (line.startsWith("value: ")) value = JSON.parse(line.slice(7)) as WorldSnapshot;
    else if (line.startsWith("bytes: ")) cur.push({ sent, value: value!, bytes: line.slice(7).trim() });
  }
  return out;
}

test("WIRE.md's wire-delta examples: the same bytes, one msgpack value each, rebuilt by the mirror", () => {
  const blocks = wireDeltaBlocks();
  assert.ok(blocks.length > 0, "WIRE.md has wire-delta blocks");
  for (const steps of blocks) {
    const tracker = Tracker.atRate(WorldSnapshot$delta, 20);
    const mirror = new Mirror(WorldSnapshot$delta);
    for (const step of steps) {
      const bytes = tracker.encode(step.value);
      assert.equal(tracker.last, step.sent);
      const spaced = bytes === undefined ? "" : toHex(bytes);
      assert.equal(spaced, step.bytes);
      if (bytes !== undefined) {
        assert.ok(Array.isArray(mpDecode(bytes)), "one msgpack array");
        assert.deepEqual(mirror.apply(bytes), quantized(step.value));
      }
    }
  }
});

// ---------------------------------------------------------------------------------------
// A seeded world, as the Rust tests build it (all floats f32-exact, so both languages read
// the same values from JSON).

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // mulberry32
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
  in(lo: number, hi: number): number {
    return Math.fround(lo + (hi - lo) * this.next());
  }
}

const KINDS = ["Npc", "Pet", "Vehicle"] as const;

function entity(rng: Rng, id: number): NearbyEntity {
  const e: NearbyEntity = {
    id,
    kind: KINDS[rng.below(3)]!,
    pos: [rng.in(-4000, 4000), rng.in(-4000, 4000), rng.in(0, 30)],
    heading: rng.in(-3, 3),
    speed: rng.in(0, 20),
    anim: rng.below(12),
  };
  if (rng.below(4) === 0) e.owner = "abcdefghi";
  if (rng.below(3) === 0) e.label = `e${id}`;
  return e;
}

/** One tick: some entities move (some by less than a quantum), now and then a whole field changes. */
function step(rng: Rng, w: WorldSnapshot): void {
  w.tick += 1;
  for (const e of w.entities) {
    switch (rng.below(4)) {
      case 0:
        break;
      case 1:
        e.pos[0] = Math.fround(e.pos[0] + 0.004);
        break;
      default:
        e.pos[0] = Math.fround(Math.min(4999, Math.max(-4999, e.pos[0] + (rng.next() - 0.5) * 3)));
        e.pos[1] = Math.fround(Math.min(4999, Math.max(-4999, e.pos[1] + (rng.next() - 0.5) * 3)));
        e.heading = Math.fround((rng.next() - 0.5) * 6.2);
        e.speed = Math.fround(rng.next() * 30);
    }
    if (rng.below(20) === 0) {
      e.anim = rng.below(12);
      if (rng.below(2) === 0) e.label = "renamed";
      else delete e.label;
    }
  }
}

type Op = "tick" | "join" | "leave" | "keyframe" | "drop" | "corrupt" | "reorder";

/** The client: a mirror, and whether it waits for a keyframe it asked for. */
class Client {
  readonly mirror = new Mirror(WorldSnapshot$delta);
  waiting = true;
  /** Applies a payload; on an error drops the mirror and asks for a keyframe (returns true when it asks). */
  receive(payload: Uint8Array, keyframe: boolean): boolean {
    try {
      this.mirror.apply(payload);
      if (keyframe) this.waiting = false;
      return false;
    } catch (e) {
      assert.ok(e instanceof TupletError, String(e));
      const asks = !this.waiting;
      this.waiting = true;
      return asks;
    }
  }
}

function run(seed: number, ops: readonly Op[]): void {
  const rng = new Rng(seed);
  const world: WorldSnapshot = { tick: 1000, keyframe: false, entities: [], gone: [] };
  for (let i = 0; i < 10; i++) world.entities.push(entity(rng, i * 7 + 1));
  let nextId = 1000;
  const tracker = new Tracker(WorldSnapshot$delta, 40);
  const client = new Client();
  const send = (fate: Op | undefined): boolean | undefined => {
    step(rng, world);
    const out = tracker.encode(world);
    if (out === undefined) return undefined;
    if (fate === "drop") return undefined;
    if (fate === "corrupt") {
      // A flipped bit may still decode (the transport guarantees integrity); the client is
      // told to resynchronise either way.
      out[rng.below(out.length)]! ^= 1 << rng.below(8);
      client.receive(out, false);
      client.waiting = true;
      return true;
    }
    return client.receive(out, tracker.last === "keyframe");
  };
  for (const o of ops) {
    if (o === "join" && world.entities.length < 50) world.entities.push(entity(rng, nextId++));
    else if (o === "leave" && world.entities.length > 0) {
      const i = rng.below(world.entities.length);
      world.entities[i] = world.entities[world.entities.length - 1]!;
      world.entities.pop();
    } else if (o === "keyframe") tracker.requestKeyframe();
    else if (o === "reorder") world.entities.reverse();
    const fate = o === "drop" || o === "corrupt" ? o : undefined;
    if (send(fate) === true) tracker.requestKeyframe();
    const m = client.mirror.value;
    if (m !== undefined && !client.waiting && fate === undefined) {
      assert.deepEqual(m, quantized(world), `after ${o}`);
    }
  }
  // Recovery: whatever happened, a keyframe request brings the mirror back.
  tracker.requestKeyframe();
  send(undefined);
  assert.ok(!client.waiting);
  assert.deepEqual(client.mirror.value, quantized(world));
}

test("property: the mirror equals the server's quantized state after any ops and a keyframe request", () => {
  const op = fc.oneof(
    { arbitrary: fc.constant<Op>("tick"), weight: 6 },
    { arbitrary: fc.constant<Op>("join"), weight: 2 },
    { arbitrary: fc.constant<Op>("leave"), weight: 2 },
    { arbitrary: fc.constant<Op>("keyframe"), weight: 1 },
    { arbitrary: fc.constant<Op>("drop"), weight: 1 },
    { arbitrary: fc.constant<Op>("corrupt"), weight: 1 },
    { arbitrary: fc.constant<Op>("reorder"), weight: 1 },
  );
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.array(op, { minLength: 1, maxLength: 120 }), (seed, ops) => {
      run(seed, ops);
    }),
    { numRuns: 150 },
  );
});

test("a delta before any keyframe is no_baseline; unchanged values send nothing; duplicate keys have a path", () => {
  const rng = new Rng(1);
  const tracker = new Tracker(WorldSnapshot$delta, 0);
  const w: WorldSnapshot = { tick: 1, keyframe: true, entities: [entity(rng, 1)], gone: [] };
  assert.ok(tracker.encode(w) !== undefined);
  assert.equal(tracker.last, "keyframe");
  assert.equal(tracker.encode(w), undefined);
  assert.equal(tracker.last, "nothing");
  w.tick = 2;
  const delta = tracker.encode(w)!;
  assert.equal(tracker.last, "delta");
  const fresh = new Mirror(WorldSnapshot$delta);
  assert.throws(() => fresh.apply(delta), (e) => e instanceof TupletError && e.code === Code.NoBaseline);

  const dup: WorldSnapshot = { tick: 1, keyframe: false, entities: [entity(rng, 4), entity(rng, 4)], gone: [] };
  const t2 = new Tracker(WorldSnapshot$delta, 0);
  assert.throws(
    () => t2.encode(dup),
    (e) => e instanceof TupletError && e.code === Code.DuplicateKey && e.path === "entities[1].id",
  );
  // The same duplicate on a delta (not a keyframe), and the next payload is a keyframe.
  const ok: WorldSnapshot = { tick: 1, keyframe: false, entities: [entity(rng, 4)], gone: [] };
  t2.encode(ok);
  assert.throws(
    () => t2.encode(dup),
    (e) => e instanceof TupletError && e.code === Code.DuplicateKey && e.path === "entities[1].id",
  );
  t2.encode(ok);
  assert.equal(t2.last, "keyframe");
});

test("a delta of a list past its length is too_long, as in Rust, and the next payload is a keyframe", () => {
  const rng = new Rng(5);
  const tracker = new Tracker(WorldSnapshot$delta, 0);
  const w: WorldSnapshot = { tick: 1, keyframe: false, entities: Array.from({ length: 50 }, (_, id) => entity(rng, id)), gone: [] };
  tracker.encode(w);
  assert.equal(tracker.last, "keyframe");
  w.tick = 2;
  w.entities.push(entity(rng, 50));
  assert.throws(
    () => tracker.encode(w),
    (e) => e instanceof TupletError && e.code === Code.TooLong && e.path === "entities",
  );
  w.entities.pop();
  tracker.encode(w);
  assert.equal(tracker.last, "keyframe");
});

test("TypeScript-encoded sequences for Rust (target/tuplet-vectors/delta_ts.json)", () => {
  const sequences = [];
  for (let seed = 1; seed <= 4; seed++) {
    const rng = new Rng(seed * 7919);
    const world: WorldSnapshot = { tick: 1, keyframe: false, entities: [], gone: [] };
    for (let i = 0; i < 12; i++) world.entities.push(entity(rng, i * 3 + 2));
    const tracker = new Tracker(WorldSnapshot$delta, 25);
    const steps = [];
    let next = 100;
    for (let i = 0; i < 40; i++) {
      step(rng, world);
      if (rng.below(6) === 0 && world.entities.length < 50) world.entities.push(entity(rng, next++));
      if (rng.below(7) === 0 && world.entities.length > 0) world.entities.splice(rng.below(world.entities.length), 1);
      if (rng.below(9) === 0) world.entities.reverse();
      if (rng.below(30) === 0) tracker.requestKeyframe();
      const bytes = tracker.encode(world);
      steps.push({ sent: tracker.last, bytes: plain(bytes), value: structuredClone(world) });
    }
    sequences.push({ seed, steps });
  }
  mkdirSync(vectorsDir(), { recursive: true });
  writeFileSync(join(vectorsDir(), "delta_ts.json"), JSON.stringify({ sequences }));
});
