// Prediction to now and the rewind allocate nothing per frame in Node: after a warm-up, 20,000
// frames of 40 predicted cars and a 40-entity rewind recorded and viewed every frame cause no
// garbage collection (PerformanceObserver 'gc') and leave the heap where it was.

import assert from "node:assert/strict";
import { test } from "node:test";
import { PerformanceObserver } from "node:perf_hooks";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { Ahead, Rewind, wrapAngle } from "../../../codegen/ts-runtime/index.js";
import type { Advancer } from "../../../codegen/ts-runtime/index.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

interface Car {
  x: number;
  y: number;
  h: number;
  v: number;
  steer: number;
}

const car: Advancer<Car> = {
  linear: 2,
  angle: 1,
  step(c) {
    c.h = wrapAngle(c.h + c.steer / 60);
    c.x += Math.cos(c.h) * c.v / 60;
    c.y += Math.sin(c.h) * c.v / 60;
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
    to.steer = from.steer;
  },
};

const fresh = (): Car => ({ x: 0.5, y: 0.5, h: 0.5, v: 0.5, steer: 0.5 });

test("40 predicted cars and a 40-entity rewind run 20,000 frames without garbage", async () => {
  const N = 40;
  const cars = Array.from({ length: N }, () => new Ahead(car, fresh(), fresh()));
  const starts = Array.from({ length: N }, fresh);
  const rewind = new Rewind(2, 1);
  const ch = new Float64Array(3);
  const sink = new Float64Array(1);
  let frame = 0;
  // One frame per call (as a page's requestAnimationFrame would), so the JIT optimizes the
  // frame itself rather than a loop replaced on the stack.
  const step = (): void => {
    const f = frame++;
    const now = Math.floor((f * 1000) / 60);
    rewind.record(f, now);
    for (let k = 0; k < N; k++) {
      const s = starts[k]!;
      s.x = k + f * 0.01;
      s.y = Math.sin(f * 0.01 + k);
      s.h = wrapAngle(f * 0.003 * k);
      s.v = 5 + (Math.floor(f / 6) % 5);
      s.steer = (k % 3) - 1;
      const basis = Math.floor(f / 6) * 100;
      const drawn = cars[k]!.frame(s, basis, now - 150, now + 100 + (f % 9), 16);
      sink[0] = sink[0]! + drawn[0]!;
      car.channels(s, ch);
      rewind.put(k, ch);
    }
    rewind.view(now - 200 - (f % 400) * 2);
    for (let k = 0; k < rewind.length; k += 8) {
      rewind.read(k, ch);
      sink[0] = sink[0]! + ch[0]!;
    }
  };
  const run = (frames: number): void => {
    for (let i = 0; i < frames; i++) step();
  };
  run(20_000);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  let gcs = 0;
  const obs = new PerformanceObserver((list) => {
    gcs += list.getEntries().length;
  });
  obs.observe({ entryTypes: ["gc"] });
  run(20_000);
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  gc();
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  assert.ok(Number.isFinite(sink[0]!));
  assert.equal(gcs, 0, `${gcs} garbage collection(s) during 20,000 frames`);
  assert.ok(growth < 64 * 1024, `the heap grew ${growth} bytes`);
});
