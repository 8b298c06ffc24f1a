//! An enum lowered for the wire: its form and its variant table.
//!
//! A unit enum travels as its variant's number (named shape: the variant name, either read
//! by a decoder); an enum with data as `[tag, ...fields]` (named shape: `{"Variant": body}`).
//! An open enum decodes an unknown number or tag to its catch-all instead of failing.

use crate::ir::{Enum, Variant};
use crate::limits::{UNKNOWN_NUMBER_MAX_SIZE, UNKNOWN_TAG_MAX_SIZE};

/// How an enum travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnumForm {
    /// Every variant is a unit: the number (or, named, the name) alone.
    Unit,
    /// Some variant carries data: `[tag, ...]` or `{name: body}`.
    Data,
}

/// An enum's variant table.
#[derive(Debug, Clone, Copy)]
pub struct EnumPlan<'a> {
    /// Its form.
    pub form: EnumForm,
    /// The variants in declaration order (the catch-all excluded).
    pub variants: &'a [Variant],
    /// The Rust name of an open enum's catch-all variant; `None` when closed.
    pub unknown: Option<&'a str>,
}

impl<'a> EnumPlan<'a> {
    /// The plan of an enum.
    pub fn of(e: &'a Enum) -> Self {
        EnumPlan {
            form: if e.is_unit() {
                EnumForm::Unit
            } else {
                EnumForm::Data
            },
            variants: &e.variants,
            unknown: e.unknown.as_deref(),
        }
    }

    /// Whether unknown numbers or tags decode to a catch-all.
    pub fn open(&self) -> bool {
        self.unknown.is_some()
    }

    /// The variant named `name` (the named shape's key or string).
    pub fn by_name(&self, name: &str) -> Option<&'a Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The unit variant numbered `n`.
    pub fn by_number(&self, n: i64) -> Option<&'a Variant> {
        self.variants.iter().find(|v| v.number == n)
    }

    /// The variant with data tagged `tag`.
    pub fn by_tag(&self, tag: u64) -> Option<&'a Variant> {
        self.variants.iter().find(|v| Self::tag(v) == tag)
    }

    /// The compact tag of a variant with data.
    pub fn tag(v: &Variant) -> u64 {
        v.number as u64
    }

    /// The smallest and largest number of a unit enum's variants (`(0, 0)` when empty).
    pub fn number_range(&self) -> (i128, i128) {
        let numbers = self.variants.iter().map(|v| v.number as i128);
        (
            numbers.clone().min().unwrap_or(0),
            numbers.max().unwrap_or(0),
        )
    }

    /// The largest compact encoding of the catch-all of an open enum; `None` when closed.
    pub fn unknown_max_size(&self) -> Option<usize> {
        self.unknown.map(|_| match self.form {
            EnumForm::Unit => UNKNOWN_NUMBER_MAX_SIZE,
            EnumForm::Data => UNKNOWN_TAG_MAX_SIZE,
        })
    }
}
