/**
 * The reader: a cursor over one message's bytes applying WIRE.md's decoding policy (lenient
 * on number markers, strict on everything else) and its bounds, mirroring the Rust
 * `tuplet::wire::Reader` method for method: same codes, same messages, same order of checks.
 * Every method consumes one well-formed value and returns it, or throws a `TupletError`.
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
  const n = r.readArrayLen();
  checkLen(n, min, max, "elements");
  return n;
}

/** Reads a map's header: `readMapLen`, then its entry count checked against `min..=max` (`checkLen`). */
export function readMap(r: Reader, min: number, max: number): number {
  const n = r.readMapLen();
  checkLen(n, min, max, "entries");
  return n;
}

/** A bounded msgpack reader over one message. */
export class Reader {
  /**
   * The message's bytes, and the position of the next value in them: public so that the
   * generated code reads common ints in place (its inline fast paths fall back to `readInt`).
   */
  buf: Uint8Array;
  /** See `buf`. */
  pos = 0;
  private end: number;
  private elementsLeft: number;
  private depth = 0;
  private limits: Limits;
  /**
   * Whether an int map key may also be a str holding its canonical decimal text (`-?(0|[1-9][0-9]*)`),
   * as a plain object's keys are: set for `fromWire`, which packs decoded JS values and reads them back.
   */
  textKeys = false;

  constructor(buf: Uint8Array, limits: Limits = DEFAULT_LIMITS) {
    this.buf = buf;
    this.end = buf.length;
    this.limits = limits;
    this.elementsLeft = limits.maxElements;
  }

  /**
   * Starts over on another message, as a new reader would (decoders reuse one reader: no
   * allocation per message).
   */
  reset(buf: Uint8Array, limits: Limits = DEFAULT_LIMITS): this {
    this.buf = buf;
    this.end = buf.length;
    this.pos = 0;
    this.depth = 0;
    this.limits = limits;
    this.elementsLeft = limits.maxElements;
    return this;
  }

  /** Bytes consumed so far. */
  position(): number {
    return this.pos;
  }

  /** Bytes not yet consumed. */
  remaining(): number {
    return this.end - this.pos;
  }

  /** Returns when every byte was consumed; throws `trailing_bytes` otherwise. */
  finish(): void {
    const n = this.end - this.pos;
    if (n !== 0) throw trailing(n);
  }

