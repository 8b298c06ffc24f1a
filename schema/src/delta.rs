//! How each field of an entity or a delta message changes on the wire (WIRE.md, "Delta
//! snapshots"). One rule for every back end: the derive and the TypeScript emitter both ask
//! [`change_of`].

use crate::ir::{IntPrim, Record, Slot, TypeRef};

/// The most fields (slots, the key excluded) an entity or a delta message may have: the
/// changed-field mask is one msgpack uint that TypeScript handles as a 32-bit unsigned int.
pub const MAX_DELTA_FIELDS: usize = 32;

/// How a changed field travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A number (a quantized float, or an int up to 32 bits) as the difference of its wire
    /// int from the baseline's.
    Difference,
    /// A fixed array of such numbers: every element as its difference, in an array of `N`.
    Differences(u32),
    /// Anything else: the new value, whole, as in the compact shape.
    Whole,
}

/// The change form of a field of type `ty`.
pub fn change_of(ty: &TypeRef) -> Change {
    match ty {
        TypeRef::Array { inner, len } if number(inner) => Change::Differences(*len),
        t if number(t) => Change::Difference,
        _ => Change::Whole,
    }
}

/// A number whose difference fits a JavaScript safe integer: a quantized float (|q| ≤ 2^50)
/// or an int of at most 32 bits.
fn number(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Float(ft) => ft.quant.is_some(),
        TypeRef::Int(it) => !matches!(it.prim, IntPrim::U64 | IntPrim::I64),
        _ => false,
    }
}

/// The slots that have a bit in the changed-field mask, with their bit: every slot in
/// declaration order, the entity key (if any) skipped.
pub fn mask_slots(record: &Record) -> Vec<(u32, &Slot)> {
    record
        .slots
        .iter()
        .filter(|s| !matches!(s, Slot::Field(f) if Some(&f.name) == record.entity_key.as_ref()))
        .enumerate()
        .map(|(i, s)| (i as u32, s))
        .collect()
}
