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
#[inline]
pub fn dequantize_f32(q: i64, scale: f64) -> f32 {
    dequantize_f64(q, scale) as f32
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
