// The malformed-input table of runtime/tests/malformed.rs, parsed from the Rust source (so the
// two stay in step), and its other tests ported: same inputs, same codes, same messages.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Code, DEFAULT_LIMITS, TupletError, mapEntries, endRead, leave, newReader, peekKind, readArrayLen, readInt, readShape, remaining, skipValue, tryNil } from "../../../codegen/ts-runtime/index.js";
import { SMALL_LIMITS, hex, readRepoFile, readerFor, run } from "./support.js";

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? "" : "_") + c.toLowerCase());
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

/** The CASES table: `("hex", "op", Code),` lines between `const CASES` and `];`. */
function cases(): Array<[string, string, string]> {
  const src = readRepoFile("runtime/tests/malformed.rs");
  const start = src.indexOf("const CASES");
  const end = src.indexOf("\n];", start);
  assert.ok(start >= 0 && end > start, "CASES table found");
  const out: Array<[string, string, string]> = [];
  for (const line of src.slice(start, end).split("\n")) {
    const m = /^\s*\("([^"]*)",\s*"([^"]+)",\s*(\w+)\),\s*$/.exec(line);
    if (m) out.push([m[1] ?? "", m[2] ?? "", snake(m[3] ?? "")]);
    else assert.ok(!/^\s*\(/.test(line), `unparsed table line: ${line}`);
  }
  return out;
}

test("malformed inputs give exact codes (the Rust table)", () => {
  const table = cases();
  assert.ok(table.length >= 130, `${table.length} cases`);
  const codes = new Set<string>(Object.values(Code));
  const failures: string[] = [];
  for (const [input, opName, want] of table) {
    assert.ok(codes.has(want), `unknown code ${want}`);
    const { r, op } = readerFor(hex(input), opName);
    try {
      run(r, op);
      failures.push(`${input} / ${opName}: want ${want}, got Ok`);
    } catch (e) {
      if (!(e instanceof TupletError)) {
        failures.push(`${input} / ${opName}: want ${want}, threw ${String(e)}`);
      } else if (e.code !== want) {
        failures.push(`${input} / ${opName}: want ${want}, got ${e.message}`);
      } else {
        assert.notEqual(e.detail, "");
        assert.equal(e.path, "", "reader errors are at the root");
      }
    }
  }
  assert.deepEqual(failures, []);
});

test("message templates", () => {
  const m = (input: string, op: string): string => {
    const { r, op: name } = readerFor(hex(input), op);
    return errorOf(() => run(r, name)).detail;
  };
  assert.equal(m("", "i64"), "input ends inside a value");
  assert.equal(m("c1", "i64"), "reserved byte 0xc1");
  assert.equal(m("a1 61", "i64"), "expected int, found str");
  assert.equal(m("cb 00 00 00 00 00 00 00 00", "bool"), "expected bool, found float64");
  assert.equal(m("ca 00 00 00 00", "str"), "expected str, found float32");
  assert.equal(m("80", "array"), "expected array, found map");
  assert.equal(m("01", "shape"), "expected array or map, found int");
  assert.equal(m("c0", "f64"), "expected number, found nil");
  assert.equal(m("d4 00 00", "f64"), "expected number, found nil");
  assert.equal(m("d4 01 00", "f64"), "expected number, found ext");
  // msgpackr's record extension (`new Packr().pack({x: 1})`) is named, with the fix.
  for (const [input, op, expected] of [
    ["d4 72 40 91 a1 78 01", "shape", "array or map"],
    ["d4 72 40 91 a1 78 01", "i64", "int"],
    ["d4 72 41", "str", "str"],
  ] as const) {
    assert.equal(
      m(input, op),
      `expected ${expected}, found a msgpackr record (ext 0x72); send tuples, or encode with useRecords: false`,
    );
  }
  assert.equal(m("c4 00", "str"), "expected str, found bin");
  assert.equal(m("00 00", "finish"), "2 bytes after the end of the message");
  assert.equal(m("a1 ff", "str"), "string is not valid utf-8");
  assert.equal(m("cb 7f f8 00 00 00 00 00 00", "f64"), "expected a finite number, found nan");
  assert.equal(m("cb ff f0 00 00 00 00 00 00", "f64"), "expected a finite number, found -infinity");
  assert.equal(m("cb 7e 37 e4 3c 88 00 75 9c", "f32"), "1e300 overflows f32");
  assert.equal(m("cb 3f f8 00 00 00 00 00 00", "i64"), "1.5 is not an integer");
  assert.equal(m("cc 80", "i8"), "128 is outside -128..=127");
  assert.equal(m("ff", "u64"), "-1 is outside 0..=18446744073709551615");
  assert.equal(m("cb 7e 37 e4 3c 88 00 75 9c", "u8"), "1e300 is outside 0..=255");
  assert.equal(m("cb 42 70 00 00 00 00 00 00", "u8"), "1099511627776 is outside 0..=255");
  assert.equal(m("aa 61 62", "str3"), "10 bytes, at most 3");
  assert.equal(m("a1 61", "str2.."), "1 byte, at least 2");
  assert.equal(m("a3 61", "str"), "3 bytes declared, 1 byte left");
  assert.equal(m("dd ff ff ff ff 01 02 03 04 05", "array"), "4294967295 elements declared, 5 bytes left");
  assert.equal(m("83 01 02 03", "map"), "3 entries declared, 3 bytes left");
  // Singular units when the count is 1.
  assert.equal(m("00", "finish"), "1 byte after the end of the message");
  assert.equal(m("91", "array"), "1 element declared, 0 bytes left");
  assert.equal(m("81 01", "map"), "1 entry declared, 1 byte left");
  assert.equal(m("91*100 c0", "skip"), "nesting deeper than 64");
  assert.equal(m("95 01 02 03 04 05", "skip@small"), "more than 4 elements");
  // 64-bit values outside the safe range, printed exactly (number fields).
  assert.equal(
    m("cf 00 20 00 00 00 00 00 00", "safe"),
    "9007199254740992 is outside -9007199254740991..=9007199254740991",
  );
  assert.equal(
    m("d3 80 00 00 00 00 00 00 00", "safe"),
    "-9223372036854775808 is outside -9007199254740991..=9007199254740991",
  );
  assert.equal(
    m("cf ff ff ff ff ff ff ff ff", "i64"),
    "18446744073709551615 is outside -9223372036854775808..=9223372036854775807",
  );
  assert.equal(m("cb c3 f0 00 00 00 00 00 00", "u8"), "-18446744073709551616 is outside 0..=255".replace("-18446744073709551616", "-1.8446744073709552e19"));
  assert.equal(m("cb 43 ef ff ff ff ff ff ff", "u8"), "18446744073709549568 is outside 0..=255");
  assert.equal(m("cb 3f b9 99 99 99 99 99 9a", "u8"), "0.1 is not an integer");
  assert.equal(m("ca 7f 80 00 00", "u8"), "expected a finite number, found infinity");
});

test("huge declared lengths do not allocate or hang", () => {
  let r = newReader(hex("dd ff ff ff ff 01 02 03 04 05"));
  assert.equal(errorOf(() => readArrayLen(r)).code, "truncated");
  r = newReader(hex("dc 00 05 01 02 03 04 05"), SMALL_LIMITS);
  assert.equal(errorOf(() => readShape(r)).code, "too_many_elements");
});

test("undefined is nil, other fixext1 is not", () => {
  let r = newReader(hex("d4 00 00"));
  assert.equal(peekKind(r), "nil");
  assert.equal(tryNil(r), true);
  endRead(r);
  for (const input of ["d4 00 01", "d4 01 00", "d4 ff 00"]) {
    r = newReader(hex(input));
    assert.equal(peekKind(r), "ext", input);
    assert.equal(tryNil(r), false, input);
    assert.equal(r.pos, 0);
    skipValue(r);
    endRead(r);
  }
  r = newReader(hex("c0"));
  assert.equal(tryNil(r), true);
  r = newReader(hex("01"));
  assert.equal(tryNil(r), false);
  assert.equal(remaining(r), 1);
});

test("depth is tracked by enter and leave", () => {
  const ok = hex("91 ".repeat(64) + "c0");
  let r = newReader(ok);
  for (let i = 0; i < 64; i++) assert.equal(readShape(r), 1);
  assert.equal(tryNil(r), true);
  for (let i = 0; i < 64; i++) leave(r);
  endRead(r);
  r = newReader(ok);
  skipValue(r);
  endRead(r);

  r = newReader(hex("91 91 91 c0"), SMALL_LIMITS);
  readShape(r);
  readShape(r);
  readShape(r);
  skipValue(r);
  r = newReader(hex("91 91 91 91 c0"), SMALL_LIMITS);
  readShape(r);
  readShape(r);
  assert.equal(errorOf(() => skipValue(r)).code, "too_deep");

  r = newReader(hex("94 91 01 91 02 91 03 90"), { maxDepth: 2, maxElements: 100 });
  skipValue(r);
  endRead(r);
});

test("readShape tells the compact shape from the named one", () => {
  assert.equal(readShape(newReader(hex("93 01 02 03"))), 3);
  const s = readShape(newReader(hex("82 a1 61 01 a1 62 02")));
  assert.ok(s < 0);
  assert.equal(mapEntries(s), 2);
  assert.equal(mapEntries(readShape(newReader(hex("80")))), 0);
});

test("skip handles every kind", () => {
  const inputs = [
    "c0", "c2", "c3", "00", "7f", "e0", "ff", "cc ff", "cd ff ff", "ce 00 00 00 01",
    "cf 00 00 00 00 00 00 00 01", "d0 80", "d1 80 00", "d2 80 00 00 00",
    "d3 80 00 00 00 00 00 00 00", "ca 3f 80 00 00", "cb 3f f0 00 00 00 00 00 00", "a0",
    "a2 ff fe", "d9 01 ff", "da 00 01 61", "db 00 00 00 01 61", "c4 00", "c5 00 01 01",
    "c6 00 00 00 01 01", "90", "80", "dc 00 01 c0", "dd 00 00 00 01 c0", "de 00 01 01 02",
    "df 00 00 00 01 01 02", "d4 01 01", "d5 01 01 02", "d6 ff 00 00 00 01",
    "d7 ff 00 00 00 00 00 00 00 01", "d8 05 00*16", "c7 00 05", "c7 02 05 01 02",
    "c8 00 01 05 01", "c9 00 00 00 01 05 01", "82 a1 61 92 01 c0 a1 62 81 01 90",
    "93 91 91 90 80 c0",
  ];
  for (const input of inputs) {
    const bytes = hex(input + " 2a");
    const r = newReader(bytes);
    skipValue(r);
    assert.equal(remaining(r), 1, input);
    assert.equal(readInt(r, 0, 100), 42);
  }
});

test("kinds agree with the msgpack marker table", () => {
  for (let b = 0; b <= 255; b++) {
    const bytes = new Uint8Array(21).fill(1);
    bytes[0] = b;
    const want =
      b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3) ? "int"
      : b <= 0x8f || b === 0xde || b === 0xdf ? "map"
      : b <= 0x9f || b === 0xdc || b === 0xdd ? "array"
      : b <= 0xbf || (b >= 0xd9 && b <= 0xdb) ? "str"
      : b === 0xc0 ? "nil"
      : b === 0xc1 ? undefined
      : b === 0xc2 || b === 0xc3 ? "bool"
      : b >= 0xc4 && b <= 0xc6 ? "bin"
      : b === 0xca || b === 0xcb ? "float"
      : "ext";
    const r = newReader(bytes);
    if (want === undefined) assert.equal(errorOf(() => peekKind(r)).code, "reserved_marker");
    else assert.equal(peekKind(r), want, b.toString(16));
  }
});

test("the element budget is per decode, across siblings", () => {
  const r = newReader(hex("92 92 01 02 92 03 04"), { maxDepth: 8, maxElements: 5 });
  readArrayLen(r);
  skipValue(r);
  assert.equal(errorOf(() => skipValue(r)).code, "too_many_elements");
  assert.equal(DEFAULT_LIMITS.maxElements, 1 << 20);
  assert.equal(DEFAULT_LIMITS.maxDepth, 64);
});
