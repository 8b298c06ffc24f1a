/**
 * Delta snapshots' entity lists (as the Rust `tuplet::delta::list`): sorting by key, the
 * entries a delta carries (whole records, changes, removals), applying them to a mirror's
 * list, and reading them against no baseline (`probe`).
 */

import { TupletError } from "./errors.js";
import { checkInt, checkLen, duplicate, wrongLength } from "./checks.js";
import { leave, peekKind, readArrayLen, type Reader } from "./reader.js";
import { readInt } from "./reader_num.js";
import { skipValue } from "./reader_skip.js";
import type { Writer } from "./writer.js";
import {
  BIT,
  applied,
  changes,
  checked,
  ent,
  entityRow,
  has,
  inField,
  inIndex,
  list,
  noBaseline,
  sameBytes,
  popcount,
  readKey,
  whole,
  writeKey,
  type DeltaCodec,
  type DeltaField,
  type EntityDelta,
  type Key,
  type Obj,
  type Row,
} from "./delta_entity.js";

/** A key-sorted copy of an entity list; a key present twice is `duplicate_key` at the second one. */
export function sortByKey<E>(e: EntityDelta<E>, xs: readonly E[]): E[] {
  const k = e.key;
  const out = xs.slice().sort((a, b) => cmp((a as Obj)[k] as Key, (b as Obj)[k] as Key));
  for (let i = 1; i < out.length; i++) {
    const key = (out[i] as Obj)[k] as Key;
    if (key === (out[i - 1] as Obj)[k]) throw duplicate(key).inField(k).inIndex(i);
  }
  return out;
}

export function cmp(a: Key, b: Key): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Scratch for `keyOrder` (encoding is synchronous: one serves every tracker). */
let packed = new Float64Array(64);
/**
 * The indices of `cur` in key order (equal keys in list order), and the keys in that order. A key out of range is reported at its entity; a key present twice is
 * `duplicate_key` at the later one. Number keys whose range times the list's length fits a
 * safe integer sort as packed numbers (`(key - min) * n + index`) with the native numeric
 * sort, which needs no comparator calls; others sort with one.
 */
export function keyOrder(e: EntityDelta<Obj>, cur: readonly Obj[]): { order: number[]; keys: Key[] } {
  const k = e.key;
  const n = cur.length;
  const keys: Key[] = new Array(n);
  let numbers = typeof e.keyMin === "number" && typeof e.keyMax === "number";
  for (let i = 0; i < n; i++) {
    const key = cur[i]![k] as Key;
    try {
      checkInt(key, e.keyMin, e.keyMax);
    } catch (err) {
      throw inIndex(inField(err, k), i);
    }
    if (typeof key !== "number") numbers = false;
    keys[i] = key;
  }
  const order: number[] = new Array(n);
  const min = e.keyMin as number;
  if (numbers && ((e.keyMax as number) - min + 1) * n <= Number.MAX_SAFE_INTEGER) {
    if (packed.length < n) packed = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) packed[i] = ((keys[i] as number) - min) * n + i;
    const p = packed.subarray(0, n);
    if (n <= 64) insertionSort(p);
    else p.sort();
    for (let j = 0; j < n; j++) order[j] = p[j]! % n;
  } else {
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => cmp(keys[a]!, keys[b]!));
  }
  const sorted: Key[] = new Array(n);
  for (let j = 0; j < n; j++) {
    const key = keys[order[j]!]!;
    if (j > 0 && key === sorted[j - 1]) throw duplicate(key).inField(k).inIndex(order[j]!);
    sorted[j] = key;
  }
  return { order, keys: sorted };
}

