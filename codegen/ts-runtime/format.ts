/**
 * Number and string formatting for error messages, character for character as Rust prints
 * them (the message templates are shared with the Rust runtime).
 */

const TWO_POW_64 = 18446744073709551616;

/** Significant digits and the exponent of the first, from a JS number's text (`12.5`, `1.25e+1`). */
function digitsOf(text: string): { digits: string; exp: number } {
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  let exp = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const intPart = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const fracPart = dot < 0 ? "" : mantissa.slice(dot + 1);
  let digits = intPart + fracPart;
  exp += intPart.length - 1;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  exp -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  return { digits: digits.slice(0, end), exp };
}

/** The exact decimal significant digits of a finite, non-zero |x| (trailing zeros removed). */
function exactDigits(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  if (biased !== 0) mant |= 1n << 52n;
  const e2 = Math.max(biased, 1) - 1075;
  const n = e2 >= 0 ? mant << BigInt(e2) : mant * 5n ** BigInt(-e2);
  return n.toString().replace(/0+$/, "");
}

/**
 * The shortest round-trip decimal digits of a finite, non-zero |x| (an f64), and the exponent
 * of the first. When two shortest candidates are equally near x (x's exact decimal is one
 * digit longer and ends in 5, as for f32 values widened to f64), Rust takes the larger
 * magnitude and JS engines may take the smaller: the tie is rounded up here, as Rust does.
 */
function shortest(x: number): { digits: string; exp: number } {
  const s = digitsOf(String(Math.abs(x)));
  if (s.digits.length < 16) return s;
  const exact = exactDigits(x);
  if (exact.length !== s.digits.length + 1 || !exact.endsWith("5") || !exact.startsWith(s.digits)) return s;
  const up = (BigInt(s.digits) + 1n).toString();
  return up.length > s.digits.length ? digitsOf(up.slice(0, 1) + "e" + String(s.exp + 1)) : { digits: up, exp: s.exp };
}

/** Rust's `{}` (Display) for an f64: never an exponent, integral values without `.0`. */
export function rustDisplay(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return sign + "0";
  const { digits, exp } = shortest(x);
  if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length);
  return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
}

/** Rust's `{:e}` (LowerExp) for an f64: `1e300`, `1.5e300`, `-2.5e21`, `1e-7`. */
export function rustExp(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return sign + "0e0";
  const { digits, exp } = shortest(x);
  const mant = digits.length > 1 ? digits.slice(0, 1) + "." + digits.slice(1) : digits;
  return sign + mant + "e" + String(exp);
}

/**
 * A float as message text (Rust `fail::float_text`): integral values below 2^64 in magnitude
 * as plain integers, larger ones in exponent form, others as the shortest round-trip decimal;
 * `nan`, `infinity`, `-infinity` when not finite.
 */
export function floatText(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "infinity";
  if (x === -Infinity) return "-infinity";
  if (Math.abs(x) >= TWO_POW_64) return rustExp(x);
  if (Number.isInteger(x)) return BigInt(x).toString();
  return rustDisplay(x);
}

/** An integer (number or bigint) in decimal, as Rust prints an int. */
export function intText(v: number | bigint): string {
  return typeof v === "bigint" ? v.toString() : BigInt(v).toString();
}

/** Whether Rust's `char::escape_debug` escapes the code point (not printable or grapheme-extending). */
const ESCAPED = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Grapheme_Extend}]$/u;

/** Rust's `{:?}` (Debug) for a str: `"a\"b"`, `"\n"`, `"\u{200b}"`. */
export function rustDebugStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x00) out += "\\0";
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c !== 0x20 && ESCAPED.test(ch)) out += "\\u{" + c.toString(16) + "}";
    else out += ch;
  }
  return out + '"';
}

/** `{n} {unit}` with the unit singular when `n` is 1: `1 byte`, `2 bytes`, `1 entry` (as Rust's `units`). */
export function units(n: number, plural: "bytes" | "elements" | "entries"): string {
  if (n !== 1) return `${n} ${plural}`;
  return plural === "entries" ? "1 entry" : `1 ${plural.slice(0, -1)}`;
}
