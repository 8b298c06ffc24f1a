/**
 * Helpers the generated codecs call: reading already-decoded JS values (`fromWire`), checked
 * writes (`encode`, `toWire`), validation reports, path prefixes and map key order. Part of the
 * package's runtime (hand-written, embedded by the emitter from codegen/src/emit/typescript/ts).
 */

import { Code, TupletError, issueAt, type Issue, type Seg } from "./errors.js";
import { unknownName, wrongLength, checkF32, checkF64, checkInt, checkLen } from "./checks.js";
import { f32Overflow, notFinite, wrongType } from "./fail.js";
import { quantize, quantizeF32, dequantize } from "./quant.js";
import { compareUtf8, utf8Length } from "./utf8.js";
import type { Writer } from "./writer.js";

/** A name or index of a path step being read, set by generated code before each read. */
export type At = string | undefined;

/**
 * Prefixes a thrown TupletError's path with `field` (and first `index` when >= 0), as Rust's
 * `in_index(i).in_field(name)`; anything else passes through. Returns the error to rethrow.
 */
export function at(e: unknown, field: At, index = -1): unknown {
  if (field !== undefined && e instanceof TupletError) {
    if (index >= 0) e.inIndex(index);
    e.inField(field);
  }
  return e;
}

/** Prefixes a thrown TupletError's path with a list index. */
export function atIndex(e: unknown, index: number): unknown {
  if (e instanceof TupletError) e.inIndex(index);
  return e;
}

/** Prefixes a thrown TupletError's path with a map key. */
export function atKey(e: unknown, key: string | number | bigint): unknown {
  if (e instanceof TupletError) e.inKey(key);
  return e;
}

/** Throws `e`: for expressions (`x ?? raise(missing("p"))`). */
export function raise(e: TupletError): never {
  throw e;
}

/** A TupletError at a path (segments outermost first). */
export function errorAt(code: Code, detail: string, segs: readonly Seg[]): TupletError {
  const e = new TupletError(code, detail);
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    if (typeof s === "string") e.inField(s);
    else if (typeof s === "number") e.inIndex(s);
    else if (s !== undefined) e.inKey(s.key);
  }
  return e;
}

// ---- fromWire: already-decoded JS values -------------------------------------------------

/** The msgpack kind a JS value stands for, as `found` in `wrong_type` messages. */
export function foundOf(v: unknown): string {
  if (v === null || v === undefined) return "nil";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? "int" : "float64";
    case "bigint":
      return "int";
    case "string":
      return "str";
    case "object":
      if (v instanceof Uint8Array) return "bin";
      if (Array.isArray(v)) return "array";
      return "map";
    default:
      return "ext";
  }
}

/** Whether a decoded value is nil (`null`, or `undefined` as msgpackr decodes `d4 00 00`). */
export function isNil(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

/** The elements of a decoded array, or `undefined` when `v` is not one. */
export function asArray(v: unknown): readonly unknown[] | undefined {
  return Array.isArray(v) ? (v as readonly unknown[]) : undefined;
}

/** A decoded array (`wrong_type` otherwise). */
export function wArray(v: unknown): readonly unknown[] {
  if (Array.isArray(v)) return v as readonly unknown[];
  throw wrongType("array", foundOf(v));
}

/** The entries of a decoded map: a `Map` or a plain object (`wrong_type` otherwise). */
export function wEntries(v: unknown, expected = "map"): [unknown, unknown][] {
  if (v instanceof Map) return Array.from(v as Map<unknown, unknown>);
  if (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)) {
    return Object.entries(v);
  }
  throw wrongType(expected, foundOf(v));
}

/** A record of either shape: its elements (compact) or its entries (named). */
export function wShape(v: unknown): readonly unknown[] | [unknown, unknown][] {
  if (Array.isArray(v)) return v as readonly unknown[];
  return wEntries(v, "array or map");
}

/** A named-shape key: a string (`wrong_type` otherwise). */
export function wKey(k: unknown): string {
  if (typeof k === "string") return k;
  throw wrongType("str", foundOf(k));
}

/** A decoded bool. */
export function wBool(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  throw wrongType("bool", foundOf(v));
}

