// Every vector of tests/fixtures/quant_vectors.json (shared with the Rust runtime).

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  TupletError,
  dequantize,
  dequantizeF32,
  quantize,
  quantizeF32,
  roundHalfAwayFromZero,
  wireBound,
} from "../../../codegen/ts-runtime/index.js";
import { readRepoFile } from "./support.js";

const SAFE = Number.MAX_SAFE_INTEGER;

interface Vector {
  kind: "quantize" | "bound" | "dequantize";
  x?: number | string;
  bits?: number;
  scale: number;
  range?: [number, number];
  q?: number;
  code?: string;
  bound?: number;
}

function num(v: number | string | undefined): number {
  if (typeof v === "number") return v;
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  throw new Error(`not a number: ${String(v)}`);
}

function errorOf(f: () => unknown): TupletError {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return e;
    throw e;
  }
  throw new Error("expected a TupletError");
}

test("quantization vectors", () => {
  const doc = JSON.parse(readRepoFile("tests/fixtures/quant_vectors.json")) as { vectors: Vector[] };
  const counts = { quantize: 0, bound: 0, dequantize: 0, errors: 0 };
  for (const v of doc.vectors) {
    const label = JSON.stringify(v);
    if (v.kind === "quantize") {
      const x = num(v.x);
      const [min, max] = v.range
        ? [wireBound(v.range[0], v.scale), wireBound(v.range[1], v.scale)]
        : [-SAFE, SAFE];
      const f = () => (v.bits === 32 ? quantizeF32(x, v.scale, min, max) : quantize(x, v.scale, min, max));
      if (v.q !== undefined) {
        const q = f();
        assert.ok(Object.is(q, v.q), `${label}: got ${q}`);
        counts.quantize++;
      } else {
        assert.equal(errorOf(f).code, v.code, label);
        counts.errors++;
      }
    } else if (v.kind === "bound") {
      assert.ok(Object.is(wireBound(num(v.bound), v.scale), v.q), label);
      counts.bound++;
    } else {
      const q = v.q ?? NaN;
      const got = v.bits === 32 ? dequantizeF32(q, v.scale) : dequantize(q, v.scale);
      assert.equal(got, num(v.x), label);
      counts.dequantize++;
    }
  }
  assert.ok(counts.quantize >= 30 && counts.bound >= 5 && counts.dequantize >= 5 && counts.errors >= 5, JSON.stringify(counts));
});

test("quantize messages match Rust's templates", () => {
  let e = errorOf(() => quantize(50.01, 100, -5000, 5000));
  assert.equal(e.code, "out_of_range");
  assert.equal(e.detail, "50.01 is outside -50..=50");
  e = errorOf(() => quantize(NaN, 100, -5000, 5000));
  assert.equal(e.detail, "expected a finite number, found nan");
  e = errorOf(() => quantize(-Infinity, 100, -5000, 5000));
  assert.equal(e.detail, "expected a finite number, found -infinity");
  e = errorOf(() => quantize(1e300, 100, -SAFE, SAFE));
  assert.equal(e.code, "out_of_range");
  assert.equal(e.detail, "1e300 is outside -90071992547409.9..=90071992547409.9");
  e = errorOf(() => quantize(3.1425, 1000, -3142, 3142));
  assert.equal(e.detail, "3.1425 is outside -3.142..=3.142");
});

test("round half away from zero, never bare Math.round", () => {
  assert.equal(roundHalfAwayFromZero(-2.5), -3);
  assert.equal(roundHalfAwayFromZero(2.5), 3);
  assert.ok(Object.is(roundHalfAwayFromZero(-0.4), 0));
  assert.ok(Object.is(roundHalfAwayFromZero(-0), 0));
  assert.equal(roundHalfAwayFromZero(0.49999999999999994), 0);
  assert.equal(roundHalfAwayFromZero(4503599627370497), 4503599627370497);
  assert.equal(Math.round(-2.5), -2, "the trap this avoids");
});

test("round trip within half a step", () => {
  for (let i = -1000; i <= 1000; i++) {
    const x = i * 0.0137;
    const q = quantize(x, 100, -SAFE, SAFE);
    assert.ok(Math.abs(dequantize(q, 100) - x) <= 0.005 + 1e-12);
    assert.equal(quantize(dequantize(q, 100), 100, -SAFE, SAFE), q);
  }
});
