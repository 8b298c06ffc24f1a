//! A seeded generator of valid schema crates over the whole attribute grammar: ints of every
//! width with and without ranges (and `bigint`), plain, ranged and quantized floats, strings
//! and bytes with lengths, lists, fixed arrays with and without key lists (strings with
//! `item_len` too), options, maps, nested records, unit enums and enums with data (open and
//! closed, reserved numbers), flags (open and closed, reserved bits), legacy aliases, reserved
//! slots, messages of both directions, dispatch enums, and awkward names (type names from
//! every name the TypeScript emitter introduces: its locals, the globals it names, the
//! runtime's exports; one type name in two modules; field names of `Object.prototype` and of
//! the emitter's locals; variants named `unknown`, `kind` or `tag`).
//!
//! One seed is one module `s{seed}` of a crate; several seeds share a crate (and one build).

use std::fmt::Write;

/// A message of a generated schema: its Rust path under the crate root, wire name and
/// direction (`c2s`, `s2c` or `both`).
pub struct GenMessage {
    pub path: String,
    pub name: String,
    pub dir: &'static str,
}

/// A generated schema module.
pub struct GenSchema {
    /// The module's text (`pub mod s{seed} { ... }`).
    pub text: String,
    pub messages: Vec<GenMessage>,
    /// Item counts: records, enums, flags, messages.
    pub types: usize,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// Rust's keywords (strict, reserved and `gen`): never a name.
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];
/// Names the generated Rust itself uses (types of fields, the prelude's values and traits,
/// the generator's own `Pos`): a schema type named so would shadow them.
const RUST_USED: &[&str] = &[
    "String",
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Box",
    "BTreeMap",
    "Reserved",
    "Pos",
    "bool",
    "char",
    "str",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "std",
    "core",
    "alloc",
    "tuplet",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "From",
    "Into",
    "AsRef",
    "AsMut",
    "ToString",
    "ToOwned",
    "Extend",
    "Unpin",
];

fn rust_name(n: &str) -> bool {
    n.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RUST_KEYWORDS.contains(&n)
        && !RUST_USED.contains(&n)
}

/// Type names that collide with a name the TypeScript emitter introduces: every one of
/// `emit::typescript::introduced_names()` (its functions' locals, numbered ones as `x1`, the
/// JS and TypeScript globals it names, the runtime's exports) that Rust takes as a type name
/// shadowing nothing the generated Rust uses. A collision the emitter does not rename fails
/// `tsc` on the package.
fn awkward_types() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        tuplet_codegen::emit::typescript::introduced_names()
            .into_iter()
            // Not the submodules' names (a type beside a module of its name is E0428).
            .filter(|n| rust_name(n) && !matches!(&n[..], "a" | "b" | "c2s" | "index" | "runtime"))
            .collect()
    })
}

