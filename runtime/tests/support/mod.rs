//! Shared helpers for the reader tests: hex parsing and named reader operations.

#![allow(dead_code)]

use tuplet::wire::{Limits, Reader};
use tuplet::Error;

/// Bytes from space-separated hex (`"cd 01 2c"`); `xx*N` is the byte `xx` N times.
pub fn hex(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for tok in s.split_whitespace() {
        match tok.split_once('*') {
            Some((b, n)) => {
                let b = u8::from_str_radix(b, 16).expect("hex byte");
                out.extend(vec![b; n.parse().expect("count")]);
            }
            None => out.push(u8::from_str_radix(tok, 16).expect("hex byte")),
        }
    }
    out
}

/// Bytes as space-separated lowercase hex.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every named operation, for tests that run them all.
pub const OPS: &[&str] = &[
    "skip", "kind", "nil", "shape", "array", "map", "bool", "i64", "u64", "f64", "f32", "str",
    "bin", "finish",
];

/// Runs a named reader operation (results discarded, errors kept).
pub fn run(r: &mut Reader<'_>, op: &str) -> Result<(), Error> {
    match op {
        "skip" => r.skip_value(),
        "kind" => r.peek_kind().map(drop),
        "nil" => r.try_nil().map(drop),
        "shape" => r.read_shape().map(drop),
        "array" => r.read_array_len().map(drop),
        "map" => r.read_map_len().map(drop),
        "bool" => r.read_bool().map(drop),
        "i64" => r.read_i64(i64::MIN, i64::MAX).map(drop),
        "i8" => r.read_i64(-128, 127).map(drop),
        "u64" => r.read_u64(0, u64::MAX).map(drop),
        "u8" => r.read_u64(0, 255).map(drop),
        "safe" => r.read_i64(-(1 << 53) + 1, (1 << 53) - 1).map(drop),
        "f64" => r.read_f64().map(drop),
        "f32" => r.read_f32().map(drop),
        "str" => r.read_str(0, u32::MAX).map(drop),
        "str3" => r.read_str(0, 3).map(drop),
        "str2.." => r.read_str(2, 10).map(drop),
        "bin" => r.read_bin(0, u32::MAX).map(drop),
        "bin3" => r.read_bin(0, 3).map(drop),
        "bin2.." => r.read_bin(2, 10).map(drop),
        "finish" => r.finish(),
        // A whole value then the end: skip, then finish.
        "whole" => r.skip_value().and_then(|_| r.finish()),
        other => panic!("unknown op {other}"),
    }
}

/// Small caps for the budget tests.
pub fn small_limits() -> Limits {
    Limits {
        max_depth: 3,
        max_elements: 4,
    }
}
