//! The edits the oracle tries: the compat fixtures (`schema/tests/compat_cases`), and
//! single-field edits of a small base schema: every ordered pair of declarations within a
//! family (ints, floats, lists and strings, options, enums, flags, fields added, removed
//! and renamed, message headers, entities and `delta`), in each direction and position.

use std::path::Path;

/// One schema edit: the crate's `src/lib.rs` before and after.
pub struct Edit {
    pub name: String,
    pub before: String,
    pub after: String,
}

/// The compat fixtures, each a before/after pair of single-file crates.
pub fn fixtures() -> Vec<Edit> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/tests/compat_cases");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let read = |f: &str| std::fs::read_to_string(dir.join(&name).join(f)).unwrap();
            Edit {
                before: read("before.rs"),
                after: read("after.rs"),
                name: format!("fixture {name}"),
            }
        })
        .collect()
}

/// A field `f` in a message, with the declarations it needs beside it.
struct Variant {
    field: &'static str,
    extra: &'static str,
}

const fn v(field: &'static str) -> Variant {
    Variant { field, extra: "" }
}

const fn with(field: &'static str, extra: &'static str) -> Variant {
    Variant { field, extra }
}

const INTS: &[Variant] = &[
    v("pub f: u8,"),
    v("pub f: u16,"),
    v("pub f: u32,"),
    v("pub f: u64,"),
    v("pub f: i8,"),
    v("pub f: i16,"),
    v("pub f: i32,"),
    v("pub f: i64,"),
    v("#[tuplet(bigint)] pub f: u64,"),
    v("#[tuplet(bigint)] pub f: i64,"),
    v("#[tuplet(range(0, 100))] pub f: u8,"),
    v("#[tuplet(range(0, 200))] pub f: u8,"),
    v("#[tuplet(range(50, 100))] pub f: u16,"),
    v("#[tuplet(range(-5, 5))] pub f: i8,"),
    v("#[tuplet(range(-500, 500))] pub f: i32,"),
    v("pub f: bool,"),
    v("pub f: Option<u8>,"),
    v("pub f: Option<u32>,"),
    v("#[tuplet(range(0, 100))] pub f: Option<u8>,"),
];

const FLOATS: &[Variant] = &[
    v("pub f: f32,"),
    v("pub f: f64,"),
    v("#[tuplet(range(-1.0, 1.0))] pub f: f32,"),
    v("#[tuplet(range(-2.0, 2.0))] pub f: f64,"),
    v("#[tuplet(quant = \"cm\", range(-100.0, 100.0))] pub f: f32,"),
    v("#[tuplet(quant = \"cm\", range(-200.0, 200.0))] pub f: f32,"),
    v("#[tuplet(quant = \"cm\", range(0.0, 100.0))] pub f: f32,"),
    v("#[tuplet(quant = \"mm\", range(-100.0, 100.0))] pub f: f32,"),
    v("#[tuplet(quant = \"dm\", range(-100.0, 100.0))] pub f: f64,"),
    v("#[tuplet(scale = 100, range(-100.0, 100.0))] pub f: f32,"),
    v("#[tuplet(scale = 64, range(-100.0, 100.0))] pub f: f32,"),
    v("#[tuplet(quant = \"cm\", range(-100.0, 100.0))] pub f: Option<f32>,"),
    v("pub f: Option<f64>,"),
];

const LISTS: &[Variant] = &[
    v("#[tuplet(len(max = 4))] pub f: Vec<u16>,"),
    v("#[tuplet(len(max = 8))] pub f: Vec<u16>,"),
    v("#[tuplet(len(min = 1, max = 8))] pub f: Vec<u16>,"),
    v("#[tuplet(len(max = 4))] pub f: Vec<u32>,"),
    v("#[tuplet(len(max = 4))] pub f: Vec<u8>,"),
    v("#[tuplet(len(max = 8))] pub f: Vec<u8>,"),
    v("pub f: [u16; 3],"),
    v("pub f: [u16; 4],"),
    v("#[tuplet(len(max = 4))] pub f: Option<Vec<u16>>,"),
    v("#[tuplet(len(max = 8))] pub f: String,"),
    v("#[tuplet(len(max = 16))] pub f: String,"),
    v("#[tuplet(len(min = 2, max = 16))] pub f: String,"),
    v("#[tuplet(len(max = 4), item_len(max = 8))] pub f: Vec<String>,"),
    v("#[tuplet(len(max = 4), item_len(max = 16))] pub f: Vec<String>,"),
    v("#[tuplet(len(max = 4), key_len(max = 8))] pub f: std::collections::BTreeMap<String, u16>,"),
    v("#[tuplet(len(max = 4), key_len(max = 16))] pub f: std::collections::BTreeMap<String, u16>,"),
    v("#[tuplet(len(max = 4))] pub f: std::collections::BTreeMap<u8, u16>,"),
];

