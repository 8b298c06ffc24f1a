/**
 * Helpers the generated codecs call: reading already-decoded JS values (`fromWire`), checked
 * writes (`encode`, `toWire`), validation reports, path prefixes and map key order. Part of the
 * package's runtime (hand-written, embedded by the emitter from codegen/ts-runtime).
 */

import { Code, TupletError, issueAt, type Issue, type Seg } from "./errors.js";
import { missing, unknownName, wrongLength, checkF32, checkF64, checkInt, checkLen } from "./checks.js";
import { wrongType } from "./fail.js";
import { quantize, quantizeF32, dequantize } from "./quant.js";
import { compareUtf8, utf8Length } from "./utf8.js";
import type { Writer } from "./writer.js";
import { DEFAULT_LIMITS } from "./limits.js";

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

// ---- fromWire: already-decoded JS values, packed for the byte decoder ----------------------

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

/**
 * Packs an already-decoded JS value (what msgpackr or @msgpack/msgpack give: ints
 * `number | bigint`, nil `null | undefined`, bin `Uint8Array`, maps plain objects or `Map`s)
 * back into msgpack, for `fromWire` to read with the type's byte decoder: the same checks,
 * codes and paths. An integral number is an int, any other number (and `-0`) a float64; a
 * plain object's keys are strings (the reader's `textKeys` reads canonical decimal text as an
 * int key); anything msgpack has no kind for is written as an ext (`wrong_type`, found ext).
 * Past the reader's caps (depth, elements) it writes nil: the reader stops before reading it,
 * so a cyclic or huge value costs no more than the caps.
 */
export function packWire(w: Writer, v: unknown): void {
  left = DEFAULT_LIMITS.maxElements + 1;
  pack(w, v, 0);
}

/** Elements `packWire` still writes before it writes nil. */
let left = 0;

function pack(w: Writer, v: unknown, depth: number): void {
  if (v === null || v === undefined) return w.nil();
  switch (typeof v) {
    case "boolean":
      return w.bool(v);
    case "number":
      if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER && !Object.is(v, -0)) return w.int(v);
      return w.f64(v);
    case "bigint":
      if (v >= -9223372036854775808n && v <= 18446744073709551615n) return w.bigInt(v);
      return w.f64(Number(v));
    case "string":
      return w.str(v);
    case "object": {
      if (v instanceof Uint8Array) return w.bin(v);
      if (depth > DEFAULT_LIMITS.maxDepth || left <= 0) return w.nil();
      const d = depth + 1;
      if (Array.isArray(v)) {
        w.arrayLen(v.length);
        left -= v.length;
        for (const x of v as unknown[]) pack(w, x, d);
        return;
      }
      const m = v instanceof Map ? (v as Map<unknown, unknown>) : undefined;
      const keys = m === undefined ? Object.keys(v) : undefined;
      const n = m !== undefined ? m.size : keys!.length;
      w.mapLen(n);
      left -= 2 * n;
      if (m !== undefined) {
        for (const [k, x] of m) {
          pack(w, k, d);
          pack(w, x, d);
        }
      } else {
        for (const k of keys!) {
          w.str(k);
          pack(w, (v as Record<string, unknown>)[k], d);
        }
      }
      return;
    }
    default:
      w.raw(EXT);
  }
}

/** A one-byte ext (type 1): what `packWire` writes for a value msgpack has no kind for. */
const EXT = /*@__PURE__*/ new Uint8Array([0xd4, 0x01, 0x00]);

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

/**
 * One flag of a flag set's value, checked: present (`missing_field`) and a bool
 * (`wrong_type`), either error at the flag's name (`buttons.jump`), as a record's field.
 */
export function vFlag(v: object, name: string): boolean {
  const b = (v as Record<string, unknown>)[name];
  if (b === undefined) throw missing(name);
  if (typeof b !== "boolean") throw wrongType("bool", foundOf(b)).inField(name);
  return b;
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

/** An unknown enum variant name (`kind` of a data enum, or a unit enum's name), with the names it has. */
export function badVariant(v: unknown, expected: readonly string[]): TupletError {
  return typeof v === "string" ? unknownName(v, expected) : wrongType("str", foundOf(v));
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
