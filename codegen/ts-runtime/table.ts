/**
 * The cold paths without straight-line code per type: `validate` and the named shape that
 * `X$write` writes (`named.ts` reads it along the same tables). Each record, struct variant and data enum is described by a small table the
 * generated module declares (`X$t`), and this file walks a value along it. `validate` records
 * every issue at its canonical path (`p[1]`, `items[3].name`, `scores["ann"]`) in the order the
 * Rust `validate_at` reports them; `writeNamed` writes the same bytes as the Rust derive's named
 * shape (legacy keys, arrays spread over their keys, quantized floats as natural f64). The
 * compact shape, `encode` and `decode` stay straight-line. Part of the package's runtime
 * (hand-written, embedded by the emitter from codegen/ts-runtime).
 */

import type { Issue, Seg } from "./errors.js";
import { checkLen, duplicate, missing, unknownName, unknownNumber, wrongLength } from "./checks.js";
import { dequantize, dequantizeF32, quantize } from "./quant.js";
import { leave, readArrayLen, readBin, readBool, readMapLen, readStr, tryNil, type Reader } from "./reader.js";
import { readBigInt, readBigIntKey, readF32, readF64, readInt, readIntKey, readVariant } from "./reader_num.js";
import type { Writer } from "./writer.js";
import { TAG_MAX } from "./limits.js";
import {
  atIndex,
  atKey,
  badVariant,
  check,
  inF32,
  inF64,
  sorted,
  vArr,
  vBigInt,
  vBin,
  vBool,
  vF32,
  vF64,
  vFixed,
  vInt,
  vList,
  vMap,
  vMapType,
  vObject,
  vQuant,
  vStr,
} from "./values.js";

/**
 * What a value holds: an array whose first element is its kind (one of the `k*` objects below,
 * each with its `validate`, named-write and named-read steps, so a bundle keeps only the kinds
 * its tables name), then bounds and inner descriptors:
 * `kBool`; `kInt` [min, max]; `kBig` [min, max]; `kQuant` [scale, qmin, qmax, f32 ? 1 : 0];
 * `kF32` and `kF64` [min, max] (no bounds: no range); `kStr` [min, max] (UTF-8 bytes);
 * `kBin` [min, max]; `kOpt` [inner]; `kList` [inner, min, max] (no bounds: unbounded);
 * `kFixed` [inner, len]; `kMap` [key, value, min, max] (no bounds: unbounded);
 * `kType` [X$validate, X$write, X$read] (a named type).
 */
export type TNode = readonly [TKind, ...TPart[]];

/** One element of a descriptor. */
export type TPart = number | bigint | TNode | TFn;

/** A named type's `X$validate`, `X$write` or `X$read`. */
export type TFn = (a: never, b: never, c: never) => unknown;

/** A descriptor kind: how the cold paths check, write (named shape) and read (named shape) a value of it. */
export interface TKind {
  /** Records every issue of `x`. */
  readonly v: (n: TNode, x: unknown, path: Path, issues: Issue[]) => void;
  /** Writes `x` in the named shape (or, `named` false, the compact one), checking it first (TupletError). */
  readonly w: (w: Writer, n: TNode, x: unknown, named: boolean) => void;
  /** Reads a value in the named shape (a quantized float as its natural f64) or, `named` false, the compact one: the checks of the straight-line compact read. */
  readonly r: (r: Reader, n: TNode, named: boolean) => unknown;
}

/**
 * A record's fields in slot order (reserved slots left out): the TypeScript name, the
 * descriptor, and the named-shape key when it is not the name (a legacy alias, also read) or
 * the keys a fixed array is spread over.
 */
export type TFields = readonly (readonly [string, TNode] | readonly [string, TNode, string | readonly string[]])[];

/** A data enum's variants: name, then nothing (unit), a descriptor (newtype: `value`) or a fields table (struct). */
export type TVariants = readonly (readonly [string] | readonly [string, TNode] | readonly [string, TFields, 1])[];

