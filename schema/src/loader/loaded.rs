//! What the loader holds between the walk and resolution: each tuplet item parsed, with
//! where it is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::modules::Walk;
use crate::grammar::Derive;
use crate::ir::Item;

/// One tuplet item as the loader parsed it: the per-item IR and where it is written.
#[derive(Debug, Clone)]
pub struct LoadedItem {
    /// The canonical path (`crate::player::PlayerMove`).
    pub path: String,
    /// The derive on it.
    pub derive: Derive,
    /// Its file, as reached from the crate directory given to the loader.
    pub file: PathBuf,
    /// Line of its identifier, 1-based.
    pub line: usize,
    /// Column of its identifier, 1-based.
    pub col: usize,
    /// Line of each member's identifier (`field`, `Variant`, `Variant.field`), 1-based.
    pub member_lines: BTreeMap<String, usize>,
    /// `(line, column)` of each `accept` key by member (`""` for the item), in source order.
    pub accept_spans: BTreeMap<String, Vec<(usize, usize)>>,
    /// The per-item IR, type references as written: what the derive emits as `Wire::IR`.
    pub item: Item,
    /// Index into the walk's items.
    pub(super) index: usize,
}

impl LoadedItem {
    pub(super) fn relative_file(&self, crate_dir: &Path) -> String {
        let rel = self.file.strip_prefix(crate_dir).unwrap_or(&self.file);
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// A crate read and parsed item by item, before resolution.
pub struct Loaded {
    /// The crate directory given to the loader.
    pub crate_dir: PathBuf,
    /// Every tuplet item by canonical path.
    pub items: BTreeMap<String, LoadedItem>,
    pub(super) walk: Walk,
}
