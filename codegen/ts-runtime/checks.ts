/**
 * Field-level checks and error constructors that generated codecs call, one per template of
 * the Rust runtime's `support.rs`, so encode, validate and decode report the same code and
 * message for the same problem in both languages.
 */

import { TupletError } from "./errors.js";
import { f32Overflow, notFinite, notIntegral, outOfRange } from "./fail.js";
import { floatText, intText, rustDebugStr, units } from "./format.js";

/**
 * An int value (a JS number or bigint) must be an integer in `min..=max`: NaN or an infinity
 * is `not_finite`, a fraction `not_integral` (as the reader says of a float in an int field),
 * else `out_of_range` ("{v} is outside {min}..={max}").
 */
export function checkInt(v: number | bigint, min: number | bigint, max: number | bigint): void {
  if (typeof v === "number") {
    if (v - v !== 0) throw notFinite(v);
    if (!Number.isInteger(v)) throw notIntegral(v);
  }
  if (v < min || v > max) {
    const text = typeof v === "number" && Math.abs(v) >= 18446744073709551616 ? floatText(v) : intText(v);
    throw outOfRange(text, intText(min), intText(max));
  }
}

/**
 * A raw f64 must be finite ("expected a finite number, found nan", the reader's template) and
 * within `min..=max` ("{v} is outside {min}..={max}", numbers as the reader prints them).
 */
export function checkF64(v: number, min: number, max: number): void {
  if (v - v !== 0) throw notFinite(v);
  if (v < min || v > max) throw outOfRange(floatText(v), floatText(min), floatText(max));
}

/**
 * A raw f32 must be finite and, narrowed to f32 (`Math.fround`), within `min..=max`. A finite
 * value that overflows f32 is `not_finite` ("{v} overflows f32", as the reader says).
 */
export function checkF32(v: number, min: number, max: number): void {
  const y = Math.fround(v);
  if (v - v === 0 && y - y !== 0) throw f32Overflow(v);
  checkF64(y, min, max);
}

/** A length (`unit` "bytes", "elements" or "entries") must lie in `min..=max`. */
export function checkLen(len: number, min: number, max: number, unit: "bytes" | "elements" | "entries"): void {
  if (len > max) throw new TupletError("too_long", `${units(len, unit)}, at most ${max}`);
  if (len < min) throw new TupletError("too_short", `${units(len, unit)}, at least ${min}`);
}

/** `wrong_length`: a fixed-size array arrived with `len` elements instead of `expected`. */
export function wrongLength(len: number, expected: number): TupletError {
  return new TupletError("wrong_length", `${units(len, "elements")}, expected ${expected}`);
}

/** `missing_field`: a required field is absent (path: the field). */
export function missing(name: string): TupletError {
  return new TupletError("missing_field", `missing field ${name}`).inField(name);
}

/**
 * `missing_field` for a compact record's field, without a path: the generated reader's
 * `catch` puts it at the field (`at(e, k)`), as `missing` would.
 */
export function absent(name: string): TupletError {
  return new TupletError("missing_field", `missing field ${name}`);
}

/** `missing_field`: one element of an array spread over legacy keys is absent (path `p[1]`). */
export function missingIndex(name: string, index: number): TupletError {
  return new TupletError("missing_field", `missing field ${name}[${index}]`).inIndex(index).inField(name);
}

/** `duplicate_key`: a key given twice (or an alias together with its canonical name). */
export function duplicate(key: string | number | bigint): TupletError {
  return new TupletError("duplicate_key", `duplicate key ${String(key)}`);
}

/** `unknown_variant`: an enum number no variant has. */
export function unknownNumber(n: number | bigint): TupletError {
  return new TupletError("unknown_variant", `unknown variant number ${intText(n)}`);
}

/**
 * `unknown_variant`: an enum name no variant has, and the names it has, each Rust-Debug-quoted
 * (`unknown variant "room", expected one of "Local", "Trade"`; Rust `support::unknown_name`).
 */
export function unknownName(name: string, expected: readonly string[]): TupletError {
  const text = `unknown variant ${rustDebugStr(name)}`;
  if (expected.length === 0) return new TupletError("unknown_variant", text);
  return new TupletError("unknown_variant", `${text}, expected one of ${expected.map(rustDebugStr).join(", ")}`);
}

/** `unknown_flags`: flag bits no flag has (`0x..`, lowercase hex). */
export function unknownFlags(bits: number | bigint): TupletError {
  return new TupletError("unknown_flags", `unknown flag bits 0x${BigInt(bits).toString(16)}`);
}

/** `wrong_length`: a data enum in the named shape must be a one-key map. */
export function notOneKey(n: number): TupletError {
  return new TupletError("wrong_length", `${n} entries, expected 1 (a one-key map)`);
}
