// Real peers against the generated package: `fromWire` accepts what
// @msgpack/msgpack (with and without `useBigInt64`) and msgpackr produce when they decode our
// bytes, and `decode` reads what those libraries encode from `toWire` output, in both shapes
// (maps are `Map`s in UTF-8 key order: msgpackr keeps that order; @msgpack/msgpack cannot
// encode a `Map` at all, so payloads holding one are skipped for it).
// Over every valid vector of every village message (bigint fields, bytes, maps, enums, flags
// included).

import assert from "node:assert/strict";
import { test } from "node:test";
import { decode as mpDecode, encode as mpEncode } from "@msgpack/msgpack";
import { Packr, pack, unpack } from "msgpackr";
import { codecOf, fromHex, loadVectors, sameNatural, toHex, toNatural, type DirName } from "./generated_support.js";
import { AchievementListCodec, type AchievementList } from "../../../generated/ts/src/index.js";

type Decoder = (bytes: Uint8Array) => unknown;
type Encoder = (value: unknown) => Uint8Array;

const decoders: Record<string, Decoder> = {
  msgpackr: (b) => unpack(b),
  "msgpackr (mapsAsObjects: false)": (b) => new Packr({ mapsAsObjects: false, useRecords: false }).unpack(b),
  "@msgpack/msgpack": (b) => mpDecode(b),
  "@msgpack/msgpack (useBigInt64)": (b) => mpDecode(b, { useBigInt64: true }),
};

const encoders: Record<string, Encoder> = {
  msgpackr: (v) => pack(v),
  "msgpackr (useRecords: false)": (v) => new Packr({ useRecords: false }).pack(v),
  "@msgpack/msgpack (useBigInt64)": (v) => mpEncode(v, { useBigInt64: true }),
};

/** Whether a natural value holds a 64-bit int beyond 2^53 (a `bigint` field's big value). */
function hasBigInt(v: unknown): boolean {
  if (typeof v === "bigint") return v > 9007199254740991n || v < -9007199254740991n;
  if (v instanceof Map) return Array.from(v as Map<unknown, unknown>).some(([k, x]) => hasBigInt(k) || hasBigInt(x));
  if (Array.isArray(v)) return v.some(hasBigInt);
  if (typeof v === "object" && v !== null && !(v instanceof Uint8Array)) return Object.values(v).some(hasBigInt);
  return false;
}

/** Whether toWire output holds a JS Map (every map field). */
function hasMap(v: unknown): boolean {
  if (v instanceof Map) return true;
  if (Array.isArray(v)) return v.some(hasMap);
  if (typeof v === "object" && v !== null && !(v instanceof Uint8Array)) return Object.values(v).some(hasMap);
  return false;
}

for (const dir of ["c2s", "s2c"] as const satisfies readonly DirName[]) {
  test(`${dir}: fromWire accepts what msgpackr and @msgpack/msgpack decode from our bytes`, () => {
    const { valid } = loadVectors(dir);
    const bad: string[] = [];
    const counts: Record<string, number> = {};
    let skipped = 0;
    for (const v of valid) {
      const c = codecOf(dir, v.message);
      const own = c.decode(fromHex(v.compact));
      assert.ok(own.ok);
      for (const shape of ["compact", "named"] as const) {
        for (const [name, dec] of Object.entries(decoders)) {
          // Without useBigInt64, @msgpack/msgpack reads a 64-bit int beyond 2^53 as an inexact
          // number: a `bigint` field's large values cannot survive it (nor would they in JSON).
          if (name === "@msgpack/msgpack" && hasBigInt(own.value)) {
            skipped++;
            continue;
          }
          let decoded: unknown;
          try {
            decoded = dec(fromHex(v[shape]));
          } catch (e) {
            bad.push(`${v.message} ${shape} ${name}: the library threw ${String(e)}`);
            continue;
          }
          const res = c.fromWire(decoded);
          if (!res.ok) bad.push(`${v.message} ${v.mode}/${v.seed} ${shape} ${name}: ${JSON.stringify(res.issues[0])}`);
          else if (!sameNatural(toNatural(res.value), v.value)) bad.push(`${v.message} ${shape} ${name}: value differs`);
          else counts[name] = (counts[name] ?? 0) + 1;
        }
      }
    }
    console.log(`${dir}: fromWire over ${valid.length} vectors x 2 shapes:`, counts, `(${skipped} skipped: bigint beyond 2^53 without useBigInt64)`);
    assert.deepEqual(bad.slice(0, 20), []);
  });

  test(`${dir}: decode reads what msgpackr and @msgpack/msgpack encode from toWire output`, () => {
    const { valid } = loadVectors(dir);
    const bad: string[] = [];
    let n = 0;
    let skipped = 0;
    for (const v of valid) {
      const c = codecOf(dir, v.message);
      const own = c.decode(fromHex(v.compact));
      assert.ok(own.ok);
      for (const shape of ["compact", "named"] as const) {
        const wire = c.toWire(own.value, { shape });
        for (const [name, enc] of Object.entries(encoders)) {
          // @msgpack/msgpack cannot encode a JS Map (an int-keyed map's toWire form).
          if (name.startsWith("@msgpack/msgpack") && hasMap(wire)) {
            skipped++;
            continue;
          }
          const res = c.decode(enc(wire));
          if (!res.ok) bad.push(`${v.message} ${v.mode}/${v.seed} ${shape} ${name}: ${JSON.stringify(res.issues[0])}`);
          else if (!sameNatural(toNatural(res.value), v.value)) bad.push(`${v.message} ${shape} ${name}: value differs`);
          else n++;
        }
        // And fromWire takes toWire's output as it is.
        const back = c.fromWire(wire);
        if (!back.ok || !sameNatural(toNatural(back.value), v.value)) bad.push(`${v.message} ${shape}: fromWire(toWire(v)) differs`);
      }
    }
    console.log(`${dir}: ${n} peer-encoded toWire payloads decoded (${skipped} skipped: @msgpack/msgpack cannot encode a Map)`);
    assert.deepEqual(bad.slice(0, 20), []);
  });
}

