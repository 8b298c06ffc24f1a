/**
 * Constructors for every wire-layer error, one per message template of the Rust runtime
 * (`runtime/src/wire/fail.rs`, WIRE.md "Errors"). Each returns the error; callers throw it.
 */

import { TupletError } from "./errors.js";
import { floatText, rustDebugStr, units } from "./format.js";

/** `truncated`: "input ends inside a value". */
export function truncated(): TupletError {
  return new TupletError("truncated", "input ends inside a value");
}

/** `truncated`: "{count} {unit} declared, {remaining} bytes left". */
export function declared(count: number, unit: "elements" | "entries" | "bytes", remaining: number): TupletError {
  return new TupletError("truncated", `${units(count, unit)} declared, ${units(remaining, "bytes")} left`);
}

/** `reserved_marker`: "reserved byte 0xc1". */
export function reserved(): TupletError {
  return new TupletError("reserved_marker", "reserved byte 0xc1");
}

/** The name of what a marker starts, as `found` in `wrong_type` messages. */
export function foundName(b: number): string {
  if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3)) return "int";
  if (b <= 0x8f || b === 0xde || b === 0xdf) return "map";
  if (b <= 0x9f || b === 0xdc || b === 0xdd) return "array";
  if (b <= 0xbf || (b >= 0xd9 && b <= 0xdb)) return "str";
  switch (b) {
    case 0xc0:
      return "nil";
    case 0xc1:
      return "0xc1";
    case 0xc2:
    case 0xc3:
      return "bool";
    case 0xc4:
    case 0xc5:
    case 0xc6:
      return "bin";
    case 0xca:
      return "float32";
    case 0xcb:
      return "float64";
    default:
      return "ext";
  }
}

/** `wrong_type`: "expected {expected}, found {found}" for the marker `b`; `0xc1` is `reserved_marker`. */
export function unexpected(expected: string, b: number): TupletError {
  if (b === 0xc1) return reserved();
  return new TupletError("wrong_type", `expected ${expected}, found ${foundName(b)}`);
}

/** `wrong_type`: "expected {expected}, found {found}" with a found name given as text. */
export function wrongType(expected: string, found: string): TupletError {
  return new TupletError("wrong_type", `expected ${expected}, found ${found}`);
}

/**
 * `wrong_type` for msgpackr's record extension (`d4 72`, what `new Packr()` and the Colyseus
 * client write for plain objects) where a value is expected: names it and the fix.
 */
export function msgpackrRecord(expected: string): TupletError {
  return new TupletError(
    "wrong_type",
    `expected ${expected}, found a msgpackr record (ext 0x72); send tuples, or encode with useRecords: false`,
  );
}

/** `trailing_bytes`: "{n} bytes after the end of the message". */
export function trailing(n: number): TupletError {
  return new TupletError("trailing_bytes", `${units(n, "bytes")} after the end of the message`);
}

/** `invalid_utf8`: "string is not valid utf-8". */
export function invalidUtf8(): TupletError {
  return new TupletError("invalid_utf8", "string is not valid utf-8");
}

/** `not_finite`: "expected a finite number, found {nan|infinity|-infinity}". */
export function notFinite(x: number): TupletError {
  return new TupletError("not_finite", `expected a finite number, found ${floatText(x)}`);
}

/** `not_finite`: "{value} overflows f32". */
export function f32Overflow(x: number): TupletError {
  return new TupletError("not_finite", `${floatText(x)} overflows f32`);
}

/** `not_integral`: "{value} is not an integer". */
export function notIntegral(x: number): TupletError {
  return new TupletError("not_integral", `${floatText(x)} is not an integer`);
}

/** `out_of_range`: "{value} is outside {min}..={max}" (texts already formatted). */
export function outOfRange(value: string, min: string, max: string): TupletError {
  return new TupletError("out_of_range", `${value} is outside ${min}..=${max}`);
}

/** `too_long`: "{len} bytes, at most {max}". */
export function tooLong(len: number, max: number): TupletError {
  return new TupletError("too_long", `${units(len, "bytes")}, at most ${max}`);
}

/** `too_short`: "{len} bytes, at least {min}". */
export function tooShort(len: number, min: number): TupletError {
  return new TupletError("too_short", `${units(len, "bytes")}, at least ${min}`);
}

/** `too_deep`: "nesting deeper than {max_depth}". */
export function tooDeep(maxDepth: number): TupletError {
  return new TupletError("too_deep", `nesting deeper than ${maxDepth}`);
}

/** `too_many_elements`: "more than {max_elements} elements". */
export function tooManyElements(maxElements: number): TupletError {
  return new TupletError("too_many_elements", `more than ${maxElements} elements`);
}

/** `unknown_message`: "no message has id {id}" (Rust `dispatch::unknown_id`). */
export function unknownMessageId(id: number): TupletError {
  return new TupletError("unknown_message", `no message has id ${id}`);
}

/** `unknown_message`: "no message is named {name:?}", the name Rust-Debug-quoted (Rust `dispatch::unknown_message_name`). */
export function unknownMessageName(name: string): TupletError {
  return new TupletError("unknown_message", `no message is named ${rustDebugStr(name)}`);
}
