//! The IR codec: encodes and decodes any message of a loaded schema straight from the
//! resolved IR, with exactly the derive's behaviour (shapes, trimming of trailing options,
//! legacy keys, spread arrays, enum forms, open enums and flags, error codes and paths,
//! the reader's [`Limits`](tuplet::wire::Limits)).
//!
//! It is an independent second implementation: it shares with the derived code only the
//! wire primitives (`tuplet::wire::{Reader, write}`), quantization (`tuplet::quant`) and the
//! error constructors and templates (`tuplet::__private_0_1`); a test in `examples/village`
//! checks that both agree on every village vector, valid and invalid. `tuplet decode`,
//! `tuplet encode` and `tuplet sizes` run on it.
//!
//! # The natural JSON of a value
//!
//! Values travel as [`serde_json::Value`] in one convention, shared with the TypeScript
//! tests (they write the same JSON from their decoded values):
//!
//! | tuplet type                  | natural JSON                                                  |
//! |------------------------------|---------------------------------------------------------------|
//! | record / message             | object keyed by canonical (Rust) field names, in declaration order; absent options omitted; reserved slots absent |
//! | `bool`                       | `true` / `false`                                              |
//! | ints                         | numbers; a `bigint` 64-bit field a decimal string (`"18446744073709551615"`) |
//! | `f64` (raw or quantized)     | number                                                        |
//! | `f32` (raw or quantized)     | number: the f32 value widened to f64 (`0.10000000149011612`)  |
//! | `String`                     | string                                                        |
//! | `Vec<u8>`                    | lowercase hex string (`"0102ff"`)                             |
//! | `Vec<T>`, `[T; N]`           | array                                                         |
//! | `BTreeMap<K, V>`             | array of `[key, value]` pairs in key (wire) order             |
//! | unit enum                    | the variant name (`"Owl"`); an open enum's unknown number: the number |
//! | enum with data               | `{"kind": "Variant", ...fields}`; newtype `{"kind": "Variant", "value": v}`; unit variant `{"kind": "Variant"}`; an open enum's unknown tag `{"kind": "unknown", "tag": n}` |
//! | flags                        | object of booleans by flag name in declaration order, plus `"rest": n` (open flags, unknown bits, only when nonzero) |
//!
//! Encoding accepts a little more than decoding produces: ints as integral numbers or
//! decimal strings, a string-keyed map also as an object, a unit enum also as its number,
//! absent flags as false.
//!
//! Encoding errors carry the canonical path of the offending value (as `validate` reports
//! it); the derived encoders report the same code and message at the root.

mod decode;
mod encode;
mod leaf;
#[cfg(feature = "testkit")]
pub mod mutate;
mod sample;

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;
use tuplet::{Code, Error};
use tuplet_schema::ir::{Dir, ItemKind, Message};
use tuplet_schema::{ResolvedItem, ResolvedSchema};

pub use decode::{decode, decode_envelope, decode_with};
pub use encode::{encode, encode_unchecked};
pub use sample::sample;

/// Which record shape an encoder writes: positional arrays (the default) or maps keyed by
/// legacy alias or name.
pub use tuplet_schema::plan::Form as Shape;

/// The message item at a canonical path (`crate::player::PlayerMove`).
pub fn message_at<'s>(
    schema: &'s ResolvedSchema,
    path: &str,
) -> Option<(&'s ResolvedItem, &'s Message)> {
    let item = schema.get(path)?;
    match &item.item.kind {
        ItemKind::Message(m) => Some((item, m)),
        _ => None,
    }
}

/// The canonical path of the message named `name` sent in `dir` (`C2s` or `S2c`).
pub fn message_named(schema: &ResolvedSchema, dir: Dir, name: &str) -> Option<String> {
    schema
        .messages(dir)
        .find(|(_, m)| m.name == name)
        .map(|(i, _)| i.path.clone())
}

/// The canonical path of the message with envelope id `id` sent in `dir`.
pub fn message_with_id(schema: &ResolvedSchema, dir: Dir, id: u32) -> Option<String> {
    let ids = match dir {
        Dir::C2s => &schema.c2s,
        Dir::S2c => &schema.s2c,
        Dir::Both => return None,
    };
    ids.get(&id).cloned()
}

/// A name as `&'static str`, for error paths (`Seg::Field`): each distinct schema name is
/// leaked once.
pub(crate) fn intern(s: &str) -> &'static str {
    static SET: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = SET
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&hit) = set.get(s) {
        return hit;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    set.insert(leaked);
    leaked
}

/// Lowercase hex of `bytes`, no separators.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Bytes from hex digits, ignoring whitespace, commas, `0x` prefixes and `:`/`-`
/// separators; `None` on anything else or an odd digit count.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let cleaned = text.replace("0x", "").replace("0X", "");
    let digits: Vec<u8> = cleaned
        .bytes()
        .filter(|b| {
            !matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'-' | b'[' | b']'
            )
        })
        .collect();
    if digits.len() & 1 == 1 {
        return None;
    }
    digits
        .chunks(2)
        .map(|p| {
            let s = std::str::from_utf8(p).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect()
}

/// Whether two natural values are equal, numbers compared by value (`1` equals `1.0`, as
/// JavaScript cannot tell them apart); object key order is ignored.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64() == y.as_f64() && x.as_f64().is_some(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A `wrong_type` error for a JSON value of the wrong kind (encoding).
pub(crate) fn json_type(expected: &str, found: &Value) -> Error {
    let found = match found {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    Error::new(
        Code::WrongType,
        format!("expected {expected}, found {found}"),
    )
}
