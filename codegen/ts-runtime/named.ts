/**
 * The named shape of a record, read from its per-type table (`X$t`, `table.ts`) instead of
 * straight-line code (it is the cold path: old clients and tools; the compact shape stays
 * straight-line). The same
 * checks in the same order as the Rust derive: every key, a field's canonical name or legacy
 * alias, a spread array one key per element; duplicates rejected, unknown keys skipped; then
 * missing fields in slot order. Part of the package's runtime (hand-written, embedded by the
 * emitter from codegen/ts-runtime).
 */

import { absent, duplicate, missing, missingIndex } from "./checks.js";
import { leave, mapEntries, readShape, readStr, type Reader } from "./reader.js";
import { skipValue, skipValues } from "./reader_skip.js";
import { kOpt, readNode, type TFields, type TNode } from "./table.js";
import { at } from "./values.js";

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
  return f[1][0] === kOpt;
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
      const key = readStr(r, 0, 4294967295);
      const hit = table.get(key);
      if (hit === undefined) {
        skipValue(r);
        continue;
      }
      const [i, e] = hit;
      const f = fields[i]!;
      const parts = elems[i];
      if (e < 0) {
        if (seen[i] || (parts !== undefined && parts.some((x) => x !== undefined))) throw duplicate(key).inField(f[0]);
        seen[i] = true;
        k = f[0];
        values[i] = readNode(r, f[1], true);
      } else {
        if (seen[i] || (parts !== undefined && parts[e] !== undefined)) throw duplicate(key).inField(f[0]);
        k = f[0];
        ix = e;
        (elems[i] ??= new Array<unknown>(spread(f)!.length))[e] = readNode(r, f[1][1] as TNode, true);
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

/**
 * Reads a record as its `X$read` would in straight-line code (the cold records of a package
 * with `[ts] hot`): either shape; compact: fields in slot order, a missing required field is
 * `missing_field` at its name, trailing absent options may be missing, extra elements are
 * skipped. Only for records without reserved slots.
 */
export function readRecord(r: Reader, fs: TFields): unknown {
  const s = readShape(r);
  let v: Record<string, unknown>;
  if (s >= 0) {
    const xs: unknown[] = [];
    let k: string | undefined;
    try {
      for (let i = 0; i < fs.length; i++) {
        const f = fs[i]!;
        if (optional(f)) {
          if (s > i) {
            k = f[0];
            xs.push(readNode(r, f[1], false));
          } else xs.push(undefined);
          continue;
        }
        k = f[0];
        if (s <= i) throw absent(k);
        xs.push(readNode(r, f[1], false));
      }
      k = undefined;
      skipValues(r, s - fs.length);
    } catch (e) {
      throw at(e, k);
    }
    // Required fields first, then the present options: the key order of the straight-line read.
    v = {};
    for (let i = 0; i < fs.length; i++) if (!optional(fs[i]!)) v[fs[i]![0]] = xs[i];
    for (let i = 0; i < fs.length; i++) if (optional(fs[i]!) && xs[i] !== undefined) v[fs[i]![0]] = xs[i];
  } else v = readNamed(r, mapEntries(s), fs) as Record<string, unknown>;
  leave(r);
  return v;
}
