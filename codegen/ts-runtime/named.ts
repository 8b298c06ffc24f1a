/**
 * The named shape of a record, read from its per-type table (`X$t`, `table.ts`) instead of
 * straight-line code (it is the cold path: old clients and tools; the compact shape stays
 * straight-line). The same
 * checks in the same order as the Rust derive: every key, a field's canonical name or legacy
 * alias, a spread array one key per element; duplicates rejected, unknown keys skipped; then
 * missing fields in slot order. Part of the package's runtime (hand-written, embedded by the
 * emitter from codegen/ts-runtime).
 */

import { checkLen, duplicate, missing, missingIndex, wrongLength } from "./checks.js";
import { dequantize, dequantizeF32, quantize } from "./quant.js";
import type { Reader } from "./reader.js";
import type { TFields, TNode } from "./table.js";
import { at, atIndex, atKey, inF32, inF64 } from "./values.js";

/**
 * Reads one value in the named shape as the descriptor `n` says (`table.ts` lists the kinds):
 * the same checks in the same order as the straight-line compact read, except that a quantized
 * float arrives as its natural f64.
 */
export function readNode(r: Reader, n: TNode): unknown {
  const a = n as unknown as readonly [number, never, never, never, never];
  switch (n[0]) {
    case 0:
      return r.readBool();
    case 1:
      return r.readInt(a[1], a[2]);
    case 2:
      return r.readBigInt(a[1], a[2]);
    case 3: {
      const q = quantize(r.readF64(), a[1], a[2], a[3]);
      return a[4] === 1 ? dequantizeF32(q, a[1]) : dequantize(q, a[1]);
    }
    case 4:
      return n.length > 1 ? inF32(r.readF32(), a[1], a[2]) : r.readF32();
    case 5:
      return n.length > 1 ? inF64(r.readF64(), a[1], a[2]) : r.readF64();
    case 6:
      return r.readStr(a[1], a[2]);
    case 7:
      return r.readBin(a[1], a[2]);
    case 8:
      return r.tryNil() ? undefined : readNode(r, a[1]);
    case 9:
    case 10: {
      const len = r.readArrayLen();
      if (n[0] === 10) {
        if (len !== a[2]) throw wrongLength(len, a[2]);
      } else if (n.length > 2) checkLen(len, a[2], a[3], "elements");
      else checkLen(len, 0, 4294967295, "elements");
      const xs: unknown[] = [];
      let i = 0;
      try {
        for (; i < len; i++) xs.push(readNode(r, a[1]));
      } catch (e) {
        throw atIndex(e, i);
      }
      r.leave();
      return xs;
    }
    case 11: {
      const len = r.readMapLen();
      if (n.length > 3) checkLen(len, a[3], a[4], "entries");
      else checkLen(len, 0, 4294967295, "entries");
      const m = new Map<unknown, unknown>();
      const kn = a[1] as TNode;
      for (let j = 0; j < len; j++) {
        const k = (kn[0] === 1 ? r.readIntKey(kn[1] as number, kn[2] as number) : kn[0] === 2 ? r.readBigIntKey(kn[1] as bigint, kn[2] as bigint) : readNode(r, kn)) as string | number | bigint;
        if (m.has(k)) throw duplicate(k).inKey(k);
        let x: unknown;
        try {
          x = readNode(r, a[2]);
        } catch (e) {
          throw atKey(e, k);
        }
        m.set(k, x);
      }
      r.leave();
      return m;
    }
    default:
      return (a[3] as unknown as (r: Reader) => unknown)(r);
  }
}

/** A field's named-shape key: the legacy alias (also accepted), if any. */
function alias(f: TFields[number]): string | undefined {
  const k = f[2];
  return typeof k === "string" ? k : undefined;
}

/** A field's spread keys, if any. */
function spread(f: TFields[number]): readonly string[] | undefined {
  const k = f[2];
  return typeof k === "object" ? k : undefined;
}

/** Whether a field is an option (absent is `undefined`, not `missing_field`). */
function optional(f: TFields[number]): boolean {
  return f[1][0] === 8;
}

/** Each key of a table: the field's index, and the element of a spread key (-1: the whole field). */
const keysOf = new WeakMap<TFields, Map<string, readonly [number, number]>>();

function keys(fields: TFields): Map<string, readonly [number, number]> {
  let m = keysOf.get(fields);
  if (m !== undefined) return m;
  m = new Map();
  // The first field to claim a key keeps it, as a `switch` in slot order would.
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const a = alias(f);
    for (const k of a === undefined ? [f[0]] : [f[0], a]) if (!m.has(k)) m.set(k, [i, -1]);
    const s = spread(f) ?? [];
    for (let e = 0; e < s.length; e++) if (!m.has(s[e]!)) m.set(s[e]!, [i, e]);
  }
  keysOf.set(fields, m);
  return m;
}

/**
 * Reads the `n` entries of a record's named shape (the map header already read) into a new
 * object: `kind` first for a struct variant, then required fields in slot order, then the
 * options present.
 */
export function readNamed(r: Reader, n: number, fields: TFields, kind?: string): unknown {
  const table = keys(fields);
  const seen: boolean[] = new Array<boolean>(fields.length).fill(false);
  const values: unknown[] = new Array<unknown>(fields.length);
  const elems: (unknown[] | undefined)[] = new Array<unknown[] | undefined>(fields.length);
  let k: string | undefined;
  let ix = -1;
  try {
    for (let j = 0; j < n; j++) {
      k = undefined;
      ix = -1;
      const key = r.readStr(0, 4294967295);
      const hit = table.get(key);
      if (hit === undefined) {
        r.skipValue();
        continue;
      }
      const [i, e] = hit;
      const f = fields[i]!;
      const parts = elems[i];
      if (e < 0) {
        if (seen[i] || (parts !== undefined && parts.some((x) => x !== undefined))) throw duplicate(key).inField(f[0]);
        seen[i] = true;
        k = f[0];
        values[i] = readNode(r, f[1]);
      } else {
        if (seen[i] || (parts !== undefined && parts[e] !== undefined)) throw duplicate(key).inField(f[0]);
        k = f[0];
        ix = e;
        (elems[i] ??= new Array<unknown>(spread(f)!.length))[e] = readNode(r, f[1][1] as TNode);
      }
    }
    k = undefined;
    ix = -1;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const s = spread(f);
      if (s !== undefined) {
        if (!seen[i]) {
          const parts = elems[i] ?? [];
          const whole: unknown[] = [];
          for (let e = 0; e < s.length; e++) {
            const x = parts[e];
            if (x === undefined) throw missingIndex(f[0], e);
            whole.push(x);
          }
          values[i] = whole;
        }
      } else if (!optional(f) && !seen[i]) {
        throw missing(f[0]);
      }
    }
    const o: Record<string, unknown> = kind === undefined ? {} : { kind };
    for (let i = 0; i < fields.length; i++) if (!optional(fields[i]!)) o[fields[i]![0]] = values[i];
    for (let i = 0; i < fields.length; i++) if (optional(fields[i]!) && values[i] !== undefined) o[fields[i]![0]] = values[i];
    return o;
  } catch (e) {
    throw at(e, k, ix);
  }
}
