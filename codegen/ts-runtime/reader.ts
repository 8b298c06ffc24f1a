/**
 * The reader: a cursor over one message's bytes applying WIRE.md's decoding policy (lenient
 * on number markers, strict on everything else) and its bounds, mirroring the Rust
 * `tuplet::wire::Reader` method for function: same codes, same messages, same order of checks.
 * Every read consumes one well-formed value and returns it, or throws a `TupletError`.
 */

import { checkLen } from "./checks.js";
import type { TupletError } from "./errors.js";
import {
  declared,
  f32Overflow,
  notFinite,
  notIntegral,
  outOfRange,
  reserved,
  tooDeep,
  tooLong,
  tooManyElements,
  tooShort,
  trailing,
  truncated,
  msgpackrRecord,
  unexpected,
  wrongType,
} from "./fail.js";
import { floatText, intText } from "./format.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { floats } from "./floats.js";
import { decodeUtf8 } from "./utf8.js";

/** The broad kind of the next value, from its marker alone. */
export type Kind = "nil" | "bool" | "int" | "float" | "str" | "bin" | "array" | "map" | "ext";

const TWO_POW_32 = 4294967296;
const TWO_POW_64 = 18446744073709551616;
/** The ext type of msgpackr's record extension (`d4 72 id`, then the keys and the values). */
const MSGPACKR_RECORD = 0x72;
/** The largest `hi` word of a 64-bit int whose value is at most 2^53 - 1. */
const SAFE_HI = 0x1fffff;

/** The kind a marker byte starts; `undefined` for `0xc1`. `d4` is `"ext"` here. */
function kindOf(b: number): Kind | undefined {
  if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3)) return "int";
  if (b <= 0x8f || b === 0xde || b === 0xdf) return "map";
  if (b <= 0x9f || b === 0xdc || b === 0xdd) return "array";
  if (b <= 0xbf || (b >= 0xd9 && b <= 0xdb)) return "str";
  if (b === 0xc0) return "nil";
  if (b === 0xc1) return undefined;
  if (b === 0xc2 || b === 0xc3) return "bool";
  if (b <= 0xc6) return "bin";
  if (b === 0xca || b === 0xcb) return "float";
  return "ext";
}

/** The int value of a float in an int field: `not_finite`, `not_integral`, |x| >= 2^64 `out_of_range`. */
function integral(x: number, min: number | bigint, max: number | bigint): number {
  if (x - x !== 0) throw notFinite(x);
  if (!Number.isInteger(x)) throw notIntegral(x);
  if (Math.abs(x) >= TWO_POW_64) throw outOfRange(floatText(x), intText(min), intText(max));
  return x === 0 ? 0 : x;
}

/** The big-endian uint16 at `at` (bounds checked by the caller). */
function u16At(buf: Uint8Array, at: number): number {
  return (buf[at]! << 8) | buf[at + 1]!;
}

