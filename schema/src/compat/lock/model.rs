//! The lock's model: what each entry of `tuplet.lock.json` holds, and reading and writing
//! its text.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::compat::order::Deploy;
use crate::ir::{self, Dir};

/// The lock format's version, written as `format`. Format 3 records the deploy order the lock
/// was checked under and the tuplet that last changed it; format 2 records entity keys. Older
/// locks are still read (a format-1 lock's entity keys count as unrecorded, so they are not
/// judged; a format-2 lock's deploy order is taken from `tuplet.toml`) and the next
/// `tuplet lock` writes format 3.
pub const FORMAT: u32 = 3;

/// The default file name, beside `tuplet.toml`.
pub const FILE_NAME: &str = "tuplet.lock.json";

/// A whole lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lock {
    /// The format version ([`FORMAT`] when written; an older one when read).
    pub format: u32,
    /// The version of tuplet that last changed the lock (absent before format 3, and in a
    /// lock built from a schema until `tuplet lock` writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuplet: Option<String>,
    /// The deploy order the lock was checked under (`deploy` in `tuplet.toml` when it was
    /// written; absent before format 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<Deploy>,
    /// Messages by direction (`c2s`, `s2c`), then wire name.
    pub messages: BTreeMap<WireDir, BTreeMap<String, LockMessage>>,
    /// Reserved ids and names of removed messages, per direction (from dispatch enums).
    #[serde(default)]
    pub reserved: BTreeMap<WireDir, ReservedIds>,
    /// Every record, enum and flags type reached from a message, by canonical path.
    pub types: BTreeMap<String, LockType>,
    /// Accepted breaks and restarts, oldest first.
    #[serde(default)]
    pub history: Vec<HistoryEntry>,
    /// Acceptances written in the source (only in a lock built from a schema).
    #[serde(skip)]
    pub accepts: Vec<SourceAccept>,
    /// Source lines by item path (only in a lock built from a schema).
    #[serde(skip)]
    pub lines: BTreeMap<String, usize>,
    /// Source `file:line` of each member by item path, then member (`p`, `Boat`,
    /// `Pet.name`; only in a lock built from a schema).
    #[serde(skip)]
    pub member_locations: BTreeMap<String, BTreeMap<String, String>>,
    /// Lines of the lock file by entry key (`messages/c2s/player:move`), when parsed from text.
    #[serde(skip)]
    pub lock_lines: BTreeMap<String, usize>,
}

/// One direction on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireDir {
    /// Client to server.
    C2s,
    /// Server to client.
    S2c,
}

impl WireDir {
    /// Both directions, client to server first.
    pub const ALL: [WireDir; 2] = [WireDir::C2s, WireDir::S2c];

    /// `c2s` or `s2c`.
    pub fn as_str(self) -> &'static str {
        match self {
            WireDir::C2s => "c2s",
            WireDir::S2c => "s2c",
        }
    }

    /// The other direction.
    pub fn other(self) -> WireDir {
        match self {
            WireDir::C2s => WireDir::S2c,
            WireDir::S2c => WireDir::C2s,
        }
    }

    /// The IR direction.
    pub fn ir(self) -> Dir {
        match self {
            WireDir::C2s => Dir::C2s,
            WireDir::S2c => Dir::S2c,
        }
    }
}

/// One message in one direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockMessage {
    /// The envelope id.
    pub id: u32,
    /// The declared direction (`c2s`, `s2c` or `both`).
    pub dir: Dir,
    /// The canonical path of the message type.
    #[serde(rename = "type")]
    pub ty: String,
    /// The source file, relative to the schema crate.
    pub file: String,
    /// The byte budget, if any (recorded, not judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u32>,
    /// Whether the message travels in the delta form (`delta-toggled` judges a change).
    #[serde(default, skip_serializing_if = "is_false")]
    pub delta: bool,
    /// The slots, by position.
    pub fields: Vec<LockSlot>,
}

/// Reserved message ids and names of one direction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReservedIds {
    /// Ids never to be reused.
    #[serde(default)]
    pub ids: BTreeSet<u32>,
    /// Names never to be reused.
    #[serde(default)]
    pub names: BTreeSet<String>,
}

/// One position of a record: a field or a reserved placeholder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockSlot {
    /// The field name (for a reserved slot, its Rust placeholder name).
    pub name: String,
    /// The type; absent for a reserved slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<Ty>,
    /// Legacy keys of the named shape.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legacy: Vec<String>,
    /// For a reserved slot, the note saying why the field went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved: Option<String>,
}

