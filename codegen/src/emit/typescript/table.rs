//! The per-type tables the runtime interprets on the cold paths (`validate`, the named shape
//! read by `X$read` and written by `X$write`): a record's or struct variant's fields (`X$t`:
//! name, descriptor, the named-shape key when it is not the name), a data enum's variants. A
//! descriptor (`TNode`) is an array `[kind, ...bounds, ...inner descriptors]`, or
//! `[kType, X$validate, X$write, X$read]` for a named type; the kinds are runtime objects
//! (`kInt`, `kStr`, ...: imported, so tree-shaking keeps only the kinds a bundle's tables
//! name), documented in `codegen/ts-runtime/table.ts`. The compact shape stays straight-line
//! code (the hot path), except for the records `[ts] hot` leaves cold: the runtime walks
//! their table in the compact shape too (`readRecord`, `writeRecord`).

use tuplet_schema::ir::{Enum, Len, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::{Legacy, Node};

use super::common::lit;
use super::generator::Gen;
use super::leaf;

/// `, min, max` of a bounded length, nothing for an unbounded one.
fn bounded(len: &Len) -> String {
    if len.is_unbounded() {
        String::new()
    } else {
        let (min, max) = len.bounds();
        format!(",{min},{max}")
    }
}

/// The descriptor of `t` (a `TNode` literal).
pub fn node(g: &mut Gen, t: &TypeRef) -> String {
    match t.node() {
        Node::Leaf(l) => leaf::node(g, l),
        Node::Option { inner } => {
            let inner = node(g, inner);
            format!("[{},{inner}]", g.rt("kOpt"))
        }
        Node::Vec { inner, len } => {
            let inner = node(g, inner);
            format!("[{},{inner}{}]", g.rt("kList"), bounded(len))
        }
        Node::Array { inner, len } => {
            let inner = node(g, inner);
            format!("[{},{inner},{len}]", g.rt("kFixed"))
        }
        Node::Map { key, value, len } => {
            let (key, value) = (node(g, key), node(g, value));
            format!("[{},{key},{value}{}]", g.rt("kMap"), bounded(len))
        }
        Node::Named { path } => format!(
            "[{},{},{},{}]",
            g.rt("kType"),
            g.fn_ref(path, "validate"),
            g.fn_ref(path, "write"),
            g.fn_ref(path, "read")
        ),
    }
}

/// The fields table of a record (`TFields` literal), one field per line at `indent`.
pub fn fields(g: &mut Gen, slots: &[Slot], indent: &str) -> String {
    let mut rows = Vec::new();
    for slot in slots {
        let Slot::Field(f) = slot else { continue };
        let key = match Legacy::of(f) {
            Legacy::None => String::new(),
            Legacy::Alias(a) => format!(",{}", lit(a)),
            Legacy::Spread { keys, .. } => {
                let keys: Vec<String> = keys.iter().map(|k| lit(k)).collect();
                format!(",[{}]", keys.join(","))
            }
        };
        rows.push(format!(
            "\n{indent}  [{},{}{key}],",
            lit(&f.name),
            node(g, &f.ty)
        ));
    }
    if rows.is_empty() {
        return "[]".into();
    }
    format!("[{}\n{indent}]", rows.concat())
}

/// The name of a record's table.
pub fn record_table(ident: &str) -> String {
    format!("{ident}$t")
}

/// The name of a struct variant's fields table.
pub fn variant_table(ident: &str, number: i64) -> String {
    format!("{ident}$t{number}")
}

/// A record's table declaration.
pub fn record(g: &mut Gen, ident: &str, slots: &[Slot]) -> String {
    let ty = g.rt_type("TFields");
    format!(
        "const {}: {ty} = {};\n\n",
        record_table(ident),
        fields(g, slots, "")
    )
}

/// A data enum's table declarations: each struct variant's fields, then the variants.
pub fn data_enum(g: &mut Gen, ident: &str, e: &Enum) -> String {
    let fty = g.rt_type("TFields");
    let vty = g.rt_type("TVariants");
    let mut out = String::new();
    let mut table = format!("const {}: {vty} = [", record_table(ident));
    for v in &e.variants {
        let name = lit(&v.name);
        let entry = match &v.fields {
            VariantFields::Unit => format!("[{name}]"),
            VariantFields::Newtype { field } => format!("[{name},{}]", node(g, &field.ty)),
            VariantFields::Struct { record } => {
                let t = variant_table(ident, v.number);
                out.push_str(&format!(
                    "const {t}: {fty} = {};\n\n",
                    fields(g, &record.slots, "")
                ));
                format!("[{name},{t},1]")
            }
        };
        table.push_str(&format!("\n  {entry},"));
    }
    table.push_str("\n];\n\n");
    out + &table
}
