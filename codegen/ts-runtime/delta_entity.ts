/**
 * Delta snapshots, one record at a time (as the Rust `tuplet::delta` entity module): the field
 * descriptions generated code builds (`dNum`, `dWhole`, `dList`, `dSkip`, `entityDelta`), the
 * baseline rows a `Tracker` keeps, and how a record's changed fields are written.
 */

import { TupletError } from "./errors.js";
import { checkInt, wrongLength } from "./checks.js";
import { dequantize, dequantizeF32, quantize, roundHalfAwayFromZero } from "./quant.js";
import type { Reader } from "./reader.js";
import { readBigInt, readInt } from "./reader_num.js";
import { Writer } from "./writer.js";
import type { Limits } from "./limits.js";
import type { Mirror } from "./delta_mirror.js";

/** A record as generated code reads and writes it. */
export type Obj = Record<string, unknown>;

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

export function layout(fields: readonly DeltaField[], first: number): { off: number[]; width: number } {
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

/** What `Tracker.encode` wrote. */
export type Sent = "keyframe" | "delta" | "nothing";

export type Key = number | bigint;
/** A baseline row: the key (entities), then per field its state: wire ints, a primitive, encoded bytes, or rows. */
export type Row = unknown[];

const TWO_POW_32: number = 4294967296;
/** `BIT[i]` is 2^i: a mask's bit for field `i` (masks are safe integers, at most 53 bits). */
export const BIT: readonly number[] = /*@__PURE__*/ Array.from({ length: 53 }, (_, i) => 2 ** i);

/** Whether bit `b` of `mask` (a safe integer) is set. */
export function has(mask: number, b: number): boolean {
  return b < 32 ? ((mask >>> b) & 1) === 1 : Math.floor(mask / 2 ** b) % 2 === 1;
}

export function popcount(mask: number): number {
  let n = 0;
  for (let x = mask >>> 0; x !== 0; x &= x - 1) n++;
  if (mask < TWO_POW_32) return n;
  for (let x = Math.floor(mask / TWO_POW_32); x !== 0; x = Math.floor(x / 2)) n += x % 2;
  return n;
}

export function inField(e: unknown, name: string): unknown {
  if (e instanceof TupletError) e.inField(name);
  return e;
}

export function inIndex(e: unknown, i: number): unknown {
  if (e instanceof TupletError) e.inIndex(i);
  return e;
}

/** `no_baseline`: a delta refers to state the receiver does not hold. */
export function noBaseline(what: string): TupletError {
  return new TupletError("no_baseline", `no baseline for ${what}`);
}

export function wireInt(f: Extract<DeltaField, { k: 1 }>, x: unknown): number {
  const v = x as number;
  if (f.mode === 0) return v;
  return roundHalfAwayFromZero((f.mode === 2 ? Math.fround(v) : v) * f.scale);
}

export function checked(f: Extract<DeltaField, { k: 1 }>, x: unknown): number {
  const v = x as number;
  if (f.mode === 0) {
    checkInt(v, f.min, f.max);
    return v;
  }
  return quantize(f.mode === 2 ? Math.fround(v) : v, f.scale, f.min, f.max);
}

export function applied(f: Extract<DeltaField, { k: 1 }>, held: number, d: number): number {
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

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = b.length;
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The shared scratch writers (encoding is synchronous: one set serves every tracker). */
export const whole: Writer = /*@__PURE__*/ new Writer(256);
export const list: Writer = /*@__PURE__*/ new Writer(1024);
export const body: Writer = /*@__PURE__*/ new Writer(1024);
export const ent: Writer = /*@__PURE__*/ new Writer(256);

/**
 * Compares one record (`obj`) with its baseline row field by field, writing the changed
 * fields' values to `out` and updating `row` in place. Returns the mask (0: nothing written).
 * Entity lists are not handled here (the message level does them).
 */
export function changes(
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

export function checkArr(a: unknown, len: number): void {
  if (!Array.isArray(a)) throw new TupletError("wrong_type", `expected an array, found ${typeof a}`);
  throw wrongLength(a.length, len);
}

/** The baseline row of a value just sent whole (a keyframe, or an entity entering view). */
export function rowOf(fields: readonly DeltaField[], off: readonly number[], width: number, obj: Obj): Row {
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

export function entityRow(e: EntityDelta<Obj>, v: Obj): Row {
  const row = rowOf(e.fields, e.off, e.width, v);
  row[0] = v[e.key];
  return row;
}

export function writeKey(w: Writer, k: Key): void {
  if (typeof k === "bigint") w.bigInt(k);
  else w.int(k);
}

export function readKey(e: EntityDelta<Obj>, r: Reader): Key {
  return typeof e.keyMin === "bigint" ? readBigInt(r, e.keyMin, e.keyMax as bigint) : readInt(r, e.keyMin, e.keyMax as number);
}