const ENUM_CLOSED_AB: &str =
    "#[derive(tuplet::Enum)]\npub enum Kind {\n    A = 1,\n    B = 2,\n}\n";
const ENUMS: &[Variant] = &[
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    A = 1,\n}\n"),
    with("pub f: Kind,", ENUM_CLOSED_AB),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    B = 2,\n    A = 1,\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    A = 1,\n    B = 3,\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    A = 1,\n    C = 2,\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    A = 1,\n    B = 2,\n    C = 3,\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\n#[tuplet(open)]\n#[repr(i64)]\npub enum Kind {\n    A = 1,\n    #[tuplet(unknown)]\n    Unknown(i64),\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\n#[tuplet(open)]\n#[repr(i64)]\npub enum Kind {\n    A = 1,\n    B = 2,\n    #[tuplet(unknown)]\n    Unknown(i64),\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    #[tuplet(tag = 1)]\n    A,\n    #[tuplet(tag = 2)]\n    B { x: u8 },\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    #[tuplet(tag = 1)]\n    A,\n    #[tuplet(tag = 2)]\n    B { x: u16 },\n}\n"),
    with("pub f: Kind,", "#[derive(tuplet::Enum)]\npub enum Kind {\n    #[tuplet(tag = 1)]\n    A,\n    #[tuplet(tag = 2)]\n    B { x: u8, y: Option<u8> },\n}\n"),
    with("pub f: Option<Kind>,", ENUM_CLOSED_AB),
];

const FLAGS: &[Variant] = &[
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\")]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub a: bool,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\")]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub a: bool,\n    #[tuplet(bit = 1)]\n    pub b: bool,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\")]\npub struct Bits {\n    #[tuplet(bit = 1)]\n    pub a: bool,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\")]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub b: bool,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u16\")]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub a: bool,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\", open)]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub a: bool,\n    #[tuplet(rest)]\n    pub rest: u8,\n}\n"),
    with("pub f: Bits,", "#[derive(tuplet::Flags)]\n#[tuplet(int = \"u8\", open)]\npub struct Bits {\n    #[tuplet(bit = 0)]\n    pub a: bool,\n    #[tuplet(bit = 1)]\n    pub b: bool,\n    #[tuplet(rest)]\n    pub rest: u8,\n}\n"),
];

const FIELDS: &[Variant] = &[
    v(""),
    v("pub f: u8,"),
    v("pub f: Option<u8>,"),
    v("pub g: u8,"),
    v("#[tuplet(legacy = \"f\")] pub g: u8,"),
    v("pub f: u8, pub g: u8,"),
    v("pub g: u8, pub f: u8,"),
    v("pub f: u8, pub g: Option<u8>,"),
    v("pub f: Option<u8>, pub g: Option<u8>,"),
    v("#[tuplet(reserved = \"f: gone\")] pub f: tuplet::Reserved,"),
    v("pub f: Pos,"),
];

/// The families; an edit replaces one member with another of the same family.
const FAMILIES: &[(&str, &[Variant])] = &[
    ("int", INTS),
    ("float", FLOATS),
    ("list", LISTS),
    ("enum", ENUMS),
    ("flags", FLAGS),
    ("field", FIELDS),
];

const POS: &str = "#[derive(tuplet::Record)]\npub struct Pos {\n    pub x: u8,\n}\n";

fn message(dir: &str, field: &str, last: bool, extra: &str) -> String {
    let tail = if last { "" } else { "    pub z: u16,\n" };
    format!(
        "#[derive(tuplet::Message)]\n#[tuplet(name = \"m:x\", id = 1, dir = \"{dir}\")]\n\
         pub struct X {{\n    pub a: u8,\n    {field}\n{tail}}}\n\n{POS}\n{extra}"
    )
}