impl LockSlot {
    /// Whether this is a reserved placeholder.
    pub fn is_reserved(&self) -> bool {
        self.ty.is_none()
    }

    /// Whether this is a live field whose type is `Option<_>`.
    pub fn is_optional(&self) -> bool {
        matches!(self.ty, Some(Ty::Option { .. }))
    }
}

/// A type with its constraints, normalized: every bound is the effective one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ty {
    /// `bool`.
    Bool,
    /// An integer with its effective inclusive bounds.
    Int {
        /// `u8` ... `i64`.
        prim: String,
        /// Smallest value.
        #[serde(with = "crate::wide_int")]
        min: i128,
        /// Largest value.
        #[serde(with = "crate::wide_int")]
        max: i128,
        /// TypeScript `bigint`.
        #[serde(default, skip_serializing_if = "is_false")]
        bigint: bool,
    },
    /// A raw float with its range in natural units, if any.
    Float {
        /// 32 or 64.
        bits: u8,
        /// Smallest value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// Largest value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
    /// A quantized float: the wire int `q` and its integer bounds.
    Quant {
        /// 32 or 64.
        bits: u8,
        /// Wire integers per natural unit.
        scale: f64,
        /// The unit name, if given by name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<String>,
        /// Smallest `q`.
        qmin: i64,
        /// Largest `q`.
        qmax: i64,
        /// The range in natural units, as written.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<[f64; 2]>,
    },
    /// A string; `len` counts UTF-8 bytes.
    String {
        /// Length bounds.
        #[serde(default, skip_serializing_if = "LockLen::is_any")]
        len: LockLen,
    },
    /// Bytes (bin).
    Bytes {
        /// Length bounds.
        #[serde(default, skip_serializing_if = "LockLen::is_any")]
        len: LockLen,
    },
    /// `Option<T>`.
    Option {
        /// The inner type.
        inner: Box<Ty>,
    },
    /// `Vec<T>`.
    Vec {
        /// The element type.
        inner: Box<Ty>,
        /// Length bounds.
        #[serde(default, skip_serializing_if = "LockLen::is_any")]
        len: LockLen,
    },
    /// `[T; N]`.
    Array {
        /// The element type.
        inner: Box<Ty>,
        /// N.
        len: u32,
    },
    /// `BTreeMap<K, V>`.
    Map {
        /// The key type.
        key: Box<Ty>,
        /// The value type.
        value: Box<Ty>,
        /// Entry-count bounds.
        #[serde(default, skip_serializing_if = "LockLen::is_any")]
        len: LockLen,
    },
    /// A record, enum or flags type, by canonical path (see `types`).
    Named {
        /// The canonical path.
        path: String,
    },
}

/// Length bounds; absent means unbounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockLen {
    /// Smallest length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// Largest length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

impl LockLen {
    /// Whether unbounded.
    pub fn is_any(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }

    /// The effective bounds.
    pub fn bounds(&self) -> (u64, u64) {
        (
            self.min.unwrap_or(0) as u64,
            self.max.map(|m| m as u64).unwrap_or(u32::MAX as u64 + 1),
        )
    }
}

/// A referenced type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockType {
    /// The directions it is reached from, through messages.
    pub dirs: Vec<WireDir>,
    /// The source file, relative to the schema crate.
    pub file: String,
    /// The body.
    #[serde(flatten)]
    pub body: TypeBody,
}

/// The body of a referenced type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeBody {
    /// A record.
    Record {
        /// For an entity of the delta form, its key field (`entity-key-changed` judges a
        /// change).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entity: Option<String>,
        /// Slots by position.
        fields: Vec<LockSlot>,
    },
    /// An enum.
    Enum {
        /// Whether any variant carries data (`[tag, ...]` on the wire).
        data: bool,
        /// Unknown numbers are kept.
        #[serde(default, skip_serializing_if = "is_false")]
        open: bool,
        /// Numbers of removed variants.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reserved: Vec<i64>,
        /// The variants, by number.
        variants: Vec<LockVariant>,
    },
    /// A flag set.
    Flags {
        /// The wire int.
        int: String,
        /// Unknown bits are kept.
        #[serde(default, skip_serializing_if = "is_false")]
        open: bool,
        /// Bits of removed flags.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reserved: Vec<u8>,
        /// The flags, by bit.
        bits: Vec<LockFlag>,
    },
}

impl TypeBody {
    /// `record`, `enum` or `flags`.
    pub fn kind(&self) -> &'static str {
        match self {
            TypeBody::Record { .. } => "record",
            TypeBody::Enum { data: false, .. } => "unit enum",
            TypeBody::Enum { data: true, .. } => "enum with data",
            TypeBody::Flags { .. } => "flags",
        }
    }
}

