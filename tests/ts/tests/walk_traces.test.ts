// The shared traces of tests/fixtures/walk_traces.json (written by the Rust
// tests/tests/walk_traces.rs from `village::walk::step`): the TypeScript twin
// (examples/village/ts/walk.ts) reaches the same body after every frame, to 1e-5 m and 1e-6 rad
// (`Math.cos` and `Math.sin` may differ from Rust's in the last bit), and a `Reconciler` driven
// by it and fed the Rust bodies as acks never corrects.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Reconciler } from "../../../codegen/ts-runtime/index.js";
import type { Buttons, InputFrame } from "../../../generated/ts/src/index.js";
import { type Body, inputFrame, step, walker } from "../../../examples/village/ts/walk.js";
import { InputBatchCodec } from "../../../generated/ts/src/index.js";
import { readRepoFile } from "./support.js";

type BodyJson = [number, number, number, number];
type FrameJson = [number, string[], number];

interface WalkTrace {
  name: string;
  start: BodyJson;
  steps: [FrameJson, BodyJson][];
}

const NAMES = ["forward", "back", "left", "right", "jump", "sprint", "interact", "primary", "aim", "brake", "horn"] as const;

function frameOf([dt, pressed, yaw]: FrameJson): InputFrame {
  const buttons = Object.fromEntries(NAMES.map((n) => [n, pressed.includes(n)])) as unknown as Buttons;
  return { dt, buttons, look: [yaw, 0], steer: 0 };
}

function bodyOf([x, y, z, heading]: BodyJson): Body {
  return { pos: [x, y, z], heading };
}

test("an input frame from the pressed buttons alone is a whole, valid frame", () => {
  const f = inputFrame({ sprint: true, forward: true });
  assert.deepEqual(f, frameOf([16, ["forward", "sprint"], 0]));
  assert.equal(Object.keys(f.buttons).length, NAMES.length);
  const batch = { first: 0, frames: [f, inputFrame({}, 33, 0.25)] };
  const back = InputBatchCodec.decode(InputBatchCodec.encode(batch));
  assert.ok(back.ok, "encodes and validates");
  assert.deepEqual(back.value.frames[0], f);
  const b = { pos: [0, 0, 0] as [number, number, number], heading: 0 };
  step(b, f);
  assert.ok(Math.abs(b.pos[0] - 5 * 0.016) < 1e-6, "sprinting: 5 m/s");
});

const traces = (JSON.parse(readRepoFile("tests/fixtures/walk_traces.json")) as { walk: WalkTrace[] }).walk;

test("the fixture holds the five walks", () => {
  assert.equal(traces.length, 5);
  assert.ok(traces.every((t) => t.steps.length >= 300));
});

for (const t of traces) {
  test(`walk trace: ${t.name}`, () => {
    const body = bodyOf(t.start);
    let worst = 0;
    t.steps.forEach(([f, want], i) => {
      step(body, frameOf(f));
      const d = Math.max(Math.abs(body.pos[0] - want[0]), Math.abs(body.pos[1] - want[1]), Math.abs(body.pos[2] - want[2]));
      assert.ok(d < 1e-5, `${t.name} frame ${i}: ${JSON.stringify(body)} vs ${JSON.stringify(want)}`);
      assert.ok(Math.abs(body.heading - want[3]) < 1e-6, `${t.name} frame ${i}: heading ${body.heading} vs ${want[3]}`);
      // Re-base on Rust's body, as an ack does, so a last-bit difference never accumulates.
      worst = Math.max(worst, d);
      Object.assign(body, bodyOf(want));
    });
    assert.ok(worst < 1e-5);
  });

  test(`reconciling on the Rust bodies: ${t.name}`, () => {
    const me = new Reconciler(walker, bodyOf(t.start), 0);
    const server = bodyOf(t.start);
    t.steps.forEach(([f, want], i) => {
      me.predict(frameOf(f));
      // An ack every third frame, three frames late (the server's tick and a round trip).
      if (i % 3 === 2 && i >= 5) {
        Object.assign(server, bodyOf(t.steps[i - 3]![1]));
        me.reconcile(server, i - 3);
      }
      me.frame(1000 / 60);
      void want;
    });
    assert.equal(me.stats.corrections, 0, JSON.stringify(me.stats));
    assert.ok(me.stats.reconciled > 50);
    assert.ok(me.stats.maxCorrection < 1e-4, JSON.stringify(me.stats));
  });
}