/// Message headers: name, id and direction changed, the message removed.
const HEADERS: &[&str] = &[
    "#[tuplet(name = \"m:x\", id = 1, dir = \"c2s\")]",
    "#[tuplet(name = \"m:x\", id = 1, dir = \"s2c\")]",
    "#[tuplet(name = \"m:x\", id = 1, dir = \"both\")]",
    "#[tuplet(name = \"m:x\", id = 2, dir = \"c2s\")]",
    "#[tuplet(name = \"m:y\", id = 1, dir = \"c2s\")]",
    "#[tuplet(name = \"m:x\", id = 1, dir = \"c2s\", budget = 8)]",
    "",
];

fn headed(header: &str) -> String {
    let msg = if header.is_empty() {
        String::new()
    } else {
        format!("#[derive(tuplet::Message)]\n{header}\npub struct X {{\n    pub a: u8,\n}}\n")
    };
    format!("{msg}\n#[derive(tuplet::Message)]\n#[tuplet(name = \"m:keep\", id = 9, dir = \"c2s\")]\npub struct Keep {{\n    pub a: u8,\n}}\n")
}

/// Entity fields and keys, and `delta` on and off.
const ENTITIES: &[(&str, &str)] = &[
    ("", "pub id: u32,\n    pub anim: u8,"),
    ("", "pub id: u32,\n    pub anim: u16,"),
    ("", "pub id: u32,\n    pub anim: u64,"),
    ("", "pub id: u32,\n    pub anim: Option<u8>,"),
    (
        "",
        "pub id: u32,\n    pub anim: u8,\n    pub more: Option<u8>,",
    ),
    ("", "pub id: u16,\n    pub anim: u8,"),
    ("", "pub uid: u32,\n    pub anim: u8,"),
    (
        "",
        "pub id: u32,\n    #[tuplet(quant = \"cm\", range(-10.0, 10.0))]\n    pub anim: f32,",
    ),
    (", delta", "pub id: u32,\n    pub anim: u8,"),
    (", delta", "pub id: u32,\n    pub anim: u16,"),
    (", delta", "pub id: u32,\n    pub anim: u64,"),
    (", delta", "pub id: u32,\n    pub anim: Option<u8>,"),
    (
        ", delta",
        "pub id: u32,\n    pub anim: u8,\n    pub more: Option<u8>,",
    ),
    (", delta", "pub id: u16,\n    pub anim: u8,"),
];

fn entity(delta: &str, fields: &str, tick: &str) -> String {
    let key = if fields.starts_with("pub uid") {
        "uid"
    } else {
        "id"
    };
    format!(
        "#[derive(tuplet::Record)]\n#[tuplet(entity(key = \"{key}\"))]\npub struct Unit {{\n    {fields}\n}}\n\n\
         #[derive(tuplet::Message)]\n#[tuplet(name = \"m:snap\", id = 1, dir = \"s2c\"{delta})]\n\
         pub struct Snap {{\n    pub tick: {tick},\n    pub keyframe: bool,\n    #[tuplet(len(max = 4))]\n    pub units: Vec<Unit>,\n    #[tuplet(len(max = 4))]\n    pub gone: Vec<u32>,\n}}\n"
    )
}

/// Every generated single-field edit.
pub fn generated() -> Vec<Edit> {
    let mut out = Vec::new();
    for (family, members) in FAMILIES {
        for (i, a) in members.iter().enumerate() {
            for (j, b) in members.iter().enumerate() {
                if i == j {
                    continue;
                }
                for dir in ["c2s", "s2c", "both"] {
                    for last in [true, false] {
                        out.push(Edit {
                            name: format!("{family} {i}->{j} {dir} last={last}"),
                            before: message(dir, a.field, last, a.extra),
                            after: message(dir, b.field, last, b.extra),
                        });
                    }
                }
            }
        }
    }
    for (i, a) in HEADERS.iter().enumerate() {
        for (j, b) in HEADERS.iter().enumerate() {
            if i != j {
                out.push(Edit {
                    name: format!("header {i}->{j}"),
                    before: headed(a),
                    after: headed(b),
                });
            }
        }
    }
    let ticks = ["u32", "u64", "Option<u32>", "u16"];
    let mut ents = Vec::new();
    for (d, f) in ENTITIES {
        for t in ticks {
            ents.push(entity(d, f, t));
        }
    }
    for (i, a) in ents.iter().enumerate() {
        for (j, b) in ents.iter().enumerate() {
            // One change at a time: the same tick, or the same entity.
            if i != j && (i % ticks.len() == j % ticks.len() || i / ticks.len() == j / ticks.len())
            {
                out.push(Edit {
                    name: format!("entity {i}->{j}"),
                    before: a.clone(),
                    after: b.clone(),
                });
            }
        }
    }
    out
}
