//! Valid schemas nobody here wrote: names and shapes legal in Rust that a flat TypeScript
//! namespace, a plain JS object or the package's own files do not take. Each gives a package
//! that type-checks under its own tsconfig and loads and round-trips in node.

mod support;

use support::package_works;

/// Round-trips `value` through the codec of message `name` in direction `dir`, in node.
fn roundtrip(dir: &str, name: &str, value: &str) -> String {
    format!(
        r#"{{
const c = pkg.{dir}.byName[{name:?}];
const v = {value};
const back = c.decode(c.encode(v));
if (!back.ok) throw new Error(JSON.stringify(back.issues));
if (JSON.stringify(back.value) !== JSON.stringify(v)) throw new Error(JSON.stringify(back.value));
}}
"#
    )
}

fn ok(files: &[(&str, &str)], script: &str) {
    if let Err(e) = package_works(files, script) {
        panic!("{e}");
    }
}

#[test]
fn modules_named_like_the_package_files() {
    let msg = |name: &str, id: u32, dir: &str| {
        format!(
            "#[derive(tuplet::Message)]\n#[tuplet(name = \"{name}\", id = {id}, dir = \"{dir}\")]\npub struct Ping {{ pub n: u8 }}\n"
        )
    };
    let (a, b, c) = (
        msg("c2s:ping", 1, "c2s"),
        msg("s2c:ping", 1, "s2c"),
        msg("index:ping", 2, "both"),
    );
    let d = msg("runtime:ping", 3, "c2s");
    let script = roundtrip("c2s", "c2s:ping", "{ n: 3 }")
        + &roundtrip("s2c", "index:ping", "{ n: 4 }")
        + &roundtrip("c2s", "runtime:ping", "{ n: 5 }");
    ok(
        &[
            (
                "lib.rs",
                "pub mod c2s;\npub mod s2c;\npub mod index;\npub mod runtime { pub mod support; }\n",
            ),
            ("c2s.rs", &a),
            ("s2c.rs", &b),
            ("index.rs", &c),
            ("runtime/support.rs", &d),
        ],
        &script,
    );
}

#[test]
fn one_type_name_in_two_modules() {
    let module = |id: u32| {
        format!(
            "#[derive(tuplet::Record)]\npub struct Pos {{ pub x: i16 }}\n\
             #[derive(tuplet::Message)]\n#[tuplet(name = \"ping:{id}\", id = {id}, dir = \"c2s\")]\n\
             pub struct Ping {{ pub at: Pos }}\n"
        )
    };
    let script = roundtrip("c2s", "ping:1", "{ at: { x: -3 } }")
        + &roundtrip("c2s", "ping:2", "{ at: { x: 7 } }")
        + "if (pkg.a_PingCodec.name !== \"ping:1\" || pkg.b_PingCodec.name !== \"ping:2\") throw new Error(\"qualified\");\n";
    ok(
        &[
            ("lib.rs", "pub mod a;\npub mod b;\n"),
            ("a.rs", &module(1)),
            ("b.rs", &module(2)),
        ],
        &script,
    );
}

#[test]
fn type_names_of_the_runtime_and_of_js_globals() {
    let lib = r#"
use std::collections::BTreeMap;
#[derive(tuplet::Record)]
pub struct Reader { pub a: u8 }
#[derive(tuplet::Record)]
pub struct Writer { pub b: u8 }
#[derive(tuplet::Record)]
pub struct Issue { pub c: u8 }
#[derive(tuplet::Record)]
pub struct Map { pub d: u8 }
#[derive(tuplet::Enum)]
pub enum Object { A = 1, B = 2 }
#[derive(tuplet::Record)]
pub struct PingCodec { pub e: u8 }
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 1, dir = "c2s")]
pub struct Ping {
    pub r: Reader,
    pub w: Writer,
    pub i: Issue,
    pub m: Map,
    pub o: Object,
    pub p: PingCodec,
    pub by: BTreeMap<String, u8>,
}
"#;
    let script = roundtrip(
        "c2s",
        "ping",
        r#"{ r: { a: 1 }, w: { b: 2 }, i: { c: 3 }, m: { d: 4 }, o: "B", p: { e: 5 }, by: new Map([["k", 6]]) }"#,
    ) + "if (typeof pkg.newReader !== \"function\" || pkg.Object_.B !== \"B\" || pkg.Object_$numbers.B !== 2) throw new Error(\"names\");\n";
    ok(&[("lib.rs", lib)], &script);
}