/** Sorts a short array of distinct numbers in place (cheaper than the builtin below ~64). */
export function insertionSort(a: Float64Array): void {
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

/**
 * The quantized rows of the entities encoded in one tick, shared by every `Tracker` that
 * encodes them (`encodeInto(value, out, rows)`): each entity object is quantized and checked
 * once, however many clients see it, and each client's delta compares its baseline with that
 * row. The bytes are exactly those without it. Entities are told apart by object identity:
 * call `clear()` whenever an entity object may have changed (once per tick, before the
 * first client's encode), and do not change an entity object between `clear()` and the last
 * encode that uses it.
 */
export class EntityRows {
  /** Per entity object: its row (its entity description stored at index `width`), or null when it did not check. */
  private readonly rows = new Map<object, Row | null>();

  /** Forgets every row (the entities changed). */
  clear(): void {
    this.rows.clear();
  }

  /** How many entity objects are held (rows computed since the last `clear()`). */
  get size(): number {
    return this.rows.size;
  }

  /** @internal The checked row of `v` as entity `e`, or undefined (no row: the caller takes the uncached path, which reports the error). */
  rowOf(e: EntityDelta<Obj>, v: Obj): Row | undefined {
    let row = this.rows.get(v);
    if (row === undefined) {
      row = checkedRow(e, v);
      this.rows.set(v, row);
    }
    return row !== null && row[e.width] === e ? row : undefined;
  }
}

/**
 * An entity's baseline row with every number checked as `changes` checks it (null when a
 * number is out of range or not finite, or the entity holds a list: those take the uncached
 * path), its description stored after the row.
 */
export function checkedRow(e: EntityDelta<Obj>, v: Obj): Row | null {
  const row: Row = new Array(e.width + 1);
  try {
    for (let i = 0; i < e.fields.length; i++) {
      const f = e.fields[i]!;
      const at = e.off[i]!;
      const x = v[f.name];
      switch (f.k) {
        case 1:
          if (f.len === 0) row[at] = checked(f, x);
          else {
            if (!Array.isArray(x) || x.length !== f.len) return null;
            for (let j = 0; j < f.len; j++) row[at + j] = checked(f, x[j]);
          }
          break;
        case 2:
          if (f.prim && typeof x !== "object") row[at] = x;
          else {
            whole.reset();
            f.write(whole, x as never, false);
            row[at] = whole.finish();
          }
          break;
        case 3:
          return null;
        default:
          break;
      }
    }
  } catch {
    return null;
  }
  row[0] = v[e.key];
  row[e.width] = e;
  return row;
}

/** `changes` for an entity whose checked row `q` is at hand: the same bytes, no quantizing. */
export function changesOfRow(e: EntityDelta<Obj>, q: Row, row: Row, out: Writer): number {
  let mask = 0;
  const fields = e.fields;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const at = e.off[i]!;
    if (f.k === 1) {
      const n = f.len === 0 ? 1 : f.len;
      let same = true;
      for (let j = 0; j < n; j++) {
        if (q[at + j] !== row[at + j]) {
          same = false;
          break;
        }
      }
      if (same) continue;
      if (f.len !== 0) out.arrayLen(f.len);
      for (let j = 0; j < n; j++) {
        out.int((q[at + j] as number) - (row[at + j] as number));
        row[at + j] = q[at + j];
      }
      mask += BIT[i]!;
    } else if (f.k === 2) {
      const x = q[at];
      if (x instanceof Uint8Array) {
        // `checkedRow` keeps a primitive as it is and anything else as its bytes.
        const base = row[at];
        if (base instanceof Uint8Array && sameBytes(base, x)) continue;
        out.raw(x);
      } else {
        if (Object.is(x, row[at])) continue;
        f.write(out, x as never, false);
      }
      row[at] = x;
      mask += BIT[i]!;
    }
  }
  return mask;
}

/**
 * Writes the entries turning `base` (rows sorted by key) into `cur` (any order) to `out` and
 * returns the new rows, or undefined when the lists are wire-equal (nothing written).
 */
export function encodeEntities(f: Extract<DeltaField, { k: 3 }>, cur: readonly Obj[], base: Row[], out: Writer, rows: EntityRows | undefined): Row[] | undefined {
  if (!Array.isArray(cur)) throw new TupletError("wrong_type", `expected an array, found ${typeof cur}`);
  // A delta carries the list's entries, not the list: its length is checked here.
  checkLen(cur.length, f.min, f.max, "elements");
  const e = f.entity;
  const { order, keys } = keyOrder(e, cur);
  list.reset();
  let count = 0;
  const next: Row[] = [];
  let a = 0;
  let b = 0;
  while (a < order.length || b < base.length) {
    const i = order[a];
    const c = i === undefined ? 1 : b >= base.length ? -1 : cmp(keys[a]!, base[b]![0] as Key);
    if (c < 0) {
      const v = cur[i!]!;
      try {
        e.write(list, v, false);
      } catch (err) {
        throw inIndex(err, i!);
      }
      const q = rows?.rowOf(e, v);
      next.push(q === undefined ? entityRow(e, v) : q.slice(0, e.width));
      count += 1;
      a++;
    } else if (c > 0) {
      writeKey(list, base[b]![0] as Key);
      list.int(0);
      count += 2;
      b++;
    } else {
      const row = base[b]!;
      ent.reset();
      let mask: number;
      try {
        const q = rows?.rowOf(e, cur[i!]!);
        mask = q === undefined ? changes(e.fields, e.off, cur[i!]!, row, ent, noList) : changesOfRow(e, q, row, ent);
      } catch (err) {
        throw inIndex(err, i!);
      }
      if (mask !== 0) {
        writeKey(list, row[0] as Key);
        list.uint(mask);
        list.raw(ent.view());
        count += 2 + popcount(mask);
      }
      next.push(row);
      a++;
      b++;
    }
  }
  if (count === 0) return undefined;
  out.arrayLen(count);
  out.raw(list.view());
  return next;
}

export function noList(): boolean {
  return false;
}

/**
 * Reads one entity list's entries and applies them to `mirror` (sorted by key), returning the
 * new list (entities changed are new objects; unchanged ones are shared).
 */
