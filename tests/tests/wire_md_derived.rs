//! Every ```wire-derived example of WIRE.md, run through the derived codecs.
//!
//! WIRE.md is parsed at test time into (type, value, compact, named, bytes) examples. The
//! table below builds each example's value in Rust, keyed by the example's `type:` and
//! `value:` text exactly as WIRE.md spells them; the test fails when WIRE.md has an example
//! the table does not cover, or the table has one WIRE.md lacks. For each example:
//!
//! - `tuplet::to_vec` gives the `compact:` hex and `tuplet::to_vec_named` the `named:` hex;
//! - decoding each hex gives back a value that is `==` and `wire_eq` to the built one;
//! - each hex is one complete msgpack value for rmpv (the envelope: an id, then one value).
//!
//! Bare containers (`[f32; 3]`, `BTreeMap<..>`, `Vec<u8>`) are not `Wire` types on their
//! own: each is wrapped in a one-field record `{ v: T }`, whose compact encoding is the
//! 1-byte array header `91` followed by the field's bytes. So the example's hex is checked
//! as the wrapper's encoding with that `91` stripped, and decoded as `91` + hex.

// 3.141 is the heading of WIRE.md's example move, not an approximation of π.
#![allow(clippy::approx_constant)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use tuplet::{Dispatch, Encoding, Reserved, Wire};

// ---------------------------------------------------------------------------------------
// The types, as WIRE.md declares them.

/// WIRE.md, "Records": the relayed move as the server sends it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c")]
pub struct PlayerMoved {
    #[tuplet(len(max = 32), legacy = "sessionId")]
    pub session_id: String,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    pub t: u64,
    pub seq: Option<u32>,
}

/// WIRE.md, "The envelope": the server-to-client direction.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
pub enum ServerMsg {
    Moved(PlayerMoved),
}

/// WIRE.md, "Options and reserved slots".
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Opt {
    pub a: u8,
    pub b: Option<u8>,
    pub c: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Join {
    pub name: String,
    #[tuplet(reserved = "colour: moved to player:style in 1.4")]
    pub _colour: Reserved,
    pub level: u8,
}

/// WIRE.md, "Enums and flags".
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Species {
    Sparrow = 1,
    Crow = 2,
    Owl = 7,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct BoatState {
    pub speed: u8,
    pub moored: bool,
}

#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum Held {
    #[tuplet(tag = 0)]
    Idle,
    #[tuplet(tag = 1)]
    Boat(BoatState),
    #[tuplet(tag = 2)]
    Pet { name: String, age: u8 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 1)]
    pub crouching: bool,
    #[tuplet(bit = 2)]
    pub jumping: bool,
}

/// WIRE.md, "Open enums and flags".
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Weather {
    Clear = 0,
    Rain = 1,
    #[tuplet(unknown)]
    Unknown(i64),
}