/// One enum variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockVariant {
    /// The name (its named-shape name).
    pub name: String,
    /// The discriminant or tag.
    pub number: i64,
    /// `unit`, `newtype` or `struct`.
    pub shape: String,
    /// The data: one field named `0` for a newtype, the record's slots for a struct.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<LockSlot>,
}

/// One flag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockFlag {
    /// The name.
    pub name: String,
    /// The bit.
    pub bit: u8,
}

/// One entry of the lock's history.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum HistoryEntry {
    /// A breaking change accepted in the source and recorded by `tuplet lock`.
    Accepted {
        /// The rule.
        rule: String,
        /// The direction judged.
        dir: WireDir,
        /// The item's canonical path.
        item: String,
        /// The field, variant or flag, if any.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        member: String,
        /// The old value.
        was: String,
        /// The new value.
        now: String,
        /// Why it was accepted.
        reason: String,
        /// Whether the member changed again since (from `now` to something else): the
        /// acceptance no longer describes the lock, so one left in the source is stale.
        #[serde(default, skip_serializing_if = "is_false")]
        superseded: bool,
    },
    /// `deploy` in `tuplet.toml` changed, acknowledged with `accept-deploy`.
    DeployChanged {
        /// The order before.
        was: Deploy,
        /// The order after.
        now: Deploy,
        /// Why (the acknowledgement's reason).
        reason: String,
        /// Whether the order changed again since.
        #[serde(default, skip_serializing_if = "is_false")]
        superseded: bool,
    },
    /// The lock was started over with `tuplet lock --restart`.
    Restart {
        /// Why.
        reason: String,
    },
}

/// An `accept(...)` written in the source, with where it applies.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceAccept {
    /// The acceptance.
    pub accept: ir::Accept,
    /// The canonical path of the item it is written on.
    pub item: String,
    /// The field, variant or `Variant.field` it is written on; empty on a container.
    pub member: String,
    /// For an acceptance on a dispatch enum, its direction: it covers that direction's
    /// message-level changes (a removed message, a changed id).
    pub dispatch: Option<Dir>,
    /// `file:line:column` of its `accept` key (`file:line` of the item when unknown).
    pub location: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Lock {
    /// The canonical text: pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a lock always serializes");
        s.push('\n');
        s
    }

    /// Parses a lock's text, indexing the lines of its entries for reports.
    ///
    /// A lock git merged is refused with the procedure ([`super::merge::PROCEDURE`]): one
    /// with conflict markers, a key written twice (two branches adding the same entry), or
    /// two messages of a direction with one id (two branches each adding a message).
    pub fn from_json(text: &str) -> Result<Lock, String> {
        use super::merge;
        if let Some(line) = merge::conflict_marker(text) {
            return Err(format!(
                "git conflict markers at line {line}: {}",
                merge::PROCEDURE
            ));
        }
        if let Some(key) = merge::duplicate_key(text) {
            return Err(format!(
                "the key `{key}` is written twice: {}",
                merge::PROCEDURE
            ));
        }
        if let Some((dir, id, names)) = merge::duplicate_id(text) {
            return Err(format!(
                "the {dir} messages `{}` all have id {id}: {}",
                names.join("`, `"),
                merge::PROCEDURE
            ));
        }
        let mut lock: Lock = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if !(1..=FORMAT).contains(&lock.format) {
            return Err(format!(
                "lock format {} is not one this tuplet reads (1 to {FORMAT})",
                lock.format
            ));
        }
        lock.lock_lines = super::lines::index_lines(text);
        Ok(lock)
    }

    /// The `file:line` of an item built from source, or its file alone.
    pub fn location(&self, path: &str, file: &str) -> String {
        match self.lines.get(path) {
            Some(l) => format!("{file}:{l}"),
            None => file.to_string(),
        }
    }

    /// The `file:line` of a member of an item built from source: the member's own line,
    /// else that of the nearest enclosing member still written (`Pet` for a removed
    /// `Pet.name`); `None` when the item has none of them.
    pub fn member_location(&self, path: &str, member: &str) -> Option<&str> {
        let members = self.member_locations.get(path)?;
        let mut m = member;
        while !m.is_empty() {
            if let Some(at) = members.get(m) {
                return Some(at);
            }
            m = m.rsplit_once('.').map_or("", |(head, _)| head);
        }
        None
    }

    /// The line in the lock file of an entry (`messages/c2s/player:move`), if known.
    pub fn lock_line(&self, key: &str) -> Option<usize> {
        self.lock_lines.get(key).copied()
    }
}