/** A decoded int (number or bigint; an integral float is accepted) in `min..=max`, as a number. */
export function wInt(v: unknown, min: number, max: number): number {
  if (typeof v === "bigint") {
    checkInt(v, min, max);
    return Number(v);
  }
  if (typeof v !== "number") throw wrongType("int", foundOf(v));
  checkInt(v, min, max);
  return v === 0 ? 0 : v;
}

/** A decoded int in `min..=max` as a bigint (a `bigint` field). */
export function wBigInt(v: unknown, min: bigint, max: bigint): bigint {
  if (typeof v === "number") {
    checkInt(v, min, max);
    return BigInt(v);
  }
  if (typeof v !== "bigint") throw wrongType("int", foundOf(v));
  checkInt(v, min, max);
  return v;
}

/** An int map key: a number, a bigint or (a plain object's key) its canonical decimal text. */
export function wIntKey(k: unknown, min: number, max: number): number {
  if (typeof k === "string" && /^-?(0|[1-9][0-9]*)$/.test(k)) return wInt(Number(k), min, max);
  return wInt(k, min, max);
}

/** A bigint map key, as `wIntKey`. */
export function wBigIntKey(k: unknown, min: bigint, max: bigint): bigint {
  if (typeof k === "string" && /^-?(0|[1-9][0-9]*)$/.test(k)) return wBigInt(BigInt(k), min, max);
  return wBigInt(k, min, max);
}

/** A decoded finite number (ints accepted). */
export function wF64(v: unknown): number {
  const x = typeof v === "bigint" ? Number(v) : v;
  if (typeof x !== "number") throw wrongType("number", foundOf(v));
  if (x - x !== 0) throw notFinite(x);
  return x;
}

/** A decoded number narrowed to f32 (`not_finite` when it overflows). */
export function wF32(v: unknown): number {
  const x = wF64(v);
  const y = Math.fround(x);
  if (y - y !== 0) throw f32Overflow(x);
  return y;
}

/** A decoded string of `min..=max` UTF-8 bytes. */
export function wStr(v: unknown, min: number, max: number): string {
  if (typeof v !== "string") throw wrongType("str", foundOf(v));
  checkLen(utf8Length(v), min, max, "bytes");
  return v;
}

/** A decoded bin of `min..=max` bytes, copied into a plain Uint8Array. */
export function wBin(v: unknown, min: number, max: number): Uint8Array {
  if (!(v instanceof Uint8Array)) throw wrongType("bin", foundOf(v));
  checkLen(v.length, min, max, "bytes");
  return new Uint8Array(v);
}

// ---- checked values for encode and toWire -------------------------------------------------

/** An int field's value, type and range checked. */
export function vInt(v: number, min: number, max: number): number {
  if (typeof v !== "number") throw wrongType("int", foundOf(v));
  checkInt(v, min, max);
  return v;
}

/** A `bigint` field's value, type and range checked. */
export function vBigInt(v: bigint, min: bigint, max: bigint): bigint {
  if (typeof v !== "bigint") throw wrongType("int", foundOf(v));
  checkInt(v, min, max);
  return v;
}

/** A bool field's value, type checked. */
export function vBool(v: boolean): boolean {
  if (typeof v !== "boolean") throw wrongType("bool", foundOf(v));
  return v;
}

/** A raw f64 field's value, checked. */
export function vF64(v: number, min: number, max: number): number {
  if (typeof v !== "number") throw wrongType("number", foundOf(v));
  checkF64(v, min, max);
  return v;
}

/** A raw f32 field's value, checked (as f32), narrowed. */
export function vF32(v: number, min: number, max: number): number {
  if (typeof v !== "number") throw wrongType("number", foundOf(v));
  checkF32(v, min, max);
  return Math.fround(v);
}

/** A quantized field's wire int (compact) or its natural value as f64 (named). */
export function vQuant(v: number, scale: number, min: number, max: number, f32: boolean, named: boolean): number {
  if (typeof v !== "number") throw wrongType("number", foundOf(v));
  const q = f32 ? quantizeF32(v, scale, min, max) : quantize(v, scale, min, max);
  return named ? dequantize(q, scale) : q;
}

