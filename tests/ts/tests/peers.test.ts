// The writer at every int boundary against @msgpack/msgpack (and msgpackr where it writes
// ints), f32 exactness, and the reader on what real JS encoders produce.

import assert from "node:assert/strict";
import { test } from "node:test";
import { decode as mpDecode, encode as mpEncode } from "@msgpack/msgpack";
import { Packr } from "msgpackr";
import { TupletError, Writer, endRead, leave, newReader, readArrayLen, readBigInt, readBin, readF32, readF64, readInt, readShape, readStr, tryNil } from "../../../codegen/ts-runtime/index.js";
import { toHex } from "./support.js";

const packr = new Packr({ useRecords: false });
const SAFE = Number.MAX_SAFE_INTEGER;

const INTS = [
  0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, SAFE, -1, -32, -33, -128, -129,
  -32768, -32769, -2147483648, -2147483649, -SAFE, 1764000000000, -1764000000000,
];

function bytesOf(f: (w: Writer) => void): Uint8Array {
  const w = new Writer(1);
  f(w);
  return w.finish();
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return e.code;
    throw e;
  }
  return "ok";
}

test("ints: smallest encodings, as @msgpack/msgpack and msgpackr, read back", () => {
  for (const v of INTS) {
    const ours = bytesOf((w) => w.int(v));
    assert.equal(toHex(ours), toHex(mpEncode(v)), `@msgpack/msgpack ${v}`);
    if (Math.abs(v) < 2 ** 31 || (v >= 0 && v < 2 ** 32)) {
      assert.equal(toHex(ours), toHex(packr.pack(v)), `msgpackr ${v}`);
    }
    assert.equal(toHex(bytesOf((w) => w.bigInt(BigInt(v)))), toHex(ours), `bigInt ${v}`);
    const r = newReader(ours);
    assert.equal(readInt(r, -SAFE, SAFE), v);
    endRead(r);
    assert.equal(readBigInt(newReader(ours), -(2n ** 63n), 2n ** 64n - 1n), BigInt(v));
    assert.equal(readF64(newReader(ours)), v);
  }
});

test("64-bit bigints: full range, as @msgpack/msgpack with useBigInt64", () => {
  const big = [2n ** 53n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, -(2n ** 53n), -(2n ** 63n)];
  for (const v of big) {
    const ours = bytesOf((w) => w.bigInt(v));
    assert.equal(toHex(ours), toHex(mpEncode(v, { useBigInt64: true })), `${v}`);
    assert.equal(readBigInt(newReader(ours), -(2n ** 63n), 2n ** 64n - 1n), v);
    assert.equal(mpDecode(ours, { useBigInt64: true }), v);
    assert.equal(codeOf(() => readInt(newReader(ours), -SAFE, SAFE)), "out_of_range");
    // A number field reads the nearest double as a float field.
    assert.equal(readF64(newReader(ours)), Number(v));
  }
  assert.equal(toHex(bytesOf((w) => w.bigInt(2n ** 64n - 1n))), "cf ff ff ff ff ff ff ff ff");
  assert.equal(toHex(bytesOf((w) => w.bigInt(-(2n ** 63n)))), "d3 80 00 00 00 00 00 00 00");
});

test("f32 is exact float32, f64 always float64", () => {
  assert.equal(toHex(bytesOf((w) => w.f32(0.1))), "ca 3d cc cc cd");
  assert.equal(toHex(bytesOf((w) => w.f32(1))), "ca 3f 80 00 00");
  assert.equal(toHex(bytesOf((w) => w.f64(1))), "cb 3f f0 00 00 00 00 00 00");
  let seed = 12345;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const x = ((seed / 2147483648) - 0.5) * 10 ** ((i % 20) - 5);
    const f = Math.fround(x);
    const b = bytesOf((w) => w.f32(x));
    assert.equal(toHex(b), toHex(mpEncode(f, { forceFloat32: true, forceIntegerToFloat: true })), `${x}`);
    assert.ok(Object.is(readF32(newReader(b)), f), `${x}`);
    assert.ok(Object.is(readF64(newReader(b)), f), `${x}`);
    const d = bytesOf((w) => w.f64(x));
    assert.ok(Object.is(readF64(newReader(d)), x));
    assert.equal(readF32(newReader(d)), f);
  }
});

