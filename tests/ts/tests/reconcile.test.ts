// The Reconciler's per-frame bound on easing (codegen/ts-runtime/reconcile.ts): the twin of the
// Rust runtime's `a_correction_moves_the_drawn_avatar_at_most_max_frame_ease_a_frame`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { RECONCILE_DEFAULTS, Reconciler } from "../../../codegen/ts-runtime/index.js";
import type { Predictor } from "../../../codegen/ts-runtime/index.js";

interface Body {
  x: number;
  v: number;
}

const body: Predictor<Body, number> = {
  linear: 1,
  angle: 0,
  step(b, throttle) {
    b.v += throttle * 0.1;
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

// Before the bound, a 1 m correction moved the drawn avatar 15 cm in the next 16 ms frame and
// 86 cm in a 200 ms one.
test("a correction moves the drawn avatar at most maxFrameEase a frame", () => {
  const r = new Reconciler(body, { x: 0, v: 0 }, 0);
  r.predict(0);
  r.reconcile({ x: 1, v: 0 }, 0);
  let last = r.frame(0)[0]!;
  assert.equal(last, 0, "drawn where it was");
  const dts = [200, 16, 33, 7];
  let frames = 0;
  while (Math.abs(1 - last) >= 1e-6) {
    const dt = dts[frames % 4]!;
    const d = r.frame(dt)[0]!;
    assert.ok(d - last <= RECONCILE_DEFAULTS.maxFrameEase + 1e-12, `${last} -> ${d} in ${dt} ms`);
    last = d;
    frames += 1;
  }
  assert.ok(frames > 43, `${frames}`);
  assert.ok(Math.abs(r.stats.maxEased - 0.02) < 1e-12);
});

test("without the bound the same correction eases exponentially", () => {
  const r = new Reconciler(body, { x: 0, v: 0 }, 0, { ...RECONCILE_DEFAULTS, maxFrameEase: Infinity });
  r.predict(0);
  r.reconcile({ x: 1, v: 0 }, 0);
  r.frame(0);
  assert.ok(Math.abs(r.frame(200)[0]! - (1 - Math.exp(-2))) < 1e-12);
});
