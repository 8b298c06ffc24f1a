//! The keywords of `#[tuplet(...)]`, as constants, and the valid keys of each position.

use std::fmt;

/// One attribute keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Symbol(pub &'static str);

/// The attribute's own path: `#[tuplet(...)]`.
pub(crate) const TUPLET: Symbol = Symbol("tuplet");

// Message container.
pub(crate) const NAME: Symbol = Symbol("name");
pub(crate) const ID: Symbol = Symbol("id");
pub(crate) const DIR: Symbol = Symbol("dir");
pub(crate) const BUDGET: Symbol = Symbol("budget");
pub(crate) const DELTA: Symbol = Symbol("delta");
pub(crate) const UNRELIABLE: Symbol = Symbol("unreliable");
pub(crate) const ACCEPT: Symbol = Symbol("accept");
// Record container.
pub(crate) const ENTITY: Symbol = Symbol("entity");
// Message and record containers: interpolation.
pub(crate) const INTERP: Symbol = Symbol("interp");
// Enum and flags containers.
pub(crate) const OPEN: Symbol = Symbol("open");
pub(crate) const RESERVED: Symbol = Symbol("reserved");
pub(crate) const INT: Symbol = Symbol("int");
// Dispatch container.
pub(crate) const RESERVED_IDS: Symbol = Symbol("reserved_ids");
pub(crate) const RESERVED_NAMES: Symbol = Symbol("reserved_names");
// Fields.
pub(crate) const QUANT: Symbol = Symbol("quant");
pub(crate) const SCALE: Symbol = Symbol("scale");
pub(crate) const RANGE: Symbol = Symbol("range");
pub(crate) const LEN: Symbol = Symbol("len");
pub(crate) const ITEM_LEN: Symbol = Symbol("item_len");
pub(crate) const KEY_LEN: Symbol = Symbol("key_len");
pub(crate) const LEGACY: Symbol = Symbol("legacy");
pub(crate) const BIGINT: Symbol = Symbol("bigint");
pub(crate) const DRAW: Symbol = Symbol("draw");
// Variants.
pub(crate) const TAG: Symbol = Symbol("tag");
pub(crate) const UNKNOWN: Symbol = Symbol("unknown");
// Flags fields.
pub(crate) const BIT: Symbol = Symbol("bit");
pub(crate) const REST: Symbol = Symbol("rest");
// Nested keys.
pub(crate) const MIN: Symbol = Symbol("min");
pub(crate) const MAX: Symbol = Symbol("max");
pub(crate) const KEY: Symbol = Symbol("key");
pub(crate) const RULE: Symbol = Symbol("rule");
pub(crate) const WAS: Symbol = Symbol("was");
pub(crate) const NOW: Symbol = Symbol("now");
pub(crate) const REASON: Symbol = Symbol("reason");
pub(crate) const SENT: Symbol = Symbol("sent");
pub(crate) const TICK: Symbol = Symbol("tick");
pub(crate) const RATE: Symbol = Symbol("rate");
pub(crate) const ARRIVAL: Symbol = Symbol("arrival");

/// Where a `#[tuplet(...)]` sits, with the keys valid there (in the order errors list them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Position {
    /// How errors name the position (`field`, `message`...).
    pub what: &'static str,
    /// The keys accepted there.
    pub keys: &'static [Symbol],
}

/// A message struct.
pub(crate) const MESSAGE: Position = Position {
    what: "message",
    keys: &[NAME, ID, DIR, BUDGET, DELTA, UNRELIABLE, INTERP, ACCEPT],
};
/// A record struct.
pub(crate) const RECORD: Position = Position {
    what: "record",
    keys: &[ENTITY, INTERP, ACCEPT],
};
/// An enum.
pub(crate) const ENUM: Position = Position {
    what: "enum",
    keys: &[OPEN, RESERVED, ACCEPT],
};
/// A flags struct.
pub(crate) const FLAGS: Position = Position {
    what: "flags",
    keys: &[INT, OPEN, RESERVED, ACCEPT],
};
/// A dispatch enum.
pub(crate) const DISPATCH: Position = Position {
    what: "dispatch",
    keys: &[DIR, RESERVED_IDS, RESERVED_NAMES, ACCEPT],
};
/// A field of a message, record or struct variant, or a newtype variant's value.
pub(crate) const FIELD: Position = Position {
    what: "field",
    keys: &[
        QUANT, SCALE, RANGE, LEN, ITEM_LEN, KEY_LEN, LEGACY, BIGINT, DRAW, RESERVED, ACCEPT,
    ],
};
/// A variant of an enum.
pub(crate) const VARIANT: Position = Position {
    what: "variant",
    keys: &[TAG, UNKNOWN, ACCEPT],
};
/// A field of a flags struct.
pub(crate) const FLAG: Position = Position {
    what: "flags field",
    keys: &[BIT, REST],
};
/// A variant of a dispatch enum (takes no keys).
pub(crate) const DISPATCH_VARIANT: Position = Position {
    what: "dispatch variant",
    keys: &[],
};

impl Position {
    /// `a, b, c`, or a note that the position takes no keys.
    pub fn expected(&self) -> String {
        if self.keys.is_empty() {
            return format!("a {} takes no keys", self.what);
        }
        let keys: Vec<&str> = self.keys.iter().map(|k| k.0).collect();
        format!("expected one of: {}", keys.join(", "))
    }
}

impl PartialEq<Symbol> for syn::Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for syn::Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}
