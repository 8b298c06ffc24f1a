//! Quantization: floats in natural units to wire integers and back, as WIRE.md decides.
//!
//! `q = round_half_away_from_zero(x × scale)`, computed in f64 (an f32 field is widened
//! exactly first, `x as f64`); decoding is `q / scale` in f64, narrowed for f32 fields.
//! TypeScript computes the same with `Math.fround` for the widening; `Math.round` rounds
//! ties up, so the TS runtime must round half away from zero by hand.
//! `tests/fixtures/quant_vectors.json` holds the vectors both languages check.

use crate::error::Error;
use crate::wire::fail::{self, float_text, not_finite};

/// The wire integer for `x` at `scale`: `round_half_away_from_zero(x × scale)` in f64,
/// checked against the wire bounds `min..=max` (from [`wire_bound`]).
///
/// NaN or an infinity is `not_finite`, with the template
/// `expected a finite number, found {nan|infinity|-infinity}`; a `q` outside the bounds is
/// `out_of_range`, with `{x} is outside {min / scale}..={max / scale}` in natural units.
#[inline]
pub fn quantize(x: f64, scale: f64, min: i64, max: i64) -> Result<i64, Error> {
    let y = x * scale;
    // Bounds below 2^51 (every quantized field's: the test folds away when they are
    // constants) take the fast path: the range is checked before rounding, in the float
    // domain: `round(y)` lies in `min..=max` exactly when `y` lies between the two bounds'
    // rounding edges (`rounds_into`), which NaN and the infinities never do.
    if min > -TWO_POW_51_I && max < TWO_POW_51_I {
        if rounds_into(y, min, max) {
            return Ok(round_in_range(y));
        }
        return Err(quantize_error(x, scale, min, max));
    }
    quantize_general(x, scale, min, max)
}

const TWO_POW_51_I: i64 = 1 << 51;

/// Whether `round_half_away_from_zero(y)` lies in `min..=max`, for bounds below 2^51 in
/// magnitude (so `bound ± 0.5` is exact); false for NaN. A value half-way below `min`
/// rounds up to it when `min` is positive (towards zero is down, away is up) and away from
/// it otherwise; likewise at `max`.
#[inline(always)]
pub fn rounds_into(y: f64, min: i64, max: i64) -> bool {
    let lo = min as f64 - 0.5;
    let hi = max as f64 + 0.5;
    let above = if min > 0 { y >= lo } else { y > lo };
    let below = if max < 0 { y <= hi } else { y < hi };
    above && below
}

/// The largest f64 below 0.5.
const JUST_BELOW_HALF: f64 = 0.499_999_999_999_999_94;

/// `y.round() as i64` (half away from zero) for `|y| < 2^51 - 0.5` (what [`rounds_into`]
/// bounds below 2^51 leave): `trunc(y ± (0.5 - 2^-54))`, the sign of `y`'s. The sum is
/// rounded to the nearest f64 (ties to even): a tie `k + 0.5` reaches `k + 1` and anything
/// below it stays below (the test `round_in_range_is_round` checks every tie and its
/// neighbours against `f64::round`, through [`round_checked`]). Truncated by a plain
/// conversion, without the fix-ups of a saturating `as`.
#[inline(always)]
fn round_in_range(y: f64) -> i64 {
    let z = y + JUST_BELOW_HALF.copysign(y);
    debug_assert!(z.abs() < TWO_POW_51);
    // SAFETY: the caller keeps |y| below 2^51 - 0.5, so `z` is finite and below 2^51 in
    // magnitude: its truncation is an i64.
    unsafe { z.to_int_unchecked::<i64>() }
}

const TWO_POW_51: f64 = 2_251_799_813_685_248.0;

/// The rounding of [`quantize`]'s fast path, for tests: `None` outside its domain
/// (`|y| < 2^51 - 0.5`, NaN excluded).
#[doc(hidden)]
#[inline]
pub fn round_checked(y: f64) -> Option<i64> {
    (y.abs() < TWO_POW_51 - 0.5).then(|| round_in_range(y))
}

/// The error of a quantization whose product fails [`rounds_into`]: the general path's.
#[cold]
#[inline(never)]
fn quantize_error(x: f64, scale: f64, min: i64, max: i64) -> Error {
    match quantize_general(x, scale, min, max) {
        Err(e) => e,
        Ok(_) => out_of_range(x, scale, min, max),
    }
}

/// The general path of [`quantize`]: non-finite input, products outside the bounds, and
/// bounds beyond 2^51.
#[inline(never)]
fn quantize_general(x: f64, scale: f64, min: i64, max: i64) -> Result<i64, Error> {
    if !x.is_finite() {
        return Err(not_finite(x));
    }
    let q = (x * scale).round();
    // Compare as f64: every i64 bound converts to the nearest f64, and a q beyond i64
    // (huge x) fails here instead of saturating.
    if q < min as f64 || q > max as f64 || !q.is_finite() {
        return Err(out_of_range(x, scale, min, max));
    }
    let q = q as i64;
    if q < min || q > max {
        return Err(out_of_range(x, scale, min, max));
    }
    Ok(q)
}

/// The natural value of a wire integer: `q / scale` in f64.
#[inline]
pub fn dequantize_f64(q: i64, scale: f64) -> f64 {
    q as f64 / scale
}

/// The natural value of a wire integer for an f32 field: `q / scale` in f64, then narrowed.
///
/// For the decimal units (10, 100, 1000) and powers of two from 2^-16 to 2^16 it multiplies
/// by the reciprocal instead of dividing (a multiply is several times cheaper): the test
/// `reciprocal_is_division` proves the narrowed result identical for every `|q| <= 2^23`,
/// the whole range of a quantized f32 (a power of two's reciprocal is exact, so there the
/// product is the quotient).
#[inline]
pub fn dequantize_f32(q: i64, scale: f64) -> f32 {
    match reciprocal(scale) {
        Some(inv) => (q as f64 * inv) as f32,
        None => dequantize_f64(q, scale) as f32,
    }
}

/// `1 / scale` when [`dequantize_f32`] may multiply by it; plain comparisons, so that a
/// constant `scale` folds to a constant at compile time.
#[inline(always)]
pub fn reciprocal(scale: f64) -> Option<f64> {
    const MANTISSA: u64 = (1 << 52) - 1;
    let power_of_two =
        scale.to_bits() & MANTISSA == 0 && (1.0 / 65536.0..=65536.0).contains(&scale);
    if scale == 10.0 || scale == 100.0 || scale == 1000.0 || power_of_two {
        Some(1.0 / scale)
    } else {
        None
    }
}

/// A range bound in natural units as a wire integer: `round_half_away_from_zero(bound ×
/// scale)` in f64 (saturating at the i64 bounds). The generator computes the same at compile
/// time.
#[inline]
pub fn wire_bound(bound: f64, scale: f64) -> i64 {
    (bound * scale).round() as i64
}

#[cold]
#[inline(never)]
fn out_of_range(x: f64, scale: f64, min: i64, max: i64) -> Error {
    fail::out_of_range(
        float_text(x),
        float_text(min as f64 / scale),
        float_text(max as f64 / scale),
    )
}
