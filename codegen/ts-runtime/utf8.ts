/**
 * UTF-8 for strings: byte lengths (schema lengths count UTF-8 bytes), the well-formed UTF-16
 * check (a lone surrogate is `invalid_utf8`), UTF-8 byte order for map keys, and a strict
 * decoder rejecting exactly what Rust's `str::from_utf8` rejects.
 */

import { invalidUtf8 } from "./fail.js";

/** Whether `s` is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 form. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c >= 0xdc00) return false;
    const d = s.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** Throws `invalid_utf8` ("string is not valid utf-8") when `s` has a lone surrogate. */
export function checkWellFormed(s: string): void {
  if (!isWellFormed(s)) throw invalidUtf8();
}

/**
 * The UTF-8 byte length of `s`; `invalid_utf8` when `s` has a lone surrogate (it has no
 * UTF-8 form).
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c < 0xd800 || c > 0xdfff) n += 2;
    else {
      const d = s.charCodeAt(i + 1);
      if (c >= 0xdc00 || !(d >= 0xdc00 && d <= 0xdfff)) throw invalidUtf8();
      n += 2; // 4 bytes for 2 units
      i++;
    }
  }
  return n;
}

/**
 * Writes the UTF-8 bytes of `s` (well-formed: checked by `utf8Length` first) into `out` at
 * `at`; returns the position after them.
 */
export function encodeUtf8Into(s: string, out: Uint8Array, at: number): number {
  let p = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    } else {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[p++] = 0xf0 | (c >> 18);
      out[p++] = 0x80 | ((c >> 12) & 0x3f);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p;
}

/** The UTF-8 bytes of `s`; `invalid_utf8` on a lone surrogate. */
export function encodeUtf8(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  encodeUtf8Into(s, out, 0);
  return out;
}

interface Decoder {
  decode(input: Uint8Array): string;
}
type DecoderCtor = new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => Decoder;

let decoder: Decoder | undefined;

/** Slots of the cache of short ASCII strings (a power of two). */
const CACHE_SIZE = 512;
/** Recently decoded short ASCII strings, by a hash of their bytes (a slot holds the last one). */
const cache: string[] = /*@__PURE__*/ new Array<string>(CACHE_SIZE).fill("");

/**
 * Decodes `len` bytes of `buf` at `at` as UTF-8, rejecting (with `invalid_utf8`) exactly what
 * Rust's `str::from_utf8` rejects: bad continuation bytes, overlong forms, surrogates, code
 * points above U+10FFFF, truncated sequences. A byte-order mark is kept, as in Rust.
 */
export function decodeUtf8(buf: Uint8Array, at: number, len: number): string {
  const end = at + len;
  if (len <= 16) {
    // Short ASCII strings repeat (names, ids, labels): the cache slot is picked by a hash of
    // the bytes, and a cached string equal to them (so ASCII) is the answer at no allocation.
    let h = len;
    for (let i = at; i < end; i++) h = (Math.imul(h, 31) + buf[i]!) | 0;
    const slot = h & (CACHE_SIZE - 1);
    const hit = cache[slot]!;
    if (hit.length === len) {
      let i = 0;
      while (i < len && hit.charCodeAt(i) === buf[at + i]) i++;
      if (i === len) return hit;
    }
    return shortMiss(buf, at, len, slot);
  }
  return decodeLong(buf, at, len);
}

/** `decodeUtf8` of 1 to 16 bytes not in the cache at `slot`: cached when ASCII. */
function shortMiss(buf: Uint8Array, at: number, len: number, slot: number): string {
  let any = 0;
  for (let i = at; i < at + len; i++) any |= buf[i]!;
  if (any < 0x80) return (cache[slot] = shortAscii(buf, at, len));
  return decodeLong(buf, at, len);
}

/** `decodeUtf8` past the short ASCII cache. */
function decodeLong(buf: Uint8Array, at: number, len: number): string {
  const end = at + len;
  if (len > 16 && len <= 64) {
    let s = "";
    let i = at;
    for (; i < end; i++) {
      const b = buf[i] ?? 0;
      if (b >= 0x80) break;
      s += String.fromCharCode(b);
    }
    if (i === end) return s;
  }
  if (decoder === undefined) {
    const ctor = (globalThis as unknown as { TextDecoder: DecoderCtor }).TextDecoder;
    decoder = new ctor("utf-8", { fatal: true, ignoreBOM: true });
  }
  try {
    return decoder.decode(buf.subarray(at, end));
  } catch {
    throw invalidUtf8();
  }
}

/** `len` (at most 16) ASCII bytes of `b` at `i` as a string, in one call (no concatenation). */
function shortAscii(b: Uint8Array, i: number, len: number): string {
  const c = String.fromCharCode;
  switch (len) {
    case 1:
      return c(b[i]!);
    case 2:
      return c(b[i]!, b[i + 1]!);
    case 3:
      return c(b[i]!, b[i + 1]!, b[i + 2]!);
    case 4:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);
    case 5:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!);
    case 6:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!);
    case 7:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!);
    case 8:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
    case 9:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!);
    case 10:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!);
    case 11:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!);
    case 12:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!, b[i + 11]!);
    case 13:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!, b[i + 11]!, b[i + 12]!);
    case 14:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!, b[i + 11]!, b[i + 12]!, b[i + 13]!);
    case 15:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!, b[i + 11]!, b[i + 12]!, b[i + 13]!, b[i + 14]!);
    case 16:
      return c(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!, b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!, b[i + 8]!, b[i + 9]!, b[i + 10]!, b[i + 11]!, b[i + 12]!, b[i + 13]!, b[i + 14]!, b[i + 15]!);
    default:
      return "";
  }
}

/**
 * Compares two strings by their UTF-8 bytes (code point order), the order of map keys on the
 * wire; not JavaScript's default UTF-16 order (`"｡"` U+FF61 sorts before `"😀"` U+1F600).
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (supplementary code points) sort after every BMP unit.
    if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
    if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
    return x - y;
  }
  return a.length - b.length;
}