#[test]
fn records_with_no_fields() {
    let lib = r#"
#[derive(tuplet::Record)]
pub struct Empty {}
#[derive(tuplet::Record)]
pub struct Unit;
#[derive(tuplet::Message)]
#[tuplet(name = "nothing", id = 1, dir = "both")]
pub struct Nothing;
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 2, dir = "c2s")]
pub struct Ping { pub e: Empty, pub u: Unit }
"#;
    let script = roundtrip("c2s", "ping", "{ e: {}, u: {} }") + &roundtrip("s2c", "nothing", "{}");
    ok(&[("lib.rs", lib)], &script);
}

#[test]
fn dispatcher_names_of_object_prototype() {
    let lib = r#"
#[derive(tuplet::Message)]
#[tuplet(name = "constructor", id = 1, dir = "c2s")]
pub struct Ctor { pub n: u8 }
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 2, dir = "c2s")]
pub struct Ping { pub n: u8 }
"#;
    let script = r##"
const unknown = [];
const d = pkg.createDispatcher(pkg.c2s, { ping: () => {} }, { onInvalid: (name, issues) => unknown.push([name, issues[0].code]) });
for (const name of ["toString", "hasOwnProperty", "__proto__", "valueOf"]) {
  if (d.onPayload(name, {}) !== false) throw new Error(name + " ran");
}
if (JSON.stringify(unknown) !== JSON.stringify([["#toString", "unknown_message"], ["#hasOwnProperty", "unknown_message"], ["#__proto__", "unknown_message"], ["#valueOf", "unknown_message"]])) throw new Error(JSON.stringify(unknown));
if (d.dropped["#__proto__"] !== 1 || d.dropped["#toString"] !== 1) throw new Error("dropped");
// a message named like an Object.prototype member with no handler: ignored, not Object() called
if (d.onBytes(pkg.envelope(pkg.c2s, { name: "constructor", value: { n: 1 } })) !== false) throw new Error("constructor ran");
const registered = [];
const room = { onMessage: (name, cb) => { registered.push([name, cb]); } };
const server = [];
const s = pkg.attachServer(room, pkg.c2s, { ping: () => {} }, { onInvalid: (name, issues) => server.push([name, issues[0].code]) });
for (const name of ["toString", "constructor", "__proto__"]) s.onPayload({}, name, {});
if (JSON.stringify(server) !== JSON.stringify([["toString", "unknown_message"], ["__proto__", "unknown_message"]])) throw new Error(JSON.stringify(server));
"##;
    ok(&[("lib.rs", lib)], script);
}

#[test]
fn enum_numbers_beyond_2_53() {
    let lib = r#"
#[derive(tuplet::Enum)]
#[repr(i64)]
pub enum Wide { A = 9007199254740992, B = 9007199254740993, C = -5 }
#[derive(tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Open { A = 1, #[tuplet(unknown)] Unknown(i64) }
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 1, dir = "c2s")]
pub struct Ping { pub w: Wide, pub o: Open }
"#;
    let script = r#"