type Path = Seg[];
type Validate = (v: unknown, path: Path, issues: Issue[]) => void;
type Write = (w: Writer, v: unknown, named: boolean) => void;
type A = readonly [TKind, never, never, never, never];

/** The largest f32, the bound of an f32 without a range. */
const F32_MAX = 3.4028234663852886e38;

/** Records every issue of `x` as the descriptor `n` says. */
export function vNode(n: TNode, x: unknown, path: Path, issues: Issue[]): void {
  n[0].v(n, x, path, issues);
}

/** Writes `x` in the named (or compact) shape as the descriptor `n` says, checking it first (TupletError). */
function wNode(w: Writer, n: TNode, x: unknown, named: boolean): void {
  n[0].w(w, n, x, named);
}

/** Reads one value in the named (or compact) shape as the descriptor `n` says. */
export function readNode(r: Reader, n: TNode, named: boolean): unknown {
  return n[0].r(r, n, named);
}

/** A kind whose value is one checked scalar: `c` checks (and converts) it, `put` writes it, `get` reads it. */
function scalar<T>(c: (x: T, a: A) => unknown, put: (w: Writer, y: never) => void, get: (r: Reader, a: A) => unknown): TKind {
  return {
    v: (n, x, path, issues) => void check(path, issues, () => c(x as T, n as A)),
    w: (w, n, x) => put(w, c(x as T, n as A) as never),
    r: (r, n) => get(r, n as A),
  };
}

/** `bool`. */
export const kBool: TKind = /*@__PURE__*/ scalar((x: boolean) => vBool(x), (w, y) => w.bool(y), (r) => readBool(r));

/** An int that fits a `number`: [min, max]. */
export const kInt: TKind = /*@__PURE__*/ scalar((x: number, a) => vInt(x, a[1], a[2]), (w, y) => w.int(y), (r, a) => readInt(r, a[1], a[2]));

/** A `bigint`: [min, max]. */
export const kBig: TKind = /*@__PURE__*/ scalar((x: bigint, a) => vBigInt(x, a[1], a[2]), (w, y) => w.bigInt(y), (r, a) => readBigInt(r, a[1], a[2]));

/** A quantized float: [scale, qmin, qmax, f32 ? 1 : 0]; the named shape holds its natural f64. */
export const kQuant: TKind = {
  v: (n, x, path, issues) => {
    const a = n as A;
    check(path, issues, () => vQuant(x as number, a[1], a[2], a[3], a[4] === 1, false));
  },
  w: (w, n, x, named) => {
    const a = n as A;
    const q = vQuant(x as number, a[1], a[2], a[3], a[4] === 1, named);
    if (named) w.f64(q);
    else w.int(q);
  },
  r: (r, n, named) => {
    const a = n as A;
    const q = named ? quantize(readF64(r), a[1], a[2], a[3]) : readInt(r, a[2], a[3]);
    return a[4] === 1 ? dequantizeF32(q, a[1]) : dequantize(q, a[1]);
  },
};

/** A raw float kind: its check, write and read (`max` bounds it without a range). */
function raw(c: (v: number, min: number, max: number) => number, max: number, f32: boolean): TKind {
  const cv = (x: unknown, n: TNode): number => (n.length > 1 ? c(x as number, n[1] as number, n[2] as number) : c(x as number, -max, max));
  return {
    v: (n, x, path, issues) => void check(path, issues, () => cv(x, n)),
    w: (w, n, x) => (f32 ? w.f32(cv(x, n)) : w.f64(cv(x, n))),
    r: (r, n) => {
      const y = f32 ? readF32(r) : readF64(r);
      return n.length > 1 ? (f32 ? inF32 : inF64)(y, n[1] as number, n[2] as number) : y;
    },
  };
}

/** An `f32`: [min, max] or no range. */
export const kF32: TKind = /*@__PURE__*/ raw(vF32, F32_MAX, true);

