// Every vector of tests/fixtures/float_text_vectors.json (written by the Rust runtime's
// tests/float_text.rs): the TypeScript checks print floats in messages as Rust does, down to
// 17-digit ties (an f32 widened to f64, say), where Rust takes the larger digit.

import assert from "node:assert/strict";
import { test } from "node:test";
import { TupletError, checkF32, checkF64, floatText, quantizeF32, wireBound } from "../../../codegen/ts-runtime/index.js";
import { readRepoFile } from "./support.js";

interface Vector {
  check: "f32" | "f64" | "quant_f32";
  bits: string;
  message: string;
}

function value(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  if (bits.length === 8) {
    view.setUint32(0, parseInt(bits, 16));
    return view.getFloat32(0);
  }
  view.setBigUint64(0, BigInt("0x" + bits));
  return view.getFloat64(0);
}

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return e.detail;
    throw e;
  }
  throw new Error("expected a TupletError");
}

test("float text vectors (shared with Rust)", () => {
  const doc = JSON.parse(readRepoFile("tests/fixtures/float_text_vectors.json")) as { vectors: Vector[] };
  const seen = { f32: 0, f64: 0, quant_f32: 0 };
  for (const v of doc.vectors) {
    const x = value(v.bits);
    const got =
      v.check === "f32"
        ? messageOf(() => checkF32(x, 1e300, 1e300))
        : v.check === "f64"
          ? messageOf(() => checkF64(x, 1e300, 1e300))
          : messageOf(() => quantizeF32(x, 100, wireBound(-0.01, 100), wireBound(0.01, 100)));
    assert.equal(got, v.message, `${v.check} ${v.bits}`);
    seen[v.check]++;
  }
  assert.ok(seen.f32 > 400 && seen.f64 > 600 && seen.quant_f32 > 300, JSON.stringify(seen));
});

test("a 17-digit tie takes the larger digit, as Rust", () => {
  // 91 ca c4 7a 20 01 against range(-1000.5, 1000000.0): Rust says ...563, String() says ...562.
  assert.equal(String(-1000.50006103515625), "-1000.5000610351562");
  assert.equal(floatText(-1000.50006103515625), "-1000.5000610351563");
  assert.equal(messageOf(() => checkF32(-1000.50006103515625, -1000.5, 1e6)), "-1000.5000610351563 is outside -1000.5..=1000000");
  assert.equal(floatText(9.5367431640625e-7), "0.00000095367431640625");
});
