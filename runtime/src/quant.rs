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
    // The fast path: below 2^52 every step is exact (see `round_exact`), and comparing the
    // integer with the bounds is what the general path's two comparisons amount to there.
    if y.abs() < TWO_POW_52 {
        let q = round_exact(y);
        if q < min || q > max {
            return Err(out_of_range(x, scale, min, max));
        }
        return Ok(q);
    }
    quantize_general(x, scale, min, max)
}

/// The general path of [`quantize`]: non-finite input and products at or beyond 2^52.
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

const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// `y.round() as i64` (half away from zero) for `|y| < 2^52`, without a libm call:
/// truncation (`as i64`) and its conversion back are exact there, and so is `y - trunc(y)`
/// (Sterbenz: for `|y| >= 1`, `trunc(y)` lies within a factor of two of `y`; below 1 it is
/// 0), so comparing that fraction with ±0.5 decides the rounding exactly. The test `round_exact_is_round` checks it against
/// `f64::round` on every tie and its neighbours across the range.
#[inline(always)]
pub fn round_exact(y: f64) -> i64 {
    let t = y as i64;
    let f = y - t as f64;
    t + i64::from(f >= 0.5) - i64::from(f <= -0.5)
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
