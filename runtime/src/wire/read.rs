//! The reader: a cursor over one message's bytes that applies the decoding policy of
//! WIRE.md (lenient on number markers, strict on everything else) and its bounds.

use crate::error::{Code, Error};

/// Caps that bound a decode in time and memory whatever the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and maps accepted (also inside skipped values).
    pub max_depth: u32,
    /// Most array elements plus map entries (keys and values) one decode may visit,
    /// skipped values included.
    pub max_elements: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 64,
            max_elements: 1 << 20,
        }
    }
}

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

/// A record's shape on the wire, told apart by its marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The compact shape: an array of this many elements.
    Array(u32),
    /// The named shape: a map of this many entries.
    Map(u32),
}

/// A bounded msgpack reader over one message.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    elements_left: u32,
    limits: Limits,
}
