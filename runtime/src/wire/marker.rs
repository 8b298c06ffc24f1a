//! Marker classification: the kinds of value ([`Kind`]), which kind a first byte starts, and
//! its name in messages.
//!
//! Hand-written rather than built on `rmp::Marker::from_u8`: one exhaustive `match` over the
//! 256 byte values (checked by the compiler) gives both the kind and the name used in
//! `wrong_type` messages without a conversion layer; a test checks it against `rmp::Marker`.

/// The broad kind of the next value, from its marker alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `c0`, or msgpackr's `undefined` (`d4 00 00`).
    Nil,
    /// `c2`, `c3`.
    Bool,
    /// Any int marker.
    Int,
    /// `ca`, `cb`.
    Float,
    /// Any str marker.
    Str,
    /// Any bin marker.
    Bin,
    /// Any array marker.
    Array,
    /// Any map marker.
    Map,
    /// Any other ext.
    Ext,
}

/// The kind a marker byte starts; `None` for `0xc1`, which msgpack never uses.
///
/// `d4` (fixext1) is `Kind::Ext` here; the caller looks at the next two bytes to tell
/// msgpackr's `undefined` (`d4 00 00`, nil) apart.
#[inline]
pub(crate) fn kind_of(b: u8) -> Option<Kind> {
    Some(match b {
        0x00..=0x7f | 0xcc..=0xd3 | 0xe0..=0xff => Kind::Int,
        0x80..=0x8f | 0xde | 0xdf => Kind::Map,
        0x90..=0x9f | 0xdc | 0xdd => Kind::Array,
        0xa0..=0xbf | 0xd9..=0xdb => Kind::Str,
        0xc0 => Kind::Nil,
        0xc1 => return None,
        0xc2 | 0xc3 => Kind::Bool,
        0xc4..=0xc6 => Kind::Bin,
        0xc7..=0xc9 | 0xd4..=0xd8 => Kind::Ext,
        0xca | 0xcb => Kind::Float,
    })
}

/// The name of what a marker starts, as `found` in `wrong_type` messages: `nil`, `bool`,
/// `int`, `float32`, `float64`, `str`, `bin`, `array`, `map`, `ext` (and `0xc1`).
#[cold]
pub(crate) fn found_name(b: u8) -> &'static str {
    match b {
        0xca => "float32",
        0xcb => "float64",
        _ => match kind_of(b) {
            None => "0xc1",
            Some(Kind::Nil) => "nil",
            Some(Kind::Bool) => "bool",
            Some(Kind::Int) => "int",
            Some(Kind::Float) => "float",
            Some(Kind::Str) => "str",
            Some(Kind::Bin) => "bin",
            Some(Kind::Array) => "array",
            Some(Kind::Map) => "map",
            Some(Kind::Ext) => "ext",
        },
    }
}