/** An `f64`: [min, max] or no range. */
export const kF64: TKind = /*@__PURE__*/ raw(vF64, 1.7976931348623157e308, false);

/** A string: [min, max] UTF-8 bytes. */
export const kStr: TKind = /*@__PURE__*/ scalar((x: string, a) => vStr(x, a[1], a[2]), (w, y) => w.str(y), (r, a) => readStr(r, a[1], a[2]));

/** Bytes: [min, max]. */
export const kBin: TKind = /*@__PURE__*/ scalar((x: Uint8Array, a) => vBin(x, a[1], a[2]), (w, y) => w.bin(y), (r, a) => readBin(r, a[1], a[2]));

/** An option: [inner]; absent is `undefined`, nil on the wire. */
export const kOpt: TKind = {
  v: (n, x, path, issues) => {
    if (x !== undefined) vNode(n[1] as TNode, x, path, issues);
  },
  w: (w, n, x, named) => (x === undefined ? w.nil() : wNode(w, n[1] as TNode, x, named)),
  r: (r, n, named) => (tryNil(r) ? undefined : readNode(r, n[1] as TNode, named)),
};

/** A list ([inner, min, max], no bounds: unbounded) or a fixed array ([inner, len]). */
function seq(list: boolean): TKind {
  return {
    v: (n, x, path, issues) => {
      const a = n as A;
      if (!check(path, issues, () => (list ? vArr(x) : vFixed(x as unknown[], a[2])))) return;
      const xs = x as unknown[];
      if (list && n.length > 2) check(path, issues, () => checkLen(xs.length, a[2], a[3], "elements"));
      let i = 0;
      for (const y of xs) {
        path.push(i++);
        vNode(a[1], y, path, issues);
        path.pop();
      }
    },
    w: (w, n, x, named) => {
      const a = n as A;
      let xs: readonly unknown[];
      if (!list) xs = vFixed(x as unknown[], a[2]);
      else if (n.length > 2) xs = vList(x as unknown[], a[2], a[3]);
      else {
        vArr(x);
        xs = x as unknown[];
      }
      w.arrayLen(xs.length);
      for (const y of xs) wNode(w, a[1], y, named);
    },
    r: (r, n, named) => {
      const a = n as A;
      const len = readArrayLen(r);
      if (!list) {
        if (len !== a[2]) throw wrongLength(len, a[2]);
      } else if (n.length > 2) checkLen(len, a[2], a[3], "elements");
      else checkLen(len, 0, 4294967295, "elements");
      const xs: unknown[] = [];
      let i = 0;
      try {
        for (; i < len; i++) xs.push(readNode(r, a[1], named));
      } catch (e) {
        throw atIndex(e, i);
      }
      leave(r);
      return xs;
    },
  };
}

/** A list: [inner, min, max] (no bounds: unbounded). */
export const kList: TKind = /*@__PURE__*/ seq(true);

/** A fixed-size array: [inner, len]. */
export const kFixed: TKind = /*@__PURE__*/ seq(false);

