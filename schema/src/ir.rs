//! The per-item IR: what one Rust item declares, span-free, serde-serializable and
//! deterministic. Both the derive (one item at a time) and the source loader (whole files)
//! build it from the same grammar; a test asserts they agree for every reference type.
//!
//! Type references are kept as written (`TypeRef::Named`); resolving them across items is the
//! job of the resolved IR, built only by the loader.

use serde::{Deserialize, Serialize};

mod types;

use types::is_false;
pub use types::{FloatRange, FloatType, IntPrim, IntRange, IntType, Len, Quant, TypeRef, UNITS};

/// One declared item: a message, a record, an enum, a flag set or a dispatch enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// The Rust identifier of the type (`PlayerMove`).
    pub ident: String,
    /// The doc comment, lines joined with `\n`, leading space trimmed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// Breaks accepted on this item as a whole (a removed message, a changed id...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<Accept>,
    /// What kind of item this is, with its body.
    pub kind: ItemKind,
}

/// The kinds of item tuplet understands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemKind {
    /// A top-level message: a record with a wire name, an id and a direction.
    Message(Message),
    /// A nested record, encoded as a positional array.
    Record(Record),
    /// A unit enum or an enum with data.
    Enum(Enum),
    /// A flag set, encoded as one unsigned int.
    Flags(Flags),
    /// A dispatch enum: one variant per message of one direction.
    Dispatch(Dispatch),
}

/// Which way a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// Client to server.
    C2s,
    /// Server to client.
    S2c,
    /// Either way (the same type in both directions).
    Both,
}

impl Dir {
    /// The spelling used in attributes and on the wire of the lock file.
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::C2s => "c2s",
            Dir::S2c => "s2c",
            Dir::Both => "both",
        }
    }

    /// Whether a message of this direction is sent in direction `d` (`Both` covers both).
    pub fn includes(self, d: Dir) -> bool {
        self == d || self == Dir::Both || d == Dir::Both
    }
}

/// A message: a record plus its identity on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// The wire name, unique per direction (`player:move`).
    pub name: String,
    /// The numeric id used in the binary envelope, unique per direction.
    pub id: u32,
    /// Which way it travels.
    pub dir: Dir,
    /// The largest compact payload size allowed, in bytes (`budget = 64`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u32>,
    /// Whether this message carries entities sent as deltas against a per-client baseline.
    #[serde(default, skip_serializing_if = "is_false")]
    pub delta: bool,
    /// Whether the message may travel unreliably (`unreliable`): as a datagram where the
    /// transport has them, a newer value replacing a lost one. Only the sender reads it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unreliable: bool,
    /// The fields, in wire order.
    pub record: Record,
}

/// A record: slots in declaration (= wire) order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Set when the record is an entity for delta encoding: the name of its key field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity_key: Option<String>,
    /// Set when values of this record (or message) are drawn between samples by an
    /// interpolator (`interp(...)`): its key and sample clock. See [`Interp`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interp: Option<Interp>,
    /// Fields and reserved placeholders, by position.
    pub slots: Vec<Slot>,
}

impl Record {
    /// The live fields, in wire order (reserved slots left out).
    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Field(f) => Some(f),
            Slot::Reserved(_) => None,
        })
    }
}

/// One position of a record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "slot", rename_all = "snake_case")]
pub enum Slot {
    /// A live field.
    Field(Field),
    /// A removed field whose position is kept (always nil on the wire).
    Reserved(Reserved),
}

/// A reserved placeholder: what the slot held before and why it went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reserved {
    /// The Rust field name of the placeholder (`_color`).
    pub ident: String,
    /// The note given with `reserved = "..."`.
    pub note: String,
}

/// A live field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The canonical name: the Rust field name, used in paths and (without a legacy alias)
    /// as the named-shape key.
    pub name: String,
    /// The doc comment.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The type with every constraint attached where it applies.
    pub ty: TypeRef,
    /// Legacy keys for the named shape: none, one alias, or (for a fixed array) one key per
    /// element, spreading the array over several keys (`["x", "y", "z"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legacy: Vec<String>,
    /// How the field is drawn between samples (`draw = "linear"`), in an `interp` item.
    /// Fields without it are not interpolated: they are taken from the latest sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
    /// Breaks accepted on this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<Accept>,
}

/// An interpolated item: which field keys each entity and which clock stamps its samples.
/// It never changes the wire: the lock and `tuplet compat` ignore it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interp {
    /// The field naming the entity (an int or a string). `None` on a message whose own
    /// fields are not drawn: it carries `interp` records (`world:snapshot`'s entities). On a
    /// record it is the `entity` key when `interp` names none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The clock of the sample time.
    pub clock: Clock,
}

