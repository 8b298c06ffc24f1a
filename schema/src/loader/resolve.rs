//! Name resolution and the cross-item checks: every `TypeRef::Named` and dispatch variant,
//! written as `MoveFlags`, `crate::common::Vec3`, `super::x::Y` or `common::Y`, is resolved
//! through the module tree and its `use` items (renames, groups, globs, `pub use`
//! re-exports) to the canonical path of a tuplet item.

use std::collections::BTreeMap;

use super::directions::check_direction;
use super::error::LoadError;
use super::loaded::{Loaded, LoadedItem};
use super::modules::{Def, Walk};
use super::spans::type_span;
use crate::ir::{Dir, Field, Item, ItemKind, Record, Slot, TypeRef, VariantFields};
use crate::resolved::{Kind, ResolvedItem, ResolvedSchema};

/// What a path names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A tuplet item (index into `Walk::items`).
    Item(usize),
    /// A module.
    Module(usize),
    /// Something else declared in the crate: what it is.
    Other(&'static str),
    /// Something in another crate (`std`, `tuplet`, `glam`...).
    External,
}

/// A failed lookup: the module searched and the name missing from it.
struct Miss {
    module: usize,
    name: String,
}

/// How deep `use` chains may go before the loader calls them a cycle.
const MAX_DEPTH: usize = 32;

struct Resolver<'a> {
    walk: &'a Walk,
}

impl Resolver<'_> {
    /// Looks `name` up in the type namespace of `module`: its own items and child modules,
    /// then its named imports, then its glob imports.
    fn name(&self, module: usize, name: &str, depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = &self.walk.modules[module];
        match m.defs.get(name) {
            Some(Def::Tuplet(i)) => return Some(Target::Item(*i)),
            Some(Def::Other(what)) if !m.children.contains_key(name) => {
                return Some(Target::Other(what))
            }
            _ => {}
        }
        if let Some(child) = m.children.get(name) {
            return Some(Target::Module(*child));
        }
        for entry in m.uses.iter().filter(|u| u.name.as_deref() == Some(name)) {
            if let Ok(t) = self.path(module, &entry.path, true, depth + 1) {
                return Some(t);
            }
        }
        for entry in m.uses.iter().filter(|u| u.name.is_none()) {
            if let Ok(Target::Module(g)) = self.path(module, &entry.path, true, depth + 1) {
                if g != module {
                    if let Some(t) = self.name(g, name, depth + 1) {
                        return Some(t);
                    }
                }
            }
        }
        None
    }

    /// Resolves a path from `module`. `extern_ok`: a first segment found nowhere in scope is
    /// another crate (as in a `use`, or a path of several segments).
    fn path(
        &self,
        module: usize,
        segs: &[String],
        extern_ok: bool,
        depth: usize,
    ) -> Result<Target, Miss> {
        let mut segs = segs.iter().map(String::as_str).peekable();
        let mut cur = match segs.peek().copied() {
            Some("crate") => {
                segs.next();
                Target::Module(0)
            }
            Some("self") => {
                segs.next();
                Target::Module(module)
            }
            Some("super") => {
                let mut m = module;
                while segs.peek() == Some(&"super") {
                    segs.next();
                    m = self.walk.modules[m].parent.ok_or(Miss {
                        module: m,
                        name: "super".into(),
                    })?;
                }
                Target::Module(m)
            }
            Some(first) if first.starts_with("::") || first.is_empty() => {
                return Ok(Target::External)
            }
            Some(first) => {
                segs.next();
                let more = segs.peek().is_some();
                match self.name(module, first, depth) {
                    Some(t) => t,
                    None if extern_ok || more => return Ok(Target::External),
                    None => {
                        return Err(Miss {
                            module,
                            name: first.into(),
                        })
                    }
                }
            }
            None => return Ok(Target::Module(module)),
        };
        for seg in segs {
            match cur {
                Target::Module(m) => {
                    cur = self.name(m, seg, depth).ok_or(Miss {
                        module: m,
                        name: seg.into(),
                    })?;
                }
                Target::External => return Ok(Target::External),
                // `Enum::Variant` and the like: not a type the loader follows.
                Target::Item(_) | Target::Other(_) => return Ok(Target::Other("item member")),
            }
        }
        Ok(cur)
    }
}