const c = pkg.PingCodec;
const hex = (b) => Buffer.from(b).toString("hex");
const b = c.encode({ w: "B", o: -71776121208700929n });
if (hex(b) !== "92cf0020000000000001d3ff00ffff7fffffff") throw new Error(hex(b));
const back = c.decode(b);
if (!back.ok || back.value.w !== "B" || back.value.o !== -71776121208700929n) throw new Error(String(back.value?.o));
const a = c.decode(Uint8Array.from(Buffer.from("92cf002000000000000001", "hex")));
if (!a.ok || a.value.w !== "A" || a.value.o !== 1 && a.value.o !== "A") throw new Error(JSON.stringify(a));
const near = c.decode(Uint8Array.from(Buffer.from("92cf0020000000000002d1fffe", "hex")));
if (near.ok || near.issues[0].code !== "unknown_variant") throw new Error(JSON.stringify(near.issues ?? near.value));
const small = c.decode(Uint8Array.from(Buffer.from("92fb07", "hex")));
if (!small.ok || small.value.w !== "C" || small.value.o !== 7) throw new Error("small");
if (pkg.Wide.B !== "B" || pkg.Wide$numbers.B !== 9007199254740993n) throw new Error("const");
"#;
    ok(&[("lib.rs", lib)], script);
}

#[test]
fn a_module_of_records_with_no_fields() {
    let lib = r#"
pub mod empty {
    #[derive(tuplet::Record)]
    pub struct Unit;
    #[derive(tuplet::Record)]
    pub struct Empty {}
}
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 1, dir = "c2s")]
pub struct Ping { pub u: empty::Unit, pub e: empty::Empty }
"#;
    ok(
        &[("lib.rs", lib)],
        &roundtrip("c2s", "ping", "{ u: {}, e: {} }"),
    );
}