/** The big-endian uint32 at `at` (bounds checked by the caller). */
function u32At(buf: Uint8Array, at: number): number {
  return buf[at]! * 0x1000000 + ((buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!);
}

/** The big-endian float32 at `at`, widened exactly (bounds checked by the caller). */
function f32At(buf: Uint8Array, at: number): number {
  return floats.read32(buf, at);
}

/** The big-endian float64 at `at` (bounds checked by the caller). */
function f64At(buf: Uint8Array, at: number): number {
  return floats.read64(buf, at);
}

function u64Text(hi: number, lo: number): string {
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

function i64Text(hi: number, lo: number): string {
  return ((BigInt(hi) << 32n) + BigInt(lo)).toString();
}

/**
 * The result of `readShape`: `s >= 0` is the compact shape, an array of `s` elements; `s < 0`
 * the named shape, a map of `-s - 1` entries (`mapEntries(s)`).
 */
export type Shape = number;

/** Whether a `readShape` result is the named shape (a map). */
export function isNamed(s: Shape): boolean {
  return s < 0;
}

/** The entries of a named-shape `readShape` result. */
export function mapEntries(s: Shape): number {
  return -s - 1;
}

/** Reads a list's header: `readArrayLen`, then its length checked against `min..=max` (`checkLen`). */
export function readList(r: Reader, min: number, max: number): number {
  const n = readArrayLen(r);
  checkLen(n, min, max, "elements");
  return n;
}

/** Reads a map's header: `readMapLen`, then its entry count checked against `min..=max` (`checkLen`). */
export function readMap(r: Reader, min: number, max: number): number {
  const n = readMapLen(r);
  checkLen(n, min, max, "entries");
  return n;
}

/**
 * A bounded msgpack reader over one message: plain state that the free functions below read
 * and advance (esbuild keeps only the functions a bundle calls, and minifies their names).
 * `buf` and `pos` are read in place by the generated code's inline int fast paths.
 */
export interface Reader {
  /** The message's bytes. */
  buf: Uint8Array;
  /** The position of the next value in `buf`. */
  pos: number;
  /** The end of the message in `buf`. */
  end: number;
  /** The element budget left (`Limits.maxElements` at the start). */
  left: number;
  /** Containers entered and not yet left. */
  depth: number;
  /** The limits this message is read under. */
  limits: Limits;
  /**
   * Whether an int map key may also be a str holding its canonical decimal text (`-?(0|[1-9][0-9]*)`),
   * as a plain object's keys are: set for `fromWire`, which packs decoded JS values and reads them back.
   */
  textKeys: boolean;
}

/** A reader at the start of `buf`. */
export function newReader(buf: Uint8Array, limits: Limits = DEFAULT_LIMITS): Reader {
  return { buf, pos: 0, end: buf.length, left: limits.maxElements, depth: 0, limits, textKeys: false };
}

/**
 * Starts `r` over on another message, as a new reader would (decoders reuse one reader: no
 * allocation per message). Returns `r`.
 */
export function resetReader(r: Reader, buf: Uint8Array, limits: Limits = DEFAULT_LIMITS): Reader {
  r.buf = buf;
  r.pos = 0;
  r.end = buf.length;
  r.left = limits.maxElements;
  r.depth = 0;
  r.limits = limits;
  r.textKeys = false;
  return r;
}

/** Bytes not yet consumed. */
export function remaining(r: Reader): number {
  return r.end - r.pos;
}

/** Returns when every byte was consumed; throws `trailing_bytes` otherwise. */
export function endRead(r: Reader): void {
  const n = r.end - r.pos;
  if (n !== 0) throw trailing(n);
}

/**
 * The kind of the next value, from its marker (`d4 00 00` is nil). Consumes nothing.
 * `truncated` at the end of the input (or on a `d4` without its two bytes), `reserved_marker`
 * on `0xc1`.
 */
export function peekKind(r: Reader): Kind {
  const b = peek(r);
  if (b === 0xd4) {
    const u = undefinedAt(r);
    if (u === undefined) throw truncated();
    return u ? "nil" : "ext";
  }
  const k = kindOf(b);
  if (k === undefined) throw reserved();
  return k;
}

/**
 * Consumes a nil (`c0`, or msgpackr's `undefined` `d4 00 00`) and returns true; returns
 * false, consuming nothing, before any other value.
 */
export function tryNil(r: Reader): boolean {
  const b = peek(r);
  if (b === 0xc0) {
    r.pos += 1;
    return true;
  }
  if (b === 0xd4) {
    const u = undefinedAt(r);
    if (u === undefined) throw truncated();
    if (u) r.pos += 3;
    return u;
  }
  if (b === 0xc1) throw reserved();
  return false;
}

/**
 * Reads an array or map header: the compact or the named shape of a record (see `Shape`).
 * Checks the count against the remaining input, charges it to the element budget and
 * enters one level of nesting; call `leave()` after the last element.
 */
export function readShape(r: Reader): Shape {
  const b = peek(r);
  if ((b >= 0x90 && b <= 0x9f) || b === 0xdc || b === 0xdd) return arrayHeader(r, b);
  if ((b >= 0x80 && b <= 0x8f) || b === 0xde || b === 0xdf) return -mapHeader(r, b) - 1;
  throw unexpectedAt(r, "array or map", b);
}

/** Reads an array header (its element count); as `readShape` but only an array. */
export function readArrayLen(r: Reader): number {
  const b = peek(r);
  if ((b >= 0x90 && b <= 0x9f) || b === 0xdc || b === 0xdd) return arrayHeader(r, b);
  throw unexpectedAt(r, "array", b);
}

/** Reads a map header (its entry count); as `readShape` but only a map. */
export function readMapLen(r: Reader): number {
  const b = peek(r);
  if ((b >= 0x80 && b <= 0x8f) || b === 0xde || b === 0xdf) return mapHeader(r, b);
  throw unexpectedAt(r, "map", b);
}

/** Leaves the container entered last, once its elements were read. */
export function leave(r: Reader): void {
  if (r.depth > 0) r.depth -= 1;
}

/** Reads `c2` (false) or `c3` (true). */
export function readBool(r: Reader): boolean {
  const b = peek(r);
  if (b === 0xc2 || b === 0xc3) {
    r.pos += 1;
    return b === 0xc3;
  }
  throw unexpectedAt(r, "bool", b);
}

/**
 * Reads an int in `min..=max` (safe integers: |bound| <= 2^53 - 1) from any int marker, or
 * from a float holding an integral finite value. Checks `not_finite`, `not_integral`, then
 * `out_of_range`.
 */
export function readInt(r: Reader, min: number, max: number): number {
  // The common markers, small enough for the JIT to inline into generated code; anything
  // else (and every error) goes through `readIntAny`.
  const buf = r.buf;
  const p = r.pos;
  const left = r.end - p;
  if (left > 0) {
    const b = buf[p]!;
    let v: number;
    let n = 1;
    if (b <= 0x7f) v = b;
    else if (b >= 0xe0) v = b - 256;
    else if (b === 0xcd && left >= 3) {
      v = (buf[p + 1]! << 8) | buf[p + 2]!;
      n = 3;
    } else if (b === 0xd2 && left >= 5) {
      v = (buf[p + 1]! << 24) | (buf[p + 2]! << 16) | (buf[p + 3]! << 8) | buf[p + 4]!;
      n = 5;
    } else if (b === 0xcc && left >= 2) {
      v = buf[p + 1]!;
      n = 2;
    } else if (b === 0xd0 && left >= 2) {
      v = (buf[p + 1]! << 24) >> 24;
      n = 2;
    } else if (b === 0xd1 && left >= 3) {
      v = (((buf[p + 1]! << 8) | buf[p + 2]!) << 16) >> 16;
      n = 3;
    } else return readIntAny(r, min, max);
    if (v >= min && v <= max) {
      r.pos = p + n;
      return v;
    }
  }
  return readIntAny(r, min, max);
}

/** `readInt` for every marker, with its checks and errors. */
function readIntAny(r: Reader, min: number, max: number): number {
  const b = peek(r);
  let v: number;
  if (b <= 0x7f) {
    r.pos += 1;
    v = b;
  } else if (b >= 0xe0) {
    r.pos += 1;
    v = b - 256;
  } else {
    const buf = r.buf;
    const at = r.pos + 1;
    switch (b) {
      case 0xcc:
        need(r, 2);
        v = buf[at]!;
        r.pos += 2;
        break;
      case 0xcd:
        need(r, 3);
        v = u16At(buf, at);
        r.pos += 3;
        break;
      case 0xce:
        need(r, 5);
        v = u32At(buf, at);
        r.pos += 5;
        break;
      case 0xcf: {
        need(r, 9);
        const hi = u32At(buf, at);
        const lo = u32At(buf, at + 4);
        r.pos += 9;
        if (hi > SAFE_HI) throw outOfRange(u64Text(hi, lo), intText(min), intText(max));
        v = hi * TWO_POW_32 + lo;
        break;
      }
      case 0xd0:
        need(r, 2);
        v = (buf[at]! << 24) >> 24;
        r.pos += 2;
        break;
      case 0xd1:
        need(r, 3);
        v = (u16At(buf, at) << 16) >> 16;
        r.pos += 3;
        break;
      case 0xd2:
        need(r, 5);
        v = u32At(buf, at) | 0;
        r.pos += 5;
        break;
      case 0xd3: {
        need(r, 9);
        const hi = u32At(buf, at) | 0;
        const lo = u32At(buf, at + 4);
        r.pos += 9;
        if (hi > SAFE_HI || hi < -SAFE_HI - 1) {
          throw outOfRange(i64Text(hi, lo), intText(min), intText(max));
        }
        v = hi * TWO_POW_32 + lo;
        break;
      }
      case 0xca:
        need(r, 5);
        v = integral(f32At(buf, at), min, max);
        r.pos += 5;
        break;
      case 0xcb:
        need(r, 9);
        v = integral(f64At(buf, at), min, max);
        r.pos += 9;
        break;
      default:
        throw unexpectedAt(r, "int", b);
    }
  }
  if (v < min || v > max) throw outOfRange(intText(v), intText(min), intText(max));
  return v;
}

/** Reads an int map key as `readInt`; with `textKeys`, also from its canonical decimal text. */
export function readIntKey(r: Reader, min: number, max: number): number {
  const t = keyText(r);
  if (t === undefined) return readInt(r, min, max);
  const v = Number(t);
  if (v < min || v > max) {
    throw outOfRange(Math.abs(v) >= TWO_POW_64 ? floatText(v) : intText(v), intText(min), intText(max));
  }
  return v === 0 ? 0 : v;
}

/** Reads a bigint map key as `readBigInt`; with `textKeys`, also from its canonical decimal text. */
export function readBigIntKey(r: Reader, min: bigint, max: bigint): bigint {
  const t = keyText(r);
  if (t === undefined) return readBigInt(r, min, max);
  const v = BigInt(t);
  if (v < min || v > max) throw outOfRange(v.toString(), min.toString(), max.toString());
  return v;
}

/**
 * Reads an int in `min..=max` as a bigint (for `bigint` fields, the full 64-bit range), from
 * any int marker or an integral float; the same checks and messages as `readInt`.
 */
export function readBigInt(r: Reader, min: bigint, max: bigint): bigint {
  const b = peek(r);
  let v: bigint;
  const buf = r.buf;
  if (b === 0xcf) {
    need(r, 9);
    v = (BigInt(u32At(buf, r.pos + 1)) << 32n) | BigInt(u32At(buf, r.pos + 5));
    r.pos += 9;
  } else if (b === 0xd3) {
    need(r, 9);
    v = (BigInt(u32At(buf, r.pos + 1) | 0) << 32n) + BigInt(u32At(buf, r.pos + 5));
    r.pos += 9;
  } else if (b === 0xca || b === 0xcb) {
    r.pos += 1;
    need(r, b === 0xca ? 4 : 8);
    const x = b === 0xca ? f32At(buf, r.pos) : f64At(buf, r.pos);
    v = BigInt(integral(x, min, max));
    r.pos += b === 0xca ? 4 : 8;
  } else {
    v = BigInt(readInt(r, -9007199254740991, 9007199254740991));
  }
  if (v < min || v > max) throw outOfRange(v.toString(), min.toString(), max.toString());
  return v;
}

/**
 * Reads a unit enum's value: its number (any int marker or an integral float, within the
 * i64 range; a number when it is within +-2^32, else a bigint) or, in the named shape, its
 * name (a str of at most 1024 bytes). The same checks and messages as `readStr` and
 * `readBigInt`.
 */
export function readVariant(r: Reader): number | bigint | string {
  const b = peek(r);
  if (b <= 0x7f) {
    r.pos += 1;
    return b;
  }
  if (b >= 0xe0) {
    r.pos += 1;
    return b - 256;
  }
  if ((b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb)) return readStr(r, 0, 1024);
  if (b >= 0xcc && b <= 0xd2 && b !== 0xcf) return readInt(r, -2147483648, 4294967295);
  if (b === 0xd4) peekKind(r); // `truncated` before `wrong_type` on a short `d4`
  return readBigInt(r, -9223372036854775808n, 9223372036854775807n);
}

/**
 * Reads a finite number from any int or float marker (float32 widened exactly; a 64-bit int
 * beyond 2^53 rounds to the nearest double). NaN and infinities are `not_finite`.
 */
export function readF64(r: Reader): number {
  const b = peek(r);
  let x: number;
  if (b <= 0x7f) {
    r.pos += 1;
    return b;
  } else if (b >= 0xe0) {
    r.pos += 1;
    return b - 256;
  }
  const buf = r.buf;
  const at = r.pos + 1;
  switch (b) {
    case 0xca:
      need(r, 5);
      x = f32At(buf, at);
      r.pos += 5;
      break;
    case 0xcb:
      need(r, 9);
      x = f64At(buf, at);
      r.pos += 9;
      break;
    case 0xcc:
      need(r, 2);
      x = buf[at]!;
      r.pos += 2;
      break;
    case 0xcd:
      need(r, 3);
      x = u16At(buf, at);
      r.pos += 3;
      break;
    case 0xce:
      need(r, 5);
      x = u32At(buf, at);
      r.pos += 5;
      break;
    case 0xcf:
      need(r, 9);
      x = u32At(buf, at) * TWO_POW_32 + u32At(buf, at + 4);
      r.pos += 9;
      break;
    case 0xd0:
      need(r, 2);
      x = (buf[at]! << 24) >> 24;
      r.pos += 2;
      break;
    case 0xd1:
      need(r, 3);
      x = (u16At(buf, at) << 16) >> 16;
      r.pos += 3;
      break;
    case 0xd2:
      need(r, 5);
      x = u32At(buf, at) | 0;
      r.pos += 5;
      break;
    case 0xd3:
      need(r, 9);
      x = (u32At(buf, at) | 0) * TWO_POW_32 + u32At(buf, at + 4);
      r.pos += 9;
      break;
    default:
      throw unexpectedAt(r, "number", b);
  }
  if (x - x !== 0) throw notFinite(x);
  return x;
}

/**
 * Reads a number as `readF64` does, then narrows it to f32 (`Math.fround`); a value that
 * overflows f32 is `not_finite` ("{value} overflows f32").
 */
export function readF32(r: Reader): number {
  const x = readF64(r);
  const y = Math.fround(x);
  if (y - y !== 0) throw f32Overflow(x);
  return y;
}

/**
 * Reads a UTF-8 string of `min..=max` bytes. Bin is `wrong_type`; the limits are checked at
 * the header, before the body; then the body against the input; then UTF-8.
 */
export function readStr(r: Reader, min: number, max: number): string {
  const b = peek(r);
  let len: number;
  if (b >= 0xa0 && b <= 0xbf) {
    r.pos += 1;
    len = b & 0x1f;
  } else if (b === 0xd9) {
    r.pos += 1;
    len = u8(r);
  } else if (b === 0xda) {
    r.pos += 1;
    len = u16(r);
  } else if (b === 0xdb) {
    r.pos += 1;
    len = u32(r);
  } else {
    throw unexpectedAt(r, "str", b);
  }
  const at = body(r, len, min, max);
  return decodeUtf8(r.buf, at, len);
}

/**
 * Reads a bin of `min..=max` bytes (a copy, not a view of the input). Str is `wrong_type`;
 * the limits are checked at the header, before the body.
 */
export function readBin(r: Reader, min: number, max: number): Uint8Array {
  const b = peek(r);
  let len: number;
  if (b === 0xc4) {
    r.pos += 1;
    len = u8(r);
  } else if (b === 0xc5) {
    r.pos += 1;
    len = u16(r);
  } else if (b === 0xc6) {
    r.pos += 1;
    len = u32(r);
  } else {
    throw unexpectedAt(r, "bin", b);
  }
  const at = body(r, len, min, max);
  return r.buf.slice(at, at + len);
}

/**
 * Skips exactly one value of any kind (nested containers and every ext included), without
 * recursion. Nested containers count toward the depth cap and their elements toward the
 * element budget; strings are not UTF-8 checked.
 */
export function skipValue(r: Reader): void {
  const base = r.depth;
  try {
    skipInner(r);
  } finally {
    r.depth = base;
  }
}

/** Skips `n` values as `skipValue` does (none when `n <= 0`): a compact record's extra elements. */
export function skipValues(r: Reader, n: number): void {
  for (let i = 0; i < n; i++) skipValue(r);
}

// ---- internals ----

/**
 * With `textKeys` and a str next: its text, consumed (`wrong_type` unless canonical decimal);
 * otherwise `undefined`, consuming nothing.
 */
function keyText(r: Reader): string | undefined {
  if (!r.textKeys) return undefined;
  const b = peek(r);
  if (!((b >= 0xa0 && b <= 0xbf) || b === 0xd9 || b === 0xda || b === 0xdb)) return undefined;
  const t = readStr(r, 0, 4294967295);
  if (!/^-?(0|[1-9][0-9]*)$/.test(t)) throw wrongType("int", "str");
  return t;
}

function skipInner(r: Reader): void {
  const pending: number[] = [];
  let left = 1;
  for (;;) {
    const n = skipOne(r);
    if (n > 0) {
      pending.push(left - 1);
      left = n;
      continue;
    }
    if (n === 0) leave(r);
    left -= 1;
    while (left === 0) {
      const outer = pending.pop();
      if (outer === undefined) return;
      leave(r);
      left = outer;
    }
  }
}

/** Consumes one scalar (-1) or one container header, entering it and returning how many values it holds. */
function skipOne(r: Reader): number {
  const b = peek(r);
  r.pos += 1;
  let body: number;
  if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return -1;
  if (b >= 0x90 && b <= 0x9f) return enter(r, b & 0x0f, "elements");
  if (b >= 0x80 && b <= 0x8f) return enter(r, (b & 0x0f) * 2, "entries");
  if (b >= 0xa0 && b <= 0xbf) {
    body = b & 0x1f;
  } else {
    switch (b) {
      case 0xc1:
        throw reserved();
      case 0xdc:
        return enter(r, u16(r), "elements");
      case 0xdd:
        return enter(r, u32(r), "elements");
      case 0xde:
        return enter(r, u16(r) * 2, "entries");
      case 0xdf:
        return enter(r, u32(r) * 2, "entries");
      case 0xd9:
      case 0xc4:
        body = u8(r);
        break;
      case 0xda:
      case 0xc5:
        body = u16(r);
        break;
      case 0xdb:
      case 0xc6:
        body = u32(r);
        break;
      case 0xcc:
      case 0xd0:
        body = 1;
        break;
      case 0xcd:
      case 0xd1:
        body = 2;
        break;
      case 0xce:
      case 0xd2:
      case 0xca:
        body = 4;
        break;
      case 0xcf:
      case 0xd3:
      case 0xcb:
        body = 8;
        break;
      case 0xd4:
        body = 2;
        break;
      case 0xd5:
        body = 3;
        break;
      case 0xd6:
        body = 5;
        break;
      case 0xd7:
        body = 9;
        break;
      case 0xd8:
        body = 17;
        break;
      case 0xc7:
        body = u8(r) + 1;
        break;
      case 0xc8:
        body = u16(r) + 1;
        break;
      default: // 0xc9
        body = u32(r) + 1;
        break;
    }
  }
  need(r, body);
  r.pos += body;
  return -1;
}

/** The next byte, not consumed; `truncated` at the end. */
function peek(r: Reader): number {
  const b = r.buf[r.pos];
  if (b === undefined || r.pos >= r.end) throw truncated();
  return b;
}

/** `truncated` unless `n` more bytes remain. */
function need(r: Reader, n: number): void {
  if (n > r.end - r.pos) throw truncated();
}

/** For a `d4` at the cursor: whether it is `d4 00 00`; `undefined` when the input ends first. */
function undefinedAt(r: Reader): boolean | undefined {
  if (r.end - r.pos < 3) return undefined;
  return r.buf[r.pos + 1] === 0 && r.buf[r.pos + 2] === 0;
}

/** The error for an unexpected marker at the cursor (`d4 00 00` is named nil, `d4 72` msgpackr's record extension). */
function unexpectedAt(r: Reader, expected: string, b: number): TupletError {
  if (b === 0xd4 && undefinedAt(r) === true) return wrongType(expected, "nil");
  if (b === 0xd4 && r.end - r.pos >= 2 && r.buf[r.pos + 1] === MSGPACKR_RECORD) {
    return msgpackrRecord(expected);
  }
  return unexpected(expected, b);
}

function u8(r: Reader): number {
  need(r, 1);
  const v = r.buf[r.pos] ?? 0;
  r.pos += 1;
  return v;
}

function u16(r: Reader): number {
  need(r, 2);
  const v = u16At(r.buf, r.pos);
  r.pos += 2;
  return v;
}

function u32(r: Reader): number {
  need(r, 4);
  const v = u32At(r.buf, r.pos);
  r.pos += 4;
  return v;
}

/** A str or bin body of `len` bytes: limits first, then the remaining input. Returns its start. */
function body(r: Reader, len: number, min: number, max: number): number {
  if (len > max) throw tooLong(len, max);
  if (len < min) throw tooShort(len, min);
  const left = r.end - r.pos;
  if (len > left) throw declared(len, "bytes", left);
  const at = r.pos;
  r.pos += len;
  return at;
}

/** An array header at the cursor (`b` its marker); a fixarray that passes every check of `enter` in place. */
function arrayHeader(r: Reader, b: number): number {
  const f = b & 0x0f;
  const p = r.pos;
  if (b <= 0x9f && f < r.end - p && f <= r.left && r.depth < r.limits.maxDepth) {
    r.pos = p + 1;
    r.left -= f;
    r.depth += 1;
    return f;
  }
  r.pos += 1;
  const n = b === 0xdc ? u16(r) : b === 0xdd ? u32(r) : b & 0x0f;
  enter(r, n, "elements");
  return n;
}

function mapHeader(r: Reader, b: number): number {
  r.pos += 1;
  const n = b === 0xde ? u16(r) : b === 0xdf ? u32(r) : b & 0x0f;
  enter(r, n * 2, "entries");
  return n;
}

/**
 * Enters a container of `items` values (map entries count twice): checks them against the
 * remaining input, then the element budget, then the depth. Returns `items`.
 */
function enter(r: Reader, items: number, unit: "elements" | "entries"): number {
  const left = r.end - r.pos;
  if (items > left) throw declared(unit === "entries" ? items / 2 : items, unit, left);
  if (items > r.left) throw tooManyElements(r.limits.maxElements);
  if (r.depth >= r.limits.maxDepth) throw tooDeep(r.limits.maxDepth);
  r.left -= items;
  r.depth += 1;
  return items;
}