/** A map: [key, value, min, max] (no bounds: unbounded); entries in wire order when written. */
export const kMap: TKind = {
  v: (n, x, path, issues) => {
    const a = n as A;
    if (!check(path, issues, () => vMapType(x))) return;
    const m = x as Map<unknown, unknown>;
    if (n.length > 3) check(path, issues, () => checkLen(m.size, a[3], a[4], "entries"));
    for (const [k, y] of m) {
      path.push({ key: String(k) });
      vNode(a[1], k, path, issues);
      vNode(a[2], y, path, issues);
      path.pop();
    }
  },
  w: (w, n, x, named) => {
    const a = n as A;
    let m: ReadonlyMap<string | number | bigint, unknown>;
    if (n.length > 3) m = vMap(x as Map<string, unknown>, a[3], a[4]);
    else {
      vMapType(x);
      m = x as Map<string, unknown>;
    }
    w.mapLen(m.size);
    for (const [k, y] of sorted(m)) {
      wNode(w, a[1], k, named);
      wNode(w, a[2], y, named);
    }
  },
  r: (r, n, named) => {
    const a = n as A;
    const len = readMapLen(r);
    if (n.length > 3) checkLen(len, a[3], a[4], "entries");
    else checkLen(len, 0, 4294967295, "entries");
    const m = new Map<unknown, unknown>();
    const kn = a[1] as TNode;
    for (let j = 0; j < len; j++) {
      const k = (kn[0] === kInt ? readIntKey(r, kn[1] as number, kn[2] as number) : kn[0] === kBig ? readBigIntKey(r, kn[1] as bigint, kn[2] as bigint) : readNode(r, kn, named)) as string | number | bigint;
      if (m.has(k)) throw duplicate(k).inKey(k);
      let x: unknown;
      try {
        x = readNode(r, a[2], named);
      } catch (e) {
        throw atKey(e, k);
      }
      m.set(k, x);
    }
    leave(r);
    return m;
  },
};

/** A named type: [X$validate, X$write, X$read]. */
export const kType: TKind = {
  v: (n, x, path, issues) => (n[1] as unknown as Validate)(x, path, issues),
  w: (w, n, x, named) => (n[2] as unknown as Write)(w, x, named),
  r: (r, n) => (n[3] as unknown as (r: Reader) => unknown)(r),
};

// ---- validate ------------------------------------------------------------------------------

/**
 * A record's fields: a required one that is absent (or `undefined`) is `missing_field` at its
 * path, as a named map without its key or a short tuple is when read; `null` is a value, nil,
 * that the field's type checks (`wrong_type ... found nil`).
 */
function vFields(v: Record<string, unknown>, fs: TFields, path: Path, issues: Issue[]): void {
  for (const f of fs) {
    const x = v[f[0]];
    if (x === undefined && f[1][0] !== kOpt) {
      check(path, issues, () => {
        throw missing(f[0]);
      });
      continue;
    }
    path.push(f[0]);
    vNode(f[1], x, path, issues);
    path.pop();
  }
}

/** A data enum's variant names, in declaration order (for `unknown_variant`'s message). */
export function variantNames(vs: TVariants): string[] {
  return vs.map((x) => x[0]);
}

/** Records every issue of a record's value `v`, fields in slot order. */
export function vRecord(v: unknown, fs: TFields, path: Path, issues: Issue[]): void {
  if (check(path, issues, () => vObject(v))) vFields(v as Record<string, unknown>, fs, path, issues);
}

/**
 * Records every issue of a data enum's value `v`: its `kind`, then the variant's value or
 * fields; an open enum also accepts `{ kind: "unknown", tag }`.
 */
export function vEnum(v: unknown, vs: TVariants, open: boolean, path: Path, issues: Issue[]): void {
  if (!check(path, issues, () => vObject(v))) return;
  const o = v as Record<string, unknown>;
  const kind = o["kind"];
  for (const x of vs) {
    if (x[0] !== kind) continue;
    if (x.length === 3) vFields(o, x[1], path, issues);
    else if (x.length === 2) vNode(x[1], o["value"], path, issues);
    return;
  }
  if (open && kind === "unknown") {
    check(path, issues, () => vInt(o["tag"] as number, 0, TAG_MAX));
    return;
  }
  check(path, issues, () => {
    throw badVariant(kind, variantNames(vs));
  });
}

// ---- the named shape, written --------------------------------------------------------------

/**
 * Writes a record's (or struct variant's) fields as its named map: absent options left out,
 * each field under its key (a spread array one key per element).
 */
