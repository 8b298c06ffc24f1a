/**
 * `toWire` without code of its own: a `Writer` that builds JS data instead of bytes, fed by
 * the type's `X$write`. Arrays are arrays; a record's named map (and an enum's
 * `{ Variant: ... }`, `recordLen`) a plain object; a map field (`mapLen`) a `Map` in the order
 * written (wire order); ints numbers or bigints; f32 narrowed; bin the value itself. Part of
 * the package's runtime (hand-written, embedded by the emitter from
 * codegen/ts-runtime).
 */

import { Writer } from "./writer.js";

/** A container being filled: its value, the values still to come, and a pending map key. */
interface Open {
  readonly c: unknown[] | Map<unknown, unknown> | Record<string, unknown>;
  left: number;
  key: unknown;
  keyed: boolean;
}

/** A Writer that builds the JS value of what is written (one value: call `value()` after). */
export class ValueWriter extends Writer {
  private readonly open: Open[] = [];
  private root: unknown;

  constructor() {
    super(16);
  }

  /** The value written. */
  value(): unknown {
    return this.root;
  }

  override nil(): void {
    this.put(null);
  }

  override bool(v: boolean): void {
    this.put(v);
  }

  override int(v: number): void {
    this.put(v);
  }

  override bigInt(v: bigint): void {
    this.put(v);
  }

  override f32(v: number): void {
    this.put(Math.fround(v));
  }

  override f64(v: number): void {
    this.put(v);
  }

  override str(v: string): void {
    this.put(v);
  }

  override bin(v: Uint8Array): void {
    this.put(v);
  }

  override arrayLen(len: number): void {
    this.enter([], len);
  }

  override mapLen(len: number): void {
    this.enter(new Map(), 2 * len);
  }

  override recordLen(len: number): void {
    this.enter({}, 2 * len);
  }

  override raw(_bytes: Uint8Array): void {
    throw new Error("ValueWriter: raw bytes have no JS value");
  }

  private enter(c: Open["c"], left: number): void {
    this.put(c);
    if (left > 0) this.open.push({ c, left, key: undefined, keyed: false });
  }

  private put(v: unknown): void {
    const top = this.open[this.open.length - 1];
    if (top === undefined) {
      this.root = v;
      return;
    }
    const c = top.c;
    if (Array.isArray(c)) c.push(v);
    else if (!top.keyed) {
      top.key = v;
      top.keyed = true;
    } else {
      if (c instanceof Map) c.set(top.key, v);
      else c[top.key as string] = v;
      top.keyed = false;
    }
    if (--top.left === 0) this.open.pop();
  }
}
