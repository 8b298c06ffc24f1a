/**
 * Delta snapshots (WIRE.md, "Delta snapshots"): a server keeps one `Tracker` per client and
 * per `delta` message and sends only what changed since what that client last received; the
 * client keeps one `Mirror` that rebuilds the full value, with exactly the server's quantized
 * numbers, byte for byte as the Rust `tuplet::delta`.
 *
 * Generated code describes each entity and each delta message with a small table
 * (`entityDelta`, `deltaOf`, one `dNum` / `dWhole` / `dList` / `dSkip` per field); everything
 * else happens here:
 *
 * ```ts
 * // server, every tick, for each client:
 * const bytes = client.snapshots.encode(snapshotFor(client)); // undefined: nothing changed
 * if (bytes !== undefined) client.send(WorldSnapshotCodec.id, bytes);
 * // on `world:keyframe` from that client:
 * client.snapshots.requestKeyframe();
 *
 * // client, on each `world:snapshot` payload:
 * try { render(mirror.apply(payload)); }
 * catch { send(WorldKeyframeRequestCodec, {}); } // mirror dropped; it waits for a keyframe
 * ```
 */

import { TupletError, type Result } from "./errors.js";
import { checkInt, checkLen, duplicate, wrongLength } from "./checks.js";
import { dequantize, dequantizeF32, quantize, roundHalfAwayFromZero } from "./quant.js";
import { endRead, leave, newReader, peekKind, readArrayLen, readBigInt, readInt, resetReader, skipValue, tryNil, type Reader } from "./reader.js";
import { Writer } from "./writer.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";

type Obj = Record<string, unknown>;

/** Writes a value of a field's type in the compact shape (`named` is always false here). */
export type WriteFn<V> = (w: Writer, v: V, named: boolean) => void;
/** Reads a value of a field's type (compact shape). */
export type ReadFn<V> = (r: Reader) => V;

/** How one field changes on the wire (generated; see `dNum`, `dWhole`, `dList`, `dSkip`). */
export type DeltaField =
  | { readonly k: 0; readonly name: string }
  | {
      readonly k: 1;
      readonly name: string;
      /** 0: an int; 1: a quantized f64; 2: a quantized f32. */
      readonly mode: 0 | 1 | 2;
      readonly scale: number;
      readonly min: number;
      readonly max: number;
      /** 0: one number; n: a fixed array of n. */
      readonly len: number;
    }
  | {
      readonly k: 2;
      readonly name: string;
      readonly write: WriteFn<never>;
      readonly read: ReadFn<unknown>;
      /** The value is a JS primitive whose identity is its wire value (compared with `Object.is`). */
      readonly prim: boolean;
    }
  | { readonly k: 3; readonly name: string; readonly entity: EntityDelta<Obj>; readonly min: number; readonly max: number };

/** A reserved slot: a mask bit that is never set. */
/* @__NO_SIDE_EFFECTS__ */
export function dSkip(name: string): DeltaField {
  return { k: 0, name };
}

/** A number travelling as the difference of its wire int from the baseline's (`len` > 0: a fixed array). */
/* @__NO_SIDE_EFFECTS__ */
export function dNum(name: string, mode: 0 | 1 | 2, scale: number, min: number, max: number, len: number): DeltaField {
  return { k: 1, name, mode, scale, min, max, len };
}

/** Any other field: the new value, whole, compact shape. */
/* @__NO_SIDE_EFFECTS__ */
export function dWhole<V>(name: string, write: WriteFn<V>, read: ReadFn<V>, prim: boolean): DeltaField {
  return { k: 2, name, write, read, prim };
}

/** A list of entities, keyed (`min..=max` elements). */
/* @__NO_SIDE_EFFECTS__ */
export function dList<E>(name: string, entity: EntityDelta<E>, min: number, max: number): DeltaField {
  return { k: 3, name, entity: entity as unknown as EntityDelta<Obj>, min, max };
}

