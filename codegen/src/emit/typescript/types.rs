//! Natural value types: an interface per record (canonical field names, options `?:`),
//! string-literal unions with an `as const` object for unit enums, discriminated unions on
//! `kind` for enums with data, objects of booleans for flags.

use tuplet_schema::ir::{Enum, Flags, IntPrim, ItemKind, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::Node;
use tuplet_schema::ResolvedItem;

use super::common::{doc, enum_num, lit};
use super::generator::Gen;
use super::leaf;

/// The TS type of a value of `t`.
pub fn ts_type(g: &mut Gen, t: &TypeRef) -> String {
    match t.node() {
        Node::Leaf(l) => leaf::ts_type(l),
        Node::Option { inner } => format!("{} | undefined", ts_type(g, inner)),
        Node::Vec { inner, .. } => format!("{}[]", paren(ts_type(g, inner))),
        Node::Array { inner, len } if len <= 16 => {
            let t = ts_type(g, inner);
            format!("[{}]", vec![t; len as usize].join(", "))
        }
        Node::Array { inner, .. } => format!("{}[]", paren(ts_type(g, inner))),
        Node::Map { key, value, .. } => {
            format!("Map<{}, {}>", ts_type(g, key), ts_type(g, value))
        }
        Node::Named { path } => g.type_ref(path),
    }
}

fn paren(t: String) -> String {
    if t.contains(' ') {
        format!("({t})")
    } else {
        t
    }
}

/// Whether an array type is a tuple in TS (so its elements index without `undefined`).
pub fn is_tuple(t: &TypeRef) -> bool {
    matches!(t, TypeRef::Array { len, .. } if *len <= 16)
}

/// The fields of a record as interface members.
pub fn members(g: &mut Gen, slots: &[Slot], indent: &str) -> String {
    let mut out = String::new();
    for slot in slots {
        let Slot::Field(f) = slot else { continue };
        out.push_str(&doc(&f.doc, indent));
        match &f.ty {
            TypeRef::Option { inner } => {
                let t = ts_type(g, inner);
                out.push_str(&format!("{indent}{}?: {t};\n", f.name));
            }
            t => {
                let t = ts_type(g, t);
                out.push_str(&format!("{indent}{}: {t};\n", f.name));
            }
        }
    }
    out
}

/// The type declarations of one item.
pub fn declare(g: &mut Gen, item: &ResolvedItem) -> String {
    let ident = &g.names.item(&item.path).to_string();
    let mut out = doc(&item.item.doc, "");
    match &item.item.kind {
        ItemKind::Message(m) => {
            out.push_str(&format!("export interface {ident} {{\n"));
            out.push_str(&members(g, &m.record.slots, "  "));
            out.push_str("}\n\n");
        }
        ItemKind::Record(r) => {
            out.push_str(&format!("export interface {ident} {{\n"));
            out.push_str(&members(g, &r.slots, "  "));
            out.push_str("}\n\n");
        }
        ItemKind::Enum(e) if e.is_unit() => {
            let names_fn = g.rt("unitNames");
            let docs = std::mem::take(&mut out);
            out.push_str(&unit_enum(ident, e, &docs, &names_fn));
        }
        ItemKind::Enum(e) => {
            out.push_str(&format!("export type {ident} =\n"));
            for v in &e.variants {
                let body = match &v.fields {
                    VariantFields::Unit => format!("{{ kind: {} }}", lit(&v.name)),
                    VariantFields::Newtype { field } => {
                        let t = ts_type(g, &field.ty);
                        format!("{{ kind: {}; value: {t} }}", lit(&v.name))
                    }
                    VariantFields::Struct { record } => {
                        let m = members(g, &record.slots, "      ");
                        format!("{{\n      kind: {};\n{m}    }}", lit(&v.name))
                    }
                };
                out.push_str(&doc(&v.doc, "  "));
                out.push_str(&format!("  | {body}\n"));
            }
            if e.unknown.is_some() {
                out.push_str("  /** A variant this version does not know (an open enum). */\n");
                out.push_str("  | { kind: \"unknown\"; tag: number }");
            }
            out = out.trim_end().to_string();
            out.push_str(";\n\n");
        }
        ItemKind::Flags(f) => out.push_str(&flags(ident, f)),
        ItemKind::Dispatch(_) => {}
    }
    out
}

fn unit_enum(ident: &str, e: &Enum, docs: &str, names_fn: &str) -> String {
    // `__proto__: 1` in an object literal would set the prototype; a computed key is a
    // property like any other.
    let key = |name: &str| {
        if name == "__proto__" {
            format!("[{}]", lit(name))
        } else {
            name.to_string()
        }
    };
    let mut out =
        format!("/** The wire numbers of `{ident}`. */\nexport const {ident}$numbers = {{\n");
    for v in &e.variants {
        out.push_str(&doc(&v.doc, "  "));
        out.push_str(&format!("  {}: {},\n", key(&v.name), enum_num(v.number)));
    }
    out.push_str("} as const;\n");
    // The constant bearing the type's name holds values of that type (`Channel.Trade` is
    // `"Trade"`), so `{ channel: Channel.Trade }` type-checks; its type keeps each variant's doc.
    out.push_str(docs);
    out.push_str(&format!(
        "export const {ident}: {{ readonly [K in keyof typeof {ident}$numbers]: K }} = /*@__PURE__*/ {names_fn}({ident}$numbers);\n"
    ));
    out.push_str(docs);
    let mut names: Vec<String> = e.variants.iter().map(|v| lit(&v.name)).collect();
    if e.unknown.is_some() {
        // An unknown number: a `bigint` only beyond ±(2^53−1), where a `number` would round.
        names.push("number | bigint".into());
    }
    out.push_str(&format!("export type {ident} = {};\n\n", names.join(" | ")));
    out
}

fn flags(ident: &str, f: &Flags) -> String {
    let mut out = format!("export interface {ident} {{\n");
    for b in &f.bits {
        out.push_str(&doc(&b.doc, "  "));
        out.push_str(&format!("  {}: boolean;\n", b.name));
    }
    if let Some(rest) = &f.rest {
        let t = if f.prim == IntPrim::U64 {
            "bigint"
        } else {
            "number"
        };
        out.push_str(
            "  /** Bits this version does not know, kept (an open flag set); absent when 0. */\n",
        );
        out.push_str(&format!("  {rest}?: {t};\n"));
    }
    out.push_str("}\n\n");
    out
}
