/**
 * The named shape of a record, read from a per-type table instead of straight-line code (it
 * is the cold path: old clients and tools; the compact shape stays straight-line). The same
 * checks in the same order as the Rust derive: every key, a field's canonical name or legacy
 * alias, a spread array one key per element; duplicates rejected, unknown keys skipped; then
 * missing fields in slot order. Part of the package's runtime (hand-written, embedded by the
 * emitter from codegen/ts-runtime).
 */

import { duplicate, missing, missingIndex } from "./checks.js";
import type { Reader } from "./reader.js";
import { at } from "./values.js";

/** One field of a record's named shape, in slot order. */
export interface NamedField {
  /** The canonical name (the TypeScript property). */
  readonly n: string;
  /** Reads the field's value in the named shape (an option reads nil as `undefined`). */
  readonly r: (r: Reader) => unknown;
  /** Set for an option: absent is `undefined`, not `missing_field`. */
  readonly o?: 1;
  /** The legacy alias, accepted as well as the name. */
  readonly a?: string;
  /** A spread array's legacy keys, one per element. */
  readonly s?: readonly string[];
  /** Reads one element of a spread array. */
  readonly e?: (r: Reader) => unknown;
}

/** Each key of a table: the field's index, and the element of a spread key (-1: the whole field). */
const keysOf = new WeakMap<readonly NamedField[], Map<string, readonly [number, number]>>();

function keys(fields: readonly NamedField[]): Map<string, readonly [number, number]> {
  let m = keysOf.get(fields);
  if (m !== undefined) return m;
  m = new Map();
  // The first field to claim a key keeps it, as a `switch` in slot order would.
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    for (const k of f.a === undefined ? [f.n] : [f.n, f.a]) if (!m.has(k)) m.set(k, [i, -1]);
    const spread = f.s ?? [];
    for (let e = 0; e < spread.length; e++) if (!m.has(spread[e]!)) m.set(spread[e]!, [i, e]);
  }
  keysOf.set(fields, m);
  return m;
}

/**
 * Reads the `n` entries of a record's named shape (the map header already read) into a new
 * object: `kind` first for a struct variant, then required fields in slot order, then the
 * options present.
 */
export function readNamed(r: Reader, n: number, fields: readonly NamedField[], kind?: string): unknown {
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
        if (seen[i] || (parts !== undefined && parts.some((x) => x !== undefined))) throw duplicate(key).inField(f.n);
        seen[i] = true;
        k = f.n;
        values[i] = f.r(r);
      } else {
        if (seen[i] || (parts !== undefined && parts[e] !== undefined)) throw duplicate(key).inField(f.n);
        k = f.n;
        ix = e;
        (elems[i] ??= new Array<unknown>(f.s!.length))[e] = f.e!(r);
      }
    }
    k = undefined;
    ix = -1;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (f.s !== undefined) {
        if (!seen[i]) {
          const parts = elems[i] ?? [];
          const whole: unknown[] = [];
          for (let e = 0; e < f.s.length; e++) {
            const x = parts[e];
            if (x === undefined) throw missingIndex(f.n, e);
            whole.push(x);
          }
          values[i] = whole;
        }
      } else if (f.o === undefined && !seen[i]) {
        throw missing(f.n);
      }
    }
    const o: Record<string, unknown> = kind === undefined ? {} : { kind };
    for (let i = 0; i < fields.length; i++) if (fields[i]!.o === undefined) o[fields[i]!.n] = values[i];
    for (let i = 0; i < fields.length; i++) if (fields[i]!.o !== undefined && values[i] !== undefined) o[fields[i]!.n] = values[i];
    return o;
  } catch (e) {
    throw at(e, k, ix);
  }
}