/// Checks every `use` of a crate-local path resolves.
pub(crate) fn check_uses(walk: &Walk, errors: &mut Vec<LoadError>) {
    let r = Resolver { walk };
    for (index, m) in walk.modules.iter().enumerate() {
        for entry in &m.uses {
            let local = matches!(
                entry.path.first().map(String::as_str),
                Some("crate" | "self" | "super")
            ) || entry
                .path
                .first()
                .is_some_and(|f| m.children.contains_key(f));
            if !local {
                continue;
            }
            if let Err(miss) = r.path(index, &entry.path, true, 0) {
                errors.push(LoadError::at(
                    &m.file,
                    entry.span,
                    format!(
                        "unresolved import `{}`: `{}` has no `{}`; fix the path or declare the item",
                        entry.path.join("::"),
                        walk.modules[miss.module].path,
                        miss.name
                    ),
                ));
            }
        }
    }
}

/// Resolves every reference and runs the cross-item checks.
pub(crate) fn resolve(loaded: &Loaded) -> Result<ResolvedSchema, Vec<LoadError>> {
    let walk = &loaded.walk;
    let r = Resolver { walk };
    let mut errors = Vec::new();
    // Walk index -> the item, for those that parsed.
    let by_index: BTreeMap<usize, &LoadedItem> =
        loaded.items.values().map(|li| (li.index, li)).collect();
    let mut resolved: BTreeMap<String, ResolvedItem> = BTreeMap::new();
    for li in loaded.items.values() {
        let found = &walk.items[li.index];
        let mut item = li.item.clone();
        let mut refs = Vec::new();
        collect_refs(&li.item, &mut refs);
        let mut map: BTreeMap<String, String> = BTreeMap::new();
        for (written, role) in refs {
            if map.contains_key(&written) {
                continue;
            }
            let segs: Vec<String> = written
                .trim_start_matches("::")
                .split("::")
                .map(str::to_string)
                .collect();
            // Found only for an error: printing every field's type is most of a load.
            let err = |msg: String| LoadError::at(&li.file, type_span(&found.input, &written), msg);
            let target = if written.starts_with("::") {
                Ok(Target::External)
            } else {
                r.path(found.module, &segs, false, 0)
            };
            match target {
                Ok(Target::Item(i)) => {
                    // An item that failed to parse was reported already.
                    let Some(target) = by_index.get(&i) else {
                        continue;
                    };
                    if let Some(msg) = role.refuse(Kind::of(&target.item), &written) {
                        errors.push(err(msg));
                    }
                    map.insert(written, target.path.clone());
                }
                Ok(Target::Other(what)) => errors.push(err(format!(
                    "`{written}` is a {what} without a tuplet derive: derive `tuplet::Record`, \
                     `tuplet::Enum` or `tuplet::Flags` on it, or use a supported type"
                ))),
                Ok(Target::Module(_)) => {
                    errors.push(err(format!("`{written}` is a module, not a type")))
                }
                Ok(Target::External) => errors.push(err(format!(
                    "`{written}` is outside this crate: the loader reads only the schema crate's \
                     source; declare the type in it with a tuplet derive"
                ))),
                Err(miss) => {
                    let m = &walk.modules[miss.module];
                    let hint = if m.macros.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " (`{}` has item-level macro invocations: types made by macros are \
                             invisible to the loader; write the type out)",
                            m.path
                        )
                    };
                    errors.push(err(format!(
                        "cannot find type `{written}`: `{}` has no `{}`{hint}; declare it or \
                         import it with `use`",
                        m.path, miss.name
                    )));
                }
            }
        }
        rewrite_refs(&mut item, &map);
        resolved.insert(
            li.path.clone(),
            ResolvedItem {
                path: li.path.clone(),
                module: walk.modules[found.module].path.clone(),
                file: li.relative_file(&loaded.crate_dir),
                line: li.line,
                member_lines: li.member_lines.clone(),
                accept_spans: li.accept_spans.clone(),
                item,
            },
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut schema = ResolvedSchema {
        items: resolved,
        c2s: BTreeMap::new(),
        s2c: BTreeMap::new(),
        constants: loaded.walk.constants.clone(),
    };
    for dir in [Dir::C2s, Dir::S2c] {
        let ids = check_direction(loaded, &schema, dir, &mut errors);
        match dir {
            Dir::C2s => schema.c2s = ids,
            _ => schema.s2c = ids,
        }
    }
    if errors.is_empty() {
        Ok(schema)
    } else {
        Err(errors)
    }
}

