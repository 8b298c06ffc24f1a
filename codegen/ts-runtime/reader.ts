/**
 * The reader: a cursor over one message's bytes applying WIRE.md's decoding policy (lenient
 * on number markers, strict on everything else) and its bounds, mirroring the Rust
 * `tuplet::wire::Reader` method for function: same codes, same messages, same order of checks.
 * Every read consumes one well-formed value and returns it, or throws a `TupletError`.
 *
 * As Rust's `wire/read.rs`, `wire/read/num.rs` and `wire/read/skip.rs`: this file holds the
 * reader's state, containers, bools, strings and bins and the byte-level helpers the other
 * two use; `reader_num.ts` its numbers and `reader_skip.ts` skipping, which import from here
 * (this file imports from neither).
 */

import { checkLen } from "./checks.js";
import type { TupletError } from "./errors.js";
import {
  declared,
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
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import { decodeUtf8 } from "./utf8.js";

/** The broad kind of the next value, from its marker alone. */
export type Kind = "nil" | "bool" | "int" | "float" | "str" | "bin" | "array" | "map" | "ext";

/** The ext type of msgpackr's record extension (`d4 72 id`, then the keys and the values). */
const MSGPACKR_RECORD = 0x72;

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

/** The big-endian uint16 at `at` (bounds checked by the caller). */
export function u16At(buf: Uint8Array, at: number): number {
  return (buf[at]! << 8) | buf[at + 1]!;
}

/** The big-endian uint32 at `at` (bounds checked by the caller). */
export function u32At(buf: Uint8Array, at: number): number {
  return buf[at]! * 0x1000000 + ((buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!);
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

// ---- internals (reader_num.ts and reader_skip.ts use them too) ----

/** The next byte, not consumed; `truncated` at the end. */
export function peek(r: Reader): number {
  const b = r.buf[r.pos];
  if (b === undefined || r.pos >= r.end) throw truncated();
  return b;
}

/** `truncated` unless `n` more bytes remain. */
export function need(r: Reader, n: number): void {
  if (n > r.end - r.pos) throw truncated();
}

/** For a `d4` at the cursor: whether it is `d4 00 00`; `undefined` when the input ends first. */
function undefinedAt(r: Reader): boolean | undefined {
  if (r.end - r.pos < 3) return undefined;
  return r.buf[r.pos + 1] === 0 && r.buf[r.pos + 2] === 0;
}

/** The error for an unexpected marker at the cursor (`d4 00 00` is named nil, `d4 72` msgpackr's record extension). */
export function unexpectedAt(r: Reader, expected: string, b: number): TupletError {
  if (b === 0xd4 && undefinedAt(r) === true) return wrongType(expected, "nil");
  if (b === 0xd4 && r.end - r.pos >= 2 && r.buf[r.pos + 1] === MSGPACKR_RECORD) {
    return msgpackrRecord(expected);
  }
  return unexpected(expected, b);
}

/** Consumes a uint8 (`truncated` when the input ends first). */
export function u8(r: Reader): number {
  need(r, 1);
  const v = r.buf[r.pos] ?? 0;
  r.pos += 1;
  return v;
}

/** Consumes a big-endian uint16 (`truncated` when the input ends first). */
export function u16(r: Reader): number {
  need(r, 2);
  const v = u16At(r.buf, r.pos);
  r.pos += 2;
  return v;
}

/** Consumes a big-endian uint32 (`truncated` when the input ends first). */
export function u32(r: Reader): number {
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

/** A map header at the cursor (`b` its marker): its entry count, entered as `enter` does. */
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
export function enter(r: Reader, items: number, unit: "elements" | "entries"): number {
  const left = r.end - r.pos;
  if (items > left) throw declared(unit === "entries" ? items / 2 : items, unit, left);
  if (items > r.left) throw tooManyElements(r.limits.maxElements);
  if (r.depth >= r.limits.maxDepth) throw tooDeep(r.limits.maxDepth);
  r.left -= items;
  r.depth += 1;
  return items;
}