//! A record lowered for the wire: its slots in wire order, the prefix of the compact array
//! that is always written, and the keys of the named shape.
//!
//! The rules, once:
//! - Compact: slots travel by position; the trailing run of trimmable slots (reserved
//!   slots and `Option` fields) may be left off the end, so `required` slots are always
//!   written and the rest up to the last present one.
//! - Named: one entry per present field, keyed by its single legacy alias or else its
//!   name; a fixed array with one legacy key per element is spread over those keys.
//!   Decoding accepts the canonical name too, and rejects a field given twice (under two
//!   of its keys, or whole and by element).

use crate::ir::{Field, Record, Slot, TypeRef};

/// How a field's named-shape keys relate to its canonical name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Legacy<'a> {
    /// No legacy keys: the canonical name is the key.
    None,
    /// One alias: written as the key; the canonical name is read too.
    Alias(&'a str),
    /// A fixed array spread over one key per element (`["x", "y", "z"]`); the canonical
    /// name is read too, holding the whole array.
    Spread {
        /// One key per element, in element order.
        keys: &'a [String],
        /// The element type.
        elem: &'a TypeRef,
    },
}

impl<'a> Legacy<'a> {
    /// The legacy keys of `f`. A key list on anything but an array is rejected by the checks;
    /// here its first key stands as an alias.
    pub fn of(f: &'a Field) -> Legacy<'a> {
        match (f.legacy.as_slice(), &f.ty) {
            ([], _) => Legacy::None,
            ([alias], _) => Legacy::Alias(alias),
            (keys, TypeRef::Array { inner, .. }) => Legacy::Spread { keys, elem: inner },
            ([alias, ..], _) => Legacy::Alias(alias),
        }
    }

    /// The key the named shape writes for the whole field (`None` for a spread array).
    pub fn key(&self, f: &'a Field) -> Option<&'a str> {
        match *self {
            Legacy::None => Some(&f.name),
            Legacy::Alias(a) => Some(a),
            Legacy::Spread { .. } => None,
        }
    }

    /// The spread keys, if any.
    pub fn spread(&self) -> Option<(&'a [String], &'a TypeRef)> {
        match *self {
            Legacy::Spread { keys, elem } => Some((keys, elem)),
            _ => None,
        }
    }
}

/// One slot of a record with its wire rules.
#[derive(Debug, Clone, Copy)]
pub struct SlotPlan<'a> {
    /// The position in the compact array.
    pub index: usize,
    /// The slot in the IR.
    pub slot: &'a Slot,
    /// The live field; `None` for a reserved slot (always nil on the wire).
    pub field: Option<&'a Field>,
    /// Whether the slot may be left off the end of the compact array, and may be absent
    /// from the named map: a reserved slot or an `Option` field.
    pub trimmable: bool,
    /// The field's named-shape keys (`Legacy::None` for a reserved slot).
    pub legacy: Legacy<'a>,
}

impl<'a> SlotPlan<'a> {
    /// The Rust field name: the field's name, or a reserved slot's placeholder.
    pub fn ident(&self) -> &'a str {
        match self.slot {
            Slot::Field(f) => &f.name,
            Slot::Reserved(r) => &r.ident,
        }
    }

    /// The key the named shape writes for the whole field (`None` for a spread array or a
    /// reserved slot).
    pub fn named_key(&self) -> Option<&'a str> {
        self.legacy.key(self.field?)
    }
}

/// One arm of the named shape's key match: a key, the slot it fills and, for a spread
/// array, the element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyArm<'a> {
    /// The key as it appears on the wire.
    pub key: &'a str,
    /// The index of the slot in [`RecordPlan::slots`].
    pub slot: usize,
    /// The element of a spread array this key holds; `None` for the whole field.
    pub elem: Option<usize>,
}

/// A record (a message's, a nested record's or a struct variant's body) lowered for the
/// wire.
#[derive(Debug, Clone)]
pub struct RecordPlan<'a> {
    /// Every slot, in wire order.
    pub slots: Vec<SlotPlan<'a>>,
    /// How many leading slots the compact array always holds: up to the last slot that is
    /// not trimmable.
    pub required: usize,
}

impl<'a> RecordPlan<'a> {
    /// The plan of a record.
    pub fn of(record: &'a Record) -> Self {
        Self::of_slots(&record.slots)
    }

    /// The plan of a record's slots, in wire order.
    pub fn of_slots(slots: impl IntoIterator<Item = &'a Slot>) -> Self {
        let slots: Vec<SlotPlan<'a>> = slots
            .into_iter()
            .enumerate()
            .map(|(index, slot)| {
                let field = match slot {
                    Slot::Field(f) => Some(f),
                    Slot::Reserved(_) => None,
                };
                SlotPlan {
                    index,
                    slot,
                    field,
                    trimmable: !matches!(field, Some(f) if !matches!(f.ty, TypeRef::Option { .. })),
                    legacy: field.map_or(Legacy::None, Legacy::of),
                }
            })
            .collect();
        let required = slots
            .iter()
            .rposition(|s| !s.trimmable)
            .map_or(0, |i| i + 1);
        RecordPlan { slots, required }
    }

    /// The live fields with their slot plans, in wire order.
    pub fn fields(&self) -> impl Iterator<Item = (&SlotPlan<'a>, &'a Field)> + '_ {
        self.slots.iter().filter_map(|s| Some((s, s.field?)))
    }

    /// The named shape's key arms, in the order a decoder tries them: per field its
    /// canonical name, then its alias or its spread keys.
    pub fn key_arms(&self) -> Vec<KeyArm<'a>> {
        let mut arms = Vec::new();
        for (s, f) in self.fields() {
            let slot = s.index;
            arms.push(KeyArm {
                key: &f.name,
                slot,
                elem: None,
            });
            match s.legacy {
                Legacy::None => {}
                Legacy::Alias(key) => arms.push(KeyArm {
                    key,
                    slot,
                    elem: None,
                }),
                Legacy::Spread { keys, .. } => {
                    arms.extend(keys.iter().enumerate().map(|(e, key)| KeyArm {
                        key,
                        slot,
                        elem: Some(e),
                    }))
                }
            }
        }
        arms
    }
}
