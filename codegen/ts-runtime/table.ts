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
import { checkLen } from "./checks.js";
import type { Writer } from "./writer.js";
import {
  badVariant,
  check,
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
 * What a value holds: an array whose first element is its kind, then bounds and inner
 * descriptors:
 * 0 bool; 1 int [min, max]; 2 bigint [min, max]; 3 quantized float [scale, qmin, qmax, f32 ? 1 : 0];
 * 4 f32 and 5 f64 [min, max] (no bounds: no range); 6 string [min, max] (UTF-8 bytes);
 * 7 bytes [min, max]; 8 option [inner]; 9 list [inner, min, max] (no bounds: unbounded);
 * 10 fixed array [inner, len]; 11 map [key, value, min, max] (no bounds: unbounded);
 * 12 a named type [X$validate, X$write, X$read].
 */
export type TNode = readonly TPart[];

/** One element of a descriptor. */
export type TPart = number | bigint | TNode | TFn;

/** A named type's `X$validate`, `X$write` or `X$read`. */
export type TFn = (a: never, b: never, c: never) => unknown;

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

/** The smallest and largest f32, the bounds of an f32 without a range. */
const F32_MAX = 3.4028234663852886e38;

/** The bounds of a raw float's descriptor. */
function fbounds(n: TNode): [number, number] {
  if (n.length > 1) return [n[1] as number, n[2] as number];
  return n[0] === 4 ? [-F32_MAX, F32_MAX] : [-Number.MAX_VALUE, Number.MAX_VALUE];
}

// ---- validate ------------------------------------------------------------------------------

/** Records every issue of `x` as the descriptor `n` says. */
export function vNode(n: TNode, x: unknown, path: Path, issues: Issue[]): void {
  const a = n as unknown as readonly [number, never, never, never, never];
  switch (n[0]) {
    case 0:
      check(path, issues, () => vBool(x as boolean));
      return;
    case 1:
      check(path, issues, () => vInt(x as number, a[1], a[2]));
      return;
    case 2:
      check(path, issues, () => vBigInt(x as bigint, a[1], a[2]));
      return;
    case 3:
      check(path, issues, () => vQuant(x as number, a[1], a[2], a[3], a[4] === 1, false));
      return;
    case 4:
    case 5: {
      const [min, max] = fbounds(n);
      check(path, issues, () => (n[0] === 4 ? vF32 : vF64)(x as number, min, max));
      return;
    }
    case 6:
      check(path, issues, () => vStr(x as string, a[1], a[2]));
      return;
    case 7:
      check(path, issues, () => vBin(x as Uint8Array, a[1], a[2]));
      return;
    case 8:
      if (x !== undefined) vNode(a[1], x, path, issues);
      return;
    case 9:
    case 10: {
      const list = n[0] === 9;
      if (!check(path, issues, () => (list ? vArr(x) : vFixed(x as unknown[], a[2])))) return;
      const xs = x as unknown[];
      if (list && n.length > 2) check(path, issues, () => checkLen(xs.length, a[2], a[3], "elements"));
      let i = 0;
      for (const y of xs) {
        path.push(i++);
        vNode(a[1], y, path, issues);
        path.pop();
      }
      return;
    }
    case 11: {
      if (!check(path, issues, () => vMapType(x))) return;
      const m = x as Map<unknown, unknown>;
      if (n.length > 3) check(path, issues, () => checkLen(m.size, a[3], a[4], "entries"));
      for (const [k, y] of m) {
        path.push({ key: String(k) });
        vNode(a[1], k, path, issues);
        vNode(a[2], y, path, issues);
        path.pop();
      }
      return;
    }
    default:
      (a[1] as unknown as Validate)(x, path, issues);
  }
}

function vFields(v: Record<string, unknown>, fs: TFields, path: Path, issues: Issue[]): void {
  for (const f of fs) {
    path.push(f[0]);
    vNode(f[1], v[f[0]], path, issues);
    path.pop();
  }
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
  const kind = o.kind;
  for (const x of vs) {
    if (x[0] !== kind) continue;
    if (x.length === 3) vFields(o, x[1], path, issues);
    else if (x.length === 2) vNode(x[1], o.value, path, issues);
    return;
  }
  if (open && kind === "unknown") {
    check(path, issues, () => vInt(o.tag as number, 0, 4294967295));
    return;
  }
  check(path, issues, () => {
    throw badVariant(kind);
  });
}

// ---- the named shape, written --------------------------------------------------------------

/** Writes `x` in the named shape as the descriptor `n` says, checking it first (TupletError). */
function wNode(w: Writer, n: TNode, x: unknown): void {
  const a = n as unknown as readonly [number, never, never, never, never];
  switch (n[0]) {
    case 0:
      return w.bool(vBool(x as boolean));
    case 1:
      return w.int(vInt(x as number, a[1], a[2]));
    case 2:
      return w.bigInt(vBigInt(x as bigint, a[1], a[2]));
    case 3:
      return w.f64(vQuant(x as number, a[1], a[2], a[3], a[4] === 1, true));
    case 4: {
      const [min, max] = fbounds(n);
      return w.f32(vF32(x as number, min, max));
    }
    case 5: {
      const [min, max] = fbounds(n);
      return w.f64(vF64(x as number, min, max));
    }
    case 6:
      return w.str(vStr(x as string, a[1], a[2]));
    case 7:
      return w.bin(vBin(x as Uint8Array, a[1], a[2]));
    case 8:
      if (x === undefined) return w.nil();
      return wNode(w, a[1], x);
    case 9:
    case 10: {
      let xs: readonly unknown[];
      if (n[0] === 10) xs = vFixed(x as unknown[], a[2]);
      else if (n.length > 2) xs = vList(x as unknown[], a[2], a[3]);
      else {
        vArr(x);
        xs = x as unknown[];
      }
      w.arrayLen(xs.length);
      for (const y of xs) wNode(w, a[1], y);
      return;
    }
    case 11: {
      let m: ReadonlyMap<string | number | bigint, unknown>;
      if (n.length > 3) m = vMap(x as Map<string, unknown>, a[3], a[4]);
      else {
        vMapType(x);
        m = x as Map<string, unknown>;
      }
      w.mapLen(m.size);
      for (const [k, y] of sorted(m)) {
        wNode(w, a[1], k);
        wNode(w, a[2], y);
      }
      return;
    }
    default:
      (a[2] as unknown as Write)(w, x, true);
  }
}

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
    else if (f[1][0] !== 8 || o[f[0]] !== undefined) len++;
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
        wNode(w, n[1] as TNode, xs[i]);
      }
      continue;
    }
    if (n[0] === 8) {
      if (x === undefined) continue;
      w.str(key ?? f[0]);
      wNode(w, n[1] as TNode, x);
      continue;
    }
    w.str(key ?? f[0]);
    wNode(w, n, x);
  }
}
