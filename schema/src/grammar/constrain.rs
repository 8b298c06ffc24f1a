//! Attaches a field's constraint keys to its type: scalar keys (`quant`, `scale`, `range`,
//! `bigint`) to the innermost scalar through `Option`, `Vec`, arrays and map values; `len`
//! to the outermost string, bytes, list or map under an `Option`; `item_len` to the string or
//! bytes elements of a list, array or map value; `key_len` to the `String` keys of the outermost
//! map under an `Option`. A key with nothing to apply to is an error
//! at the key, naming the type it found.

use super::attr::FieldAttrs;
use super::ctxt::Ctxt;
use super::leaf;
use super::ty::describe;
use crate::ir::TypeRef;

/// Applies every constraint key of `attrs` to `ty`, reporting keys that do not fit.
pub(crate) fn apply(cx: &Ctxt, attrs: &FieldAttrs, ty: &mut TypeRef) {
    leaf::scalar_keys(cx, attrs, scalar(ty));
    if let Some(l) = &attrs.len {
        let ty = unopt(ty);
        let found = describe(ty);
        match ty {
            TypeRef::Vec { len, .. } | TypeRef::Map { len, .. } => *len = l.value,
            TypeRef::Array { .. } => cx.error(
                l.key,
                "`len` does not apply to a fixed array: its length is its type's; drop `len`",
            ),
            other => match leaf::len_mut(other) {
                Some(len) => *len = l.value,
                None => cx.error(
                    l.key,
                    format!(
                        "`len` applies to String, Vec<u8>, Vec<T> and BTreeMap fields; found \
                         `{found}`"
                    ),
                ),
            },
        }
    }
    if let Some(l) = &attrs.item_len {
        let elem = match unopt(ty) {
            TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => Some(unopt(inner)),
            TypeRef::Map { value, .. } => Some(unopt(value)),
            _ => None,
        };
        match elem.and_then(leaf::len_mut) {
            Some(len) => *len = l.value,
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
