//! Inline fast paths of the compact read: an int (or a quantized float's wire int) is read
//! straight from the reader's bytes when it has one of the markers the canonical encoding
//! gives a value of its range; anything else (another marker, a value out of range, the end
//! of the input) goes to `r.readInt`, which reads it or throws the same error as ever. A call
//! per int costs more than the read itself, and V8 inlines only a couple of `readInt` calls
//! per function (its inlining budget). The inline code is larger, so only the readers of hot
//! types get it: the elements of lists, arrays and maps (read many times per message) and
//! whatever they contain.

use std::collections::BTreeSet;

use tuplet_schema::ir::{ItemKind, Slot, TypeRef, VariantFields};
use tuplet_schema::ResolvedSchema;

use super::common::Out;
use super::generator::Gen;

/// The fewest elements a list, array or map may hold for its element types to be hot.
const LONG: u32 = 50;

/// The paths of the hot items: the named element (or map key or value) types of every list,
/// array and map in the schema, and every named type they reach.
pub fn hot_items(schema: &ResolvedSchema) -> BTreeSet<String> {
    let mut hot = BTreeSet::new();
    let mut todo: Vec<String> = Vec::new();
    for item in schema.items.values() {
        for_each_type(&item.item.kind, &mut |t| elements(t, false, &mut todo));
    }
    while let Some(path) = todo.pop() {
        if !hot.insert(path.clone()) {
            continue;
        }
        if let Some(item) = schema.get(&path) {
            for_each_type(&item.item.kind, &mut |t| elements(t, true, &mut todo));
        }
    }
    hot
}

/// The paths of the cold items under `[ts] hot`: every item but the `roots` (hot messages)
/// and the named types they reach. The list is the whole answer: the elements of a long list
/// in a message it leaves out are cold too (that message is rare, however long its lists).
pub fn cold_items(
    schema: &ResolvedSchema,
    roots: impl Iterator<Item = String>,
) -> BTreeSet<String> {
    let mut warm = BTreeSet::new();
    let mut todo: Vec<String> = roots.collect();
    while let Some(path) = todo.pop() {
        if !warm.insert(path.clone()) {
            continue;
        }
        if let Some(item) = schema.get(&path) {
            for_each_type(&item.item.kind, &mut |t| elements(t, true, &mut todo));
        }
    }
    schema
        .items
        .keys()
        .filter(|p| !warm.contains(*p))
        .cloned()
        .collect()
}

/// Calls `f` on the type of every field of an item.
pub(super) fn for_each_type(kind: &ItemKind, f: &mut dyn FnMut(&TypeRef)) {
    let mut slots = |slots: &[Slot]| {
        for slot in slots {
            if let Slot::Field(x) = slot {
                f(&x.ty);
            }
        }
    };
    match kind {
        ItemKind::Message(m) => slots(&m.record.slots),
        ItemKind::Record(r) => slots(&r.slots),
        ItemKind::Enum(e) => {
            for v in &e.variants {
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field } => slots(&[Slot::Field((**field).clone())]),
                    VariantFields::Struct { record } => slots(&record.slots),
                }
            }
        }
        ItemKind::Flags(_) | ItemKind::Dispatch(_) => {}
    }
}

/// Pushes the named types inside `t`: all of them when `inside` (already in a hot type), else
/// only those under a list, an array or a map.
fn elements(t: &TypeRef, inside: bool, out: &mut Vec<String>) {
    match t {
        TypeRef::Named { path } if inside => out.push(path.clone()),
        TypeRef::Option { inner } => elements(inner, inside, out),
        TypeRef::Vec { inner, len } => elements(inner, inside || len.bounds().1 >= LONG, out),
        TypeRef::Array { inner, len } => elements(inner, inside || *len >= LONG, out),
        TypeRef::Map { key, value, len } => {
            let long = inside || len.bounds().1 >= LONG;
            elements(key, long, out);
            elements(value, long, out);
        }
        _ => {}
    }
}

/// The markers inlined, and the value ranges they hold in the canonical (smallest) encoding:
/// marker test, its length in bytes (1 or 3), the value expression over `u` (bytes) and `p`
/// (its position). The 8-, 32- and 64-bit ones are left to `readInt`: each arm is code in every
/// hot reader of an int whose range it meets.
const MARKERS: [(i128, i128, &str, u32, &str); 6] = [
    (0, 127, "b < 0x80", 1, "b"),
    (-32, -1, "b > 0xdf", 1, "b - 256"),
    (256, 65535, "b === 0xcd", 3, "(u[p + 1]! << 8) | u[p + 2]!"),
    (
        -32768,
        -129,
        "b === 0xd1",
        3,
        "((u[p + 1]! << 24) >> 16) | u[p + 2]!",
    ),
    (128, 255, "b === 0xcc", 2, "u[p + 1]!"),
    (-128, -33, "b === 0xd0", 2, "(u[p + 1]! << 24) >> 24"),
];

/// Emits the read of an int in `min..=max` (safe integers) into a new local, returned.
pub fn int(g: &mut Gen, out: &mut Out, min: i128, max: i128) -> String {
    if !g.hot {
        return format!("r.readInt({min}, {max})");
    }
    let x = g.fresh("x");
    let arms: Vec<(&str, u32, &str)> = MARKERS
        .iter()
        .filter(|(lo, hi, ..)| *lo <= max && *hi >= min)
        .map(|&(_, _, test, len, value)| (test, len, value))
        .collect();
    let multi = arms.iter().any(|a| a.1 > 1);
    out.line(format!("let {x}: number;"));
    out.open("{");
    out.line("const u = r.buf, p = r.pos, b = u[p]!;");
    if multi {
        out.line("let n = 1;");
    }
    let mut chain = String::new();
    for (test, len, value) in &arms {
        if *len == 1 {
            chain.push_str(&format!("{test} ? {value} : "));
        } else {
            chain.push_str(&format!("{test} ? ((n = {len}), {value}) : "));
        }
    }
    out.line(format!("{x} = {chain}NaN;"));
    if multi {
        out.line(format!(
            "if ({x} >= {min} && {x} <= {max} && p + n <= u.length) r.pos = p + n;"
        ));
    } else {
        out.line(format!("if ({x} >= {min} && {x} <= {max}) r.pos = p + 1;"));
    }
    out.line(format!("else {x} = r.readInt({min}, {max});"));
    out.close("}");
    x
}