#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
#[tuplet(open)]
pub enum Reward {
    #[tuplet(tag = 1)]
    Coins(u32),
    #[tuplet(unknown)]
    Unknown(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8", open)]
pub struct Perms {
    #[tuplet(bit = 0)]
    pub chat: bool,
    #[tuplet(rest)]
    pub rest: u8,
}

/// The client's move (declared as in examples/village).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s")]
pub struct PlayerMove {
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    pub t: u64,
    pub seq: Option<u32>,
    pub flags: Option<MoveFlags>,
}

/// One-field wrappers for the bare containers (see the module docs).
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Bin {
    pub v: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct F32x3 {
    pub v: [f32; 3],
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct StrU32 {
    pub v: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct StrU8 {
    pub v: BTreeMap<String, u8>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct I32U8 {
    pub v: BTreeMap<i32, u8>,
}

// ---------------------------------------------------------------------------------------
// WIRE.md, parsed.

#[derive(Debug, Default, Clone)]
struct Example {
    line: usize,
    ty: String,
    value: String,
    compact: Option<Vec<u8>>,
    named: Option<Vec<u8>>,
    bytes: Option<Vec<u8>>,
}

impl Example {
    fn compact(&self) -> &[u8] {
        self.compact
            .as_deref()
            .unwrap_or_else(|| panic!("{}: no compact:", self.id()))
    }

    fn id(&self) -> String {
        format!("WIRE.md:{} `{}` `{}`", self.line, self.ty, self.value)
    }
}

fn parse_hex(text: &str, line: usize) -> Vec<u8> {
    text.split_whitespace()
        .map(|b| {
            assert_eq!(b.len(), 2, "WIRE.md:{line}: bad hex byte {b:?}");
            u8::from_str_radix(b, 16).unwrap_or_else(|_| panic!("WIRE.md:{line}: bad hex {b:?}"))
        })
        .collect()
}

fn wire_md_examples() -> Vec<Example> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../WIRE.md");
    let text = std::fs::read_to_string(path).expect("read WIRE.md");
    let mut examples = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if !in_block {
            if trimmed == "```wire-derived" {
                in_block = true;
            }
            continue;
        }
        if trimmed == "```" {
            in_block = false;
            examples.extend(current.take());
            continue;
        }
        if trimmed.is_empty() {
            examples.extend(current.take());
            continue;
        }
        let (key, rest) = trimmed
            .split_once(':')
            .unwrap_or_else(|| panic!("WIRE.md:{line}: expected `key: ...`, got {trimmed:?}"));
        let rest = rest.trim();
        if key == "type" {
            examples.extend(current.take());
            current = Some(Example {
                line,
                ty: rest.to_string(),
                ..Example::default()
            });
            continue;
        }
        let ex = current
            .as_mut()
            .unwrap_or_else(|| panic!("WIRE.md:{line}: `{key}:` before `type:`"));
        let slot = match key {
            "value" => {
                assert!(ex.value.is_empty(), "WIRE.md:{line}: second value:");
                ex.value = rest.to_string();
                continue;
            }
            "compact" => &mut ex.compact,
            "named" => &mut ex.named,
            "bytes" => &mut ex.bytes,
            _ => panic!("WIRE.md:{line}: unknown key {key:?}"),
        };
        assert!(slot.is_none(), "WIRE.md:{line}: second {key}:");
        *slot = Some(parse_hex(rest, line));
    }
    assert!(!in_block, "WIRE.md: unterminated wire-derived block");
    for ex in &examples {
        assert!(!ex.value.is_empty(), "{}: no value:", ex.id());
        assert!(
            ex.compact.is_some() || ex.bytes.is_some(),
            "{}: neither compact: nor bytes:",
            ex.id()
        );
    }
    examples
}

// ---------------------------------------------------------------------------------------
// Checks.

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `bytes` is exactly one complete msgpack value for rmpv.
fn one_rmpv_value(ex: &Example, what: &str, bytes: &[u8]) -> rmpv::Value {
    let mut rest = bytes;
    let value = rmpv::decode::read_value(&mut rest)
        .unwrap_or_else(|e| panic!("{} {what}: rmpv cannot read it: {e}", ex.id()));
    assert!(
        rest.is_empty(),
        "{} {what}: {} bytes after one msgpack value",
        ex.id(),
        rest.len()
    );
    value
}

/// Decodes `bytes` and checks the result equals `v` (`==` and `wire_eq`).
fn decodes_to<T: Wire + PartialEq + Debug>(ex: &Example, what: &str, bytes: &[u8], v: &T) {
    let back: T = tuplet::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{} {what}: decode failed: {e:?}", ex.id()));
    assert!(
        back.wire_eq(v),
        "{} {what}: decoded {back:?}, expected {v:?}",
        ex.id()
    );
    assert_eq!(&back, v, "{} {what}", ex.id());
}

/// A `Wire` type: compact and (where given) named hex, both ways.
fn check<T: Wire + PartialEq + Debug>(ex: &Example, v: T) {
    assert!(ex.bytes.is_none(), "{}: bytes: on a plain value", ex.id());
    let compact = ex.compact();
    one_rmpv_value(ex, "compact", compact);
    let got = tuplet::to_vec(&v).unwrap_or_else(|e| panic!("{}: encode: {e:?}", ex.id()));
    assert_eq!(hex(&got), hex(compact), "{} compact", ex.id());
    decodes_to(ex, "compact", compact, &v);
    if let Some(named) = &ex.named {
        one_rmpv_value(ex, "named", named);
        let got = tuplet::to_vec_named(&v).unwrap_or_else(|e| panic!("{}: encode: {e:?}", ex.id()));
        assert_eq!(hex(&got), hex(named), "{} named", ex.id());
        decodes_to(ex, "named", named, &v);
    }
}

/// A bare container, checked as the field `v` of the one-field record `w`: compact is
/// `91` + the field's bytes, named is `81 a1 76` (`{"v": ...}`) + the field's bytes.
fn check_field<W: Wire + PartialEq + Debug>(ex: &Example, w: W) {
    assert!(ex.bytes.is_none(), "{}: bytes: on a plain value", ex.id());
    let compact = ex.compact();
    one_rmpv_value(ex, "compact", compact);
    let got = tuplet::to_vec(&w).unwrap_or_else(|e| panic!("{}: encode: {e:?}", ex.id()));
    assert_eq!(got.first(), Some(&0x91), "{}: wrapper header", ex.id());
    assert_eq!(
        hex(&got[1..]),
        hex(compact),
        "{} compact (after the 91 header)",
        ex.id()
    );
    let wrapped = [&[0x91u8][..], compact].concat();
    decodes_to(ex, "compact", &wrapped, &w);
    if let Some(named) = &ex.named {
        one_rmpv_value(ex, "named", named);
        const HEAD: [u8; 3] = [0x81, 0xa1, b'v'];
        let got = tuplet::to_vec_named(&w).unwrap_or_else(|e| panic!("{}: encode: {e:?}", ex.id()));
        assert_eq!(&got[..3], &HEAD[..], "{}: wrapper named header", ex.id());
        assert_eq!(
            hex(&got[3..]),
            hex(named),
            "{} named (after 81 a1 76)",
            ex.id()
        );
        decodes_to(ex, "named", &[&HEAD[..], named].concat(), &w);
    }
}

fn player_moved() -> PlayerMoved {
    PlayerMoved {
        session_id: "abc123def".into(),
        p: [123.45, 1.5, -25.0],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
    }
}

fn opt(a: u8, b: Option<u8>, c: Option<u8>) -> Opt {
    Opt { a, b, c }
}

type Check = fn(&Example);

/// (type, value) exactly as WIRE.md writes them, and the check building the value.
fn table() -> Vec<(&'static str, &'static str, Check)> {
    vec![
        (
            "PlayerMoved",
            r#"{ session_id: "abc123def", p: [123.45, 1.5, -25.0], r: 3.141, t: 1764000000000, seq: Some(1234) }"#,
            |ex| {
                // WIRE.md's prose: 35 bytes compact, 91 named.
                assert_eq!(ex.compact().len(), 35, "{}", ex.id());
                assert_eq!(ex.named.as_ref().map(Vec::len), Some(91), "{}", ex.id());
                check(ex, player_moved())
            },
        ),
        ("envelope(PlayerMoved)", "id 1, then the compact value above", |ex| {
            assert!(ex.compact.is_none() && ex.named.is_none(), "{}", ex.id());
            let bytes = ex.bytes.as_deref().expect("bytes:");
            // An id, then exactly one value.
            let mut rest = bytes;
            let id = rmpv::decode::read_value(&mut rest).expect("rmpv: the id");
            assert_eq!(id.as_u64(), Some(1), "{}", ex.id());
            one_rmpv_value(ex, "payload", rest);
            // "then the compact value above"
            assert_eq!(hex(rest), hex(&tuplet::to_vec(&player_moved()).unwrap()), "{}", ex.id());
            let v = ServerMsg::Moved(player_moved());
            let got = v.to_envelope(Encoding::Compact).unwrap();
            assert_eq!(hex(&got), hex(bytes), "{}", ex.id());
            let back = ServerMsg::from_envelope(bytes).unwrap();
            let ServerMsg::Moved(m) = &back;
            assert!(m.wire_eq(&player_moved()), "{}", ex.id());
            assert_eq!(back, v, "{}", ex.id());
        }),
        ("Vec<u8>", "[1, 2, 3]", |ex| check_field(ex, Bin { v: vec![1, 2, 3] })),
        ("Opt", "{ a: 1, b: None, c: None }", |ex| check(ex, opt(1, None, None))),
        ("Opt", "{ a: 1, b: None, c: Some(3) }", |ex| check(ex, opt(1, None, Some(3)))),
        ("Opt", "{ a: 1, b: Some(2), c: None }", |ex| check(ex, opt(1, Some(2), None))),
        (
            "Join",
            r#"{ name: "Ann", level: 5 }"#,
            |ex| check(ex, Join { name: "Ann".into(), _colour: Reserved, level: 5 }),
        ),
        ("Species", "Owl", |ex| check(ex, Species::Owl)),
        ("Held", "Idle", |ex| check(ex, Held::Idle)),
        ("Weather", "Unknown(5)", |ex| check(ex, Weather::Unknown(5))),
        ("Reward", "Unknown(9)", |ex| check(ex, Reward::Unknown(9))),
        ("Perms", "{ chat: true, rest: 0x80 }", |ex| {
            check(ex, Perms { chat: true, rest: 0x80 })
        }),
        (
            "Held",
            "Boat(BoatState { speed: 40, moored: true })",
            |ex| check(ex, Held::Boat(BoatState { speed: 40, moored: true })),
        ),
        (
            "Held",
            r#"Pet { name: "Rex", age: 3 }"#,
            |ex| check(ex, Held::Pet { name: "Rex".into(), age: 3 }),
        ),
        (
            "MoveFlags",
            "{ running: true, crouching: false, jumping: true }",
            |ex| check(ex, MoveFlags { running: true, crouching: false, jumping: true }),
        ),
        (
            "PlayerMove",
            "{ p: [123.45, 1.5, -25.0], r: 3.141, t: 1764000000000, seq: None, flags: Some(running | jumping) }",
            |ex| {
                check(
                    ex,
                    PlayerMove {
                        p: [123.45, 1.5, -25.0],
                        r: 3.141,
                        t: 1_764_000_000_000,
                        seq: None,
                        flags: Some(MoveFlags { running: true, jumping: true, ..Default::default() }),
                    },
                )
            },
        ),
        ("[f32; 3]", "[1.0, -0.5, 0.1]", |ex| check_field(ex, F32x3 { v: [1.0, -0.5, 0.1] })),
        (
            "BTreeMap<String, u32>",
            r#"{ "ann": 3, "bob": 12, "Zed": 1 }"#,
            |ex| {
                let v = [("ann", 3), ("bob", 12), ("Zed", 1)];
                check_field(ex, StrU32 { v: v.iter().map(|&(k, n)| (k.to_string(), n)).collect() })
            },
        ),
        (
            "BTreeMap<String, u8>",
            r#"{ "😀": 2, "｡": 1 }"#,
            |ex| {
                let v = [("😀", 2), ("｡", 1)];
                check_field(ex, StrU8 { v: v.iter().map(|&(k, n)| (k.to_string(), n)).collect() })
            },
        ),
        (
            "BTreeMap<i32, u8>",
            "{ 2: 0, -1: 1 }",
            |ex| check_field(ex, I32U8 { v: [(2, 0), (-1, 1)].into_iter().collect() }),
        ),
        (
            "Opt, as an older receiver of a record with a 4th field",
            r#"[1, 2, 3, "new"] decodes as { a: 1, b: Some(2), c: Some(3) }"#,
            |ex| {
                // Decode only: the 4th element is a newer sender's field this Opt skips.
                assert!(ex.named.is_none() && ex.bytes.is_none(), "{}", ex.id());
                let compact = ex.compact();
                let value = one_rmpv_value(ex, "compact", compact);
                let expected = rmpv::Value::Array(vec![1.into(), 2.into(), 3.into(), "new".into()]);
                assert_eq!(value, expected, "{}", ex.id());
                let v = opt(1, Some(2), Some(3));
                decodes_to(ex, "compact", compact, &v);
                // Re-encoded, the older receiver writes only its own three fields.
                assert_eq!(hex(&tuplet::to_vec(&v).unwrap()), "93 01 02 03");
            },
        ),
    ]
}

#[test]
fn table_covers_exactly_the_wire_md_examples() {
    let examples = wire_md_examples();
    let table = table();
    let mut missing = Vec::new();
    for ex in &examples {
        let n = table
            .iter()
            .filter(|(t, v, _)| *t == ex.ty && *v == ex.value)
            .count();
        if n != 1 {
            missing.push(format!("{} (table has {n})", ex.id()));
        }
    }
    let mut extra = Vec::new();
    for (t, v, _) in &table {
        let n = examples
            .iter()
            .filter(|ex| ex.ty == *t && ex.value == *v)
            .count();
        if n != 1 {
            extra.push(format!("`{t}` `{v}` (WIRE.md has {n})"));
        }
    }
    assert!(
        missing.is_empty(),
        "WIRE.md examples the table does not cover: {missing:#?}"
    );
    assert!(
        extra.is_empty(),
        "table entries WIRE.md does not have exactly once: {extra:#?}"
    );
    assert_eq!(examples.len(), 21, "the wire-derived example count changed");
}

#[test]
fn every_wire_md_example_through_the_derives() {
    let table = table();
    let mut failures = Vec::new();
    for ex in wire_md_examples() {
        let Some((_, _, run)) = table.iter().find(|(t, v, _)| *t == ex.ty && *v == ex.value) else {
            continue; // reported by table_covers_exactly_the_wire_md_examples
        };
        let run = *run;
        let ex2 = ex.clone();
        if let Err(e) = std::panic::catch_unwind(move || run(&ex2)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {msg}", ex.id()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing examples:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