export function writeNamed(w: Writer, v: unknown, fs: TFields): void {
  const o = v as Record<string, unknown>;
  let len = 0;
  for (const f of fs) {
    const key = f[2];
    if (typeof key === "object") len += key.length;
    else if (f[1][0] !== kOpt || o[f[0]] !== undefined) len++;
  }
  w.recordLen(len);
  for (const f of fs) {
    const x = o[f[0]];
    const key = f[2];
    const n = f[1];
    if (typeof key === "object") {
      const xs = vFixed(x as unknown[], key.length);
      for (let i = 0; i < key.length; i++) {
        w.str(key[i]!);
        wNode(w, n[1] as TNode, xs[i], true);
      }
      continue;
    }
    if (n[0] === kOpt) {
      if (x === undefined) continue;
      w.str(key ?? f[0]);
      wNode(w, n[1] as TNode, x, true);
      continue;
    }
    w.str(key ?? f[0]);
    wNode(w, n, x, true);
  }
}

// ---- both shapes, written (the cold records of a package with `[ts] hot`) -----------------

/**
 * Writes a record's value `v` as its `X$write` would in straight-line code: checked as an
 * object, then the named map (`writeNamed`) or the compact array (every field in slot order,
 * trailing absent options trimmed). Only for records without reserved slots.
 */
export function writeRecord(w: Writer, v: unknown, fs: TFields, named: boolean): void {
  vObject(v);
  if (named) return writeNamed(w, v, fs);
  const o = v as Record<string, unknown>;
  let len = fs.length;
  while (len > 0 && fs[len - 1]![1][0] === kOpt && o[fs[len - 1]![0]] === undefined) len--;
  w.arrayLen(len);
  for (let i = 0; i < len; i++) wNode(w, fs[i]![1], o[fs[i]![0]], false);
}

// ---- closed unit enums (the cold ones of a package with `[ts] hot`) -----------------------

/** A closed unit enum's numbers (`X$numbers`, `as const`): variant name -> number (safe integers). */
type Units = { readonly [name: string]: number };

/** Each unit enum's numbers -> names, built on first use. */
const namesOf = new WeakMap<Units, Map<number, string>>();

function unitName(o: Units, n: number): string | undefined {
  let m = namesOf.get(o);
  if (m === undefined) {
    m = new Map();
    for (const k of Object.keys(o)) m.set(o[k]!, k);
    namesOf.set(o, m);
  }
  return m.get(n);
}

const own = (o: Units, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Reads a closed unit enum as its straight-line `X$read` would: a number or (named shape) a name. */
export function readUnit(r: Reader, o: Units): string {
  const c = r.buf[r.pos]!;
  const b = c < 0x80 ? ((r.pos += 1), c) : readVariant(r);
  if (typeof b === "string") {
    if (own(o, b)) return b;
    throw unknownName(b, Object.keys(o));
  }
  const n = typeof b === "number" || b < -9007199254740991n || b > 9007199254740991n ? b : Number(b);
  const x = typeof n === "number" ? unitName(o, n) : undefined;
  if (x !== undefined) return x;
  throw unknownNumber(n);
}

/** A closed unit enum's number (`X$num`): its variant's, or `badVariant`. */
export function unitNum(v: unknown, o: Units): number {
  if (typeof v === "string" && own(o, v)) return o[v]!;
  throw badVariant(v, Object.keys(o));
}

/** Writes a closed unit enum (`X$write`): its number, or its name in the named shape. */
export function writeUnit(w: Writer, v: unknown, o: Units, named: boolean): void {
  const n = unitNum(v, o);
  if (named) w.str(v as string);
  else w.int(n);
}

/**
 * A unit enum's constant (`Channel`) from its numbers (`Channel$numbers`): each variant mapped
 * to its own name, a value of the enum's type (`Channel.Trade === "Trade"`). `fromEntries`
 * defines each key as data, so a variant named `__proto__` is a property like any other.
 */
export function unitNames<O extends Units | { readonly [name: string]: number | bigint }>(o: O): { readonly [K in keyof O]: K } {
  return Object.fromEntries(Object.keys(o).map((k) => [k, k])) as { readonly [K in keyof O]: K };
}
