//! The per-direction checks: message ids and names unique, reserved ones unused, and the
//! direction's dispatch enums covering it and holding only its messages.

use std::collections::{BTreeMap, BTreeSet};

use super::error::LoadError;
use super::loaded::{Loaded, LoadedItem};
use super::spans::{key_span, type_span};
use crate::ir::{Dir, ItemKind};
use crate::resolved::ResolvedSchema;

/// Ids and names unique per direction, reserved ones unused, the direction's dispatch enums
/// covering it and holding only its messages. Returns id -> canonical path.
pub(super) fn check_direction(
    loaded: &Loaded,
    schema: &ResolvedSchema,
    dir: Dir,
    errors: &mut Vec<LoadError>,
) -> BTreeMap<u32, String> {
    let d = dir.as_str();
    // Messages in source order (file, then line), so the later one is blamed.
    let mut msgs: Vec<(&LoadedItem, &crate::ir::Message)> = loaded
        .items
        .values()
        .filter_map(|li| match &li.item.kind {
            ItemKind::Message(m) if m.dir.includes(dir) => Some((li, m)),
            _ => None,
        })
        .collect();
    msgs.sort_by(|a, b| (&a.0.file, a.0.line, a.0.col).cmp(&(&b.0.file, b.0.line, b.0.col)));
    let mut ids: BTreeMap<u32, String> = BTreeMap::new();
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for (li, m) in &msgs {
        let input = &loaded.walk.items[li.index].input;
        if let Some(other) = ids.get(&m.id) {
            errors.push(LoadError::at(
                &li.file,
                key_span(input, "id"),
                format!(
                    "id {} is used twice in direction {d}: by `{other}` and `{}`; ids are unique \
                     per direction: pick an unused id",
                    m.id, li.path
                ),
            ));
        } else {
            ids.insert(m.id, li.path.clone());
        }
        if let Some(other) = names.get(m.name.as_str()) {
            errors.push(LoadError::at(
                &li.file,
                key_span(input, "name"),
                format!(
                    "name `{}` is used twice in direction {d}: by `{other}` and `{}`; names are \
                     unique per direction: rename one",
                    m.name, li.path
                ),
            ));
        } else {
            names.insert(&m.name, &li.path);
        }
    }
    let dispatches: Vec<(&LoadedItem, &crate::ir::Dispatch)> = loaded
        .items
        .values()
        .filter_map(|li| match &li.item.kind {
            ItemKind::Dispatch(x) if x.dir.includes(dir) => Some((li, x)),
            _ => None,
        })
        .collect();
    let mut covered: BTreeSet<&str> = BTreeSet::new();
    for (li, x) in &dispatches {
        let resolved = &schema.items[&li.path];
        let ItemKind::Dispatch(rx) = &resolved.item.kind else {
            continue;
        };
        for (v, rv) in x.variants.iter().zip(&rx.variants) {
            covered.insert(&rv.path);
            if let Some(ItemKind::Message(m)) = schema.get(&rv.path).map(|i| &i.item.kind) {
                if !m.dir.includes(x.dir) {
                    let span = type_span(&loaded.walk.items[li.index].input, &v.path);
                    errors.push(LoadError::at(
                        &li.file,
                        span,
                        format!(
                            "`{}` is a {} message, but dispatch enum `{}` is {}: move the variant \
                             to the {} dispatch enum",
                            rv.path,
                            m.dir.as_str(),
                            li.path,
                            x.dir.as_str(),
                            m.dir.as_str()
                        ),
                    ));
                }
            }
        }
        for (ml, m) in &msgs {
            let input = &loaded.walk.items[ml.index].input;
            if x.reserved_ids.contains(&m.id) {
                errors.push(LoadError::at(
                    &ml.file,
                    key_span(input, "id"),
                    format!(
                        "id {} is reserved by dispatch enum `{}` (a removed message's): pick an \
                         unused id",
                        m.id, li.path
                    ),
                ));
            }
            if x.reserved_names.contains(&m.name) {
                errors.push(LoadError::at(
                    &ml.file,
                    key_span(input, "name"),
                    format!(
                        "name `{}` is reserved by dispatch enum `{}` (a removed message's): pick \
                         another name",
                        m.name, li.path
                    ),
                ));
            }
        }
    }
    // Coverage: with a dispatch enum for this direction, every message of it is in one.
    if let Some((first, _)) = dispatches.first() {
        for (ml, m) in &msgs {
            if !covered.contains(ml.path.as_str()) {
                let input = &loaded.walk.items[ml.index].input;
                errors.push(LoadError::at(
                    &ml.file,
                    input.ident.span(),
                    format!(
                        "message `{}` ({d}, id {}) is in no {d} dispatch enum: add a variant \
                         `{}({})` to `{}`",
                        m.name, m.id, ml.item.ident, ml.path, first.path
                    ),
                ));
            }
        }
    }
    ids
}