/// The clock a sample's time is read on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "clock", rename_all = "snake_case")]
pub enum Clock {
    /// The sender's own milliseconds, in the int field `field` (`player:move`'s `t`); drawn
    /// with a per-entity offset (the lower envelope of arrival − sent).
    Sent {
        /// The time field.
        field: String,
    },
    /// A server tick at `rate` ticks a second, in the int field `field`; its time is
    /// `tick × 1000 / rate` ms on the server's clock, drawn at a render clock's time.
    Tick {
        /// The tick field.
        field: String,
        /// Ticks per second.
        rate: u32,
    },
    /// No time on the wire: samples are stamped when they arrive (network jitter shows).
    Arrival,
    /// A record's samples take the time of the message carrying them.
    Carrier,
}

impl Clock {
    /// The field holding the sample time, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            Clock::Sent { field } | Clock::Tick { field, .. } => Some(field),
            Clock::Arrival | Clock::Carrier => None,
        }
    }
}

/// How one field is drawn between two samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Draw {
    /// Interpolated linearly, velocity carried (positions, speeds; fixed arrays of them).
    Linear,
    /// An angle in radians on the shortest arc, wrapping at ±π (headings).
    Angle,
    /// Held until the next sample (enum numbers, animation ids, flags, counters).
    Hold,
}

impl Draw {
    /// The spelling in `draw = "..."`.
    pub fn as_str(self) -> &'static str {
        match self {
            Draw::Linear => "linear",
            Draw::Angle => "angle",
            Draw::Hold => "hold",
        }
    }
}

/// An enum: unit variants with discriminants, or variants with data and tags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Enum {
    /// Unknown numbers decode to the `unknown` variant instead of failing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Numbers of removed variants, never to be reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<i64>,
    /// The variants, in declaration order (the `unknown` catch-all excluded).
    pub variants: Vec<Variant>,
    /// For an open enum, the Rust name of its catch-all variant (`Unknown(u32)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
}

impl Enum {
    /// Whether every variant is a unit variant (encoded as its bare number).
    pub fn is_unit(&self) -> bool {
        self.variants
            .iter()
            .all(|v| matches!(v.fields, VariantFields::Unit))
    }
}

/// One variant of an enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// The Rust name, also its name in the named shape.
    pub name: String,
    /// The doc comment.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The discriminant (unit enum) or tag (enum with data).
    pub number: i64,
    /// Its data.
    pub fields: VariantFields,
    /// Breaks accepted on this variant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<Accept>,
}

/// The data a variant carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum VariantFields {
    /// No data.
    Unit,
    /// One unnamed field: compact `[tag, value]`, named `{Variant: value}`.
    Newtype {
        /// The field (named `0`).
        field: Box<Field>,
    },
    /// Named fields: compact `[tag, ...fields]`, named `{Variant: {...}}`.
    Struct {
        /// The fields as a record.
        record: Record,
    },
}

/// A flag set: named bits in one unsigned int.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flags {
    /// The wire integer: u8, u16, u32 or u64.
    pub prim: IntPrim,
    /// Unknown bits are kept (in the `rest` field) instead of failing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Bits of removed flags, never to be reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<u8>,
    /// The flags, in declaration order.
    pub bits: Vec<Flag>,
    /// For an open flag set, the Rust name of the field keeping unknown bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest: Option<String>,
}

/// One named bit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flag {
    /// The Rust field name.
    pub name: String,
    /// The doc comment.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The bit index (0 = least significant).
    pub bit: u8,
}

/// A dispatch enum: the messages of one direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dispatch {
    /// The direction every variant's message must be sent in.
    pub dir: Dir,
    /// Ids of removed messages, never to be reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved_ids: Vec<u32>,
    /// Names of removed messages, never to be reused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved_names: Vec<String>,
    /// Variants: (variant name, message type path as written).
    pub variants: Vec<DispatchVariant>,
}

/// One message of a dispatch enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DispatchVariant {
    /// The variant name.
    pub name: String,
    /// The message type as written.
    pub path: String,
}

/// A deliberate breaking change accepted on the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accept {
    /// The rule name (`range-narrowed`).
    pub rule: String,
    /// The old value, as the compat report prints it.
    pub was: String,
    /// The new value.
    pub now: String,
    /// Why the break is acceptable.
    pub reason: String,
}

pub use crate::limits::{MAX_Q_F32, MAX_Q_F64, SAFE_INT};
