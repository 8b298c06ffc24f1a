//! The span side table: where each part of an item was written. The IR stays span-free;
//! the checks look spans up here, by the same positions as the IR.

use proc_macro2::Span;

use super::attr::Keys;

/// Spans of one item, mirroring its IR.
pub(crate) struct ItemSpans {
    /// The type's identifier.
    pub ident: Span,
    /// The container keys.
    pub keys: Keys,
    /// Record slots (message, record) or bits (flags), in IR order.
    pub fields: Vec<FieldSpans>,
    /// Enum variants (the `unknown` catch-all excluded) or dispatch variants, in IR order.
    pub variants: Vec<VariantSpans>,
    /// The `unknown` key of an enum's catch-all variant.
    pub unknown: Option<Span>,
    /// The `rest` key of a flag set's field keeping unknown bits.
    pub rest: Option<Span>,
}

/// Spans of one field (or flag).
pub(crate) struct FieldSpans {
    /// The field name (or the type, for a newtype variant's value).
    pub ident: Span,
    /// The field's keys.
    pub keys: Keys,
}

/// Spans of one variant.
pub(crate) struct VariantSpans {
    /// Its number: the discriminant, or the `tag` key.
    pub number: Span,
    /// Its fields (one for a newtype variant).
    pub fields: Vec<FieldSpans>,
}

impl ItemSpans {
    /// An empty table for the item named at `ident`.
    pub fn new(ident: Span) -> Self {
        ItemSpans {
            ident,
            keys: Keys::new(),
            fields: Vec::new(),
            variants: Vec::new(),
            unknown: None,
            rest: None,
        }
    }
}

impl FieldSpans {
    /// The span of `key` if written, else of the field name.
    pub fn key(&self, key: &str) -> Span {
        self.keys.get(key).copied().unwrap_or(self.ident)
    }
}
