//! What the codec's halves share: interned names for error paths, and the natural JSON's
//! hex strings, equality and type errors.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;
use tuplet::{Code, Error};

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

/// The variant names of an enum, for `unknown_variant`'s message.
pub(crate) fn names(variants: &[tuplet_schema::ir::Variant]) -> Vec<&str> {
    variants.iter().map(|v| v.name.as_str()).collect()
}
