/**
 * The writer: a growable byte buffer appending msgpack values in msgpack's smallest encoding,
 * byte for byte as the Rust `tuplet::wire::write` functions. Raw f32 is always float32 (`ca`),
 * raw f64 always float64 (`cb`). Values are assumed checked by the caller (an encoder
 * validates first); a lone surrogate in a string still throws `invalid_utf8`.
 */

import { floats } from "./floats.js";
import { encodeUtf8Into, utf8Length } from "./utf8.js";

const TWO_POW_32 = 4294967296;

/** A growable msgpack byte writer. */
export class Writer {
  // `Uint8Array<ArrayBuffer>` (TypeScript 5.7+), not `Uint8Array`: what `finish` returns is
  // then accepted by lib.dom's `WebSocket.send` in TypeScript 7 too.
  private buf: Uint8Array<ArrayBuffer>;
  private pos = 0;

  constructor(capacity = 64) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** A copy of the bytes written. */
  finish(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.pos);
  }

  /** The bytes written so far, without copying: valid until the next write or reset. */
  view(): Uint8Array<ArrayBuffer> {
    return this.buf.subarray(0, this.pos);
  }

  /** Drops what was written after the first `length` bytes. */
  truncate(length: number): void {
    if (length < this.pos) this.pos = length;
  }

  /** Forgets what was written, keeping the buffer (encoders reuse one writer). */
  reset(): void {
    this.pos = 0;
  }

  /** Appends nil (`c0`). */
  nil(): void {
    this.ensure(1);
    this.buf[this.pos++] = 0xc0;
  }

  /** Appends a bool (`c2` false, `c3` true). */
  bool(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 0xc3 : 0xc2;
  }

  /**
   * Appends an int (a number holding a safe integer): a non-negative value as positive fixint,
   * uint8, uint16, uint32 or uint64; a negative one as negative fixint, int8, int16, int32 or
   * int64, the smallest that holds it. 64-bit values are written as two 32-bit words.
   */
  int(v: number): void {
    this.ensure(9);
    const buf = this.buf;
    const p = this.pos;
    if (v >= 0) {
      if (v < 0x80) {
        buf[p] = v;
        this.pos = p + 1;
      } else if (v <= 0xff) {
        buf[p] = 0xcc;
        buf[p + 1] = v;
        this.pos = p + 2;
      } else if (v <= 0xffff) {
        buf[p] = 0xcd;
        buf[p + 1] = v >>> 8;
        buf[p + 2] = v;
        this.pos = p + 3;
      } else if (v <= 0xffffffff) {
        buf[p] = 0xce;
        put32(buf, p + 1, v);
        this.pos = p + 5;
      } else {
        buf[p] = 0xcf;
        const hi = Math.floor(v / TWO_POW_32);
        put32(buf, p + 1, hi);
        put32(buf, p + 5, v - hi * TWO_POW_32);
        this.pos = p + 9;
      }
    } else if (v >= -32) {
      buf[p] = v & 0xff;
      this.pos = p + 1;
    } else if (v >= -128) {
      buf[p] = 0xd0;
      buf[p + 1] = v;
      this.pos = p + 2;
    } else if (v >= -32768) {
      buf[p] = 0xd1;
      buf[p + 1] = v >> 8;
      buf[p + 2] = v;
      this.pos = p + 3;
    } else if (v >= -2147483648) {
      buf[p] = 0xd2;
      put32(buf, p + 1, v);
      this.pos = p + 5;
    } else {
      buf[p] = 0xd3;
      const hi = Math.floor(v / TWO_POW_32);
      put32(buf, p + 1, hi);
      put32(buf, p + 5, v - hi * TWO_POW_32);
      this.pos = p + 9;
    }
  }

  /** Appends an unsigned int; the same encodings as `int` for a non-negative value. */
  uint(v: number): void {
    this.int(v);
  }

  /**
   * Appends a 64-bit int given as a bigint (a `bigint` field, `-2^63..2^64-1`), in the
   * smallest encoding, as Rust's `write::int` / `write::uint`.
   */
  bigInt(v: bigint): void {
    if (v >= -2147483648n && v <= 0xffffffffn) {
      this.int(Number(v));
      return;
    }
    this.ensure(9);
    const p = this.pos;
    this.buf[p] = v > 0n ? 0xcf : 0xd3;
    put32(this.buf, p + 1, Number((v >> 32n) & 0xffffffffn));
    put32(this.buf, p + 5, Number(v & 0xffffffffn));
    this.pos = p + 9;
  }

  /** Appends a float32 (`ca`), always: the value narrowed to f32 (round to nearest, as Rust's `as f32`). */
  f32(v: number): void {
    this.ensure(5);
    this.buf[this.pos] = 0xca;
    floats.write32(this.buf, this.pos + 1, v);
    this.pos += 5;
  }

  /** Appends a float64 (`cb`), always. */
  f64(v: number): void {
    this.ensure(9);
    this.buf[this.pos] = 0xcb;
    floats.write64(this.buf, this.pos + 1, v);
    this.pos += 9;
  }

  /**
   * Appends a string: fixstr, str8, str16 or str32 header (its length in UTF-8 bytes), then
   * its UTF-8 bytes. `invalid_utf8` on a lone surrogate.
   */
  str(v: string): void {
    const len = v.length < 32 && isAscii(v) ? v.length : utf8Length(v);
    this.ensure(5 + len);
    if (len < 32) {
      this.buf[this.pos++] = 0xa0 | len;
    } else {
      this.sized(0xd9, len);
    }
    this.pos = encodeUtf8Into(v, this.buf, this.pos);
  }

  /** Appends a bin: bin8, bin16 or bin32 header, then the bytes. */
  bin(v: Uint8Array): void {
    this.ensure(5 + v.length);
    this.sized(0xc4, v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }

  /** Appends an array header (fixarray, array16 or array32) for `len` elements. */
  arrayLen(len: number): void {
    this.ensure(5);
    if (len < 16) this.buf[this.pos++] = 0x90 | len;
    else this.wide(0xdc, len);
  }

  /** Appends a map header (fixmap, map16 or map32) for `len` entries. */
  mapLen(len: number): void {
    this.ensure(5);
    if (len < 16) this.buf[this.pos++] = 0x80 | len;
    else this.wide(0xde, len);
  }

  /** Appends a record's named-shape map header (the same bytes as `mapLen`; a JS-value writer builds an object, not a `Map`). */
  recordLen(len: number): void {
    this.mapLen(len);
  }

  /** Appends bytes already encoded (a nested value written elsewhere). */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  // ---- internals -----------------------------------------------------------------------

  /** An 8/16/32-bit length header: markers `m`, `m + 1`, `m + 2`. */
  private sized(m: number, len: number): void {
    const p = this.pos;
    if (len <= 0xff) {
      this.buf[p] = m;
      this.buf[p + 1] = len;
      this.pos = p + 2;
    } else if (len <= 0xffff) {
      this.buf[p] = m + 1;
      this.buf[p + 1] = len >>> 8;
      this.buf[p + 2] = len;
      this.pos = p + 3;
    } else {
      this.buf[p] = m + 2;
      put32(this.buf, p + 1, len);
      this.pos = p + 5;
    }
  }

  /** A 16/32-bit count header: markers `m`, `m + 1`. */
  private wide(m: number, len: number): void {
    const p = this.pos;
    if (len <= 0xffff) {
      this.buf[p] = m;
      this.buf[p + 1] = len >>> 8;
      this.buf[p + 2] = len;
      this.pos = p + 3;
    } else {
      this.buf[p] = m + 1;
      put32(this.buf, p + 1, len);
      this.pos = p + 5;
    }
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
}

/** Writes the low 32 bits of `v` big-endian at `at`. */
function put32(buf: Uint8Array, at: number, v: number): void {
  buf[at] = v >>> 24;
  buf[at + 1] = v >>> 16;
  buf[at + 2] = v >>> 8;
  buf[at + 3] = v;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}
