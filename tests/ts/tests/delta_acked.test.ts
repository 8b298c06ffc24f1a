// Deltas against acknowledged baselines, the TypeScript side (WIRE.md, "Deltas against
// acknowledged baselines"):
// - the shared vectors (tests/fixtures/delta_acked_vectors.json, written by the Rust tracker
//   over a seeded lossy link): the same acknowledgements and values give the same bytes, and
//   the mirror fed the same deliveries applies the same snapshots, each equal to the server's
//   value at its number;
// - WIRE.md's ```wire-acked blocks: the same bytes, one msgpack value each, rebuilt in order;
// - a seeded randomized test like the Rust property test: over a link that loses, duplicates
//   and reorders payloads and acknowledgements, every snapshot the mirror applies equals the
//   server's quantized state at its number, and the mirror catches up once the link is clean.

import assert from "node:assert/strict";
import { test } from "node:test";
import { decode as mpDecode } from "@msgpack/msgpack";
import { Mirror, Tracker, TupletError, WorldSnapshotCodec, WorldSnapshot$delta } from "../../../generated/ts/src/index.js";
import type { NearbyEntity, WorldSnapshot } from "../../../generated/ts/src/index.js";
import { readRepoFile, toHex } from "./support.js";

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

interface Vectors {
  sequences: {
    seed: number;
    ring: number;
    steps: { ack: number | null; value: WorldSnapshot; sent: string; bytes: string }[];
    deliveries: { after: number; step: number; applied: number | null }[];
  }[];
}

test("the shared acked vectors: same bytes as Rust, same snapshots applied over the same lossy link", () => {
  const doc = JSON.parse(readRepoFile("tests/fixtures/delta_acked_vectors.json")) as Vectors;
  let applied = 0;
  let refused = 0;
  for (const seq of doc.sequences) {
    const tracker = Tracker.acked(WorldSnapshot$delta, 0, seq.ring);
    const stepOf = new Map<number, number>();
    seq.steps.forEach((step, i) => {
      if (step.ack !== null) tracker.ack(step.ack);
      const bytes = tracker.encode(step.value);
      assert.equal(tracker.last, step.sent, `seed ${seq.seed} step ${i}`);
      assert.equal(bytes === undefined ? "" : Buffer.from(bytes).toString("hex"), step.bytes, `seed ${seq.seed} step ${i}`);
      if (bytes !== undefined) stepOf.set(tracker.number, i);
    });
    const mirror = Mirror.acked(WorldSnapshot$delta, seq.ring);
    for (const d of seq.deliveries) {
      let got: number | null = null;
      try {
        const v = mirror.apply(unplain(seq.steps[d.step]!.bytes));
        const n = mirror.ack;
        got = n;
        assert.deepEqual(v, quantized(seq.steps[stepOf.get(n)!]!.value));
      } catch (e) {
        if (!(e instanceof TupletError)) throw e;
        assert.equal(e.code, "no_baseline");
      }
      assert.equal(got, d.applied, `seed ${seq.seed} delivery after tick ${d.after}`);
      if (got === null) refused++;
      else applied++;
    }
  }
  assert.ok(applied > 80 && refused > 5, `${applied} applied, ${refused} refused`);
});

interface Step {
  ack: number | undefined;
  sent: string;
  value: WorldSnapshot;
  bytes: string;
}

function wireAckedBlocks(): Step[][] {
  const out: Step[][] = [];
  let cur: Step[] | undefined;
  let ack: number | undefined;
  let sent = "";
  let value: WorldSnapshot | undefined;
  for (const line of readRepoFile("WIRE.md").split("\n")) {
    if (cur === undefined) {
      if (line.trim() === "```wire-acked") cur = [];
      continue;
    }
    if (line.trim() === "```") {
      out.push(cur);
      cur = undefined;
    } else if (line.startsWith("ack: ")) ack = Number(line.slice(5).trim());
    else if (line.startsWith("sent: ")) sent = line.slice(6).trim();
    else if (line.startsWith("value: ")) value = JSON.parse(line.slice(7)) as WorldSnapshot;
    else if (line.startsWith("bytes: ")) {
      cur.push({ ack, sent, value: value!, bytes: line.slice(7).trim() });
      ack = undefined;
    }
  }
  return out;
}