/// Field names like the emitter's locals (`r`, `v`, `tag`, `len`, `named`, `k2`, ...; not
/// the field locals `f0`, `f1`, the generator's own field names).
fn awkward_local_fields() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut out: Vec<String> = tuplet_codegen::emit::typescript::LOCALS
            .iter()
            .map(|n| n.to_string())
            .collect();
        out.extend(
            tuplet_codegen::emit::typescript::NUMBERED
                .iter()
                .filter(|b| **b != "f")
                .map(|b| format!("{b}2")),
        );
        out.retain(|n| rust_name(n) && !n.starts_with('_'));
        out
    })
}
/// Field names that are `Object.prototype` members or otherwise awkward in JS.
const AWKWARD_FIELDS: &[&str] = &[
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "length",
    "name",
    "prototype",
    "then",
    "kind",
    "value",
];
/// Variant names that are awkward in TypeScript (the catch-all's `kind`, the discriminant's
/// own name, `Object.prototype` members); `unknown` only where no catch-all reads as it.
const AWKWARD_VARIANTS: &[&str] = &["unknown", "kind", "value", "constructor", "toString", "tag"];
const INTS: &[(&str, i128, i128)] = &[
    ("u8", 0, u8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
];
const UNITS: &[&str] = &[
    "cm", "mm", "dm", "mrad", "crad", "cdeg", "ddeg", "permille", "percent",
];

/// A named type a field may refer to: its path relative to the schema module, and whether
/// it is a flags type (allowed anywhere) or an enum (allowed anywhere).
struct Named {
    path: String,
}

struct Gen {
    rng: Rng,
    seed: u64,
    named: Vec<Named>,
    used_type_names: Vec<String>,
    types: usize,
}

/// A field: its attributes (inside `#[tuplet(...)]`, may be empty) and Rust type.
struct FieldTy {
    attrs: Vec<String>,
    ty: String,
}

impl Gen {
    fn type_name(&mut self, base: &str) -> String {
        let name = if self.rng.chance(30) {
            self.rng.pick(awkward_types()).to_string()
        } else {
            format!("{base}{}", self.used_type_names.len())
        };
        if self.used_type_names.contains(&name) {
            let name = format!("{base}{}", self.used_type_names.len());
            self.used_type_names.push(name.clone());
            return name;
        }
        self.used_type_names.push(name.clone());
        name
    }

    /// The name of variant `i`: `V{i}`, or now and then an awkward one (`unknown` only in
    /// a unit enum or a closed enum with data: an open one's catch-all reads as it).
    fn variant_name(&mut self, i: u64, used: &mut Vec<String>, unknown_ok: bool) -> String {
        let mut name = format!("V{i}");
        if self.rng.chance(15) {
            let awkward = self.rng.pick(AWKWARD_VARIANTS).to_string();
            if !used.contains(&awkward) && (unknown_ok || awkward != "unknown") {
                name = awkward;
            }
        }
        used.push(name.clone());
        name
    }

    fn int_range(&mut self, lo: i128, hi: i128) -> (i128, i128) {
        let span = (hi - lo).min(1 << 40) as u64;
        let a = lo + self.rng.below(span / 2 + 1) as i128;
        let b = a + self.rng.below(span / 2 + 1) as i128;
        (a, b.min(hi))
    }

    /// A scalar field type, with its attributes.
    fn scalar(&mut self, in_array: bool) -> FieldTy {
        let mut attrs = Vec::new();
        let ty = match self.rng.below(if in_array { 8 } else { 9 }) {
            0 => "bool".to_string(),
            1..=3 => {
                let &(t, lo, hi) = self.rng.pick(INTS);
                if self.rng.chance(40) {
                    // 64-bit ints are numbers within ±(2^53−1) unless `bigint`.
                    const SAFE: i128 = (1 << 53) - 1;
                    let (a, b) = self.int_range(lo.max(-SAFE), hi.min(SAFE));
                    attrs.push(format!("range({a}, {b})"));
                } else if (t == "u64" || t == "i64") && self.rng.chance(40) {
                    attrs.push("bigint".into());
                }
                t.to_string()
            }
            4 => {
                let t = if self.rng.chance(50) { "f32" } else { "f64" };
                if self.rng.chance(40) {
                    let a = self.rng.below(100_000) as f64 / 8.0;
                    attrs.push(format!("range({:?}, {:?})", -a, a + 0.5));
                }
                t.to_string()
            }
            5 | 6 => {
                let t = if self.rng.chance(50) { "f32" } else { "f64" };
                let scale = if self.rng.chance(70) {
                    let unit = *self.rng.pick(UNITS);
                    attrs.push(format!("quant = {unit:?}"));
                    if unit == "cm" || unit == "crad" || unit == "cdeg" || unit == "percent" {
                        100.0
                    } else if unit == "dm" || unit == "ddeg" {
                        10.0
                    } else {
                        1000.0
                    }
                } else {
                    let scale = *self.rng.pick(&[2u32, 64, 100, 1024]);
                    attrs.push(format!("scale = {scale}"));
                    f64::from(scale)
                };
                // f32 needs a range with |q| <= 2^23; f64 may go without.
                let max_q = if t == "f32" { 8_000_000.0 } else { 1e12 };
                if t == "f32" || self.rng.chance(60) {
                    let a = (self.rng.below(1_000_000) as f64 / 4.0).min(max_q / scale);
                    let b = (self.rng.below(1_000_000) as f64 / 4.0).min(max_q / scale);
                    attrs.push(format!("range({:?}, {:?})", -a, b));
                }
                t.to_string()
            }
            7 => {
                if self.rng.chance(50) {
                    let max = self.rng.below(12) + 1;
                    attrs.push(format!(
                        "len(min = {}, max = {max})",
                        self.rng.below(max + 1)
                    ));
                }
                "String".to_string()
            }
            _ => {
                if self.rng.chance(50) {
                    attrs.push(format!("len(max = {})", self.rng.below(16)));
                }
                "Vec<u8>".to_string()
            }
        };
        FieldTy { attrs, ty }
    }

    /// A field type of any kind (depth-limited).
    fn field(&mut self, depth: u32) -> FieldTy {
        let n = if depth > 1 { 3 } else { 9 };
        match self.rng.below(n) {
            0 | 1 => self.scalar(false),
            2 if !self.named.is_empty() => {
                let i = self.rng.below(self.named.len() as u64) as usize;
                FieldTy {
                    attrs: Vec::new(),
                    ty: self.named[i].path.clone(),
                }
            }
            2 => self.scalar(false),
            3 => {
                let mut inner = self.field(depth + 1);
                while inner.ty.starts_with("Option<") {
                    inner = self.scalar(false);
                }
                FieldTy {
                    attrs: inner.attrs,
                    ty: format!("Option<{}>", inner.ty),
                }
            }
            4 => {
                let mut inner = if self.rng.chance(60) {
                    self.scalar(true)
                } else {
                    self.field(depth + 1)
                };
                // `Vec<u8>` is bytes, not a list of ints: its int keys (`range`) would not apply.
                while inner.ty == "u8" {
                    inner = self.scalar(true);
                }
                let mut attrs: Vec<String> = inner
                    .attrs
                    .into_iter()
                    .filter(|a| !a.contains("len("))
                    .collect();
                if inner.ty == "String" && self.rng.chance(60) {
                    attrs.push(format!(
                        "item_len(min = 1, max = {})",
                        self.rng.below(6) + 1
                    ));
                }
                if self.rng.chance(50) {
                    attrs.push(format!("len(max = {})", self.rng.below(6) + 1));
                }
                FieldTy {
                    attrs,
                    ty: format!("Vec<{}>", inner.ty),
                }
            }
            5 | 6 => {
                let inner = self.scalar(true);
                let k = self.rng.below(4) + 1;
                let mut attrs: Vec<String> = inner
                    .attrs
                    .into_iter()
                    .filter(|a| !a.contains("len("))
                    .collect();
                if inner.ty == "String" && self.rng.chance(70) {
                    attrs.push(format!(
                        "item_len(min = 1, max = {})",
                        self.rng.below(6) + 3
                    ));
                }
                if depth == 0 && k >= 2 && self.rng.chance(50) {
                    let tag = self.rng.next() % 100_000;
                    let keys: Vec<String> = (0..k).map(|i| format!("\"k{tag}_{i}\"")).collect();
                    attrs.push(format!("legacy = [{}]", keys.join(", ")));
                }
                FieldTy {
                    attrs,
                    ty: format!("[{}; {k}]", inner.ty),
                }
            }
            7 => {
                let key = *self.rng.pick(&["String", "u8", "u16", "i32", "u64", "i64"]);
                let v = self.field(depth + 1);
                let mut attrs: Vec<String> = v
                    .attrs
                    .into_iter()
                    .filter(|a| !a.contains("len("))
                    .collect();
                if self.rng.chance(60) {
                    attrs.push(format!("len(max = {})", self.rng.below(5) + 1));
                }
                FieldTy {
                    attrs,
                    ty: format!("BTreeMap<{key}, {}>", v.ty),
                }
            }
            _ => {
                let inner = self.scalar(false);
                let ty = inner.ty.clone();
                FieldTy {
                    attrs: inner.attrs,
                    ty,
                }
            }
        }
    }

    /// Named fields (`pub` when `vis`), with legacy aliases, reserved slots and awkward names.
    fn fields(&mut self, out: &mut String, count: u64, vis: &str, indent: &str, allow_kind: bool) {
        let mut names: Vec<String> = Vec::new();
        for i in 0..count {
            if vis == "pub " && self.rng.chance(8) {
                writeln!(
                    out,
                    "{indent}#[tuplet(reserved = \"removed in a test\")]\n{indent}pub _r{i}: Reserved,"
                )
                .unwrap();
                continue;
            }
            let mut name = if self.rng.chance(15) {
                self.rng.pick(AWKWARD_FIELDS).to_string()
            } else if self.rng.chance(10) {
                self.rng.pick(awkward_local_fields()).to_string()
            } else {
                format!("f{i}")
            };
            let mut f = self.field(0);
            // The grammar refuses an optional field named like an `Object.prototype` member.
            let inherited = ["constructor", "toString", "valueOf", "hasOwnProperty"];
            if names.contains(&name)
                || (!allow_kind && name == "kind")
                || (f.ty.starts_with("Option<") && inherited.contains(&name.as_str()))
            {
                name = format!("f{i}");
            }
            names.push(name.clone());
            if self.rng.chance(15) && !f.attrs.iter().any(|a| a.starts_with("legacy")) {
                f.attrs.push(format!("legacy = \"old_{name}\""));
            }
            if !f.attrs.is_empty() {
                writeln!(out, "{indent}#[tuplet({})]", f.attrs.join(", ")).unwrap();
            }
            writeln!(out, "{indent}{vis}{name}: {},", f.ty).unwrap();
        }
    }

    fn record(&mut self, out: &mut String, name: &str) {
        let n = self.rng.below(5);
        if n == 0 && self.rng.chance(50) {
            writeln!(
                out,
                "#[derive(Debug, Clone, PartialEq, tuplet::Record)]\npub struct {name};"
            )
            .unwrap();
            return;
        }
        writeln!(
            out,
            "#[derive(Debug, Clone, PartialEq, tuplet::Record)]\npub struct {name} {{"
        )
        .unwrap();
        self.fields(out, n, "pub ", "    ", true);
        writeln!(out, "}}").unwrap();
    }

    fn unit_enum(&mut self, out: &mut String, name: &str) {
        let open = self.rng.chance(40);
        let wide = self.rng.chance(20);
        let mut numbers: Vec<i64> = Vec::new();
        while numbers.len() < (self.rng.below(5) + 1) as usize {
            let n = if wide {
                (self.rng.next() as i64) >> self.rng.below(12)
            } else {
                self.rng.below(40) as i64 - 10
            };
            if !numbers.contains(&n) {
                numbers.push(n);
            }
        }
        // Ascending, so the implicit discriminant of an open enum's `Unknown` (the last
        // number plus one) is no variant's.
        numbers.sort_unstable();
        let reserved = loop {
            let r = self.rng.below(100) as i64 + 50;
            if !numbers.contains(&r) {
                break r;
            }
        };
        writeln!(
            out,
            "#[derive(Debug, Clone, Copy, PartialEq, tuplet::Enum)]"
        )
        .unwrap();
        if open {
            writeln!(
                out,
                "#[tuplet(open, reserved = [{reserved}])]\n#[repr(i64)]"
            )
            .unwrap();
        } else {
            writeln!(out, "#[tuplet(reserved = [{reserved}])]").unwrap();
            if wide {
                writeln!(out, "#[repr(i64)]").unwrap();
            }
        }
        writeln!(out, "pub enum {name} {{").unwrap();
        let mut used = Vec::new();
        for (i, n) in numbers.iter().enumerate() {
            let v = self.variant_name(i as u64, &mut used, true);
            writeln!(out, "    {v} = {n},").unwrap();
        }
        if open {
            writeln!(out, "    #[tuplet(unknown)]\n    Unknown(i64),").unwrap();
        }
        writeln!(out, "}}").unwrap();
    }

    fn data_enum(&mut self, out: &mut String, name: &str) {
        let open = self.rng.chance(40);
        writeln!(out, "#[derive(Debug, Clone, PartialEq, tuplet::Enum)]").unwrap();
        if open {
            writeln!(out, "#[tuplet(open)]").unwrap();
        }
        writeln!(out, "pub enum {name} {{").unwrap();
        let count = self.rng.below(4) + 1;
        let mut used = Vec::new();
        for i in 0..count {
            let tag = i * 2 + self.rng.below(2);
            writeln!(out, "    #[tuplet(tag = {tag})]").unwrap();
            let v = self.variant_name(i, &mut used, !open);
            // The first variant has data: all-unit variants would make a unit enum.
            match self.rng.below(3) {
                0 if i > 0 => writeln!(out, "    {v},").unwrap(),
                0 | 1 => {
                    let f = self.field(1);
                    let attrs = if f.attrs.is_empty() {
                        String::new()
                    } else {
                        format!("#[tuplet({})] ", f.attrs.join(", "))
                    };
                    writeln!(out, "    {v}({attrs}{}),", f.ty).unwrap();
                }
                _ => {
                    writeln!(out, "    {v} {{").unwrap();
                    let n = self.rng.below(3) + 1;
                    self.fields(out, n, "", "        ", false);
                    writeln!(out, "    }},").unwrap();
                }
            }
        }
        if open {
            writeln!(out, "    #[tuplet(unknown)]\n    Unknown(u32),").unwrap();
        }
        writeln!(out, "}}").unwrap();
    }

    fn flags(&mut self, out: &mut String, name: &str) {
        let (int, width) = *self
            .rng
            .pick(&[("u8", 8u64), ("u16", 16), ("u32", 32), ("u64", 64)]);
        let open = self.rng.chance(40);
        let mut bits: Vec<u64> = Vec::new();
        while bits.len() < (self.rng.below(5) + 1) as usize {
            let b = self.rng.below(width);
            if !bits.contains(&b) {
                bits.push(b);
            }
        }
        let reserved = (0..width).find(|b| !bits.contains(b));
        let mut keys = vec![format!("int = {int:?}")];
        if open {
            keys.push("open".into());
        }
        if let (Some(r), false) = (reserved, open) {
            keys.push(format!("reserved = [{r}]"));
        }
        writeln!(
            out,
            "#[derive(Debug, Clone, Copy, PartialEq, Default, tuplet::Flags)]\n#[tuplet({})]\npub struct {name} {{",
            keys.join(", ")
        )
        .unwrap();
        for (i, b) in bits.iter().enumerate() {
            writeln!(out, "    #[tuplet(bit = {b})]\n    pub b{i}: bool,").unwrap();
        }
        if open {
            writeln!(out, "    #[tuplet(rest)]\n    pub rest: {int},").unwrap();
        }
        writeln!(out, "}}").unwrap();
    }
}

/// The schema module of `seed`: messages get ids from `seed * 100` and names prefixed
/// `s{seed}:`, so many seeds can share a crate.
pub fn schema(seed: u64) -> GenSchema {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x7475_706c_6574),
        seed,
        named: Vec::new(),
        used_type_names: Vec::new(),
        types: 0,
    };
    let mut text = format!(
        "pub mod s{seed} {{\n#![allow(non_camel_case_types, dead_code)]\nuse std::collections::BTreeMap;\nuse tuplet::Reserved;\n"
    );
    // One type name in two modules (and a module named like a package file).
    let sub = *g.rng.pick(&["index", "c2s", "runtime", "a"]);
    for m in [sub, "b"] {
        let mut body = String::new();
        // Written inside the submodule: no references to the schema module's types.
        let named = std::mem::take(&mut g.named);
        g.record(&mut body, "Pos");
        g.named = named;
        writeln!(
            text,
            "pub mod {m} {{\n#![allow(unused_imports)]\nuse std::collections::BTreeMap;\nuse tuplet::Reserved;\n{body}}}"
        )
        .unwrap();
        g.named.push(Named {
            path: format!("{m}::Pos"),
        });
        g.types += 1;
    }
    let items = g.rng.below(6) + 3;
    for _ in 0..items {
        let mut body = String::new();
        match g.rng.below(4) {
            0 => {
                let name = g.type_name("Rec");
                g.record(&mut body, &name);
                g.named.push(Named { path: name });
            }
            1 => {
                let name = g.type_name("Kind");
                g.unit_enum(&mut body, &name);
                g.named.push(Named { path: name });
            }
            2 => {
                let name = g.type_name("Held");
                g.data_enum(&mut body, &name);
                g.named.push(Named { path: name });
            }
            _ => {
                let name = g.type_name("Bits");
                g.flags(&mut body, &name);
                g.named.push(Named { path: name });
            }
        }
        g.types += 1;
        text.push_str(&body);
    }
    let mut messages = Vec::new();
    let count = g.rng.below(4) + 2;
    for i in 0..count {
        let dir = *g.rng.pick(&["c2s", "s2c", "both"]);
        let name = g.type_name("Msg");
        let wire = format!(
            "s{}:{}",
            g.seed,
            if g.rng.chance(20) {
                "constructor".to_string()
            } else {
                format!("m{i}")
            }
        );
        let wire = if messages.iter().any(|m: &GenMessage| m.name == wire) {
            format!("s{}:m{i}", g.seed)
        } else {
            wire
        };
        writeln!(
            text,
            "#[derive(Debug, Clone, PartialEq, tuplet::Message)]\n#[tuplet(name = {wire:?}, id = {}, dir = \"{dir}\")]\npub struct {name} {{",
            g.seed * 100 + i
        )
        .unwrap();
        let n = g.rng.below(6);
        g.fields(&mut text, n, "pub ", "    ", true);
        writeln!(text, "}}").unwrap();
        messages.push(GenMessage {
            path: format!("s{seed}::{name}"),
            name: wire,
            dir,
        });
        g.types += 1;
    }
    for (dir, enum_name) in [("c2s", "ClientMessage"), ("s2c", "ServerMessage")] {
        let members: Vec<&GenMessage> = messages
            .iter()
            .filter(|m| m.dir == dir || m.dir == "both")
            .collect();
        if members.is_empty() {
            continue;
        }
        writeln!(
            text,
            "#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]\n#[tuplet(dir = \"{dir}\")]\npub enum {enum_name} {{"
        )
        .unwrap();
        for m in members {
            let ty = m.path.rsplit("::").next().unwrap();
            writeln!(text, "    {ty}({ty}),").unwrap();
        }
        writeln!(text, "}}").unwrap();
    }
    text.push_str("}\n");
    GenSchema {
        text,
        messages,
        types: g.types,
    }
}
