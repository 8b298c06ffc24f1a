//! Types as written in the per-item IR: `TypeRef` and the integer, float, quantization and
//! length constraints it carries. Re-exported by `ir`.

use serde::{Deserialize, Serialize};

use crate::limits::SAFE_INT;

/// A type as written, with its constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TypeRef {
    /// `bool`.
    Bool,
    /// Any integer width.
    Int(IntType),
    /// `f32` or `f64`, raw or quantized.
    Float(FloatType),
    /// `String`; `len` counts UTF-8 bytes.
    String {
        /// Byte-length bounds.
        #[serde(default, skip_serializing_if = "Len::is_unbounded")]
        len: Len,
    },
    /// `Vec<u8>` (or `tuplet::Bytes`): msgpack bin.
    Bytes {
        /// Length bounds.
        #[serde(default, skip_serializing_if = "Len::is_unbounded")]
        len: Len,
    },
    /// `Option<T>`: absent is omitted (trailing) or nil.
    Option {
        /// The inner type.
        inner: Box<TypeRef>,
    },
    /// `Vec<T>`.
    Vec {
        /// The element type.
        inner: Box<TypeRef>,
        /// Length bounds.
        #[serde(default, skip_serializing_if = "Len::is_unbounded")]
        len: Len,
    },
    /// `[T; N]`.
    Array {
        /// The element type.
        inner: Box<TypeRef>,
        /// The fixed length.
        len: u32,
    },
    /// `BTreeMap<K, V>` with string or int keys.
    Map {
        /// The key type (string or int).
        key: Box<TypeRef>,
        /// The value type.
        value: Box<TypeRef>,
        /// Entry-count bounds.
        #[serde(default, skip_serializing_if = "Len::is_unbounded")]
        len: Len,
    },
    /// A reference to another item (record, enum, flags), by path as written.
    Named {
        /// The path as written (`MoveFlags`, `crate::birds::Species`).
        path: String,
    },
}

/// The width and signedness of an integer, with its range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntType {
    /// `u8`, `u16`, `u32`, `u64`, `i8`, `i16`, `i32`, `i64`.
    pub prim: IntPrim,
    /// Inclusive bounds, if narrower than the type (or than ±(2^53−1) for 64-bit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<IntRange>,
    /// 64-bit only: TypeScript `bigint` and the full range instead of ±(2^53−1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bigint: bool,
}

/// The Rust integer primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntPrim {
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
}

impl IntPrim {
    /// The Rust spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            IntPrim::U8 => "u8",
            IntPrim::U16 => "u16",
            IntPrim::U32 => "u32",
            IntPrim::U64 => "u64",
            IntPrim::I8 => "i8",
            IntPrim::I16 => "i16",
            IntPrim::I32 => "i32",
            IntPrim::I64 => "i64",
        }
    }

    /// Parses a Rust primitive name.
    pub fn from_name(s: &str) -> Option<IntPrim> {
        Some(match s {
            "u8" => IntPrim::U8,
            "u16" => IntPrim::U16,
            "u32" => IntPrim::U32,
            "u64" => IntPrim::U64,
            "i8" => IntPrim::I8,
            "i16" => IntPrim::I16,
            "i32" => IntPrim::I32,
            "i64" => IntPrim::I64,
            _ => return None,
        })
    }

    /// Whether the type is signed.
    pub fn signed(self) -> bool {
        matches!(
            self,
            IntPrim::I8 | IntPrim::I16 | IntPrim::I32 | IntPrim::I64
        )
    }

    /// The type's own bounds, as i128. 64-bit types are bounded to ±(2^53−1) unless `bigint`.
    pub fn bounds(self, bigint: bool) -> (i128, i128) {
        const SAFE: i128 = SAFE_INT;
        match self {
            IntPrim::U8 => (0, u8::MAX as i128),
            IntPrim::U16 => (0, u16::MAX as i128),
            IntPrim::U32 => (0, u32::MAX as i128),
            IntPrim::U64 if bigint => (0, u64::MAX as i128),
            IntPrim::U64 => (0, SAFE),
            IntPrim::I8 => (i8::MIN as i128, i8::MAX as i128),
            IntPrim::I16 => (i16::MIN as i128, i16::MAX as i128),
            IntPrim::I32 => (i32::MIN as i128, i32::MAX as i128),
            IntPrim::I64 if bigint => (i64::MIN as i128, i64::MAX as i128),
            IntPrim::I64 => (-SAFE, SAFE),
        }
    }
}

/// Inclusive integer bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntRange {
    /// Smallest allowed value.
    #[serde(with = "crate::wide_int")]
    pub min: i128,
    /// Largest allowed value.
    #[serde(with = "crate::wide_int")]
    pub max: i128,
}

/// A float field: raw, or quantized to an integer on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FloatType {
    /// 32 or 64.
    pub bits: u8,
    /// Quantization, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant: Option<Quant>,
    /// Bounds in natural units, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<FloatRange>,
}

/// Float bounds in natural units, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FloatRange {
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
}

/// Quantization: `q = round_half_away_from_zero(x × scale)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quant {
    /// The unit name as written (`cm`, `mm`, `mrad`, `cdeg`), or `None` for `scale = N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Wire integers per natural unit (100 for `cm` of a metre field).
    pub scale: f64,
}

/// Known quantization units: name and scale (wire integers per natural unit).
pub const UNITS: &[(&str, f64)] = &[
    ("cm", 100.0),
    ("mm", 1000.0),
    ("dm", 10.0),
    ("mrad", 1000.0),
    ("crad", 100.0),
    ("cdeg", 100.0),
    ("ddeg", 10.0),
    ("permille", 1000.0),
    ("percent", 100.0),
];

/// Length bounds (bytes for strings and bin, elements for lists, entries for maps).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Len {
    /// Smallest allowed length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// Largest allowed length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

impl Len {
    /// Whether neither bound is set.
    pub fn is_unbounded(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
}

/// Serde's `skip_serializing_if` for flags that are off by default.
pub(super) fn is_false(b: &bool) -> bool {
    !*b
}
