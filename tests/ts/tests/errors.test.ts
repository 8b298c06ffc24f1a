// Paths, codes, message formatting and the field-level checks, as the Rust runtime prints them.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  Code,
  TupletError,
  attempt,
  checkF32,
  checkF64,
  checkInt,
  checkLen,
  duplicate,
  floatText,
  formatPath,
  missing,
  missingIndex,
  notOneKey,
  rustDebugStr,
  rustDisplay,
  rustExp,
  unknownFlags,
  unknownName,
  unknownNumber,
  wrongLength,
} from "../../../codegen/ts-runtime/index.js";

function err(f: () => unknown): TupletError {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return e;
    throw e;
  }
  throw new Error("expected a TupletError");
}

test("paths print as Rust's Path Display", () => {
  assert.equal(formatPath([]), "");
  assert.equal(formatPath(["p", 1]), "p[1]");
  assert.equal(formatPath(["items", 3, "name"]), "items[3].name");
  assert.equal(formatPath(["scores", { key: "ann" }]), 'scores["ann"]');
  assert.equal(formatPath([2, "x", { key: 'a"b' }]), '[2].x["a\\"b"]');
  const e = new TupletError(Code.OutOfRange, "128 is outside -128..=127").inIndex(1).inField("p");
  assert.equal(e.path, "p[1]");
  assert.equal(e.message, "out_of_range at p[1]: 128 is outside -128..=127");
  assert.deepEqual(e.issue(), { code: "out_of_range", path: "p[1]", message: "128 is outside -128..=127" });
  const k = new TupletError(Code.TooLong, "10 bytes, at most 3").inKey(2).inField("scores");
  assert.equal(k.path, 'scores["2"]');
  assert.equal(new TupletError(Code.Truncated, "input ends inside a value").message, "truncated: input ends inside a value");
  assert.ok(k instanceof Error);
  assert.deepEqual(attempt(() => 5), { ok: true, value: 5 });
  assert.deepEqual(attempt(() => { throw missing("t"); }), {
    ok: false,
    issues: [{ code: "missing_field", path: "t", message: "missing field t" }],
  });
  assert.throws(() => attempt(() => { throw new RangeError("a bug"); }), RangeError);
});

test("numbers print as Rust prints them (checked against rustc output)", () => {
  const display: Array<[number, string]> = [
    [-0, "-0"], [1e-7, "0.0000001"], [0.1 + 0.2, "0.30000000000000004"],
    [1.8446744073709552e19, "18446744073709552000"], [-2.5e21, "-2500000000000000000000"],
    [1e21, "1000000000000000000000"], [123456789012345680000, "123456789012345680000"],
    [NaN, "NaN"], [Infinity, "inf"], [-Infinity, "-inf"], [-50, "-50"], [1e16, "10000000000000000"],
    [3.0000000000000005e-6, "0.0000030000000000000005"], [50.01, "50.01"],
  ];
  for (const [x, want] of display) assert.equal(rustDisplay(x), want, String(x));
  assert.equal(rustDisplay(1e300), "1" + "0".repeat(300));
  assert.equal(rustDisplay(5e-324), "0." + "0".repeat(323) + "5");
  const exp: Array<[number, string]> = [
    [-0, "-0e0"], [1e300, "1e300"], [1e-7, "1e-7"], [5e-324, "5e-324"], [0.1 + 0.2, "3.0000000000000004e-1"],
    [1.8446744073709552e19, "1.8446744073709552e19"], [1.5e300, "1.5e300"], [-2.5e21, "-2.5e21"], [-50, "-5e1"],
  ];
  for (const [x, want] of exp) assert.equal(rustExp(x), want, String(x));
  assert.equal(floatText(1764000000000), "1764000000000");
  assert.equal(floatText(1e300), "1e300");
  assert.equal(floatText(1.5), "1.5");
  assert.equal(floatText(-0.1), "-0.1");
  assert.equal(floatText(-0), "0");
  assert.equal(floatText(NaN), "nan");
  assert.equal(floatText(18446744073709549568), "18446744073709549568");
});

test("strings in paths and names are Rust-Debug-quoted (checked against rustc output)", () => {
  assert.equal(rustDebugStr('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(rustDebugStr("\n\t\r\0\x01\x7f"), '"\\n\\t\\r\\0\\u{1}\\u{7f}"');
  assert.equal(rustDebugStr("é中😀"), '"é中😀"');
  assert.equal(rustDebugStr("\u{200b}\u{301}x\u{301}"), '"\\u{200b}\\u{301}x\\u{301}"');
  assert.equal(
    rustDebugStr("\u{a0} \u{2028}\u{feff}\u{e000}\u{fffe}\u{10ffff}"),
    '"\\u{a0} \\u{2028}\\u{feff}\\u{e000}\\u{fffe}\\u{10ffff}"',
  );
  assert.equal(rustDebugStr("'"), `"'"`);
});

test("field-level checks use support.rs's templates", () => {
  assert.equal(err(() => checkInt(128, -128, 127)).detail, "128 is outside -128..=127");
  assert.equal(err(() => checkInt(-1n, 0n, 18446744073709551615n)).detail, "-1 is outside 0..=18446744073709551615");
  assert.equal(err(() => checkInt(1.5, 0, 10)).code, "not_integral");
  assert.equal(err(() => checkInt(NaN, 0, 10)).code, "not_finite");
  checkInt(5, 0, 10);
  checkInt(2n ** 64n - 1n, 0n, 2n ** 64n - 1n);
  assert.equal(err(() => checkF64(NaN, -1, 1)).detail, "expected a finite number, found nan");
  assert.equal(err(() => checkF64(-Infinity, -1, 1)).detail, "expected a finite number, found -infinity");
  assert.equal(err(() => checkF64(2.5, -1, 1)).detail, "2.5 is outside -1..=1");
  assert.equal(err(() => checkF32(0.1, -0.05, 0.1)).detail, "0.10000000149011612 is outside -0.05..=0.1");
  assert.equal(err(() => checkF32(1e300, -1, 1)).detail, "1e300 overflows f32");
  checkF32(0.5, 0, 1);
  assert.equal(err(() => checkLen(10, 0, 3, "bytes")).detail, "10 bytes, at most 3");
  assert.equal(err(() => checkLen(1, 2, 3, "elements")).detail, "1 element, at least 2");
  assert.equal(err(() => checkLen(4, 0, 3, "entries")).code, "too_long");
  assert.equal(wrongLength(2, 3).detail, "2 elements, expected 3");
  assert.deepEqual(missing("t").issue(), { code: "missing_field", path: "t", message: "missing field t" });
  assert.deepEqual(missingIndex("p", 1).issue(), { code: "missing_field", path: "p[1]", message: "missing field p[1]" });
  assert.equal(duplicate("x").detail, "duplicate key x");
  assert.equal(unknownNumber(-7).detail, "unknown variant number -7");
  assert.equal(unknownName('Ow"l', []).detail, 'unknown variant "Ow\\"l"');
  // The names an enum has, in declaration order (Rust `support::unknown_name`, same text).
  assert.equal(unknownName("room", ["Local", "Trade", "Party"]).detail, 'unknown variant "room", expected one of "Local", "Trade", "Party"');
  assert.equal(unknownFlags(0xf0).detail, "unknown flag bits 0xf0");
  assert.equal(unknownFlags(0n).detail, "unknown flag bits 0x0");
  assert.equal(notOneKey(2).detail, "2 entries, expected 1 (a one-key map)");
});