test("the selection covers bigint fields, bytes, maps (string and int keys), enums with data", () => {
  const found = { bigint: 0, bytes: 0, intMap: 0, strMap: 0, dataEnum: 0 };
  const walk = (v: unknown): void => {
    if (typeof v === "bigint") found.bigint++;
    else if (v instanceof Uint8Array) found.bytes++;
    else if (v instanceof Map) {
      for (const [k, x] of v as Map<unknown, unknown>) {
        if (typeof k === "string") found.strMap++;
        else found.intMap++;
        walk(x);
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) {
      if ("kind" in v) found.dataEnum++;
      Object.values(v).forEach(walk);
    }
  };
  for (const dir of ["c2s", "s2c"] as const) {
    for (const v of loadVectors(dir).valid) {
      const res = codecOf(dir, v.message).decode(fromHex(v.compact));
      if (res.ok) walk(res.value);
    }
  }
  console.log("covered:", found);
  for (const [what, n] of Object.entries(found)) assert.ok(n > 0, `no ${what} in the vectors`);
});

test("toWire gives every map as a Map in UTF-8 key order, which msgpackr encodes byte for byte as Rust", () => {
  // A plain object would order "9" and "10" first, numerically; UTF-16 order would put
  // "😀" (d83d) before "｡" (ff61). UTF-8 order: "10" < "9" < "a" < "｡" (ef bd a1) < "😀" (f0 9f 98 80).
  const keys = ["😀", "a", "10", "｡", "9"];
  const value: AchievementList = { unlocked: new Map(keys.map((k, i) => [k, 1000 + i])), locked: [], points: 3 };
  const order = ["10", "9", "a", "｡", "😀"];
  const UNLOCKED = "85a23130cd03eaa139cd03eca161cd03e9a3efbda1cd03eba4f09f9880cd03e8";
  for (const shape of ["compact", "named"] as const) {
    const wire = AchievementListCodec.toWire(value, { shape });
    const unlocked = Array.isArray(wire) ? wire[0] : (wire as Record<string, unknown>)["unlocked"];
    assert.ok(unlocked instanceof Map, `${shape}: the map is a Map`);
    assert.deepEqual([...(unlocked as Map<unknown, unknown>).keys()], order);
    const own = AchievementListCodec.encode(value, { shape });
    for (const [name, enc] of [
      ["msgpackr", (v: unknown) => pack(v)],
      ["msgpackr (useRecords: false)", (v: unknown) => new Packr({ useRecords: false }).pack(v)],
    ] as const) {
      const bytes = enc(wire);
      // The map's entries, byte for byte (msgpackr writes a record's plain object with a
      // map16 header, so the whole named payload differs from ours in that header only).
      assert.ok(toHex(bytes).includes(UNLOCKED), `${shape} ${name}: the map's bytes`);
      if (shape === "compact") assert.equal(toHex(bytes), toHex(own), `${shape} ${name}: same bytes as encode`);
      const back = AchievementListCodec.decode(bytes);
      assert.ok(back.ok, `${shape} ${name}: decodes`);
      assert.deepEqual([...back.value.unlocked.keys()], order);
    }
  }
  // The compact bytes are the ones Rust writes (keys in UTF-8 byte order, WIRE.md "Maps").
  assert.equal(
    toHex(AchievementListCodec.encode(value)),
    "93" + UNLOCKED + "9003",
  );
  // @msgpack/msgpack cannot encode a JS Map: it writes the Map's own enumerable properties,
  // none, as an empty map. Encode with the package's own `encode` (or msgpackr) instead.
  assert.equal(toHex(mpEncode(AchievementListCodec.toWire(value))), "9380" + "9003");
});

test("msgpackr's record extension (new Packr() on a plain object) is named with the fix", () => {
  const value: AchievementList = { unlocked: new Map([["a", 1]]), locked: [], points: 3 };
  const wire = AchievementListCodec.toWire(value, { shape: "named" });
  const bytes = new Packr().pack(wire);
  assert.equal(toHex(bytes.subarray(0, 2)), "d472", "new Packr() writes a record");
  const back = AchievementListCodec.decode(bytes);
  assert.ok(!back.ok);
  assert.equal(back.issues.length, 1);
  assert.equal(back.issues[0]!.code, "wrong_type");
  assert.equal(
    back.issues[0]!.message,
    "expected array or map, found a msgpackr record (ext 0x72); send tuples, or encode with useRecords: false",
  );
  // The fix named in the message works.
  assert.ok(AchievementListCodec.decode(new Packr({ useRecords: false }).pack(wire)).ok);
});