/** The delta description of a record declared `entity(key = "...")`. */
export interface EntityDelta<E> {
  readonly key: string;
  readonly keyMin: number | bigint;
  readonly keyMax: number | bigint;
  readonly fields: readonly DeltaField[];
  readonly write: WriteFn<E>;
  readonly read: ReadFn<E>;
  /** Offsets of each field's state in a baseline row (after the key), and the row's width. */
  readonly off: readonly number[];
  readonly width: number;
}

/** The delta description of a message declared `delta`: what `Tracker` and `Mirror` take. */
export interface DeltaCodec<T> {
  readonly fields: readonly DeltaField[];
  readonly write: WriteFn<T>;
  readonly read: ReadFn<T>;
  readonly off: readonly number[];
  readonly width: number;
  /** A new, empty `Mirror` of this message (a dispatcher makes one per delta message). */
  mirror(limits?: Limits): Mirror<T>;
  /**
   * The `delta_payload` error when `bytes` is a tracker's payload of this message (a keyframe
   * a fresh mirror applies, or a nonempty delta whose every announced value reads as its
   * field's change), else undefined: what the message's codec reports instead of its own
   * decode error when it is handed a payload it cannot read.
   */
  probe(bytes: Uint8Array): TupletError | undefined;
}

function layout(fields: readonly DeltaField[], first: number): { off: number[]; width: number } {
  const off: number[] = [];
  let at = first;
  for (const f of fields) {
    off.push(at);
    at += f.k === 1 && f.len > 0 ? f.len : 1;
  }
  return { off, width: at };
}

/** Builds an entity's description (generated code calls it once per entity record). */
/* @__NO_SIDE_EFFECTS__ */
export function entityDelta<E>(
  key: string,
  keyMin: number | bigint,
  keyMax: number | bigint,
  fields: readonly DeltaField[],
  write: WriteFn<E>,
  read: ReadFn<E>,
): EntityDelta<E> {
  return { key, keyMin, keyMax, fields, write, read, ...layout(fields, 1) };
}

/**
 * Builds a delta message's description (generated code calls it once per delta message). The
 * `Mirror` code is reached through its `mirror` and `probe` methods only, so a bundle without
 * a delta message leaves it out.
 */
/* @__NO_SIDE_EFFECTS__ */
export function deltaOf<T>(fields: readonly DeltaField[], write: WriteFn<T>, read: ReadFn<T>): DeltaCodec<T> {
  const d: DeltaCodec<T> = {
    fields,
    write,
    read,
    ...layout(fields, 0),
    mirror: (limits?: Limits): Mirror<T> => new Mirror(d, limits),
    probe: (bytes: Uint8Array): TupletError | undefined => probe(d, bytes),
  };
  return d;
}

/** `delta_payload`: a tracker's payload (`what`: a keyframe, a delta) read as a plain message. */
export function deltaPayload(what: string): TupletError {
  return new TupletError("delta_payload", `this is a delta message; apply it with a Mirror (${what} from a Tracker)`);
}

/** See `DeltaCodec.probe`. The rule is WIRE.md's ("Delta snapshots"), the same in Rust. */
function probe<T>(d: DeltaCodec<T>, bytes: Uint8Array): TupletError | undefined {
  try {
    const r = newReader(bytes);
    const n = readArrayLen(r);
    if (n < 2) return undefined;
    readInt(r, 0, 127);
    if (tryNil(r)) {
      new Mirror(d).apply(bytes);
      return deltaPayload("a keyframe");
    }
    const mask = readInt(r, 1, Number.MAX_SAFE_INTEGER);
    if (popcount(mask) + 2 !== n) return undefined;
    probeFields(d.fields, mask, r);
    leave(r);
    endRead(r);
    return deltaPayload("a delta");
  } catch {
    return undefined;
  }
}

