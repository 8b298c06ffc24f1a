// UTF-8: byte lengths, well-formed UTF-16, UTF-8 byte order for map keys, and a strict
// decoder rejecting exactly what Rust's str::from_utf8 rejects.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  TupletError,
  Writer,
  checkWellFormed,
  compareUtf8,
  decodeUtf8,
  encodeUtf8,
  isWellFormed,
  utf8Length,
} from "../../../codegen/ts-runtime/index.js";
import { toHex } from "./support.js";

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof TupletError) return e.code;
    throw e;
  }
  return "ok";
}

test("map keys sort by UTF-8 bytes, not UTF-16 units", () => {
  const keys = ["😀", "｡"];
  assert.deepEqual([...keys].sort(), ["😀", "｡"], "JavaScript's default sort is UTF-16");
  assert.deepEqual([...keys].sort(compareUtf8), ["｡", "😀"]);
  assert.deepEqual(["bob", "ann", "Zed"].sort(compareUtf8), ["Zed", "ann", "bob"]);
  const pool = ["", "a", "ab", "é", "\u{7f}", "\u{80}", "\u{7ff}", "\u{800}", "\u{d7ff}", "\u{e000}", "\u{ffff}", "\u{10000}", "😀", "｡", "中", "a\u{10ffff}", "a\u{fffd}"];
  for (const a of pool) {
    for (const b of pool) {
      const want = Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
      assert.equal(Math.sign(compareUtf8(a, b)), want, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  }
});

test("byte lengths and lone surrogates", () => {
  for (const s of ["", "abc", "é", "中", "😀", "a😀b中é", "\u{10ffff}"]) {
    assert.equal(utf8Length(s), Buffer.byteLength(s, "utf8"), s);
    assert.equal(toHex(encodeUtf8(s)), toHex(Buffer.from(s, "utf8")));
    assert.ok(isWellFormed(s));
  }
  for (const s of ["\ud800", "a\udc00", "\ud83d", "\ude00\ud83d", "x\ud800y"]) {
    assert.equal(isWellFormed(s), false, JSON.stringify(s));
    assert.equal(codeOf(() => checkWellFormed(s)), "invalid_utf8");
    assert.equal(codeOf(() => utf8Length(s)), "invalid_utf8");
    assert.equal(codeOf(() => new Writer().str(s)), "invalid_utf8");
  }
  const w = new Writer();
  w.str("é");
  assert.equal(toHex(w.finish()), "a2 c3 a9");
});

/** Well-formed UTF-8 byte sequences, Unicode Table 3-7 (what Rust's from_utf8 accepts). */
function wellFormed(b: number[]): boolean {
  let i = 0;
  const inRange = (x: number | undefined, lo: number, hi: number) => x !== undefined && x >= lo && x <= hi;
  while (i < b.length) {
    const c = b[i] ?? 0;
    if (c <= 0x7f) i += 1;
    else if (c >= 0xc2 && c <= 0xdf && inRange(b[i + 1], 0x80, 0xbf)) i += 2;
    else if (c >= 0xe0 && c <= 0xef) {
      const lo = c === 0xe0 ? 0xa0 : 0x80;
      const hi = c === 0xed ? 0x9f : 0xbf;
      if (!inRange(b[i + 1], lo, hi) || !inRange(b[i + 2], 0x80, 0xbf)) return false;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      const lo = c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xf4 ? 0x8f : 0xbf;
      if (!inRange(b[i + 1], lo, hi) || !inRange(b[i + 2], 0x80, 0xbf) || !inRange(b[i + 3], 0x80, 0xbf)) return false;
      i += 4;
    } else return false;
  }
  return true;
}

test("the decoder accepts exactly the well-formed sequences", () => {
  const tails = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
  let checked = 0;
  const check = (seq: number[]) => {
    const buf = Uint8Array.from(seq);
    const ok = codeOf(() => decodeUtf8(buf, 0, buf.length)) === "ok";
    assert.equal(ok, wellFormed(seq), toHex(buf));
    // Long inputs go through the non-ASCII path too.
    const long = Uint8Array.from([...new Array<number>(70).fill(0x61), ...seq]);
    assert.equal(codeOf(() => decodeUtf8(long, 0, long.length)) === "ok", ok, `long ${toHex(buf)}`);
    checked++;
  };
  for (let a = 0; a < 256; a++) {
    check([a]);
    for (let b = 0; b < 256; b++) {
      check([a, b]);
      if (a >= 0xe0 && a <= 0xf7) {
        for (const c of tails) {
          check([a, b, c]);
          if (a >= 0xf0) for (const d of [0x41, 0x80, 0xbf, 0xc0]) check([a, b, c, d]);
        }
      }
    }
  }
  assert.ok(checked > 100000, `${checked}`);
  // A byte-order mark is kept, as in Rust.
  const bom = Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]);
  assert.equal(decodeUtf8(bom, 0, 4), "\ufeffa");
  assert.equal(decodeUtf8(Uint8Array.from([0xf0, 0x9f, 0x98, 0x80]), 0, 4), "😀");
});
