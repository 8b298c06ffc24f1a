//! `X$validate(v, path, issues)`: every issue of a natural value, each at its canonical path
//! (`p[1]`, `items[3].name`, `scores["ann"]`), as the Rust `validate_at` reports them, plus
//! the JS type checks (`typeof` guards) the Rust type system makes for free.
//! Validation is a cold path: a record or data enum is walked by the runtime (`vRecord`,
//! `vEnum`) along its table (`table.rs`), a unit enum or flag set checked by `X$num`/`X$bits`.

use std::collections::BTreeSet;

use tuplet_schema::ir::{Enum, Flags, TypeRef};
use tuplet_schema::ResolvedSchema;

use super::common::Out;
use super::generator::Gen;
use super::table::record_table;

/// The paths of the items a field of some item names (inside options, lists, arrays and maps
/// too): their tables' `kType` descriptors name `X$validate`.
pub fn nested(schema: &ResolvedSchema) -> BTreeSet<String> {
    fn named(t: &TypeRef, out: &mut BTreeSet<String>) {
        match t {
            TypeRef::Named { path } => {
                out.insert(path.clone());
            }
            TypeRef::Option { inner }
            | TypeRef::Vec { inner, .. }
            | TypeRef::Array { inner, .. } => named(inner, out),
            TypeRef::Map { key, value, .. } => {
                named(key, out);
                named(value, out);
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for item in schema.items.values() {
        super::inline::for_each_type(&item.item.kind, &mut |t| named(t, &mut out));
    }
    out
}

fn head(g: &mut Gen, ident: &str) -> Out {
    let seg = g.rt_type("Seg");
    let issue = g.rt_type("Issue");
    let mut out = Out::at(0);
    out.open(format!(
        "export function {ident}$validate(v: {ident}, p: {seg}[], i: {issue}[]): void {{"
    ));
    out
}

fn one(g: &mut Gen, ident: &str, line: String) -> String {
    let mut out = head(g, ident);
    out.line(line);
    out.close("}");
    out.line("");
    out.finish()
}

/// `X$validate` of a record (its table is declared by `table::record`).
pub fn record_fn(g: &mut Gen, ident: &str) -> String {
    let f = g.rt("vRecord");
    let line = format!("{f}(v, {}, p, i);", record_table(ident));
    one(g, ident, line)
}

/// `X$validate` of an enum: a unit enum through `X$num`, a data enum along its table.
pub fn enum_fn(g: &mut Gen, ident: &str, e: &Enum) -> String {
    let line = if e.is_unit() {
        let check = g.rt("check");
        format!("{check}(p, i, () => {ident}$num(v));")
    } else {
        let f = g.rt("vEnum");
        format!(
            "{f}(v, {}, {}, p, i);",
            record_table(ident),
            e.unknown.is_some()
        )
    };
    one(g, ident, line)
}

/// `X$validate` of a flag set.
pub fn flags_fn(g: &mut Gen, ident: &str, _f: &Flags) -> String {
    let check = g.rt("check");
    let line = format!("{check}(p, i, () => {ident}$bits(v));");
    one(g, ident, line)
}
