//! Per-field wire rules of scalar kinds: length bounds, integer bounds, quantization and
//! float bounds, as methods on the IR types; and the [`Form`] a value travels in.

use crate::ir::{FloatType, IntType, Len, Quant};
use crate::limits::{MAX_Q_F32, MAX_Q_F64};

/// Which shape the enclosing record is being read or written in. It decides how quantized
/// floats travel: wire ints in the compact shape, natural floats in the named one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// Positional arrays.
    Compact,
    /// Maps keyed by name.
    Named,
}

impl Form {
    /// `compact` or `named`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Compact => "compact",
            Form::Named => "named",
        }
    }
}

/// A quantized float's wire rule: `q = round_half_away_from_zero(x × scale)`, with `q` in
/// `qmin..=qmax`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantized {
    /// Wire integers per natural unit.
    pub scale: f64,
    /// The smallest wire integer.
    pub qmin: i64,
    /// The largest wire integer.
    pub qmax: i64,
}

impl Len {
    /// The inclusive bounds, unset ones as `0` and `u32::MAX`.
    pub fn bounds(&self) -> (u32, u32) {
        (self.min.unwrap_or(0), self.max.unwrap_or(u32::MAX))
    }
}

impl IntType {
    /// The inclusive bounds a value must lie in: the schema range, else the type's own
    /// (64-bit types: ±(2^53−1) unless `bigint`).
    pub fn bounds(&self) -> (i128, i128) {
        match self.range {
            Some(r) => (r.min, r.max),
            None => self.prim.bounds(self.bigint),
        }
    }

    /// Whether a value needs a range check beyond what its Rust type already guarantees.
    pub fn needs_check(&self) -> bool {
        self.bounds() != self.prim.bounds(true)
    }
}

impl Quant {
    /// `round_half_away_from_zero(bound × scale)`, in f64: a natural-unit bound as a wire int.
    pub fn wire_bound(&self, bound: f64) -> f64 {
        (bound * self.scale).round()
    }
}

impl FloatType {
    /// For a quantized float, the inclusive bounds of the wire integer `q`: the range's
    /// bounds quantized, else ±`MAX_Q_F32` / ±`MAX_Q_F64`. `None` for a raw float.
    pub fn quant_bounds(&self) -> Option<(i64, i64)> {
        let quant = self.quant.as_ref()?;
        Some(match self.range {
            Some(r) => (
                quant.wire_bound(r.min) as i64,
                quant.wire_bound(r.max) as i64,
            ),
            None => (-self.max_q(), self.max_q()),
        })
    }

    /// The quantization rule with its wire bounds; `None` for a raw float.
    pub fn quantized(&self) -> Option<Quantized> {
        let scale = self.quant.as_ref()?.scale;
        let (qmin, qmax) = self.quant_bounds()?;
        Some(Quantized { scale, qmin, qmax })
    }

    /// The largest |q| this float width round-trips exactly.
    pub fn max_q(&self) -> i64 {
        if self.bits == 32 {
            MAX_Q_F32
        } else {
            MAX_Q_F64
        }
    }

    /// A raw float's inclusive bounds in natural units: the range, else the width's finite
    /// extremes.
    pub fn value_bounds(&self) -> (f64, f64) {
        match self.range {
            Some(r) => (r.min, r.max),
            None if self.bits == 32 => (f32::MIN as f64, f32::MAX as f64),
            None => (f64::MIN, f64::MAX),
        }
    }
}
