//! Attaches a field's constraint keys to its type: scalar keys (`quant`, `scale`, `range`,
//! `bigint`) to the innermost scalar through `Option`, `Vec`, arrays and map values; `len`
//! to the outermost string, bytes, list or map under an `Option`; `item_len` to the string or
//! bytes elements of a list, array or map value; `key_len` to the `String` keys of the outermost
//! map under an `Option`. A key with nothing to apply to is an error
//! at the key, naming the type it found.

use super::attr::FieldAttrs;
use super::ctxt::Ctxt;
use super::lit::Num;
use super::ty::describe;
use crate::ir::{FloatRange, IntPrim, IntRange, TypeRef};

/// Applies every constraint key of `attrs` to `ty`, reporting keys that do not fit.
pub(crate) fn apply(cx: &Ctxt, attrs: &FieldAttrs, ty: &mut TypeRef) {
    if let Some(span) = attrs.bigint {
        match scalar(ty) {
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
        match scalar(ty) {
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
        match scalar(ty) {
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
    if let Some(l) = &attrs.len {
        match unopt(ty) {
            TypeRef::String { len }
            | TypeRef::Bytes { len }
            | TypeRef::Vec { len, .. }
            | TypeRef::Map { len, .. } => *len = l.value,
            TypeRef::Array { .. } => cx.error(
                l.key,
                "`len` does not apply to a fixed array: its length is its type's; drop `len`",
            ),
            other => cx.error(
                l.key,
                format!(
                    "`len` applies to String, Vec<u8>, Vec<T> and BTreeMap fields; found `{}`",
                    describe(other)
                ),
            ),
        }
    }
    if let Some(l) = &attrs.item_len {
        let elem = match unopt(ty) {
            TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => Some(unopt(inner)),
            TypeRef::Map { value, .. } => Some(unopt(value)),
            _ => None,
        };
        match elem {
            Some(TypeRef::String { len } | TypeRef::Bytes { len }) => *len = l.value,
            _ => cx.error(
                l.key,
                format!(
                    "`item_len` applies to the String or Vec<u8> elements of a Vec, array or \
                     map value; found `{}`",
                    describe(ty)
                ),
            ),
        }
    }
    if let Some(l) = &attrs.key_len {
        let key = match unopt(ty) {
            TypeRef::Map { key, .. } => Some(&mut **key),
            _ => None,
        };
        match key {
            Some(TypeRef::String { len }) => *len = l.value,
            _ => cx.error(
                l.key,
                format!(
                    "`key_len` applies to the String keys of a BTreeMap; found `{}`",
                    describe(ty)
                ),
            ),
        }
    }
}

/// The innermost scalar: through `Option`, `Vec`, arrays and map values.
fn scalar(ty: &mut TypeRef) -> &mut TypeRef {
    match ty {
        TypeRef::Option { inner } | TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => {
            scalar(inner)
        }
        TypeRef::Map { value, .. } => scalar(value),
        other => other,
    }
}

/// The type under any `Option`s.
fn unopt(ty: &mut TypeRef) -> &mut TypeRef {
    match ty {
        TypeRef::Option { inner } => unopt(inner),
        other => other,
    }
}
