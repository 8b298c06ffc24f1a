/**
 * The reader's numbers: every int and float marker under WIRE.md's policy (ints from any int
 * marker or an integral float, floats from any number marker), as Rust's `wire/read/num.rs`.
 * `index.ts` exports them with the rest of the reader.
 */

import { floatText, intText } from "./format.js";
import { f32Overflow, notFinite, notIntegral, outOfRange, wrongType } from "./fail.js";
import { floats } from "./floats.js";
import { need, peek, peekKind, readStr, u16At, u32At, unexpectedAt, type Reader } from "./reader.js";

const TWO_POW_32 = 4294967296;
const TWO_POW_64 = 18446744073709551616;
/** The largest `hi` word of a 64-bit int whose value is at most 2^53 - 1. */
const SAFE_HI = 0x1fffff;

/** The int value of a float in an int field: `not_finite`, `not_integral`, |x| >= 2^64 `out_of_range`. */
function integral(x: number, min: number | bigint, max: number | bigint): number {
  if (x - x !== 0) throw notFinite(x);
  if (!Number.isInteger(x)) throw notIntegral(x);
  if (Math.abs(x) >= TWO_POW_64) throw outOfRange(floatText(x), intText(min), intText(max));
  return x === 0 ? 0 : x;
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
