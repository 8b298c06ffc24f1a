//! The resolved IR: every item of a schema crate by canonical path, type references
//! resolved, cross-item checks done. Built only by the loader (`crate::loader`); the
//! emitters read nothing else.
//!
//! It reuses the per-item IR: in a resolved item every `TypeRef::Named { path }` and every
//! dispatch variant's `path` hold the canonical path of the item they name
//! (`crate::common::Vec3`), whose kind [`ResolvedSchema::kind`] tells. All collections are
//! ordered (`BTreeMap`), so whatever iterates them is deterministic.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ir::{Dir, Item, ItemKind, Message};

/// A whole protocol: what the emitters consume.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolvedSchema {
    /// Every tuplet item, by canonical path (`crate::player::PlayerMove`).
    pub items: BTreeMap<String, ResolvedItem>,
    /// Messages a client sends (`c2s` and `both`): id -> canonical path.
    pub c2s: BTreeMap<u32, String>,
    /// Messages a server sends (`s2c` and `both`): id -> canonical path.
    pub s2c: BTreeMap<u32, String>,
    /// The integer constants the crate root declares `pub` (`pub const PROTOCOL_VERSION: u16 =
    /// 2;`), in source order: the TypeScript package exports each as a constant of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<Constant>,
}

/// An integer constant of the schema crate's root, written as a literal
/// (`pub const PROTOCOL_VERSION: u16 = 2;`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constant {
    /// Its Rust name, which the TypeScript package keeps.
    pub name: String,
    /// Its value.
    pub value: i64,
    /// Its doc comment, lines joined with `\n`.
    pub doc: String,
}

/// One item with its references resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolvedItem {
    /// The canonical path (`crate::player::PlayerMove`).
    pub path: String,
    /// The module it is declared in (`crate::player`).
    pub module: String,
    /// Its source file, relative to the crate directory, with `/` separators (`src/player.rs`).
    pub file: String,
    /// The line of its identifier, 1-based.
    pub line: usize,
    /// The line of each member's identifier, 1-based: fields and flags by name, variants by
    /// name, a struct variant's fields as `Variant.field` (as compat findings name them).
    #[serde(skip)]
    pub member_lines: BTreeMap<String, usize>,
    /// `(line, column)`, 1-based, of each `accept` key by member (`""` for the item), in
    /// source order: where a finding about an acceptance points.
    #[serde(skip)]
    pub accept_spans: BTreeMap<String, Vec<(usize, usize)>>,
    /// The item, each type reference holding a canonical path.
    pub item: Item,
}

/// The kind of a resolved item, as a reference to it needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A message.
    Message,
    /// A nested record.
    Record,
    /// An enum (unit or with data).
    Enum,
    /// A flag set.
    Flags,
    /// A dispatch enum.
    Dispatch,
}

impl Kind {
    /// The kind of an item.
    pub fn of(item: &Item) -> Kind {
        match item.kind {
            ItemKind::Message(_) => Kind::Message,
            ItemKind::Record(_) => Kind::Record,
            ItemKind::Enum(_) => Kind::Enum,
            ItemKind::Flags(_) => Kind::Flags,
            ItemKind::Dispatch(_) => Kind::Dispatch,
        }
    }

    /// The derive's name (`Record`).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Message => "Message",
            Kind::Record => "Record",
            Kind::Enum => "Enum",
            Kind::Flags => "Flags",
            Kind::Dispatch => "Dispatch",
        }
    }
}

impl ResolvedSchema {
    /// The item at a canonical path.
    pub fn get(&self, path: &str) -> Option<&ResolvedItem> {
        self.items.get(path)
    }

    /// The kind of the item at a canonical path.
    pub fn kind(&self, path: &str) -> Option<Kind> {
        self.items.get(path).map(|i| Kind::of(&i.item))
    }

    /// The messages sent in direction `dir` (`C2s` or `S2c`), by id; `Both` gives nothing.
    pub fn messages(&self, dir: Dir) -> impl Iterator<Item = (&ResolvedItem, &Message)> {
        let ids = match dir {
            Dir::C2s => Some(&self.c2s),
            Dir::S2c => Some(&self.s2c),
            Dir::Both => None,
        };
        ids.into_iter().flat_map(|m| m.values()).filter_map(|p| {
            let item = self.items.get(p)?;
            match &item.item.kind {
                ItemKind::Message(m) => Some((item, m)),
                _ => None,
            }
        })
    }
}
