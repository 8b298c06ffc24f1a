// The shared traces of tests/fixtures/predict_traces.json (written by the Rust runtime's
// tests/tests/predict_traces.rs): the TypeScript `Ahead` draws the same channels, keeps the same
// simulation state and counters, and the TypeScript `Rewind` answers every view at the same
// time with the same entities (within 1e-9: `Math.cos`, `Math.sin` and `Math.exp` may differ
// from Rust's in the last bit).

import assert from "node:assert/strict";
import { test } from "node:test";
import { Ahead, Rewind, wrapAngle } from "../../../codegen/ts-runtime/index.js";
import type { Advancer } from "../../../codegen/ts-runtime/index.js";
import { readRepoFile } from "./support.js";

type CarJson = [number, number, number, number, number, number];

type PredictEvent = ["reset"] | ["frame", CarJson, number, number, number, number];

interface PredictTrace {
  name: string;
  start: CarJson;
  events: PredictEvent[];
  /** Per frame: the drawn channels, the simulation state. */
  out: [number[], CarJson][];
  stats: Record<string, number>;
}

type RewindEvent = ["record", number, number, [number, number[]][]] | ["view", number | null];

interface RewindTrace {
  name: string;
  events: RewindEvent[];
  /** Per view: the time used, the entities. */
  out: [number, [number, number[]][]][];
  stats: Record<string, number>;
}

const doc = JSON.parse(readRepoFile("tests/fixtures/predict_traces.json")) as { predict: PredictTrace[]; rewind: RewindTrace[] };

interface Car {
  x: number;
  y: number;
  h: number;
  v: number;
  throttle: number;
  steer: number;
}

/** The Rust trace's car (tests/tests/predict_traces.rs). */
const car: Advancer<Car> = {
  linear: 2,
  angle: 1,
  step(c) {
    const dt = 1 / 60;
    c.v = Math.min(30, Math.max(0, c.v + c.throttle * 6 * dt));
    c.h = wrapAngle(c.h + c.steer * 1.2 * dt * Math.min(1, c.v / 5));
    c.x += Math.cos(c.h) * c.v * dt;
    c.y += Math.sin(c.h) * c.v * dt;
  },
  channels(c, out) {
    out[0] = c.x;
    out[1] = c.y;
    out[2] = c.h;
  },
  copy(from, to) {
    to.x = from.x;
    to.y = from.y;
    to.h = from.h;
    to.v = from.v;
    to.throttle = from.throttle;
    to.steer = from.steer;
  },
};

function carOf(j: CarJson): Car {
  return { x: j[0], y: j[1], h: j[2], v: j[3], throttle: j[4], steer: j[5] };
}

function close(a: number, b: number, what: string): void {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

test("predict traces: the same drawn channels, simulation and counters as Rust", () => {
  assert.ok(doc.predict.length >= 3);
  for (const t of doc.predict) {
    const a = new Ahead(car, carOf(t.start), carOf(t.start));
    let o = 0;
    for (const ev of t.events) {
      if (ev[0] === "reset") {
        a.reset();
        continue;
      }
      const [, start, basis, from, to, dt] = ev;
      const drawn = a.frame(carOf(start), basis, from, to, dt);
      const [wantDrawn, wantState] = t.out[o++]!;
      wantDrawn.forEach((w, k) => close(drawn[k]!, w, `${t.name} frame ${o} drawn[${k}]`));
      const s = a.state;
      [s.x, s.y, s.h, s.v].forEach((v, k) => close(v, wantState[k]!, `${t.name} frame ${o} state[${k}]`));
    }
    assert.equal(o, t.out.length);
    const { maxDisagreement, ...rest } = a.stats;
    const { maxDisagreement: wantMax, ...wantRest } = t.stats;
    assert.deepEqual(rest, wantRest, t.name);
    close(maxDisagreement, wantMax!, `${t.name} max disagreement`);
  }
});

test("rewind traces: the same views, entities and counters as Rust", () => {
  assert.ok(doc.rewind.length >= 2);
  for (const t of doc.rewind) {
    const r = new Rewind(2, 1);
    let o = 0;
    for (const ev of t.events) {
      if (ev[0] === "record") {
        r.record(ev[1], ev[2]);
        for (const [id, c] of ev[3]) assert.ok(r.put(id, c));
        continue;
      }
      const at = r.view(ev[1] ?? NaN);
      const [wantAt, wantSeen] = t.out[o++]!;
      assert.equal(at, wantAt, `${t.name} view ${o}`);
      assert.equal(r.length, wantSeen.length, `${t.name} view ${o}`);
      wantSeen.forEach(([id, c], i) => {
        assert.equal(r.id(i), id);
        const got = r.channels(i);
        c.forEach((w, k) => close(got[k]!, w, `${t.name} view ${o} entity ${id}[${k}]`));
      });
    }
    assert.equal(o, t.out.length);
    assert.deepEqual({ ...r.stats }, t.stats, t.name);
  }
});
