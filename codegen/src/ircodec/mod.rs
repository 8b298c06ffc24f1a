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
//! decimal strings, a string-keyed map also as an object, a unit enum also as its number.
//! Every flag of a flag set must be given, as a record's required field: a missing one is
//! `missing_field` at the flag (`flags.running`), as in TypeScript's `encode`.
//!
//! Encoding errors carry the canonical path of the offending value (as `validate` reports
//! it); the derived encoders report the same code and message at the root.

mod common;
mod decode;
pub mod delta;
mod encode;
mod encode_enum;
mod leaf;
mod lookup;
#[cfg(feature = "testkit")]
pub mod mutate;
mod sample;

pub use common::{hex, json_eq, unhex};
pub use decode::{decode, decode_envelope, decode_with};
pub use encode::{encode, encode_unchecked};
pub use lookup::{message_at, message_named, message_with_id};
pub use sample::sample;

/// Which record shape an encoder writes: positional arrays (the default) or maps keyed by
/// legacy alias or name.
pub use tuplet_schema::plan::Form as Shape;
