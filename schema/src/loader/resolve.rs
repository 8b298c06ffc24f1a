//! Name resolution and the cross-item checks: every `TypeRef::Named` and dispatch variant,
//! written as `MoveFlags`, `crate::common::Vec3`, `super::x::Y` or `common::Y`, is resolved
//! through the module tree and its `use` items (renames, groups, globs, `pub use`
//! re-exports) to the canonical path of a tuplet item.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

use super::error::LoadError;
use super::loaded::{Loaded, LoadedItem};
use super::modules::{Def, Walk};
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

/// Ids and names unique per direction, reserved ones unused, the direction's dispatch enums
/// covering it and holding only its messages. Returns id -> canonical path.
fn check_direction(
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

/// The span of the first type path written as `written` in the item (its ident if none).
pub(crate) fn type_span(input: &syn::DeriveInput, written: &str) -> Span {
    fn in_type(t: &syn::Type, written: &str) -> Option<Span> {
        match t {
            syn::Type::Path(tp) => {
                let s = tp.path.to_token_stream().to_string().replace(' ', "");
                if s == written {
                    return Some(tp.span());
                }
                tp.path
                    .segments
                    .iter()
                    .find_map(|seg| match &seg.arguments {
                        syn::PathArguments::AngleBracketed(a) => {
                            a.args.iter().find_map(|arg| match arg {
                                syn::GenericArgument::Type(t) => in_type(t, written),
                                _ => None,
                            })
                        }
                        _ => None,
                    })
            }
            syn::Type::Array(a) => in_type(&a.elem, written),
            syn::Type::Group(g) => in_type(&g.elem, written),
            syn::Type::Paren(p) => in_type(&p.elem, written),
            _ => None,
        }
    }
    let fields: Vec<&syn::Field> = match &input.data {
        syn::Data::Struct(s) => s.fields.iter().collect(),
        syn::Data::Enum(e) => e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        syn::Data::Union(u) => u.fields.named.iter().collect(),
    };
    fields
        .iter()
        .find_map(|f| in_type(&f.ty, written))
        .unwrap_or_else(|| input.ident.span())
}

/// The span of a `key` inside the item's `#[tuplet(...)]` attributes (its ident if absent).
pub(crate) fn key_span(input: &syn::DeriveInput, key: &str) -> Span {
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("tuplet")) {
        if let syn::Meta::List(list) = &attr.meta {
            let mut prev_comma = true;
            for tt in list.tokens.clone() {
                match &tt {
                    proc_macro2::TokenTree::Ident(i) if prev_comma && i == key => {
                        return i.span();
                    }
                    proc_macro2::TokenTree::Punct(p) => prev_comma = p.as_char() == ',',
                    _ => prev_comma = false,
                }
            }
        }
    }
    input.ident.span()
}
