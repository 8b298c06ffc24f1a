//! The grammar's per-kind code for the leaves of the type tree: which scalar constraint
//! keys (`bigint`, `quant`/`scale`, `range`) each leaf kind takes, which carry a length, and
//! the checks of their constraints. A leaf's Rust name is parsed by
//! [`TypeRef::leaf_from_rust`] and spelled by [`Leaf::rust_name`] (the plan).

use super::attr::FieldAttrs;
use super::ctxt::Ctxt;
use super::lit::Num;
use super::spans::FieldSpans;
use super::ty::describe;
use crate::ir::{FloatRange, FloatType, IntPrim, IntRange, IntType, Len, TypeRef};
use crate::limits::{MAX_Q_F32, MAX_Q_F64};
use crate::plan::Leaf;

/// Applies the scalar keys of `attrs` to `target`, the innermost scalar of a field's type,
/// reporting keys that do not fit its kind.
pub(super) fn scalar_keys(cx: &Ctxt, attrs: &FieldAttrs, target: &mut TypeRef) {
    if let Some(span) = attrs.bigint {
        match &mut *target {
            TypeRef::Int(i) if matches!(i.prim, IntPrim::U64 | IntPrim::I64) => i.bigint = true,
            other => cx.error(
                span,
                format!(
                    "`bigint` applies to u64/i64 fields only; found `{}`",
                    describe(other)
                ),
            ),
        }
    }
    if let Some(q) = &attrs.quant {
        let key = if attrs.keys.contains_key("scale") {
            "scale"
        } else {
            "quant"
        };
        match &mut *target {
            TypeRef::Float(f) => f.quant = Some(q.value.clone()),
            TypeRef::Int(i) => cx.error(
                q.key,
                format!(
                    "`{key}` applies to f32/f64 fields; `{}` is already an int on the wire \
                     (drop `{key}`, or make the field a float)",
                    i.prim.as_str()
                ),
            ),
            other => cx.error(
                q.key,
                format!(
                    "`{key}` applies to f32/f64 fields; found `{}`",
                    describe(other)
                ),
            ),
        }
    }
    if let Some(r) = &attrs.range {
        let (min, max) = r.value;
        match &mut *target {
            TypeRef::Int(i) => match (min.num, max.num) {
                (Num::Int(min), Num::Int(max)) => i.range = Some(IntRange { min, max }),
                _ => {
                    let bad = if matches!(min.num, Num::Float(_)) {
                        min
                    } else {
                        max
                    };
                    cx.error(
                        bad.span,
                        format!(
                            "the range of an int field (`{}`) takes int literals",
                            i.prim.as_str()
                        ),
                    );
                }
            },
            TypeRef::Float(f) => {
                f.range = Some(FloatRange {
                    min: min.num.as_f64(),
                    max: max.num.as_f64(),
                })
            }
            other => cx.error(
                r.key,
                format!(
                    "`range` applies to int and float fields; found `{}`{}",
                    describe(other),
                    if matches!(other, TypeRef::String { .. }) {
                        " (for a byte length write `len(max = N)`)"
                    } else {
                        ""
                    }
                ),
            ),
        }
    }
}

/// The length bounds of a leaf that has a length (`String`, bytes).
pub(super) fn len_mut(ty: &mut TypeRef) -> Option<&mut Len> {
    match ty {
        TypeRef::String { len } | TypeRef::Bytes { len } => Some(len),
        _ => None,
    }
}

/// Checks a leaf's constraints; `outer` as in `check_type` (its length key is `len`, else
/// `item_len`).
pub(super) fn check(cx: &Ctxt, leaf: Leaf<'_>, sp: &FieldSpans, outer: bool) {
    match leaf {
        Leaf::Bool => {}
        Leaf::Int(i) => int_range(cx, i, sp),
        Leaf::Float(f) => {
            float_range(cx, f, sp);
            quant_bounds(cx, f, sp);
        }
        Leaf::String(len) | Leaf::Bytes(len) => check_len_order(cx, len, sp, outer),
    }
}

/// An int range must be ordered and lie within the type (64-bit: ±(2^53−1) unless bigint).
fn int_range(cx: &Ctxt, i: &IntType, sp: &FieldSpans) {
    let Some(r) = i.range else { return };
    let span = sp.key("range");
    if r.min > r.max {
        cx.error(span, format!("range min {} is above max {}", r.min, r.max));
        return;
    }
    let (lo, hi) = i.prim.bounds(i.bigint);
    if r.min < lo || r.max > hi {
        let note = if matches!(i.prim, IntPrim::U64 | IntPrim::I64) && !i.bigint {
            " (64-bit ints are bounded to ±(2^53−1) unless the field is `bigint`)"
        } else {
            ""
        };
        cx.error(
            span,
            format!(
                "range({}, {}) lies outside `{}`, whose values are {lo}..={hi}{note}",
                r.min,
                r.max,
                i.prim.as_str()
            ),
        );
    }
}

/// A float range must be ordered.
fn float_range(cx: &Ctxt, f: &FloatType, sp: &FieldSpans) {
    if let Some(r) = f.range {
        if r.min > r.max {
            cx.error(
                sp.key("range"),
                format!("range min {} is above max {}", r.min, r.max),
            );
        }
    }
}

/// A quantized float's largest |q| may not exceed 2^50 (f64) or 2^23 (f32), where
/// `q / scale` stops re-quantizing to `q`; a quantized f32 needs a range.
fn quant_bounds(cx: &Ctxt, f: &FloatType, sp: &FieldSpans) {
    let Some(q) = &f.quant else { return };
    let quant_key = if sp.keys.contains_key("scale") {
        "scale"
    } else {
        "quant"
    };
    let Some(r) = f.range else {
        if f.bits == 32 {
            cx.error(
                sp.key(quant_key),
                "a quantized f32 needs a `range`: without one |q| is unbounded, and beyond \
                 2^23 f32 cannot hold every step; add `range(MIN, MAX)` or make the field f64",
            );
        }
        return;
    };
    let m = q.wire_bound(r.min).abs().max(q.wire_bound(r.max).abs());
    if f.bits == 64 && m > MAX_Q_F64 as f64 {
        cx.error(
            sp.key("range"),
            format!(
                "quantized bounds reach |q| = {}, beyond 2^50 (1125899906842624): past it, \
                 q / scale in f64 no longer re-quantizes to q; narrow the range or use a \
                 coarser scale",
                show(m)
            ),
        );
    } else if f.bits == 32 && m > MAX_Q_F32 as f64 {
        cx.error(
            sp.key("range"),
            format!(
                "a quantized f32 reaching |q| = {} exceeds 2^23 (8388608): f32 cannot hold \
                 every step; narrow the range, use a coarser unit, or make the field f64",
                show(m)
            ),
        );
    }
}

fn show(m: f64) -> String {
    if m < 1e18 {
        format!("{}", m as i128)
    } else {
        format!("{m:e}")
    }
}

/// `len(min, max)` must be ordered.
pub(super) fn check_len_order(cx: &Ctxt, len: &Len, sp: &FieldSpans, outer: bool) {
    check_order(cx, len, sp, if outer { "len" } else { "item_len" });
}

/// The bounds that `key` (`len`, `item_len` or `key_len`) set must be ordered.
pub(super) fn check_order(cx: &Ctxt, len: &Len, sp: &FieldSpans, key: &str) {
    if let (Some(min), Some(max)) = (len.min, len.max) {
        if min > max {
            cx.error(sp.key(key), format!("`{key}` min {min} is above max {max}"));
        }
    }
}
