/**
 * Quantization (WIRE.md, "Quantized floats"): `q = round_half_away_from_zero(x × scale)` in
 * f64 (an f32 field's value is widened exactly first: `Math.fround(x)`); decoding is
 * `q / scale` in f64, narrowed with `Math.fround` for f32 fields. Not bare `Math.round`,
 * which rounds -2.5 to -2.
 */

import { notFinite, outOfRange } from "./fail.js";
import { floatText } from "./format.js";

/** Rounds half away from zero, as Rust's `f64::round` (`-0.4` gives `0`, never `-0`). */
export function roundHalfAwayFromZero(x: number): number {
  const r = x < 0 ? -Math.round(-x) : Math.round(x);
  return r === 0 ? 0 : r;
}

/**
 * The wire integer for `x` at `scale`, checked against the wire bounds `min..=max` (from
 * `wireBound`). NaN or an infinity is `not_finite` ("expected a finite number, found nan");
 * a `q` outside the bounds is `out_of_range` ("{x} is outside {min / scale}..={max / scale}",
 * natural units, numbers printed as the reader prints them).
 */
export function quantize(x: number, scale: number, min: number, max: number): number {
  if (x - x !== 0) throw notFinite(x);
  const q = roundHalfAwayFromZero(x * scale);
  if (!(q >= min && q <= max)) {
    throw outOfRange(floatText(x), floatText(min / scale), floatText(max / scale));
  }
  return q;
}

/** `quantize` for an f32 field: the value narrowed to f32 first (`Math.fround`). */
export function quantizeF32(x: number, scale: number, min: number, max: number): number {
  return quantize(Math.fround(x), scale, min, max);
}

/** The natural value of a wire integer: `q / scale` in f64. */
export function dequantize(q: number, scale: number): number {
  return q / scale;
}

/** The natural value of a wire integer for an f32 field: `q / scale` in f64, then narrowed. */
export function dequantizeF32(q: number, scale: number): number {
  return Math.fround(q / scale);
}

/** A range bound in natural units as a wire integer: `round_half_away_from_zero(bound × scale)`. */
export function wireBound(bound: number, scale: number): number {
  return roundHalfAwayFromZero(bound * scale);
}
