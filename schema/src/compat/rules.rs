//! Every compatibility rule: its name (as reports print it and `accept(rule = ...)` names
//! it), its category and why it breaks peers. RULES.md documents each one at length; a test
//! checks that every rule here has a section there and a fixture.

use serde::{Deserialize, Serialize};

/// What a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The compact shape (tuples) or the envelope: deployed peers misread or reject data.
    Compact,
    /// The named shape (maps keyed by name or legacy alias): deployed peers that still use
    /// it misread or reject data.
    Named,
    /// The source API (Rust and generated TypeScript names): code must be updated; the
    /// compilers say where. Never breaks deployed peers, so never fails the check.
    Source,
    /// The project around the schema: the deploy order the rules judge by, the lock file.
    Project,
}

impl Category {
    /// As reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Compact => "compact",
            Category::Named => "named",
            Category::Source => "source",
            Category::Project => "project",
        }
    }

    /// A longer label for the text report.
    pub fn label(self) -> &'static str {
        match self {
            Category::Compact => "compact wire",
            Category::Named => "named wire",
            Category::Source => "source API",
            Category::Project => "project",
        }
    }
}

/// Which pair of versions a change hurts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hurts {
    /// Data from a new sender reaches an old receiver (a widening).
    NewToOld,
    /// Data from an old sender reaches a new receiver (a narrowing).
    OldToNew,
    /// Both (a change of meaning).
    Both,
}

impl Hurts {
    /// Combines two.
    pub fn with(self, other: Hurts) -> Hurts {
        if self == other {
            self
        } else {
            Hurts::Both
        }
    }

    /// Whether it includes new sender -> old receiver.
    pub fn new_to_old(self) -> bool {
        matches!(self, Hurts::NewToOld | Hurts::Both)
    }

    /// Whether it includes old sender -> new receiver.
    pub fn old_to_new(self) -> bool {
        matches!(self, Hurts::OldToNew | Hurts::Both)
    }
}

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The kebab-case name.
    pub name: &'static str,
    /// What it breaks.
    pub category: Category,
    /// One line: why it breaks peers.
    pub why: &'static str,
}

macro_rules! rules {
    ($($id:ident = $name:literal, $cat:ident, $why:literal;)*) => {
        $(
            #[doc = concat!("`", $name, "`: ", $why)]
            pub const $id: Rule = Rule { name: $name, category: Category::$cat, why: $why };
        )*
        /// Every rule, in RULES.md's order.
        pub const ALL: &[Rule] = &[$($id),*];
    };
}

