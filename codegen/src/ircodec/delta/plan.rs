//! How each field of a delta message, and of the entities in its keyed lists, travels in a
//! delta payload, read from the IR once per tracker or mirror. The form of a field is
//! `tuplet_schema::delta::change_of` (the rule the derive and the TypeScript emitter use);
//! the bits are `tuplet_schema::delta::mask_slots`.

use tuplet_schema::delta::{change_of, mask_slots, Change};
use tuplet_schema::ir::{Field, FloatType, IntType, ItemKind, Record, Slot, TypeRef};
use tuplet_schema::plan::{Quantized, RecordPlan};
use tuplet_schema::ResolvedSchema;

use super::super::common::intern;

/// A number that travels as the difference of its wire int from the baseline's.
#[derive(Debug, Clone, Copy)]
pub(super) enum Number<'s> {
    /// An int of at most 32 bits, with its bounds.
    Int(&'s IntType, i128, i128),
    /// A quantized float.
    Quant(&'s FloatType, Quantized),
}

impl<'s> Number<'s> {
    fn of(ty: &'s TypeRef) -> Option<Number<'s>> {
        match ty {
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                Some(Number::Int(it, min, max))
            }
            TypeRef::Float(ft) => Some(Number::Quant(ft, ft.quantized()?)),
            _ => None,
        }
    }
}

/// How one field's change travels.
#[derive(Debug, Clone)]
pub(super) enum Form<'s> {
    /// One difference.
    Difference(Number<'s>),
    /// A fixed array of `n` differences.
    Differences(u32, Number<'s>),
    /// A list of entities, entry by entry, holding `min..=max` of them.
    Keyed(Box<EntityPlan<'s>>, u32, u32),
    /// The new value, whole, compact shape.
    Whole,
}

/// One field with a bit in a change mask.
#[derive(Debug, Clone)]
pub(super) struct FieldPlan<'s> {
    /// Its bit in the mask.
    pub(super) bit: u32,
    /// The field.
    pub(super) field: &'s Field,
    /// Its name, for error paths.
    pub(super) name: &'static str,
    /// Whether an absent value is left out of the natural JSON (a trailing option).
    pub(super) trimmable: bool,
    /// How its change travels.
    pub(super) form: Form<'s>,
}

/// The fields of a change mask, in bit order, and how many bits the record knows.
#[derive(Debug, Clone)]
pub(super) struct MaskPlan<'s> {
    /// The fields (reserved slots keep their bit and are left out).
    pub(super) fields: Vec<FieldPlan<'s>>,
    /// The number of bits this version knows (reserved slots included); higher bits are a
    /// newer peer's fields, skipped.
    pub(super) known: u32,
}

/// A record declared `entity(key = "...")`.
#[derive(Debug, Clone)]
pub(super) struct EntityPlan<'s> {
    /// Its canonical path.
    pub(super) path: &'s str,
    /// The key field's name.
    pub(super) key: &'static str,
    /// The key field's type.
    pub(super) key_type: &'s IntType,
    /// Its fields without the key.
    pub(super) mask: MaskPlan<'s>,
}

/// A message declared `delta`.
#[derive(Debug, Clone)]
pub(super) struct MessagePlan<'s> {
    /// Its record.
    pub(super) record: &'s Record,
    /// Its fields.
    pub(super) mask: MaskPlan<'s>,
}

/// Why a tracker or a mirror cannot be made for a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotDelta {
    /// The path asked for.
    pub path: String,
}

impl std::fmt::Display for NotDelta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a message declared `#[tuplet(delta)]`",
            self.path
        )
    }
}

impl std::error::Error for NotDelta {}

impl<'s> MessagePlan<'s> {
    /// The plan of the delta message at `path`.
    pub(super) fn of(schema: &'s ResolvedSchema, path: &str) -> Result<Self, NotDelta> {
        let not = || NotDelta {
            path: path.to_owned(),
        };
        let item = schema.get(path).ok_or_else(not)?;
        let ItemKind::Message(m) = &item.item.kind else {
            return Err(not());
        };
        if !m.delta {
            return Err(not());
        }
        Ok(MessagePlan {
            record: &m.record,
            mask: mask_plan(schema, &m.record, true),
        })
    }
}

/// The entity record at `path`, if it is one.
fn entity_plan<'s>(schema: &'s ResolvedSchema, path: &'s str) -> Option<EntityPlan<'s>> {
    let ItemKind::Record(record) = &schema.get(path)?.item.kind else {
        return None;
    };
    let key = record.entity_key.as_deref()?;
    let key_type = record.fields().find_map(|f| match &f.ty {
        TypeRef::Int(it) if f.name == key => Some(it),
        _ => None,
    })?;
    Some(EntityPlan {
        path,
        key: intern(key),
        key_type,
        mask: mask_plan(schema, record, false),
    })
}

/// The mask of `record`; `top` for a delta message, whose lists of entities are keyed (an
/// entity's own lists of entities change whole).
fn mask_plan<'s>(schema: &'s ResolvedSchema, record: &'s Record, top: bool) -> MaskPlan<'s> {
    let slots = mask_slots(record);
    let trim = RecordPlan::of_slots(&record.slots);
    let fields = slots
        .iter()
        .filter_map(|&(bit, slot)| {
            let Slot::Field(field) = slot else {
                return None;
            };
            let index = record.slots.iter().position(|s| std::ptr::eq(s, slot))?;
            let form = match (&field.ty, change_of(&field.ty)) {
                (TypeRef::Vec { inner, len }, _) if top => match &**inner {
                    TypeRef::Named { path } => match entity_plan(schema, path) {
                        Some(e) => {
                            let (min, max) = len.bounds();
                            Form::Keyed(Box::new(e), min, max)
                        }
                        None => Form::Whole,
                    },
                    _ => Form::Whole,
                },
                (ty, Change::Difference) => Number::of(ty).map_or(Form::Whole, Form::Difference),
                (TypeRef::Array { inner, .. }, Change::Differences(n)) => {
                    Number::of(inner).map_or(Form::Whole, |x| Form::Differences(n, x))
                }
                _ => Form::Whole,
            };
            Some(FieldPlan {
                bit,
                field,
                name: intern(&field.name),
                trimmable: trim.slots[index].trimmable,
                form,
            })
        })
        .collect();
    MaskPlan {
        fields,
        known: slots.len() as u32,
    }
}