test("msgpackr's Date.now() (float64) decodes into an int field", () => {
  const now = Date.now();
  const packed = packr.pack(now);
  assert.equal(packed[0], 0xcb, "msgpackr writes Date.now() as float64");
  assert.equal(readInt(newReader(packed), 0, SAFE), now);
  assert.equal(readBigInt(newReader(packed), 0n, 2n ** 64n - 1n), BigInt(now));
  const theirs = mpEncode(now);
  assert.equal(theirs[0], 0xcf, "@msgpack/msgpack writes it as uint64");
  assert.equal(readInt(newReader(theirs), 0, SAFE), now);
  assert.equal(codeOf(() => readInt(newReader(packr.pack(1.5)), 0, 10)), "not_integral");
  assert.equal(codeOf(() => readInt(newReader(packr.pack(NaN)), 0, 10)), "not_finite");
});

test("msgpackr's undefined is nil; our bytes decode in both peers", () => {
  const u = packr.pack(undefined);
  assert.equal(toHex(u), "d4 00 00");
  assert.equal(tryNil(newReader(u)), true);
  const w = new Writer();
  w.arrayLen(5);
  w.str("abc123def");
  w.arrayLen(3);
  w.int(12345);
  w.int(150);
  w.int(-2500);
  w.int(3141);
  w.int(1764000000000);
  w.int(1234);
  const b = w.finish();
  assert.equal(
    toHex(b),
    "95 a9 61 62 63 31 32 33 64 65 66 93 cd 30 39 cc 96 d1 f6 3c cd 0c 45 cf 00 00 01 9a b6 97 e8 00 cd 04 d2",
    "WIRE.md's relayed move, 35 bytes",
  );
  const want = ["abc123def", [12345, 150, -2500], 3141, 1764000000000, 1234];
  assert.deepEqual(mpDecode(b), want);
  // msgpackr 2.x reads every 64-bit int marker (cf, d3) as a bigint, even a small one.
  assert.deepEqual(packr.unpack(b), ["abc123def", [12345, 150, -2500], 3141, 1764000000000n, 1234]);
  assert.equal(packr.unpack(Uint8Array.from([0xcf, 0, 0, 0, 0, 0, 0, 0, 5])), 5n);
  // ... and what the peers write for that value, we read.
  for (const bytes of [mpEncode(want), packr.pack(want)]) {
    const r = newReader(bytes);
    assert.equal(readShape(r), 5);
    assert.equal(readStr(r, 0, 32), "abc123def");
    assert.equal(readArrayLen(r), 3);
    assert.deepEqual([readInt(r, -500000, 500000), readInt(r, -500000, 500000), readInt(r, -500000, 500000)], [12345, 150, -2500]);
    leave(r);
    assert.equal(readInt(r, -3142, 3142), 3141);
    assert.equal(readInt(r, 0, SAFE), 1764000000000);
    assert.equal(readInt(r, 0, 4294967295), 1234);
    leave(r);
    endRead(r);
  }
});

test("writer grows and resets", () => {
  const w = new Writer(1);
  const s = "x".repeat(70000);
  w.str(s);
  w.bin(new Uint8Array(300));
  w.arrayLen(70000);
  w.mapLen(65535);
  const b = w.finish();
  assert.equal(toHex(b.subarray(0, 5)), "db 00 01 11 70");
  const r = newReader(b);
  assert.equal(readStr(r, 0, 70000), s);
  assert.equal(readBin(r, 0, 300).length, 300);
  w.reset();
  w.nil();
  assert.equal(toHex(w.finish()), "c0");
});
