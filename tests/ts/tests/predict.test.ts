// The decisions of `Ahead` (codegen/ts-runtime/predict.ts), one each, on a body moving along x:
// the twins of the Rust runtime's predict_tests.rs.

import assert from "node:assert/strict";
import { test } from "node:test";
import { AHEAD_DEFAULTS, Ahead, easeError, wrapAngle } from "../../../codegen/ts-runtime/index.js";
import type { Advancer, AheadSettings } from "../../../codegen/ts-runtime/index.js";

interface Body {
  x: number;
  v: number;
}

const body: Advancer<Body> = {
  linear: 1,
  angle: 0,
  step(b) {
    b.x += b.v / 60;
  },
  channels(b, out) {
    out[0] = b.x;
  },
  copy(from, to) {
    to.x = from.x;
    to.v = from.v;
  },
};

const STEP = 1000 / 60;

function ahead(settings: AheadSettings = AHEAD_DEFAULTS): Ahead<Body> {
  return new Ahead(body, { x: 0, v: 0 }, { x: 0, v: 0 }, settings);
}

function near(a: number, b: number, what = ""): void {
  assert.ok(Math.abs(a - b) < 1e-12, `${what} ${a} vs ${b}`);
}

test("whole steps reach the horizon and a fraction is drawn between steps", () => {
  const a = ahead();
  const b = { x: 1, v: 6 };
  near(a.frame(b, 0, 1000, 1000 + 6 * STEP, 16)[0]!, 1.6);
  near(a.state.x, 1.6);
  near(a.frame(b, 0, 1000, 1000 + 6.5 * STEP, 16)[0]!, 1.65);
  near(a.state.x, 1.6, "the simulation holds the whole steps only");
});

test("the horizon is cut to maxAheadMs and never negative", () => {
  const a = ahead();
  const b = { x: 0, v: 6 };
  assert.ok(Math.abs(a.frame(b, 0, 0, 5000, 16)[0]! - 3) < 1e-9);
  assert.equal(a.stats.capped, 1);
  assert.equal(a.frame(b, 0, 100, 50, 16)[0], 0);
  assert.equal(a.frame(b, 0, NaN, 50, 16)[0], 0);
  assert.equal(a.stats.capped, 1);
});

test("the same basis draws the prediction as is", () => {
  const a = ahead();
  for (let f = 0; f < 30; f++) {
    const b = { x: f * 0.1, v: 6 };
    near(a.frame(b, 7, 0, 10 * STEP, 16)[0]!, b.x + 1);
  }
  assert.equal(a.stats.rebases, 0);
  assert.equal(a.error[0], 0);
});

test("a new velocity continues the drawn path, then eases out", () => {
  const a = ahead({ ...AHEAD_DEFAULTS, maxFrameEase: 1 });
  a.frame({ x: 0, v: 6 }, 1, 0, 30 * STEP, 16);
  near(a.frame({ x: 0.1, v: 5.7 }, 2, 0, 30 * STEP, 0)[0]!, 3.1, "where the old prediction went");
  near(a.predicted[0]!, 0.1 + 2.85);
  near(a.stats.maxDisagreement, 0.15);
  assert.equal(a.stats.corrections, 1);
  a.frame({ x: 0.1, v: 5.7 }, 2, 0, 30 * STEP, 200);
  near(a.error[0]!, 0.15 * Math.exp(-2));
});

test("no frame eases more than maxFrameEase", () => {
  const a = ahead();
  a.frame({ x: 0, v: 0 }, 1, 0, STEP, 16);
  a.frame({ x: 1, v: 0 }, 2, 0, STEP, 16);
  assert.equal(a.error[0], 0, "the start moved with the sample: no disagreement");
  a.frame({ x: 1, v: 60 }, 3, 0, STEP, 16);
  near(a.error[0]!, -1);
  let last = a.drawn[0]!;
  let frames = 0;
  while (Math.abs(a.error[0]!) > 1e-6) {
    const d = a.frame({ x: 1, v: 60 }, 3, 0, STEP, 16)[0]!;
    assert.ok(Math.abs(d - last) <= AHEAD_DEFAULTS.maxFrameEase + 1e-12, `${last} -> ${d}`);
    last = d;
    frames += 1;
  }
  assert.ok(frames >= 44 && frames < 150, `${frames}`);
});

test("a disagreement past snapAbove snaps", () => {
  const a = ahead();
  a.frame({ x: 0, v: 0 }, 1, 0, 30 * STEP, 16);
  assert.ok(Math.abs(a.frame({ x: 0, v: 600 }, 2, 0, 30 * STEP, 16)[0]! - 300) < 1e-9);
  assert.equal(a.stats.snaps, 1);
  assert.equal(a.error[0], 0);
});

test("a new basis is compared at the new horizon", () => {
  const a = ahead();
  a.frame({ x: 0, v: 6 }, 1, 0, 10 * STEP, 16);
  near(a.frame({ x: 0, v: 6 }, 2, -10 * STEP, 10 * STEP, 16)[0]!, 2);
  assert.equal(a.stats.rebases, 1);
  assert.ok(a.stats.maxDisagreement < 1e-12);
});

test("after a frame with no horizon nothing is compared", () => {
  const a = ahead();
  a.frame({ x: 0, v: 6 }, 1, 0, -5, 16);
  near(a.frame({ x: 0, v: 9 }, 2, 0, 30 * STEP, 16)[0]!, 4.5);
  assert.equal(a.error[0], 0);
  assert.equal(a.stats.rebases, 0);
});

test("reset forgets the basis", () => {
  const a = ahead();
  a.frame({ x: 0, v: 0 }, 1, 0, 0, 16);
  a.reset();
  near(a.frame({ x: 0, v: 6 }, 2, 0, 30 * STEP, 16)[0]!, 3);
  assert.equal(a.stats.rebases, 0);
});

test("angles blend and ease on the shortest arc", () => {
  interface Spin {
    h: number;
    w: number;
  }
  const spin: Advancer<Spin> = {
    linear: 0,
    angle: 1,
    step(s) {
      s.h = wrapAngle(s.h + s.w / 60);
    },
    channels(s, out) {
      out[0] = s.h;
    },
    copy(from, to) {
      to.h = from.h;
      to.w = from.w;
    },
  };
  const a = new Ahead(spin, { h: 0, w: 0 }, { h: 0, w: 0 });
  near(a.frame({ h: 3.1, w: 3.6 }, 1, 0, 0.5 * STEP, 16)[0]!, 3.13);
  near(a.frame({ h: 3.1, w: 7.2 }, 2, 0, 0.5 * STEP, 0)[0]!, 3.13);
  near(a.error[0]!, -0.03, "not +6.25");
});

test("easeError caps the linear part only", () => {
  const e = new Float64Array([0.3, 0.4, 1]);
  easeError(e, 2, 0.5, 0.1);
  near(e[0]!, 0.24);
  near(e[1]!, 0.32);
  assert.equal(e[2], 0.5);
  const f = new Float64Array([0.03, 0.04]);
  easeError(f, 2, 0.5, 0.1);
  near(f[0]!, 0.015);
  near(f[1]!, 0.02);
});
