/**
 * Skipping one value of any kind, iteratively, within the reader's caps, as Rust's
 * `wire/read/skip.rs`. `index.ts` exports `skipValue` and `skipValues` with the rest of
 * the reader.
 */

import { reserved } from "./fail.js";
import { enter, leave, need, peek, u16, u32, u8, type Reader } from "./reader.js";

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