#[test]
fn unit_variants_named_like_object_members() {
    let lib = r#"
#[derive(tuplet::Enum)]
#[allow(non_camel_case_types)]
pub enum Odd { __proto__ = 1, constructor = 2, toString = 3 }
#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 1, dir = "c2s")]
pub struct Ping { pub a: Odd, pub b: Odd }
"#;
    let script = r#"
for (const [k, o, proto] of [["names", pkg.Odd, "__proto__"], ["numbers", pkg.Odd$numbers, 1]]) {
  if (!Object.prototype.hasOwnProperty.call(o, "__proto__") || o["__proto__"] !== proto) throw new Error(`__proto__ is not a property of the ${k} const`);
  if (Object.getPrototypeOf(o) !== Object.prototype) throw new Error(`the ${k} const's prototype changed`);
}
if (pkg.Odd.constructor !== "constructor" || pkg.Odd.toString !== "toString") throw new Error("names const");
if (pkg.Odd$numbers.constructor !== 2 || pkg.Odd$numbers.toString !== 3) throw new Error("numbers const");
"#;
    ok(
        &[("lib.rs", lib)],
        &format!(
            "{script}{}",
            roundtrip("c2s", "ping", r#"{ a: "__proto__", b: "toString" }"#)
        ),
    );
}

#[test]
fn emitter_locals_and_scratch_names_meet_no_schema_name() {
    // A long list's element is read with inline int reads, whose scratch locals once were
    // `p`, `b`, `x`, `l`: a newtype variant's value, bound to `const x`, then read its int
    // in place (`Block-scoped variable 'x' used before its declaration`). Types named like
    // the emitter's locals (`x`, `r`, `v`, `f0`, `x1`) and runtime imports (`readInt`) sit
    // beside it.
    let lib = r#"
#[derive(tuplet::Record)]
pub struct x { pub a: u8 }
#[derive(tuplet::Record)]
pub struct r { pub b: u16 }
#[derive(tuplet::Enum)]
pub enum v { A = 1, B = 2 }
#[derive(tuplet::Record)]
pub struct f0 { pub c: i8 }
#[derive(tuplet::Record)]
pub struct x1 { pub d: u8 }
#[derive(tuplet::Record)]
pub struct readInt { pub e: u8 }
#[derive(tuplet::Enum)]
pub enum Step {
    #[tuplet(tag = 0)]
    Hop(u16),
    #[tuplet(tag = 1)]
    Jump { #[tuplet(range(-300, 300))] dx: i16, h: u8 },
    #[tuplet(tag = 2)]
    Land(x),
    #[tuplet(tag = 3)]
    Rest(v),
}
#[derive(tuplet::Message)]
#[tuplet(name = "path", id = 1, dir = "s2c")]
pub struct Path {
    #[tuplet(len(max = 500))]
    pub steps: Vec<Step>,
    pub r: r,
    pub f: f0,
    pub y: x1,
    pub i: readInt,
}
"#;
    let script = roundtrip(
        "s2c",
        "path",
        r#"{ steps: [{ kind: "Hop", value: 300 }, { kind: "Jump", dx: -7, h: 200 }, { kind: "Land", value: { a: 5 } }, { kind: "Rest", value: "B" }], r: { b: 40000 }, f: { c: -3 }, y: { d: 1 }, i: { e: 2 } }"#,
    );
    ok(&[("lib.rs", lib)], &script);
}

#[test]
fn a_type_named_like_a_global_type_the_emitter_names() {
    // A data enum's struct variant is built as `Extract<Step, { kind: "Jump" }>`, the
    // TypeScript utility type. A record named `Extract` in the same module once shadowed it
    // (`Type 'Extract' is not generic`). Items named like a global the emitter names, or like
    // one of its locals (`o`, `k2`), are renamed (`Extract_`, `o_`, `k2_`).
    let lib = r#"
#[derive(tuplet::Record)]
pub struct Extract { pub a: u8 }
#[derive(tuplet::Enum)]
pub enum o { A = 1, B = 2 }
#[derive(tuplet::Record)]
pub struct k2 { pub b: i8 }
#[derive(tuplet::Enum)]
pub enum Step {
    #[tuplet(tag = 0)]
    Jump { h: u8, at: Option<Extract> },
    #[tuplet(tag = 1)]
    Land(Extract),
    #[tuplet(tag = 2)]
    Turn { to: o, by: k2 },
}
#[derive(tuplet::Message)]
#[tuplet(name = "step", id = 1, dir = "c2s")]
pub struct Move {
    pub step: Step,
    pub at: Extract,
}
"#;
    let script = roundtrip(
        "c2s",
        "step",
        r#"{ step: { kind: "Jump", h: 3, at: { a: 4 } }, at: { a: 1 } }"#,
    ) + &roundtrip(
        "c2s",
        "step",
        r#"{ step: { kind: "Turn", to: "B", by: { b: -2 } }, at: { a: 2 } }"#,
    )
        + "if (pkg.o_.B !== \"B\" || pkg.o_$numbers.B !== 2) throw new Error(\"o renamed o_\");\n";
    ok(&[("lib.rs", lib)], &script);
}

#[test]
fn root_constants_are_exported_when_they_are_integer_literals() {
    let lib = r#"
/// The protocol revision.
pub const PROTOCOL_VERSION: u16 = 2;
pub const FLOOR: i32 = -40;
pub const BIG: u64 = 9007199254740993;
const PRIVATE: u8 = 1;
pub const NAME: &str = "x";
pub const SUM: u8 = 1 + 2;
/// Taken: the package exports `c2s`.
pub const c2s: u8 = 3;
pub mod inner { pub const NESTED: u8 = 4; }

#[derive(tuplet::Message)]
#[tuplet(name = "ping", id = 1, dir = "c2s")]
pub struct Ping { pub n: u8 }
"#;
    let script = r#"
if (pkg.PROTOCOL_VERSION !== 2 || pkg.FLOOR !== -40 || pkg.BIG !== 9007199254740993n) throw new Error("values");
for (const n of ["PRIVATE", "NAME", "SUM", "NESTED"]) if (n in pkg) throw new Error(n + " exported");
if (typeof pkg.c2s !== "object") throw new Error("c2s replaced");
"#;
    ok(&[("lib.rs", lib)], script);
}