/** A string field's value: well-formed, `min..=max` UTF-8 bytes. */
export function vStr(v: string, min: number, max: number): string {
  if (typeof v !== "string") throw wrongType("str", foundOf(v));
  checkLen(utf8Length(v), min, max, "bytes");
  return v;
}

/** A bytes field's value: a Uint8Array of `min..=max` bytes. */
export function vBin(v: Uint8Array, min: number, max: number): Uint8Array {
  if (!(v instanceof Uint8Array)) throw wrongType("bin", foundOf(v));
  checkLen(v.length, min, max, "bytes");
  return v;
}

/** A list field's value: an array of `min..=max` elements. */
export function vList<T>(v: readonly T[], min: number, max: number): readonly T[] {
  if (!Array.isArray(v)) throw wrongType("array", foundOf(v));
  checkLen(v.length, min, max, "elements");
  return v;
}

/** A fixed-size array field's value: exactly `len` elements. */
export function vFixed<T>(v: readonly T[], len: number): readonly T[] {
  if (!Array.isArray(v)) throw wrongType("array", foundOf(v));
  if (v.length !== len) throw wrongLength(v.length, len);
  return v;
}

/** A map field's value: a Map of `min..=max` entries. */
export function vMap<K, V>(v: ReadonlyMap<K, V>, min: number, max: number): ReadonlyMap<K, V> {
  if (!(v instanceof Map)) throw wrongType("map", foundOf(v));
  checkLen(v.size, min, max, "entries");
  return v;
}

/** A record's value: a non-null object. */
export function vObject<T>(v: T): T {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw wrongType("map", foundOf(v));
  return v;
}

/** An unknown enum variant name (`kind` of a data enum, or a unit enum's name). */
export function badVariant(v: unknown): TupletError {
  return typeof v === "string" ? unknownName(v) : wrongType("str", foundOf(v));
}

/** A map's entries in wire order: string keys by UTF-8 bytes, int keys by value. */
export function sorted<K extends string | number | bigint, V>(m: ReadonlyMap<K, V>): [K, V][] {
  const entries = Array.from(m);
  entries.sort((a, b) => {
    const x = a[0];
    const y = b[0];
    if (typeof x === "string" && typeof y === "string") return compareUtf8(x, y);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return entries;
}

/** Writes a map key (string or int) of a checked map. */
export function writeKey(w: Writer, k: string | number | bigint): void {
  if (typeof k === "string") w.str(k);
  else if (typeof k === "bigint") w.bigInt(k);
  else w.int(k);
}

// ---- validate ------------------------------------------------------------------------------

/** An issue of `validate`, with its path as segments too. */
export interface PathIssue extends Issue {
  readonly segments?: readonly Seg[];
}

/** Runs one check of `validate`, recording a thrown TupletError as an issue at `path`. */
export function check(path: readonly Seg[], issues: Issue[], f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (!(e instanceof TupletError)) throw e;
    const segments = path.concat(e.segments);
    const issue: PathIssue = { ...issueAt(e.code, segments, e.detail), segments };
    issues.push(issue);
    return false;
  }
}

/** Writes a quantized field: its wire int (compact) or its natural value as f64 (named). */
export function writeQuant(w: Writer, v: number, scale: number, min: number, max: number, f32: boolean, named: boolean): void {
  const q = vQuant(v, scale, min, max, f32, named);
  if (named) w.f64(q);
  else w.int(q);
}

/** A raw f32 read from the wire, checked against its range. */
export function inF32(x: number, min: number, max: number): number {
  checkF32(x, min, max);
  return x;
}

/** A raw f64 read from the wire, checked against its range. */
export function inF64(x: number, min: number, max: number): number {
  checkF64(x, min, max);
  return x;
}

/** A value that must be an array (`wrong_type` otherwise). */
export function vArr(v: unknown): void {
  if (!Array.isArray(v)) throw wrongType("array", foundOf(v));
}

/** A value that must be a Map (`wrong_type` otherwise). */
export function vMapType(v: unknown): void {
  if (!(v instanceof Map)) throw wrongType("map", foundOf(v));
}
