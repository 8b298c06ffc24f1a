// InterpolatedSet (codegen/ts-runtime/pool.ts): entities entering and leaving view, the index
// keeping keys that left (no garbage when they come back) and forgetting them past its bound.

import assert from "node:assert/strict";
import { test } from "node:test";
import { InterpState, InterpolatedSet } from "../../../generated/ts/src/runtime/index.js";

const layout = { linear: 1, angle: 0, hold: 0 };

test("a key that left is gone until it enters again, then starts afresh", () => {
  const set = new InterpolatedSet<number>(layout);
  const a = set.enter(7);
  a.pushSent(0, 20, [1]);
  assert.equal(set.leave(7), true);
  assert.equal(set.get(7), undefined);
  assert.equal(set.size, 0);
  assert.equal(set.leave(7), false, "leaving twice is refused");
  const again = set.enter(7);
  assert.equal(again, a, "the pooled interpolator is reused");
  assert.equal(again.length, 0, "reset: no samples kept from before");
  assert.equal(again.sample(100), InterpState.Empty);
  assert.equal(set.get(7), again);
});

test("many keys that left and never return do not break the live ones", () => {
  const set = new InterpolatedSet<number>(layout);
  for (let k = 0; k < 5; k++) set.enter(k);
  for (let k = 100; k < 1100; k++) {
    set.enter(k);
    assert.equal(set.leave(k), true);
  }
  assert.equal(set.size, 5);
  for (let k = 0; k < 5; k++) assert.ok(set.get(k), `live key ${k} still found`);
  for (const k of [100, 600, 1099]) assert.equal(set.get(k), undefined);
  for (let i = 0; i < set.size; i++) assert.equal(set.get(set.keyAt(i)), set.at(i));
});