test("WIRE.md's wire-acked examples: the same bytes, one msgpack value each, rebuilt by the mirror", () => {
  const blocks = wireAckedBlocks();
  assert.ok(blocks.length > 0, "WIRE.md has wire-acked blocks");
  for (const steps of blocks) {
    const tracker = Tracker.acked(WorldSnapshot$delta, 0); // the default ring, 32, as Rust's RING
    const mirror = Mirror.acked(WorldSnapshot$delta);
    for (const step of steps) {
      if (step.ack !== undefined) tracker.ack(step.ack);
      const bytes = tracker.encode(step.value);
      assert.equal(tracker.last, step.sent);
      assert.equal(bytes === undefined ? "" : toHex(bytes), step.bytes);
      if (bytes !== undefined) {
        assert.ok(Array.isArray(mpDecode(bytes)), "one msgpack array");
        assert.deepEqual(mirror.apply(bytes), quantized(step.value));
      }
    }
  }
});

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
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
    pos: [rng.in(-400, 400), rng.in(-400, 400), rng.in(0, 3)],
    heading: rng.in(-3, 3),
    speed: rng.in(0, 20),
    anim: rng.below(12),
  };
  if (rng.below(4) === 0) e.owner = "abcdefghi";
  return e;
}

/** One tick: entities move (some by less than a centimetre), join and leave. */
function step(rng: Rng, w: WorldSnapshot, next: { id: number }): void {
  w.tick += 1;
  for (const e of w.entities) {
    if (rng.below(4) === 0) continue;
    if (rng.below(3) === 0) e.pos[0] = Math.fround(e.pos[0] + 0.004);
    else {
      e.pos[0] = Math.fround(e.pos[0] + rng.in(-1.5, 1.5));
      e.heading = rng.in(-3.1, 3.1);
    }
    if (rng.below(20) === 0) e.anim = rng.below(12);
  }
  if (rng.below(8) === 0 && w.entities.length < 30) w.entities.push(entity(rng, next.id++));
  if (rng.below(10) === 0 && w.entities.length > 0) w.entities.splice(rng.below(w.entities.length), 1);
}

/** A link that loses, duplicates and delays (so reorders) what it carries. */
class Link<T> {
  private queue: { due: number; order: number; v: T }[] = [];
  private order = 0;
  private readonly rng: Rng;
  loss: number;
  dup: number;
  jitter: number;
  constructor(rng: Rng, loss: number, dup: number, jitter: number) {
    this.rng = rng;
    this.loss = loss;
    this.dup = dup;
    this.jitter = jitter;
  }
  send(now: number, v: T): void {
    const copies = this.rng.next() < this.dup ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      if (this.rng.next() < this.loss) continue;
      this.queue.push({ due: now + 1 + this.rng.below(this.jitter + 1), order: this.order++, v });
    }
  }
  deliver(now: number): T[] {
    const due = this.queue.filter((p) => p.due <= now).sort((a, b) => a.due - b.due || a.order - b.order);
    this.queue = this.queue.filter((p) => p.due > now);
    return due.map((p) => p.v);
  }
}

test("seeded lossy links: every applied snapshot is the server's state at its number", () => {
  const master = new Rng(20261207);
  let applied = 0;
  for (let run = 0; run < 40; run++) {
    const seed = master.below(2 ** 31);
    const rng = new Rng(seed);
    const loss = master.next() * 0.4;
    const dup = master.next() * 0.3;
    const jitter = master.below(6);
    const ring = 1 + master.below(40);
    const ticks = 20 + master.below(140);
    const next = { id: 6 };
    const world: WorldSnapshot = { tick: 1000, keyframe: false, entities: [0, 1, 2, 3, 4, 5].map((id) => entity(rng, id)), gone: [] };
    const tracker = Tracker.acked(WorldSnapshot$delta, 0, ring);
    const mirror = Mirror.acked(WorldSnapshot$delta, ring);
    const down = new Link<Uint8Array>(new Rng(seed ^ 1), loss, dup, jitter);
    const up = new Link<number>(new Rng(seed ^ 2), loss, dup, jitter);
    const states = new Map<number, WorldSnapshot>();
    for (let t = 0; t < ticks + 20; t++) {
      if (t === ticks) {
        for (const l of [down, up] as Link<unknown>[]) [l.loss, l.dup, l.jitter] = [0, 0, 0];
      }
      if (t < ticks + 15) step(rng, world, next); // still for the last 5 ticks: the mirror catches up
      for (const a of up.deliver(t)) tracker.ack(a);
      const bytes = tracker.encode(world);
      if (bytes !== undefined) {
        states.set(tracker.number, quantized(world));
        down.send(t, bytes);
      }
      for (const p of down.deliver(t)) {
        try {
          const v = mirror.apply(p);
          applied++;
          assert.deepEqual(v, states.get(mirror.ack), `seed ${seed}: snapshot ${mirror.ack}`);
        } catch (e) {
          if (!(e instanceof TupletError)) throw e;
          assert.equal(e.code, "no_baseline", `seed ${seed}: ${e.message}`);
        }
      }
      up.send(t, mirror.ack);
    }
    assert.deepEqual(mirror.value, quantized(world), `seed ${seed}: caught up`);
  }
  assert.ok(applied > 1000, `${applied} applied`);
});
