// The decisions of `Rewind` (codegen/ts-runtime/rewind.ts), one each: the twins of the Rust
// runtime's rewind_tests.rs.

import assert from "node:assert/strict";
import { test } from "node:test";
import { REWIND_DEFAULTS, Rewind, wrapAngle } from "../../../codegen/ts-runtime/index.js";
import type { RewindSettings } from "../../../codegen/ts-runtime/index.js";

/** Entity `id` at tick `t`: x moves 0.1 m a tick, y is its id, heading 0.01 rad a tick. */
function state(id: number, t: number): number[] {
  return [t * 0.1, id, wrapAngle(t * 0.01)];
}

const TEN_MS: RewindSettings = { tickMs: 10, maxRewindMs: 100, entities: 8, teleport: 8 };

function history(settings: RewindSettings, ticks: number): Rewind {
  const r = new Rewind(2, 1, settings);
  for (let t = 0; t < ticks; t++) {
    r.record(t, t * 10);
    for (let id = 1; id <= 3; id++) assert.ok(r.put(id, state(id, t)));
  }
  return r;
}

function closeAll(a: ArrayLike<number> | undefined, b: number[]): void {
  assert.ok(a !== undefined);
  b.forEach((w, k) => assert.ok(Math.abs(a[k]! - w) < 1e-12, `${a[k]} vs ${w}`));
}

test("the ring holds the cap plus two records", () => {
  assert.equal(new Rewind(2, 1, REWIND_DEFAULTS).capacity, 32);
  const r = history(TEN_MS, 100);
  assert.equal(r.capacity, 12);
  assert.equal(r.records, 12);
  assert.equal(r.oldestMs, 880);
  assert.equal(r.newestMs, 990);
  assert.equal(r.newestTick, 99);
});

test("a view between two records is blended", () => {
  const r = history(TEN_MS, 100);
  assert.equal(r.view(952.5), 952.5);
  assert.equal(r.length, 3);
  assert.equal(r.id(1), 2);
  closeAll(r.get(2), [9.525, 2, 0.9525]);
  r.view(950);
  assert.deepEqual([...r.get(3)!], state(3, 95));
});

test("a view older than the cap is answered at the cap", () => {
  const r = history(TEN_MS, 100);
  const atCap = r.view(890)!;
  const capped = [...r.channels(0)];
  for (const lie of [889.9, 500, 0, -1e300, -Infinity]) {
    assert.equal(r.view(lie), atCap, `${lie}`);
    assert.deepEqual([...r.channels(0)], capped, `${lie}`);
  }
  assert.equal(atCap, 890);
  assert.equal(r.stats.capped, 5);
});

test("a view in the future or not a number is the newest record", () => {
  const r = history(TEN_MS, 100);
  for (const v of [991, 1e300, Infinity, NaN]) {
    assert.equal(r.view(v), 990);
    assert.deepEqual([...r.get(1)!], state(1, 99));
  }
  assert.equal(r.stats.ahead, 3);
  assert.equal(r.stats.invalid, 1);
  assert.equal(r.stats.capped, 0);
});

test("a short history answers at its oldest record", () => {
  const r = history(TEN_MS, 3);
  assert.equal(r.view(-50), 0);
  assert.deepEqual([...r.get(1)!], state(1, 0));
  assert.equal(r.stats.capped, 0);
  const empty = new Rewind(2, 1, TEN_MS);
  assert.equal(empty.view(0), undefined);
  assert.equal(empty.length, 0);
  assert.equal(empty.put(1, [0, 0, 0]), false);
});

test("a full record drops what does not fit", () => {
  const r = new Rewind(2, 1, TEN_MS);
  r.record(0, 0);
  for (let id = 0; id < 10; id++) assert.equal(r.put(id, state(id, 0)), id < 8);
  assert.equal(r.stats.dropped, 2);
  r.view(0);
  assert.equal(r.length, 8);
});

test("an entity that left or teleported is not blended", () => {
  const r = new Rewind(2, 1, TEN_MS);
  r.record(0, 0);
  r.put(1, [0, 0, 0]);
  r.put(2, [0, 0, 0]);
  r.put(3, [5, 0, 0]);
  r.record(1, 10);
  r.put(3, [6, 0, 0]);
  r.put(1, [100, 0, 0]);
  r.put(4, [1, 1, 1]);
  r.view(4);
  assert.equal(r.length, 3);
  assert.equal(r.get(1)![0], 0, "the nearer record");
  assert.equal(r.get(2)![0], 0);
  closeAll(r.get(3), [5.4]);
  assert.equal(r.get(4), undefined, "not yet in the world at 4 ms");
  r.view(6);
  assert.equal(r.get(1)![0], 100);
  const out = new Float64Array(3);
  r.read(r.indexOf(3), out);
  closeAll(out, [5.6, 0, 0]);
});

test("angles blend on the shortest arc", () => {
  const r = new Rewind(2, 1, TEN_MS);
  r.record(0, 0);
  r.put(1, [0, 0, 3.1]);
  r.record(1, 10);
  r.put(1, [0, 0, -3.1]);
  r.view(5);
  assert.ok(Math.abs(Math.abs(r.get(1)![2]!) - Math.PI) < 1e-12);
});

test("a time going back restarts the history", () => {
  const r = history(TEN_MS, 20);
  r.record(0, 5);
  r.put(1, [1, 2, 3]);
  assert.equal(r.records, 1);
  assert.equal(r.stats.restarts, 1);
  assert.equal(r.view(150), 5);
  assert.deepEqual([...r.get(1)!], [1, 2, 3]);
});
