// `EntityRows`, a tick's quantized entity rows shared by many trackers, checked against the
// tracker without it: for any run of ticks over one set of entity objects seen by several
// clients (each its own subset, order and keyframe cadence; entities entering and leaving
// views; values out of range, not finite or of the wrong type now and then), every tracker
// with the shared rows writes exactly the bytes, the `last` and the errors of its twin
// without them, and its mirror rebuilds the same value.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EntityRows, Mirror, Tracker, WorldSnapshot$delta } from "../../../generated/ts/src/index.js";
import type { NearbyEntity, WorldSnapshot } from "../../../generated/ts/src/index.js";

/** mulberry32: the run is a function of its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS = ["Npc", "Pet", "Vehicle"] as const;

/** The body behind an entity: it moves every tick; its entity object is made anew per tick. */
interface Body {
  id: number;
  kind: (typeof KINDS)[number];
  x: number;
  y: number;
  heading: number;
  speed: number;
  anim: number;
  label?: string;
}

/** A value that breaks a check now and then (out of range, not finite, a string). */
function spoil(r: () => number, v: number): number {
  const k = r();
  if (k < 0.002) return 1e9;
  if (k < 0.004) return Number.NaN;
  if (k < 0.005) return "7" as unknown as number;
  return v;
}

function entityOf(r: () => number, b: Body): NearbyEntity {
  const e: NearbyEntity = { id: b.id, kind: b.kind, pos: [spoil(r, b.x), b.y, 0], heading: spoil(r, b.heading), speed: b.speed, anim: b.anim };
  if (b.label !== undefined) e.label = b.label;
  return e;
}

/** One encode with and without the rows: the same outcome, bytes or error. */
function both(a: Tracker<WorldSnapshot>, b: Tracker<WorldSnapshot>, v: WorldSnapshot, rows: EntityRows): Uint8Array | undefined {
  let got: Uint8Array | undefined;
  let want: Uint8Array | undefined;
  let gotErr: unknown;
  let wantErr: unknown;
  try {
    got = a.encode(v, rows);
  } catch (e) {
    gotErr = e;
  }
  try {
    want = b.encode(v);
  } catch (e) {
    wantErr = e;
  }
  assert.equal(String(gotErr), String(wantErr));
  assert.equal(a.last, b.last);
  assert.deepEqual(got === undefined ? undefined : Buffer.from(got).toString("hex"), want === undefined ? undefined : Buffer.from(want).toString("hex"));
  return got;
}

function run(seed: number, clients: number, ticks: number): { compared: number; rows: number } {
  const r = rng(seed);
  const bodies: Body[] = Array.from({ length: 40 }, (_, i) => ({
    id: i * 3 + 1,
    kind: KINDS[Math.floor(r() * 3)]!,
    x: (r() * 2 - 1) * 100,
    y: (r() * 2 - 1) * 100,
    heading: (r() * 2 - 1) * 3,
    speed: r() * 10,
    anim: Math.floor(r() * 3),
    ...(r() < 0.3 ? { label: `b${i}` } : {}),
  }));
  const seats = Array.from({ length: clients }, (_, i) => ({
    on: new Tracker(WorldSnapshot$delta, 5 + i),
    off: new Tracker(WorldSnapshot$delta, 5 + i),
    mirror: new Mirror(WorldSnapshot$delta),
    cx: (r() * 2 - 1) * 60,
    cy: (r() * 2 - 1) * 60,
  }));
  const rows = new EntityRows();
  let compared = 0;
  let held = 0;
  for (let t = 1; t <= ticks; t++) {
    for (const b of bodies) {
      // Some stay put, some move by less than a quantum, some move.
      const k = r();
      if (k < 0.3) continue;
      const d = k < 0.4 ? 0.002 : 2;
      b.x += (r() - 0.5) * d;
      b.y += (r() - 0.5) * d;
      b.heading = (r() * 2 - 1) * 3;
      b.speed = r() * 10;
      if (r() < 0.05) b.anim = Math.floor(r() * 3);
      if (r() < 0.02) {
        if (b.label === undefined) b.label = "renamed";
        else delete b.label;
      }
    }
    const ents = bodies.map((b) => entityOf(r, b));
    rows.clear();
    for (const s of seats) {
      s.cx += (r() - 0.5) * 10;
      s.cy += (r() - 0.5) * 10;
      // What this client sees: the bodies within 70 m, in an order of its own.
      const view = ents.filter((_, i) => Math.hypot(bodies[i]!.x - s.cx, bodies[i]!.y - s.cy) < 70);
      if (r() < 0.5) view.reverse();
      if (r() < 0.03) s.on.requestKeyframe(), s.off.requestKeyframe();
      const bytes = both(s.on, s.off, { tick: t, keyframe: false, entities: view, gone: [] }, rows);
      if (bytes !== undefined) {
        s.mirror.apply(bytes);
        compared += 1;
      }
    }
    held += rows.size;
  }
  return { compared, rows: held };
}

test("EntityRows: the same bytes, `last` and errors as the tracker without it, for any run", () => {
  let compared = 0;
  let rows = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 6 }), (seed, clients) => {
      const r = run(seed, clients, 60);
      compared += r.compared;
      rows += r.rows;
    }),
    { numRuns: 60 },
  );
  // The runs must have sent deltas through the shared rows, not only errors and keyframes.
  assert.ok(compared > 1000, `only ${compared} payloads compared`);
  assert.ok(rows > 10000, `only ${rows} rows made`);
});

test("EntityRows: a row is quantized once however many trackers read it", () => {
  const e: NearbyEntity = { id: 5, kind: "Npc", pos: [1.234, -2, 0], heading: 0.5, speed: 1, anim: 0 };
  const rows = new EntityRows();
  const a = new Tracker(WorldSnapshot$delta, 0);
  const b = new Tracker(WorldSnapshot$delta, 0);
  const v = (x: NearbyEntity): WorldSnapshot => ({ tick: 1, keyframe: false, entities: [x], gone: [] });
  a.encode(v(e), rows);
  b.encode(v(e), rows);
  assert.equal(rows.size, 0, "keyframes take whole values: no rows");
  const moved = { ...e, pos: [1.3, -2, 0] as [number, number, number] };
  rows.clear();
  const da = a.encode(v(moved), rows);
  const db = b.encode(v(moved), rows);
  assert.equal(rows.size, 1);
  assert.deepEqual(da, db);
  // A cleared set forgets its rows.
  rows.clear();
  assert.equal(rows.size, 0);
});