rules! {
    MESSAGE_REMOVED = "message-removed", Compact,
        "an old peer still sends or awaits the message, and its id and name are free to be reused with another meaning";
    MESSAGE_RENAMED = "message-renamed", Compact,
        "the name is the message type on a Colyseus room and the dispatcher's key: an old peer does not know the new one";
    ID_CHANGED = "id-changed", Compact,
        "the envelope id is what a binary transport dispatches on: an old peer reads the message as another one, or drops it";
    ID_REUSED = "id-reused", Compact,
        "the id belonged to another (or a removed) message: an old peer decodes the new message with the old one's shape";
    NAME_REUSED = "name-reused", Compact,
        "the name belonged to a removed message: an old peer decodes the new message with the old one's shape";
    RESERVATION_DROPPED = "reservation-dropped", Compact,
        "a reserved id or name is what keeps a removed message's identity from being reused; the lock would forget it";
    DIRECTION_CHANGED = "direction-changed", Compact,
        "the peers that sent the message no longer may, and the peers that receive it do not expect it";
    FIELD_REMOVED = "field-removed", Compact,
        "every later position shifts (or the slot is forgotten and later reused): an old peer reads values into the wrong fields";
    FIELDS_REORDERED = "fields-reordered", Compact,
        "the compact shape is positional: an old peer reads each moved value into another field";
    RESERVED_SLOT_REUSED = "reserved-slot-reused", Compact,
        "a peer from before the removal still sends the old field's value there";
    REQUIRED_FIELD_RESERVED = "required-field-reserved", Compact,
        "a reserved slot is nil on the wire, and an old receiver rejects nil for a required field";
    REQUIRED_FIELD_ADDED = "required-field-added", Compact,
        "an old sender does not send it, so a new receiver rejects every message from it (and inserted before the end, it shifts later positions)";
    OPTIONAL_FIELD_INSERTED = "optional-field-inserted", Compact,
        "inserted before the end, it shifts every later position: an old peer reads values into the wrong fields";
    TYPE_CHANGED = "type-changed", Compact,
        "the value's wire form changed: a peer of the other version rejects or misreads it";
    QUANT_CHANGED = "quant-changed", Compact,
        "the wire int means a different amount (or became a float): a peer of the other version misreads every value, silently";
    MADE_OPTIONAL = "made-optional", Compact,
        "a new sender may send nil (or omit it), which an old receiver rejects for a required field";
    MADE_REQUIRED = "made-required", Compact,
        "an old sender may send nil (or omit it), which a new receiver rejects";
    RANGE_NARROWED = "range-narrowed", Compact,
        "an old sender may send a value the new receiver rejects";
    RANGE_WIDENED = "range-widened", Compact,
        "a new sender may send a value an old receiver rejects";
    LEN_NARROWED = "len-narrowed", Compact,
        "an old sender may send a length the new receiver rejects";
    LEN_WIDENED = "len-widened", Compact,
        "a new sender may send a length an old receiver rejects";
    ENUM_VALUE_ADDED = "enum-value-added", Compact,
        "a new sender may send the new value, which an old receiver of a closed enum rejects";
    VARIANT_NAME_UNKNOWN = "variant-name-unknown", Named,
        "the named shape writes a variant by name: an open enum keeps an unknown number, but a peer of the other version rejects a name it does not know";
    VARIANT_REMOVED = "variant-removed", Compact,
        "an old sender may still send it and a new receiver of a closed enum rejects it; unreserved, its number may be reused";
    VARIANT_RENUMBERED = "variant-renumbered", Compact,
        "the number is the value on the wire: a peer of the other version reads another variant, or rejects it";
    VARIANT_REUSED = "variant-reused", Compact,
        "the number belonged to a removed variant: a peer from before the removal reads the old meaning";
    ENUM_CLOSED = "enum-closed", Compact,
        "an open receiver kept unknown numbers; a closed one rejects them, so values from any newer sender now fail";
    FLAG_BIT_ADDED = "flag-bit-added", Compact,
        "a new sender may set the bit, which an old receiver of a closed flag set rejects";
    FLAG_BIT_REMOVED = "flag-bit-removed", Compact,
        "an old sender may still set it and a new receiver of a closed flag set rejects it; unreserved, the bit may be reused";
    FLAG_BIT_MOVED = "flag-bit-moved", Compact,
        "the bit is the flag on the wire: a peer of the other version reads another flag";
    FLAG_BIT_REUSED = "flag-bit-reused", Compact,
        "the bit belonged to a removed flag: a peer from before the removal reads the old meaning";
    FLAGS_CLOSED = "flags-closed", Compact,
        "an open receiver kept unknown bits; a closed one rejects them, so flags from any newer sender now fail";
    DELTA_TOGGLED = "delta-toggled", Compact,
        "a delta message's payload is a sequence byte and masked changes against a baseline, not the record: a peer of the other version rejects every snapshot";
    ENTITY_KEY_CHANGED = "entity-key-changed", Compact,
        "the key is how a delta names an entity (changes, removals, the mirror's baseline): a peer of the other version applies changes to the wrong entities, or rejects them";
    DELTA_FORM_CHANGED = "delta-form-changed", Compact,
        "a changed field of a delta message (or of an entity in its lists) travels as a difference or whole by its type: a peer of the other version reads a difference as the value, or adds a value to its baseline, silently";
    NAMED_KEY_CHANGED = "named-key-changed", Named,
        "a field renamed without keeping its old name as a legacy alias: each side writes a key the other does not know, and the field goes missing";
    NAMED_KEY_REUSED = "named-key-reused", Named,
        "a field's named-shape key (name or legacy alias) is another field's in the other version: a peer reads the value into the wrong field, or rejects the duplicate key";
    LEGACY_KEY_ADDED = "legacy-key-added", Named,
        "a new sender writes the alias, a key an old receiver does not know";
    LEGACY_KEY_CHANGED = "legacy-key-changed", Named,
        "each side writes a key the other does not know, and the field goes missing";
    LEGACY_KEY_DROPPED = "legacy-key-dropped", Named,
        "an old sender writes the alias, a key the new receiver no longer knows";
    VARIANT_RENAMED = "variant-renamed", Named,
        "the named shape writes a variant by name: a peer of the other version does not know the new (or old) name";
    FIELD_RENAMED = "field-renamed", Source,
        "Rust and TypeScript code naming the field must be updated (the compact wire is unchanged)";
    TYPE_RENAMED = "type-renamed", Source,
        "Rust and TypeScript code naming the type must be updated (the wire is unchanged)";
    INT_TYPE_CHANGED = "int-type-changed", Source,
        "the Rust (or TypeScript number/bigint) type changed; any change of bounds is reported on its own";
    FLAG_RENAMED = "flag-renamed", Source,
        "Rust and TypeScript code naming the flag must be updated (the bit is unchanged)";
    ACCEPT_UNMATCHED = "accept-unmatched", Source,
        "an acceptance must name a change the check finds (rule, was, now) or one the lock already records: a stale or mistyped one would hide the next real break";
}

/// `budget-exceeded`: checked on the schema alone, not against a lock.
pub const BUDGET_EXCEEDED: Rule = Rule {
    name: "budget-exceeded",
    category: Category::Compact,
    why: "a sender builds a message larger than its budget (the size a transport or frame limit takes), and it is dropped or split",
};

/// `deploy-changed`: `deploy` in `tuplet.toml` differs from the base's (or the lock's).
pub const DEPLOY_CHANGED: Rule = Rule {
    name: "deploy-changed",
    category: Category::Project,
    why: "the deploy order decides which changes break; loosening it makes breaks pass that hurt the peers of the old order still running",
};

/// `lock-stale`: the committed lock is not what `tuplet lock` writes (`tuplet lock --check`).
pub const LOCK_STALE: Rule = Rule {
    name: "lock-stale",
    category: Category::Project,
    why: "the lock is what the next change is judged against: a lock not written for this schema lets the next change break what this one shipped",
};

/// `schema-moved`: `[schema] crate` (or the config) is another folder than the base's.
pub const SCHEMA_MOVED: Rule = Rule {
    name: "schema-moved",
    category: Category::Project,
    why: "the lock is judged against the crate the config names: pointed at another folder (an unchanged copy), every change of the real schema would pass",
};

/// The checks that are not changes between two locks, which `tuplet explain` covers beside
/// [`ALL`].
pub const CHECKS: &[Rule] = &[BUDGET_EXCEEDED, DEPLOY_CHANGED, LOCK_STALE, SCHEMA_MOVED];

/// The rule (or check) of a name.
pub fn by_name(name: &str) -> Option<&'static Rule> {
    ALL.iter().chain(CHECKS).find(|r| r.name == name)
}
