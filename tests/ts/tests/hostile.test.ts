// The generated package under hostile input. A short seeded fuzz run per direction (the long
// one is scripts/fuzz-hostile.mjs): only values or dropped messages with issues, never another
// exception, no input slower than a second, no prototype touched; its first envelopes and
// verdicts are written to target/tuplet-vectors/ts_hostile_sample.json, which a Rust test
// (tests/tests/vectors.rs, run after this by scripts/test) decodes to the same
// verdicts. Then named-shape objects and maps keyed `__proto__`, `constructor` and
// `prototype`: through fromWire (on what msgpackr and @msgpack/msgpack decode) and decode they
// pollute nothing and change no result, and map entries keyed that way are kept as data.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decode as mpDecode, encode as mpEncode } from "@msgpack/msgpack";
import { Packr, Unpackr } from "msgpackr";
import { AchievementListCodec, PlayerMoveCodec, type AchievementList, type PlayerMove } from "../../../generated/ts/src/index.js";
import { toHex, vectorsDir } from "./generated_support.js";
import { hostileRun } from "./hostile_support.js";

const SHORT_RUN = 4000;
const SAMPLE = 1000;

test("a short seeded fuzz run: only values or TupletError issues, nothing slow, no prototype touched", () => {
  const sample: Record<string, { hex: string; verdict: string }[]> = {};
  for (const dir of ["c2s", "s2c"] as const) {
    const r = hostileRun(dir, 20261201, SHORT_RUN, SAMPLE);
    assert.deepEqual(r.failures, [], `${dir}: failures`);
    assert.equal(r.inputs, SHORT_RUN);
    assert.ok(r.handled > 0 && r.dropped > 0, `${dir}: ${r.handled} handled, ${r.dropped} dropped`);
    assert.ok(r.slowestMs < 1000, `${dir}: slowest input ${r.slowestMs} ms`);
    console.log(`${dir}: ${r.inputs} inputs, ${r.handled} handled, ${r.dropped} dropped, ${r.fromWire} through fromWire, slowest ${r.slowestMs.toFixed(1)} ms`);
    sample[dir] = r.sample;
  }
  writeFileSync(join(vectorsDir(), "ts_hostile_sample.json"), JSON.stringify(sample));
});

const KEYS = ["__proto__", "constructor", "prototype"] as const;

/** A plain object with own data properties named by `keys` (as JSON.parse and decoders make them). */
function withKeys(base: Record<string, unknown>, keys: readonly string[], value: unknown): Record<string, unknown> {
  const o: Record<string, unknown> = { ...base };
  for (const k of keys) Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

function clean(): void {
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined, "Object.prototype polluted");
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
}

test("named-shape objects keyed __proto__, constructor, prototype change no result and pollute nothing", () => {
  const move: PlayerMove = { p: [1.5, -2, 0.25], r: 0.5, t: 1700000000000, seq: 7 };
  const named = PlayerMoveCodec.toWire(move, { shape: "named" }) as Record<string, unknown>;
  const plain = PlayerMoveCodec.fromWire(named);
  assert.ok(plain.ok);
  const hostile = withKeys(named, KEYS, { polluted: true });
  // Straight, and through what msgpackr and @msgpack/msgpack decode from its bytes.
  const bytes = new Packr({ useRecords: false }).pack(hostile);
  // @msgpack/msgpack refuses a `__proto__` key itself ("The key __proto__ is not allowed"),
  // so it gets the other two.
  assert.throws(() => mpDecode(mpEncode(hostile)), /__proto__ is not allowed/);
  for (const [how, v] of [
    ["as built", hostile],
    ["msgpackr", new Unpackr({ useRecords: false }).unpack(bytes)],
    ["msgpackr (mapsAsObjects: false)", new Unpackr({ useRecords: false, mapsAsObjects: false }).unpack(bytes)],
    ["@msgpack/msgpack", mpDecode(mpEncode(withKeys(named, ["constructor", "prototype"], { polluted: true })))],
  ] as const) {
    const got = PlayerMoveCodec.fromWire(v);
    assert.deepEqual(got, plain, `${how}: same result`);
    clean();
  }
  // Through decode: the same keys in the named shape's bytes are unknown keys, skipped.
  const got = PlayerMoveCodec.decode(bytes);
  assert.deepEqual(got, plain);
  clean();
});

test("map entries keyed __proto__, constructor, prototype round-trip as data", () => {
  const value: AchievementList = { unlocked: new Map(KEYS.map((k, i) => [k, 1000 + i])), locked: [], points: 3 };
  for (const shape of ["compact", "named"] as const) {
    const bytes = AchievementListCodec.encode(value, { shape });
    const back = AchievementListCodec.decode(bytes);
    assert.ok(back.ok, `${shape}: decodes`);
    assert.deepEqual([...back.value.unlocked.entries()], [...value.unlocked.entries()].sort(), `${shape}: the entries`);
    assert.equal(Object.getPrototypeOf(back.value.unlocked), Map.prototype);
    // Through fromWire on what msgpackr decodes as Maps (as plain objects msgpackr itself
    // renames a `__proto__` key to `__proto_`, its own guard; fromWire keeps what it gets).
    const wire = new Unpackr({ useRecords: false, mapsAsObjects: false }).unpack(bytes);
    const viaWire = AchievementListCodec.fromWire(wire);
    assert.ok(viaWire.ok, `${shape}: fromWire`);
    assert.deepEqual([...viaWire.value.unlocked.entries()].sort(), [...value.unlocked.entries()].sort(), `${shape}: fromWire entries`);
    assert.equal(toHex(AchievementListCodec.encode(viaWire.value, { shape })), toHex(bytes), `${shape}: re-encodes`);
    const asObject = AchievementListCodec.fromWire(new Unpackr({ useRecords: false }).unpack(bytes));
    assert.ok(asObject.ok, `${shape}: fromWire on plain objects`);
    assert.deepEqual([...asObject.value.unlocked.keys()].sort(), ["__proto_", "constructor", "prototype"]);
    clean();
  }
});