  /**
   * The kind of the next value, from its marker (`d4 00 00` is nil). Consumes nothing.
   * `truncated` at the end of the input (or on a `d4` without its two bytes), `reserved_marker`
   * on `0xc1`.
   */
  peekKind(): Kind {
    const b = this.peek();
    if (b === 0xd4) {
      const u = this.undefinedAt();
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
  tryNil(): boolean {
    const b = this.peek();
    if (b === 0xc0) {
      this.pos += 1;
      return true;
    }
    if (b === 0xd4) {
      const u = this.undefinedAt();
      if (u === undefined) throw truncated();
      if (u) this.pos += 3;
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
  readShape(): Shape {
    const b = this.peek();
    if ((b >= 0x90 && b <= 0x9f) || b === 0xdc || b === 0xdd) return this.arrayHeader(b);
    if ((b >= 0x80 && b <= 0x8f) || b === 0xde || b === 0xdf) return -this.mapHeader(b) - 1;
    throw this.unexpected("array or map", b);
  }

  /** Reads an array header (its element count); as `readShape` but only an array. */
  readArrayLen(): number {
    const b = this.peek();
    if ((b >= 0x90 && b <= 0x9f) || b === 0xdc || b === 0xdd) return this.arrayHeader(b);
    throw this.unexpected("array", b);
  }

  /** Reads a map header (its entry count); as `readShape` but only a map. */
  readMapLen(): number {
    const b = this.peek();
    if ((b >= 0x80 && b <= 0x8f) || b === 0xde || b === 0xdf) return this.mapHeader(b);
    throw this.unexpected("map", b);
  }

  /** Leaves the container entered last, once its elements were read. */
  leave(): void {
    if (this.depth > 0) this.depth -= 1;
  }

  /** Reads `c2` (false) or `c3` (true). */
  readBool(): boolean {
    const b = this.peek();
    if (b === 0xc2 || b === 0xc3) {
      this.pos += 1;
      return b === 0xc3;
    }
    throw this.unexpected("bool", b);
  }

  /**
   * Reads an int in `min..=max` (safe integers: |bound| <= 2^53 - 1) from any int marker, or
   * from a float holding an integral finite value. Checks `not_finite`, `not_integral`, then
   * `out_of_range`.
   */
  readInt(min: number, max: number): number {
    // The common markers, small enough for the JIT to inline into generated code; anything
    // else (and every error) goes through `readIntAny`.
    const buf = this.buf;
    const p = this.pos;
    const left = this.end - p;
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
      } else return this.readIntAny(min, max);
      if (v >= min && v <= max) {
        this.pos = p + n;
        return v;
      }
    }
    return this.readIntAny(min, max);
  }

  /** `readInt` for every marker, with its checks and errors. */
  private readIntAny(min: number, max: number): number {
    const b = this.peek();
    let v: number;
    if (b <= 0x7f) {
      this.pos += 1;
      v = b;
    } else if (b >= 0xe0) {
      this.pos += 1;
      v = b - 256;
    } else {
      const buf = this.buf;
      const at = this.pos + 1;
      switch (b) {
        case 0xcc:
          this.need(2);
          v = buf[at]!;
          this.pos += 2;
          break;
        case 0xcd:
          this.need(3);
          v = u16At(buf, at);
          this.pos += 3;
          break;
        case 0xce:
          this.need(5);
          v = u32At(buf, at);
          this.pos += 5;
          break;
        case 0xcf: {
          this.need(9);
          const hi = u32At(buf, at);
          const lo = u32At(buf, at + 4);
          this.pos += 9;
          if (hi > SAFE_HI) throw outOfRange(u64Text(hi, lo), intText(min), intText(max));
          v = hi * TWO_POW_32 + lo;
          break;
        }
        case 0xd0:
          this.need(2);
          v = (buf[at]! << 24) >> 24;
          this.pos += 2;
          break;
        case 0xd1:
          this.need(3);
          v = (u16At(buf, at) << 16) >> 16;
          this.pos += 3;
          break;
        case 0xd2:
          this.need(5);
          v = u32At(buf, at) | 0;
          this.pos += 5;
          break;
        case 0xd3: {
          this.need(9);
          const hi = u32At(buf, at) | 0;
          const lo = u32At(buf, at + 4);
          this.pos += 9;
          if (hi > SAFE_HI || hi < -SAFE_HI - 1) {
            throw outOfRange(i64Text(hi, lo), intText(min), intText(max));
          }
          v = hi * TWO_POW_32 + lo;
          break;
        }
        case 0xca:
          this.need(5);
          v = integral(f32At(buf, at), min, max);
          this.pos += 5;
          break;
        case 0xcb:
          this.need(9);
          v = integral(f64At(buf, at), min, max);
          this.pos += 9;
          break;
        default:
          throw this.unexpected("int", b);
      }
    }
    if (v < min || v > max) throw outOfRange(intText(v), intText(min), intText(max));
    return v;
  }

  /** Reads an int map key as `readInt`; with `textKeys`, also from its canonical decimal text. */
  readIntKey(min: number, max: number): number {
    const t = this.keyText();
    if (t === undefined) return this.readInt(min, max);
    const v = Number(t);
    if (v < min || v > max) {
      throw outOfRange(Math.abs(v) >= TWO_POW_64 ? floatText(v) : intText(v), intText(min), intText(max));
    }
    return v === 0 ? 0 : v;
  }

  /** Reads a bigint map key as `readBigInt`; with `textKeys`, also from its canonical decimal text. */
  readBigIntKey(min: bigint, max: bigint): bigint {
    const t = this.keyText();
    if (t === undefined) return this.readBigInt(min, max);
    const v = BigInt(t);
    if (v < min || v > max) throw outOfRange(v.toString(), min.toString(), max.toString());
    return v;
  }

  /**
   * Reads an int in `min..=max` as a bigint (for `bigint` fields, the full 64-bit range), from
   * any int marker or an integral float; the same checks and messages as `readInt`.
   */
  readBigInt(min: bigint, max: bigint): bigint {
    const b = this.peek();
    let v: bigint;
    const buf = this.buf;
    if (b === 0xcf) {
      this.need(9);
      v = (BigInt(u32At(buf, this.pos + 1)) << 32n) | BigInt(u32At(buf, this.pos + 5));
      this.pos += 9;
    } else if (b === 0xd3) {
      this.need(9);
      v = (BigInt(u32At(buf, this.pos + 1) | 0) << 32n) + BigInt(u32At(buf, this.pos + 5));
      this.pos += 9;
    } else if (b === 0xca || b === 0xcb) {
      this.pos += 1;
      this.need(b === 0xca ? 4 : 8);
      const x = b === 0xca ? f32At(buf, this.pos) : f64At(buf, this.pos);
      v = BigInt(integral(x, min, max));
      this.pos += b === 0xca ? 4 : 8;
    } else {
      v = BigInt(this.readInt(-9007199254740991, 9007199254740991));
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
  readVariant(): number | bigint | string {
    const b = this.peek();
    if (b <= 0x7f) {
      this.pos += 1;
      return b;
    }
    if (b >= 0xe0) {
      this.pos += 1;
      return b - 256;
    }
    if ((b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb)) return this.readStr(0, 1024);
    if (b >= 0xcc && b <= 0xd2 && b !== 0xcf) return this.readInt(-2147483648, 4294967295);
    if (b === 0xd4) this.peekKind(); // `truncated` before `wrong_type` on a short `d4`
    return this.readBigInt(-9223372036854775808n, 9223372036854775807n);
  }

  /**
   * Reads a finite number from any int or float marker (float32 widened exactly; a 64-bit int
   * beyond 2^53 rounds to the nearest double). NaN and infinities are `not_finite`.
   */
  readF64(): number {
    const b = this.peek();
    let x: number;
    if (b <= 0x7f) {
      this.pos += 1;
      return b;
    } else if (b >= 0xe0) {
      this.pos += 1;
      return b - 256;
    }
    const buf = this.buf;
    const at = this.pos + 1;
    switch (b) {
      case 0xca:
        this.need(5);
        x = f32At(buf, at);
        this.pos += 5;
        break;
      case 0xcb:
        this.need(9);
        x = f64At(buf, at);
        this.pos += 9;
        break;
      case 0xcc:
        this.need(2);
        x = buf[at]!;
        this.pos += 2;
        break;
      case 0xcd:
        this.need(3);
        x = u16At(buf, at);
        this.pos += 3;
        break;
      case 0xce:
        this.need(5);
        x = u32At(buf, at);
        this.pos += 5;
        break;
      case 0xcf:
        this.need(9);
        x = u32At(buf, at) * TWO_POW_32 + u32At(buf, at + 4);
        this.pos += 9;
        break;
      case 0xd0:
        this.need(2);
        x = (buf[at]! << 24) >> 24;
        this.pos += 2;
        break;
      case 0xd1:
        this.need(3);
        x = (u16At(buf, at) << 16) >> 16;
        this.pos += 3;
        break;
      case 0xd2:
        this.need(5);
        x = u32At(buf, at) | 0;
        this.pos += 5;
        break;
      case 0xd3:
        this.need(9);
        x = (u32At(buf, at) | 0) * TWO_POW_32 + u32At(buf, at + 4);
        this.pos += 9;
        break;
      default:
        throw this.unexpected("number", b);
    }
    if (x - x !== 0) throw notFinite(x);
    return x;
  }

  /**
   * Reads a number as `readF64` does, then narrows it to f32 (`Math.fround`); a value that
   * overflows f32 is `not_finite` ("{value} overflows f32").
   */
  readF32(): number {
    const x = this.readF64();
    const y = Math.fround(x);
    if (y - y !== 0) throw f32Overflow(x);
    return y;
  }

  /**
   * Reads a UTF-8 string of `min..=max` bytes. Bin is `wrong_type`; the limits are checked at
   * the header, before the body; then the body against the input; then UTF-8.
   */
  readStr(min: number, max: number): string {
    const b = this.peek();
    let len: number;
    if (b >= 0xa0 && b <= 0xbf) {
      this.pos += 1;
      len = b & 0x1f;
    } else if (b === 0xd9) {
      this.pos += 1;
      len = this.u8();
    } else if (b === 0xda) {
      this.pos += 1;
      len = this.u16();
    } else if (b === 0xdb) {
      this.pos += 1;
      len = this.u32();
    } else {
      throw this.unexpected("str", b);
    }
    const at = this.body(len, min, max);
    return decodeUtf8(this.buf, at, len);
  }

  /**
   * Reads a bin of `min..=max` bytes (a copy, not a view of the input). Str is `wrong_type`;
   * the limits are checked at the header, before the body.
   */
  readBin(min: number, max: number): Uint8Array {
    const b = this.peek();
    let len: number;
    if (b === 0xc4) {
      this.pos += 1;
      len = this.u8();
    } else if (b === 0xc5) {
      this.pos += 1;
      len = this.u16();
    } else if (b === 0xc6) {
      this.pos += 1;
      len = this.u32();
    } else {
      throw this.unexpected("bin", b);
    }
    const at = this.body(len, min, max);
    return this.buf.slice(at, at + len);
  }

  /**
   * Skips exactly one value of any kind (nested containers and every ext included), without
   * recursion. Nested containers count toward the depth cap and their elements toward the
   * element budget; strings are not UTF-8 checked.
   */
  skipValue(): void {
    const base = this.depth;
    try {
      this.skipInner();
    } finally {
      this.depth = base;
    }
  }

  /** Skips `n` values as `skipValue` does (none when `n <= 0`): a compact record's extra elements. */
  skipValues(n: number): void {
    for (let i = 0; i < n; i++) this.skipValue();
  }

  // ---- internals -----------------------------------------------------------------------

  /**
   * With `textKeys` and a str next: its text, consumed (`wrong_type` unless canonical decimal);
   * otherwise `undefined`, consuming nothing.
   */
  private keyText(): string | undefined {
    if (!this.textKeys) return undefined;
    const b = this.peek();
    if (!((b >= 0xa0 && b <= 0xbf) || b === 0xd9 || b === 0xda || b === 0xdb)) return undefined;
    const t = this.readStr(0, 4294967295);
    if (!/^-?(0|[1-9][0-9]*)$/.test(t)) throw wrongType("int", "str");
    return t;
  }

  private skipInner(): void {
    const pending: number[] = [];
    let left = 1;
    for (;;) {
      const n = this.skipOne();
      if (n > 0) {
        pending.push(left - 1);
        left = n;
        continue;
      }
      if (n === 0) this.leave();
      left -= 1;
      while (left === 0) {
        const outer = pending.pop();
        if (outer === undefined) return;
        this.leave();
        left = outer;
      }
    }
  }

  /** Consumes one scalar (-1) or one container header, entering it and returning how many values it holds. */
  private skipOne(): number {
    const b = this.peek();
    this.pos += 1;
    let body: number;
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return -1;
    if (b >= 0x90 && b <= 0x9f) return this.enter(b & 0x0f, "elements");
    if (b >= 0x80 && b <= 0x8f) return this.enter((b & 0x0f) * 2, "entries");
    if (b >= 0xa0 && b <= 0xbf) {
      body = b & 0x1f;
    } else {
      switch (b) {
        case 0xc1:
          throw reserved();
        case 0xdc:
          return this.enter(this.u16(), "elements");
        case 0xdd:
          return this.enter(this.u32(), "elements");
        case 0xde:
          return this.enter(this.u16() * 2, "entries");
        case 0xdf:
          return this.enter(this.u32() * 2, "entries");
        case 0xd9:
        case 0xc4:
          body = this.u8();
          break;
        case 0xda:
        case 0xc5:
          body = this.u16();
          break;
        case 0xdb:
        case 0xc6:
          body = this.u32();
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
          body = this.u8() + 1;
          break;
        case 0xc8:
          body = this.u16() + 1;
          break;
        default: // 0xc9
          body = this.u32() + 1;
          break;
      }
    }
    this.need(body);
    this.pos += body;
    return -1;
  }

  /** The next byte, not consumed; `truncated` at the end. */
  private peek(): number {
    const b = this.buf[this.pos];
    if (b === undefined || this.pos >= this.end) throw truncated();
    return b;
  }

  /** `truncated` unless `n` more bytes remain. */
  private need(n: number): void {
    if (n > this.end - this.pos) throw truncated();
  }

  /** For a `d4` at the cursor: whether it is `d4 00 00`; `undefined` when the input ends first. */
  private undefinedAt(): boolean | undefined {
    if (this.end - this.pos < 3) return undefined;
    return this.buf[this.pos + 1] === 0 && this.buf[this.pos + 2] === 0;
  }

  /** The error for an unexpected marker at the cursor (`d4 00 00` is named nil, `d4 72` msgpackr's record extension). */
  private unexpected(expected: string, b: number): TupletError {
    if (b === 0xd4 && this.undefinedAt() === true) return wrongType(expected, "nil");
    if (b === 0xd4 && this.end - this.pos >= 2 && this.buf[this.pos + 1] === MSGPACKR_RECORD) {
      return msgpackrRecord(expected);
    }
    return unexpected(expected, b);
  }

  private u8(): number {
    this.need(1);
    const v = this.buf[this.pos] ?? 0;
    this.pos += 1;
    return v;
  }

  private u16(): number {
    this.need(2);
    const v = u16At(this.buf, this.pos);
    this.pos += 2;
    return v;
  }

  private u32(): number {
    this.need(4);
    const v = u32At(this.buf, this.pos);
    this.pos += 4;
    return v;
  }

  /** A str or bin body of `len` bytes: limits first, then the remaining input. Returns its start. */
  private body(len: number, min: number, max: number): number {
    if (len > max) throw tooLong(len, max);
    if (len < min) throw tooShort(len, min);
    const left = this.end - this.pos;
    if (len > left) throw declared(len, "bytes", left);
    const at = this.pos;
    this.pos += len;
    return at;
  }

  /** An array header at the cursor (`b` its marker); a fixarray that passes every check of `enter` in place. */
  private arrayHeader(b: number): number {
    const f = b & 0x0f;
    const p = this.pos;
    if (b <= 0x9f && f < this.end - p && f <= this.elementsLeft && this.depth < this.limits.maxDepth) {
      this.pos = p + 1;
      this.elementsLeft -= f;
      this.depth += 1;
      return f;
    }
    this.pos += 1;
    const n = b === 0xdc ? this.u16() : b === 0xdd ? this.u32() : b & 0x0f;
    this.enter(n, "elements");
    return n;
  }

  private mapHeader(b: number): number {
    this.pos += 1;
    const n = b === 0xde ? this.u16() : b === 0xdf ? this.u32() : b & 0x0f;
    this.enter(n * 2, "entries");
    return n;
  }

  /**
   * Enters a container of `items` values (map entries count twice): checks them against the
   * remaining input, then the element budget, then the depth. Returns `items`.
   */
  private enter(items: number, unit: "elements" | "entries"): number {
    const left = this.end - this.pos;
    if (items > left) throw declared(unit === "entries" ? items / 2 : items, unit, left);
    if (items > this.elementsLeft) throw tooManyElements(this.limits.maxElements);
    if (this.depth >= this.limits.maxDepth) throw tooDeep(this.limits.maxDepth);
    this.elementsLeft -= items;
    this.depth += 1;
    return items;
  }
}

