//! Inline fast paths of the compact read: an int (or a quantized float's wire int) is read
//! straight from the reader's bytes when it has one of the markers the canonical encoding
//! gives a value of its range; anything else (another marker, a value out of range, the end
//! of the input) goes to `readInt(r, ..)`, which reads it or throws the same error as ever. A call
//! per int costs more than the read itself, and V8 inlines only a couple of `readInt` calls
//! per function (its inlining budget). The inline code is larger, so only the readers of hot
//! types get it: the elements of lists, arrays and maps (read many times per message), the
//! server-to-client messages with a size `budget` (small and frequent: the author counts
//! their bytes, so a browser's reader pays for their calls too), and whatever the elements
//! contain.

use std::collections::BTreeSet;

use tuplet_schema::ir::{Dir, ItemKind, Slot, TypeRef, VariantFields};
use tuplet_schema::ResolvedSchema;

use super::generator::{Gen, InlineReads};

/// The fewest elements a list, array or map may hold for its element types to be hot.
const LONG: u32 = 50;

/// The paths of the hot items: the named element (or map key or value) types of every list,
/// array and map in the schema and every named type they reach, and the server-to-client
/// messages with a `budget`.
pub fn hot_items(schema: &ResolvedSchema) -> BTreeSet<String> {
    let mut hot = BTreeSet::new();
    let mut todo: Vec<String> = Vec::new();
    let mut roots = Vec::new();
    for item in schema.items.values() {
        if matches!(&item.item.kind, ItemKind::Message(m) if m.budget.is_some() && m.dir.includes(Dir::S2c))
        {
            roots.push(item.path.clone());
        }
        for_each_type(&item.item.kind, &mut |t| elements(t, false, &mut todo));
    }
    // A budget message alone: what it reaches is read once per message.
    hot.extend(roots);
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

/// The markers inlined: the value range each holds in the canonical (smallest) encoding, the
/// range of any value it can hold, the marker test, its length in bytes, and the value
/// expression over `$u` (bytes) and `$p` (its position); scratch locals start with `$`, which no Rust name (so no schema name) and no other local of the emitter does. The 32-bit ones and `d3` are left to
/// `readInt`: each arm is code in every hot reader of an int whose range it meets. `cf` (a
/// u64 timestamp, say) is taken while its value is at most 2^53 - 1 (high word at most
/// 0x1fffff), read as two 32-bit halves.
type Marker = ((i128, i128), (i128, i128), &'static str, u32, &'static str);
const MARKERS: [Marker; 7] = [
    ((0, 127), (0, 127), "$b < 0x80", 1, "$b"),
    ((-32, -1), (-32, -1), "$b > 0xdf", 1, "$b - 256"),
    ((256, 65535), (0, 65535), "$b === 0xcd", 3, "$u[$p + 1]! << 8 | $u[$p + 2]!"),
    (
        (-32768, -129),
        (-32768, 32767),
        "$b === 0xd1",
        3,
        "($u[$p + 1]! << 24) >> 16 | $u[$p + 2]!",
    ),
    ((128, 255), (0, 255), "$b === 0xcc", 2, "$u[$p + 1]!"),
    ((-128, -33), (-128, 127), "$b === 0xd0", 2, "($u[$p + 1]! << 24) >> 24"),
    (
        (1 << 32, (1 << 53) - 1),
        (0, (1 << 53) - 1),
        "$b === 0xcf && $u[$p + 1] === 0 && $u[$p + 2]! < 0x20",
        9,
        "($u[$p + 2]! << 16 | $u[$p + 3]! << 8 | $u[$p + 4]!) * 4294967296 + (($u[$p + 5]! << 24 | $u[$p + 6]! << 16 | $u[$p + 7]! << 8 | $u[$p + 8]!) >>> 0)",
    ),
];

/// An expression reading an int in `min..=max` (safe integers): in place in a hot type's
/// reader (over the scratch locals `scratch` declares), else a `readInt` call. The value is
/// checked against a bound only where some arm can hold a value beyond it; `x <= max` stays
/// in any case, false for the `NaN` of no arm.
pub fn int(g: &mut Gen, min: i128, max: i128) -> String {
    let read_int = g.rt("readInt");
    if !g.hot || !g.inline.allowed {
        return format!("{read_int}(r, {min}, {max})");
    }
    let arms: Vec<&Marker> = MARKERS
        .iter()
        .filter(|((lo, hi), ..)| *lo <= max && *hi >= min)
        .collect();
    let multi = arms.iter().any(|a| a.3 > 1);
    g.inline.used = true;
    g.inline.long |= multi;
    let mut chain = String::new();
    for (_, _, test, len, value) in &arms {
        if *len == 1 {
            chain.push_str(&format!("{test} ? {value} : "));
        } else {
            chain.push_str(&format!("{test} ? ($l = {len}, {value}) : "));
        }
    }
    let mut ok = Vec::new();
    if arms.iter().any(|a| a.1 .0 < min) {
        ok.push(format!("$x >= {min}"));
    }
    ok.push(format!("$x <= {max}"));
    let (n, len_ok) = if multi {
        ("$l = 1, ", " && $p + $l <= $u.length")
    } else {
        ("", "")
    };
    let step = if multi { "$l" } else { "1" };
    format!(
        "($p = r.pos, $b = $u[$p]!, {n}$x = {chain}NaN, {}{len_ok} ? (r.pos = $p + {step}, $x) : {read_int}(r, {min}, {max}))",
        ok.join(" && ")
    )
}

/// Starts emitting a reader function: inline int reads allowed in it (when its item is hot).
pub fn begin(g: &mut Gen) {
    g.inline = InlineReads {
        allowed: true,
        ..InlineReads::default()
    };
}

/// Ends a reader function `text` (`export function ... {` first): declares the scratch
/// locals of its inline int reads after that line (the bytes, the position, the marker, the
/// value and its length), if it has any.
pub fn scratch(g: &mut Gen, text: String) -> String {
    let InlineReads { used, long, .. } = std::mem::take(&mut g.inline);
    if !used {
        return text;
    }
    let l = if long { ", $l: number" } else { "" };
    let at = text.find('\n').map_or(text.len(), |i| i + 1);
    format!(
        "{}  const $u = r.buf;\n  let $p: number, $b: number, $x: number{l};\n{}",
        &text[..at],
        &text[at..]
    )
}