/// Where a reference appears, for the checks of what it may name.
#[derive(Clone, Copy)]
enum Role {
    /// The type of a field.
    Field,
    /// A dispatch enum's variant.
    Dispatch,
}

impl Role {
    /// Why `kind` cannot be referenced here, if it cannot.
    fn refuse(self, kind: Kind, written: &str) -> Option<String> {
        match (self, kind) {
            (Role::Field, Kind::Record | Kind::Enum | Kind::Flags) => None,
            (Role::Dispatch, Kind::Message) => None,
            (Role::Field, Kind::Message) => Some(format!(
                "`{written}` is a message: a field holds a record, enum or flags type; move the \
                 shared fields into a `#[derive(tuplet::Record)]` and use it in both"
            )),
            (Role::Field, Kind::Dispatch) => Some(format!(
                "`{written}` is a dispatch enum, which has no wire form of its own; use a \
                 `#[derive(tuplet::Enum)]` with data"
            )),
            (Role::Dispatch, other) => Some(format!(
                "`{written}` is a {}, not a message: a dispatch enum holds messages only",
                other.as_str()
            )),
        }
    }
}

fn collect_refs(item: &Item, out: &mut Vec<(String, Role)>) {
    fn record(r: &Record, out: &mut Vec<(String, Role)>) {
        for s in &r.slots {
            if let Slot::Field(f) = s {
                field(f, out);
            }
        }
    }
    fn field(f: &Field, out: &mut Vec<(String, Role)>) {
        ty(&f.ty, out);
    }
    fn ty(t: &TypeRef, out: &mut Vec<(String, Role)>) {
        match t {
            TypeRef::Named { path } => out.push((path.clone(), Role::Field)),
            TypeRef::Option { inner }
            | TypeRef::Vec { inner, .. }
            | TypeRef::Array { inner, .. } => ty(inner, out),
            TypeRef::Map { key, value, .. } => {
                ty(key, out);
                ty(value, out);
            }
            _ => {}
        }
    }
    match &item.kind {
        ItemKind::Message(m) => record(&m.record, out),
        ItemKind::Record(r) => record(r, out),
        ItemKind::Enum(e) => {
            for v in &e.variants {
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field: f } => field(f, out),
                    VariantFields::Struct { record: r } => record(r, out),
                }
            }
        }
        ItemKind::Flags(_) => {}
        ItemKind::Dispatch(d) => {
            for v in &d.variants {
                out.push((v.path.clone(), Role::Dispatch));
            }
        }
    }
}

/// Replaces each written path by its canonical path.
fn rewrite_refs(item: &mut Item, map: &BTreeMap<String, String>) {
    fn record(r: &mut Record, map: &BTreeMap<String, String>) {
        for s in &mut r.slots {
            if let Slot::Field(f) = s {
                ty(&mut f.ty, map);
            }
        }
    }
    fn ty(t: &mut TypeRef, map: &BTreeMap<String, String>) {
        match t {
            TypeRef::Named { path } => {
                if let Some(c) = map.get(path) {
                    *path = c.clone();
                }
            }
            TypeRef::Option { inner }
            | TypeRef::Vec { inner, .. }
            | TypeRef::Array { inner, .. } => ty(inner, map),
            TypeRef::Map { key, value, .. } => {
                ty(key, map);
                ty(value, map);
            }
            _ => {}
        }
    }
    match &mut item.kind {
        ItemKind::Message(m) => record(&mut m.record, map),
        ItemKind::Record(r) => record(r, map),
        ItemKind::Enum(e) => {
            for v in &mut e.variants {
                match &mut v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field } => ty(&mut field.ty, map),
                    VariantFields::Struct { record: r } => record(r, map),
                }
            }
        }
        ItemKind::Flags(_) => {}
        ItemKind::Dispatch(d) => {
            for v in &mut d.variants {
                if let Some(c) = map.get(&v.path) {
                    v.path = c.clone();
                }
            }
        }
    }
}