export function applyEntities(e: EntityDelta<Obj>, mirror: readonly Obj[], r: Reader): Obj[] {
  const out = mirror.slice();
  const k = e.key;
  const n = readArrayLen(r);
  const find = (key: Key): number => {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((out[mid]![k] as Key) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let i = 0;
  while (i < n) {
    const at = i;
    if (peekKind(r) === "array") {
      let v: Obj;
      try {
        v = e.read(r);
      } catch (err) {
        throw inIndex(err, at);
      }
      const key = v[k] as Key;
      const p = find(key);
      if (p < out.length && out[p]![k] === key) out[p] = v;
      else out.splice(p, 0, v);
      i += 1;
      continue;
    }
    if (n - i < 2) throw entryCut(n);
    let key: Key;
    let mask: number;
    try {
      key = readKey(e, r);
    } catch (err) {
      throw inIndex(err, at);
    }
    try {
      mask = readInt(r, 0, Number.MAX_SAFE_INTEGER);
    } catch (err) {
      throw inIndex(err, at + 1);
    }
    i += 2;
    const p = find(key);
    if (!(p < out.length && out[p]![k] === key)) throw noBaseline(`entity ${String(key)}`).inIndex(at);
    if (mask === 0) {
      out.splice(p, 1);
      continue;
    }
    const bits = popcount(mask);
    if (n - i < bits) throw entryCut(n);
    try {
      out[p] = applyFields(e.fields, mask, { ...out[p]! }, r);
    } catch (err) {
      throw inIndex(err, at + 2);
    }
    i += bits;
  }
  leave(r);
  return out;
}

export function entryCut(n: number): TupletError {
  return new TupletError("wrong_length", `${n} elements end inside an entry`);
}

/** Reads the values announced by `mask` into `obj` (a copy the caller owns) and returns it. */
export function applyFields(fields: readonly DeltaField[], mask: number, obj: Obj, r: Reader): Obj {
  for (let i = 0; i < fields.length; i++) {
    if (!has(mask, i)) continue;
    const f = fields[i]!;
    try {
      switch (f.k) {
        case 1:
          if (f.len === 0) {
            obj[f.name] = applied(f, obj[f.name] as number, readInt(r, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
          } else {
            const n = readArrayLen(r);
            if (n !== f.len) throw wrongLength(n, f.len);
            const held = obj[f.name] as number[];
            const a = held.slice();
            for (let j = 0; j < f.len; j++) {
              try {
                a[j] = applied(f, held[j]!, readInt(r, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
              } catch (e) {
                throw inIndex(e, j);
              }
            }
            leave(r);
            obj[f.name] = a;
          }
          break;
        case 2: {
          const v = f.read(r);
          if (v === undefined) delete obj[f.name];
          else obj[f.name] = v;
          break;
        }
        case 3: {
          const v = applyEntities(f.entity, obj[f.name] as Obj[], r);
          checkLen(v.length, f.min, f.max, "elements");
          obj[f.name] = v;
          break;
        }
        default:
          skipValue(r);
      }
    } catch (e) {
      throw inField(e, f.name);
    }
  }
  for (let b = fields.length; b < 53; b++) if (has(mask, b)) skipValue(r);
  return obj;
}

/** Reads the values `mask` announces as their fields' changes, applying nothing (throws when one does not read). */
export function probeFields(fields: readonly DeltaField[], mask: number, r: Reader): void {
  for (let b = 0; b < 53; b++) {
    if (!has(mask, b)) continue;
    const f = fields[b];
    if (f?.k === 1) {
      if (f.len === 0) readInt(r, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      else {
        const n = readArrayLen(r);
        if (n !== f.len) throw wrongLength(n, f.len);
        for (let j = 0; j < n; j++) readInt(r, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
        leave(r);
      }
    } else if (f?.k === 2) f.read(r);
    else if (f?.k === 3) probeEntities(f.entity, r);
    else skipValue(r);
  }
}

/** Reads one entity list's entries as `applyEntities` does, against no baseline. */
export function probeEntities(e: EntityDelta<Obj>, r: Reader): void {
  const n = readArrayLen(r);
  let i = 0;
  while (i < n) {
    if (peekKind(r) === "array") {
      e.read(r);
      i += 1;
      continue;
    }
    if (n - i < 2) throw entryCut(n);
    readKey(e, r);
    const mask = readInt(r, 0, Number.MAX_SAFE_INTEGER);
    i += 2;
    if (mask === 0) continue;
    const bits = popcount(mask);
    if (n - i < bits) throw entryCut(n);
    probeFields(e.fields, mask, r);
    i += bits;
  }
  leave(r);
}

/** A copy of `v` whose entity lists are sorted by key (checked for duplicate keys). */
export function sortedValue<T>(d: DeltaCodec<T>, v: T): T {
  let out: Obj | undefined;
  for (const f of d.fields) {
    if (f.k !== 3) continue;
    const xs = (v as Obj)[f.name];
    if (!Array.isArray(xs)) continue;
    out ??= { ...(v as Obj) };
    try {
      out[f.name] = sortByKey(f.entity, xs as Obj[]);
    } catch (e) {
      throw inField(e, f.name);
    }
  }
  return (out ?? v) as T;
}

