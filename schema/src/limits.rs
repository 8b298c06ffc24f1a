//! The numeric limits of the wire contract, each defined once. The derive, the IR codec,
//! the TypeScript emitter, `sizes` and the checks read them from here.

/// The largest integer both languages hold exactly: 2^53 − 1. Bounds 64-bit ints that are
/// not `bigint`.
pub const SAFE_INT: i128 = (1 << 53) - 1;

/// The largest |q| of a quantized f32 field: beyond 2^23, `q / scale` narrowed to f32 no
/// longer re-quantizes to `q` for every step.
pub const MAX_Q_F32: i64 = 1 << 23;

/// The largest |q| of a quantized f64 field: beyond 2^50, `q / scale` in f64 no longer
/// re-quantizes to `q` for every step (two roundings of 2^-53 each; found by the
/// round-trip property test at |q| ≈ 3.9e15).
pub const MAX_Q_F64: i64 = 1 << 50;

/// The longest variant name a decoder reads, in UTF-8 bytes (the named shape of an enum).
/// A longer string fails as `too_long` before any lookup.
pub const VARIANT_NAME_MAX: u32 = 1024;

/// The largest tag of an enum with data, and the largest envelope id: a u32.
pub const TAG_MAX: u64 = u32::MAX as u64;

/// The largest compact encoding of an open unit enum's unknown number (an int64).
pub const UNKNOWN_NUMBER_MAX_SIZE: usize = 9;

/// The largest compact encoding of an open data enum's unknown tag (`[tag]`: a fixarray
/// header and a uint32).
pub const UNKNOWN_TAG_MAX_SIZE: usize = 6;