/** Reads the values `mask` announces as their fields' changes, applying nothing (throws when one does not read). */
function probeFields(fields: readonly DeltaField[], mask: number, r: Reader): void {
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
function probeEntities(e: EntityDelta<Obj>, r: Reader): void {
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

/** What `Tracker.encode` wrote. */
export type Sent = "keyframe" | "delta" | "nothing";

type Key = number | bigint;
/** A baseline row: the key (entities), then per field its state: wire ints, a primitive, encoded bytes, or rows. */
type Row = unknown[];

const TWO_POW_32 = 4294967296;
/** `BIT[i]` is 2^i: a mask's bit for field `i` (masks are safe integers, at most 53 bits). */
const BIT: readonly number[] = /*@__PURE__*/ Array.from({ length: 53 }, (_, i) => 2 ** i);

/** Whether bit `b` of `mask` (a safe integer) is set. */
function has(mask: number, b: number): boolean {
  return b < 32 ? ((mask >>> b) & 1) === 1 : Math.floor(mask / 2 ** b) % 2 === 1;
}

function popcount(mask: number): number {
  let n = 0;
  for (let x = mask >>> 0; x !== 0; x &= x - 1) n++;
  if (mask < TWO_POW_32) return n;
  for (let x = Math.floor(mask / TWO_POW_32); x !== 0; x = Math.floor(x / 2)) n += x % 2;
  return n;
}

function inField(e: unknown, name: string): unknown {
  if (e instanceof TupletError) e.inField(name);
  return e;
}

function inIndex(e: unknown, i: number): unknown {
  if (e instanceof TupletError) e.inIndex(i);
  return e;
}

/** `no_baseline`: a delta refers to state the receiver does not hold. */
export function noBaseline(what: string): TupletError {
  return new TupletError("no_baseline", `no baseline for ${what}`);
}

function wireInt(f: Extract<DeltaField, { k: 1 }>, x: unknown): number {
  const v = x as number;
  if (f.mode === 0) return v;
  return roundHalfAwayFromZero((f.mode === 2 ? Math.fround(v) : v) * f.scale);
}

function checked(f: Extract<DeltaField, { k: 1 }>, x: unknown): number {
  const v = x as number;
  if (f.mode === 0) {
    checkInt(v, f.min, f.max);
    return v;
  }
  return quantize(f.mode === 2 ? Math.fround(v) : v, f.scale, f.min, f.max);
}

function applied(f: Extract<DeltaField, { k: 1 }>, held: number, d: number): number {
  if (f.mode === 0) {
    const v = held + d;
    checkInt(v, f.min, f.max);
    return v;
  }
  const h = roundHalfAwayFromZero(held * f.scale);
  const q = (h - h === 0 ? h : 0) + d;
  if (q < f.min || q > f.max) quantize(q / f.scale, f.scale, f.min, f.max);
  return f.mode === 2 ? dequantizeF32(q, f.scale) : dequantize(q, f.scale);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = b.length;
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The shared scratch writers (encoding is synchronous: one set serves every tracker). */
const whole = /*@__PURE__*/ new Writer(256);
const list = /*@__PURE__*/ new Writer(1024);
const body = /*@__PURE__*/ new Writer(1024);
const ent = /*@__PURE__*/ new Writer(256);

/**
 * Compares one record (`obj`) with its baseline row field by field, writing the changed
 * fields' values to `out` and updating `row` in place. Returns the mask (0: nothing written).
 * Entity lists are not handled here (the message level does them).
 */
function changes(
  fields: readonly DeltaField[],
  off: readonly number[],
  obj: Obj,
  row: Row,
  out: Writer,
  listFn: (f: Extract<DeltaField, { k: 3 }>, i: number) => boolean,
): number {
  let mask = 0;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const at = off[i]!;
    try {
      switch (f.k) {
        case 1: {
          const x = obj[f.name];
          if (f.len === 0) {
            if (wireInt(f, x) === row[at]) break;
            const q = checked(f, x);
            out.int(q - (row[at] as number));
            row[at] = q;
          } else {
            const a = x as unknown[];
            if (!Array.isArray(a) || a.length !== f.len) {
              checkArr(a, f.len);
            }
            let same = true;
            for (let j = 0; j < f.len; j++) {
              if (wireInt(f, a[j]) !== row[at + j]) {
                same = false;
                break;
              }
            }
            if (same) break;
            out.arrayLen(f.len);
            for (let j = 0; j < f.len; j++) {
              let q: number;
              try {
                q = checked(f, a[j]);
              } catch (e) {
                throw inIndex(e, j);
              }
              out.int(q - (row[at + j] as number));
              row[at + j] = q;
            }
          }
          mask += BIT[i]!;
          break;
        }
        case 2: {
          const x = obj[f.name];
          if (f.prim && typeof x !== "object") {
            if (Object.is(x, row[at])) break;
            f.write(out, x as never, false);
            row[at] = x;
          } else {
            whole.reset();
            f.write(whole, x as never, false);
            const base = row[at];
            const bytes = whole.view();
            if (base instanceof Uint8Array && sameBytes(base, bytes)) break;
            out.raw(bytes);
            row[at] = bytes.slice();
          }
          mask += BIT[i]!;
          break;
        }
        case 3:
          if (listFn(f, i)) mask += BIT[i]!;
          break;
        default:
          break;
      }
    } catch (e) {
      throw inField(e, f.name);
    }
  }
  return mask;
}

function checkArr(a: unknown, len: number): void {
  if (!Array.isArray(a)) throw new TupletError("wrong_type", `expected an array, found ${typeof a}`);
  throw wrongLength(a.length, len);
}

/** The baseline row of a value just sent whole (a keyframe, or an entity entering view). */
function rowOf(fields: readonly DeltaField[], off: readonly number[], width: number, obj: Obj): Row {
  const row: Row = new Array(width);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const at = off[i]!;
    const x = obj[f.name];
    switch (f.k) {
      case 1:
        if (f.len === 0) row[at] = wireInt(f, x);
        else for (let j = 0; j < f.len; j++) row[at + j] = wireInt(f, (x as unknown[])[j]);
        break;
      case 2:
        if (f.prim && typeof x !== "object") row[at] = x;
        else {
          whole.reset();
          f.write(whole, x as never, false);
          row[at] = whole.finish();
        }
        break;
      case 3: {
        const e = f.entity;
        row[at] = (x as Obj[]).map((v) => entityRow(e, v));
        break;
      }
      default:
        break;
    }
  }
  return row;
}

function entityRow(e: EntityDelta<Obj>, v: Obj): Row {
  const row = rowOf(e.fields, e.off, e.width, v);
  row[0] = v[e.key];
  return row;
}

function writeKey(w: Writer, k: Key): void {
  if (typeof k === "bigint") w.bigInt(k);
  else w.int(k);
}

function readKey(e: EntityDelta<Obj>, r: Reader): Key {
  return typeof e.keyMin === "bigint" ? readBigInt(r, e.keyMin, e.keyMax as bigint) : readInt(r, e.keyMin, e.keyMax as number);
}

/** A key-sorted copy of an entity list; a key present twice is `duplicate_key` at the second one. */
function sortByKey<E>(e: EntityDelta<E>, xs: readonly E[]): E[] {
  const k = e.key;
  const out = xs.slice().sort((a, b) => cmp((a as Obj)[k] as Key, (b as Obj)[k] as Key));
  for (let i = 1; i < out.length; i++) {
    const key = (out[i] as Obj)[k] as Key;
    if (key === (out[i - 1] as Obj)[k]) throw duplicate(key).inField(k).inIndex(i);
  }
  return out;
}

function cmp(a: Key, b: Key): number {
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
function keyOrder(e: EntityDelta<Obj>, cur: readonly Obj[]): { order: number[]; keys: Key[] } {
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
function insertionSort(a: Float64Array): void {
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
function checkedRow(e: EntityDelta<Obj>, v: Obj): Row | null {
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
function changesOfRow(e: EntityDelta<Obj>, q: Row, row: Row, out: Writer): number {
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
function encodeEntities(f: Extract<DeltaField, { k: 3 }>, cur: readonly Obj[], base: Row[], out: Writer, rows: EntityRows | undefined): Row[] | undefined {
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

function noList(): boolean {
  return false;
}

/**
 * Reads one entity list's entries and applies them to `mirror` (sorted by key), returning the
 * new list (entities changed are new objects; unchanged ones are shared).
 */
function applyEntities(e: EntityDelta<Obj>, mirror: readonly Obj[], r: Reader): Obj[] {
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

function entryCut(n: number): TupletError {
  return new TupletError("wrong_length", `${n} elements end inside an entry`);
}

/** Reads the values announced by `mask` into `obj` (a copy the caller owns) and returns it. */
function applyFields(fields: readonly DeltaField[], mask: number, obj: Obj, r: Reader): Obj {
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

/** The array header at the start of `bytes`: [count, header length]. */
function header(bytes: Uint8Array): [number, number] {
  const b = bytes[0]!;
  if (b >= 0x90 && b <= 0x9f) return [b & 0x0f, 1];
  if (b === 0xdc) return [(bytes[1]! << 8) | bytes[2]!, 3];
  return [((bytes[1]! << 24) >>> 0) + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!), 5];
}

/** A copy of `v` whose entity lists are sorted by key (checked for duplicate keys). */
function sortedValue<T>(d: DeltaCodec<T>, v: T): T {
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

/** Writes a keyframe `[seq, nil, ...fields]` of `v` (lists sorted) to `out`. */
function writeKeyframe<T>(d: DeltaCodec<T>, v: T, seq: number, out: Writer): void {
  whole.reset();
  d.write(whole, v, false);
  const bytes = whole.view();
  const [n, h] = header(bytes);
  out.arrayLen(n + 2);
  out.uint(seq);
  out.nil();
  out.raw(bytes.subarray(h));
}

/**
 * The server side for one client and one delta message: the baseline (what this client last
 * received), the keyframe cadence and keyframe requests. As the Rust `tuplet::delta::Tracker`,
 * byte for byte.
 */
export class Tracker<T> {
  private base: Row | undefined;
  private since = 0;
  private wanted = true;
  private seq = 0;
  private readonly out = new Writer(512);
  /** What the last `encode` wrote. */
  last: Sent = "nothing";

  /**
   * A tracker that sends a keyframe first and then every `keyframeEvery` encodes (0 never
   * repeats one unless requested).
   */
  // Plain fields, not constructor parameter properties: the package's sources compile under
  // `erasableSyntaxOnly` (Vite's template, Node's type stripping).
  private readonly delta: DeltaCodec<T>;
  private readonly keyframeEvery: number;

  constructor(delta: DeltaCodec<T>, keyframeEvery: number) {
    this.delta = delta;
    this.keyframeEvery = keyframeEvery;
  }

  /** A tracker with the default cadence: a keyframe every 5 s at `ticksPerSecond`. */
  static atRate<T>(delta: DeltaCodec<T>, ticksPerSecond: number): Tracker<T> {
    return new Tracker(delta, ticksPerSecond * 5);
  }

  /** Makes the next encode a keyframe (on the client's `world:keyframe`-style request). */
  requestKeyframe(): void {
    this.wanted = true;
  }

  /**
   * The next payload for this client, or undefined when nothing changed (nothing to send);
   * advances the baseline. A keyframe goes when requested, when due, or when there is no
   * baseline. An invalid value throws a TupletError with its path; the next payload is then a
   * keyframe.
   */
  encode(value: T, rows?: EntityRows): Uint8Array<ArrayBuffer> | undefined {
    this.out.reset();
    return this.encodeInto(value, this.out, rows) === "nothing" ? undefined : this.out.finish();
  }

  /**
   * `encode`, appending to a writer; returns what was written. `rows`: the tick's shared
   * `EntityRows` (a server that sends the same entity objects to many clients quantizes each
   * once); the bytes are the same with or without it.
   */
  encodeInto(value: T, out: Writer, rows?: EntityRows): Sent {
    const d = this.delta;
    const keyframe = this.wanted || this.base === undefined || (this.keyframeEvery > 0 && this.since >= this.keyframeEvery);
    const start = out.length;
    try {
      if (keyframe) {
        const v = sortedValue(d, value);
        writeKeyframe(d, v, this.seq, out);
        this.base = rowOf(d.fields, d.off, d.width, v as Obj);
        this.seq = (this.seq + 1) & 0x7f;
        this.wanted = false;
        this.since = 1;
        return (this.last = "keyframe");
      }
      const base = this.base!;
      body.reset();
      const mask = changes(d.fields, d.off, value as Obj, base, body, (f, i) => {
        const at = d.off[i]!;
        const next = encodeEntities(f, (value as Obj)[f.name] as Obj[], base[at] as Row[], body, rows);
        if (next === undefined) return false;
        base[at] = next;
        return true;
      });
      this.since += 1;
      if (mask === 0) return (this.last = "nothing");
      out.arrayLen(popcount(mask) + 2);
      out.uint(this.seq);
      out.uint(mask);
      out.raw(body.view());
      this.seq = (this.seq + 1) & 0x7f;
      return (this.last = "delta");
    } catch (e) {
      out.truncate(start);
      this.base = undefined;
      this.wanted = true;
      throw e;
    }
  }
}

/**
 * The client side of one delta message: the full value rebuilt from keyframes and deltas, with
 * exactly the server's quantized numbers and entity lists in key order. Each `apply` returns a
 * new value; entities that did not change are the same objects as in the previous value (handy
 * for interpolating between two snapshots).
 */
export class Mirror<T> {
  private held: T | undefined;
  private seq = 0;
  private readonly reader = newReader(new Uint8Array(0));

  private readonly delta: DeltaCodec<T>;
  private readonly limits: Limits;

  constructor(delta: DeltaCodec<T>, limits: Limits = DEFAULT_LIMITS) {
    this.delta = delta;
    this.limits = limits;
  }

  /** The last full value, if the mirror holds one. */
  get value(): T | undefined {
    return this.held;
  }

  /**
   * `apply` as a `Result`, as a codec's `decode` returns it (what a dispatcher calls for a
   * delta message): a payload that is not bytes is `wrong_type`.
   */
  decode(payload: unknown): Result<T> {
    try {
      if (!(payload instanceof Uint8Array)) throw new TupletError("wrong_type", `expected the bytes of a Tracker's payload, found ${typeof payload}`);
      return { ok: true, value: this.apply(payload) };
    } catch (e) {
      if (e instanceof TupletError) return { ok: false, issues: [e.issue()] };
      throw e;
    }
  }

  /** Drops the mirror (for instance after a reconnect); the next payload must be a keyframe. */
  clear(): void {
    this.held = undefined;
  }

  /**
   * Applies one payload (a keyframe or a delta) and returns the full value. On any error (a
   * decode error, or a delta with nothing to apply to: `no_baseline`) the mirror is dropped
   * and the TupletError thrown: ask the server for a keyframe and keep calling `apply`, which
   * throws until the keyframe arrives.
   */
  apply(payload: Uint8Array): T {
    try {
      const [got, v] = this.read(payload);
      this.seq = (got + 1) & 0x7f;
      this.held = v;
      return v;
    } catch (e) {
      this.held = undefined;
      throw e;
    }
  }

  private read(payload: Uint8Array): [number, T] {
    const d = this.delta;
    const r = resetReader(this.reader, payload, this.limits);
    const n = readArrayLen(r);
    if (n < 2) throw wrongLength(n, 2);
    const got = readInt(r, 0, 127);
    if (tryNil(r)) {
      // The fields follow as in the compact shape: read them as one under a header of n - 2.
      const rest = payload.subarray(r.pos);
      const w = new Writer(rest.length + 5);
      w.arrayLen(n - 2);
      w.raw(rest);
      const inner = newReader(w.view(), this.limits);
      const v = sortedValue(d, d.read(inner));
      endRead(inner);
      return [got, v];
    }
    const m = this.held;
    if (m === undefined) throw noBaseline("this delta (no keyframe yet)");
    if (got !== this.seq) throw noBaseline(`delta ${got} (expected ${this.seq}: a message was missed)`);
    const mask = readInt(r, 0, Number.MAX_SAFE_INTEGER);
    if (popcount(mask) + 2 !== n) throw wrongLength(n, popcount(mask) + 2);
    const v = applyFields(d.fields, mask, { ...(m as Obj) }, r) as T;
    leave(r);
    endRead(r);
    return [got, v];
  }
}
