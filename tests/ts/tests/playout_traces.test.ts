// The shared traces of tests/fixtures/playout_traces.json (written by the Rust runtime's
// tests/tests/playout_traces.rs): the TypeScript playout applies the same frames on the same
// steps with the same depth, target and counters, and the TypeScript reconciler draws the
// same channels (within 1e-9: `Math.cos`, `Math.sin` and `Math.exp` may differ from Rust's
// in the last bit) and finds the same corrections.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Playout, RECONCILE_DEFAULTS, Reconciler } from "../../../codegen/ts-runtime/index.js";
import type { Predictor } from "../../../codegen/ts-runtime/index.js";
import { readRepoFile } from "./support.js";

interface PlayoutTrace {
  name: string;
  /** `[first, n]`: a batch of n frames valued by their own numbers; `0`: a world step. */
  events: ([number, number] | 0)[];
  /** Per step: state, held, target, the applied numbers. */
  steps: (string | number)[][];
  stats: Record<string, number | null>;
}

type ReconcileEvent = ["predict", number, number] | ["reconcile", [number, number, number, number], number] | ["frame", number];

interface ReconcileTrace {
  name: string;
  start: [number, number, number, number];
  firstSeq: number;
  events: ReconcileEvent[];
  out: (["correction", number, number, boolean] | ["drawn", number[]])[];
  stats: Record<string, number>;
}

const doc = JSON.parse(readRepoFile("tests/fixtures/playout_traces.json")) as { playout: PlayoutTrace[]; reconcile: ReconcileTrace[] };

test("playout traces: the same frames, steps and counters as Rust", () => {
  assert.ok(doc.playout.length >= 20);
  for (const t of doc.playout) {
    const p = new Playout<number>();
    const steps: (string | number)[][] = [];
    for (const ev of t.events) {
      if (ev === 0) {
        const row: (string | number)[] = [];
        const state = p.step((seq, frame) => {
          assert.equal(seq, frame, t.name);
          row.push(seq);
        });
        assert.equal(p.lastStepApplied, row.length);
        steps.push([state, p.held, p.target, ...row]);
      } else {
        const [first, n] = ev;
        const frames: number[] = [];
        for (let k = 0; k < n; k++) frames.push((first + k) >>> 0);
        p.push(first, frames);
      }
    }
    assert.deepEqual(steps, t.steps, t.name);
    assert.deepEqual({ ...p.stats, lastApplied: p.lastApplied ?? null }, t.stats, t.name);
  }
});

interface Car {
  x: number;
  y: number;
  h: number;
  v: number;
}

interface Frame {
  throttle: number;
  steer: number;
}

/** The Rust trace's car (tests/tests/playout_traces.rs). */
const car: Predictor<Car, Frame> = {
  linear: 2,
  angle: 1,
  step(c, f) {
    const dt = 1 / 60;
    c.v = Math.min(30, Math.max(0, c.v + f.throttle * 6 * dt));
    c.h += f.steer * 1.2 * dt * Math.min(1, c.v / 5);
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
  },
};

function close(a: number, b: number, what: string): void {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

test("reconcile traces: the same corrections and drawn channels as Rust", () => {
  assert.ok(doc.reconcile.length >= 3);
  for (const t of doc.reconcile) {
    const [x, y, h, v] = t.start;
    const r = new Reconciler(car, { x, y, h, v }, t.firstSeq);
    const server: Car = { x: 0, y: 0, h: 0, v: 0 };
    let o = 0;
    for (const ev of t.events) {
      if (ev[0] === "predict") {
        r.predict({ throttle: ev[1], steer: ev[2] });
      } else if (ev[0] === "reconcile") {
        [server.x, server.y, server.h, server.v] = ev[1];
        const c = r.reconcile(server, ev[2]);
        const want = t.out[o++]!;
        assert.ok(c !== undefined && want[0] === "correction", t.name);
        close(c.distance, want[1], `${t.name} correction ${o}`);
        assert.equal(c.replayed, want[2]);
        assert.equal(c.snapped, want[3]);
      } else {
        const drawn = r.frame(ev[1]);
        const want = t.out[o++]!;
        assert.ok(want[0] === "drawn", t.name);
        want[1].forEach((w, k) => close(drawn[k]!, w, `${t.name} drawn ${o}[${k}]`));
      }
    }
    assert.equal(o, t.out.length);
    const { maxCorrection, maxEased, ...rest } = r.stats;
    const { maxCorrection: wantMax, maxEased: wantEased, ...wantRest } = t.stats;
    assert.deepEqual(rest, wantRest, t.name);
    close(maxCorrection, wantMax!, `${t.name} max correction`);
    close(maxEased, wantEased!, `${t.name} max eased`);
    assert.ok(maxEased <= RECONCILE_DEFAULTS.maxFrameEase + 1e-12, `${t.name}: eased ${maxEased} m in a frame`);
  }
});
