//! The reader: a cursor over one message's bytes that applies the decoding policy of
//! WIRE.md (lenient on number markers, strict on everything else) and its bounds.
//!
//! # Error message templates (shared with TypeScript; WIRE.md lists the same)
//!
//! | code                | template                                              |
//! |---------------------|-------------------------------------------------------|
//! | `truncated`         | `input ends inside a value`                           |
//! | `truncated`         | `{count} {elements\|entries\|bytes} declared, {remaining} bytes left` |
//! | `reserved_marker`   | `reserved byte 0xc1`                                  |
//! | `wrong_type`        | `expected {expected}, found {found}`                  |
//! | `wrong_type`        | `expected {expected}, found a msgpackr record (ext 0x72); send tuples, or encode with useRecords: false` |
//! | `trailing_bytes`    | `{n} bytes after the end of the message`              |
//! | `invalid_utf8`      | `string is not valid utf-8`                           |
//! | `not_finite`        | `expected a finite number, found {nan\|infinity\|-infinity}` |
//! | `not_finite`        | `{value} overflows f32`                               |
//! | `not_integral`      | `{value} is not an integer`                           |
//! | `out_of_range`      | `{value} is outside {min}..={max}`                    |
//! | `too_long`          | `{len} bytes, at most {max}`                          |
//! | `too_short`         | `{len} bytes, at least {min}`                         |
//! | `too_deep`          | `nesting deeper than {max_depth}`                     |
//! | `too_many_elements` | `more than {max_elements} elements`                   |
//!
//! `{expected}` is one of `nil`, `bool`, `int`, `number`, `str`, `bin`, `array`, `map`,
//! `array or map`; `{found}` one of `nil`, `bool`, `int`, `float32`, `float64`, `str`,
//! `bin`, `array`, `map`, `ext`. Floats in messages: integral values below 2^64 as plain
//! integers, larger ones in exponent form (`1e300`), others as the shortest round-trip
//! decimal.
//!
//! # Order of checks
//!
//! - Containers (`read_shape`, `read_array_len`, `read_map_len`, and every container inside
//!   `skip_value`): the header bytes (`truncated`), then the count against the remaining input
//!   (n elements need n bytes, n entries 2n: `truncated`), then the element budget
//!   (`too_many_elements`), then the depth (`too_deep`).
//! - Strings and bins: the header bytes (`truncated`), then the schema limits (`too_long`,
//!   `too_short`, at the header, whatever follows), then the body against the remaining input
//!   (`truncated`), then (strings) UTF-8 (`invalid_utf8`).
//! - Numbers in int fields: `not_finite`, then `not_integral`, then `out_of_range`.
//!
//! After an error the reader's position is unspecified; a decode stops at its first error.

use super::fail;
use super::marker::{kind_of, Kind};
use crate::error::Error;

mod num;
mod skip;

/// `body` as a str, or `None` when it is not UTF-8: ASCII (the common case) is told eight
/// bytes at a time, anything else is left to `std::str::from_utf8` (short strings go
/// through its byte-at-a-time loop).
#[inline(always)]
fn utf8(body: &[u8]) -> Option<&str> {
    let mut high = 0u64;
    let mut words = body.chunks_exact(8);
    for w in &mut words {
        high |= w
            .first_chunk::<8>()
            .map_or(0x80, |w| u64::from_ne_bytes(*w));
    }
    for &b in words.remainder() {
        high |= u64::from(b);
    }
    if high & 0x8080_8080_8080_8080 == 0 {
        // SAFETY: every byte is below 0x80: ASCII, which is valid UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(body) });
    }
    std::str::from_utf8(body).ok()
}

/// The ext type of msgpackr's record extension (`d4 72 id`, then the keys and the values),
/// what `new Packr()` writes for a plain object.
const MSGPACKR_RECORD: u8 = 0x72;

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

/// A record's shape on the wire, told apart by its marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The compact shape: an array of this many elements.
    Array(u32),
    /// The named shape: a map of this many entries.
    Map(u32),
}

/// A bounded msgpack reader over one message.
///
/// Every method either consumes one well-formed value and returns it, or returns an error
/// with a stable code; none panics or allocates on any input (errors allocate their
/// message). Containers are entered with [`read_shape`](Reader::read_shape),
/// [`read_array_len`](Reader::read_array_len) or [`read_map_len`](Reader::read_map_len) and
/// left with [`leave`](Reader::leave) once their elements are read.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    /// The bytes not yet consumed: the cursor is the start of this slice.
    rest: &'a [u8],
    /// The length of the whole message, for [`position`](Reader::position).
    len: usize,
    elements_left: u32,
    depth: u32,
    limits: Limits,
}

impl<'a> Reader<'a> {
    /// A reader over `buf` with the default [`Limits`].
    #[inline]
    pub fn new(buf: &'a [u8]) -> Self {
        Self::with_limits(buf, Limits::default())
    }

    /// A reader over `buf` with explicit caps.
    #[inline]
    pub fn with_limits(buf: &'a [u8], limits: Limits) -> Self {
        Reader {
            rest: buf,
            len: buf.len(),
            elements_left: limits.max_elements,
            depth: 0,
            limits,
        }
    }

    /// Bytes consumed so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.len - self.rest.len()
    }

    /// Bytes not yet consumed.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// The bytes not yet consumed (consumes nothing).
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.rest
    }

    /// Consumes every byte not yet consumed and returns them (a payload read by another
    /// reader, as a delta message's by its `Mirror`).
    #[inline]
    pub fn take_rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.rest)
    }

    /// Succeeds when every byte was consumed; `trailing_bytes` otherwise.
    #[inline]
    pub fn finish(&self) -> Result<(), Error> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(fail::trailing(n)),
        }
    }

    /// The kind of the next value, from its marker (and, for `d4`, the two bytes after it:
    /// `d4 00 00` is nil). Consumes nothing. `truncated` at the end of the input (or on a `d4`
    /// without its two bytes), `reserved_marker` on `0xc1`.
    #[inline]
    pub fn peek_kind(&self) -> Result<Kind, Error> {
        let b = self.peek()?;
        match b {
            0xd4 => match self.undefined_at() {
                Some(true) => Ok(Kind::Nil),
                Some(false) => Ok(Kind::Ext),
                None => Err(fail::truncated()),
            },
            _ => kind_of(b).ok_or_else(fail::reserved),
        }
    }

    /// Consumes a nil (`c0`, or msgpackr's `undefined` `d4 00 00`) and returns true; returns
    /// false, consuming nothing, before any other value. `truncated` at the end of the input,
    /// `reserved_marker` on `0xc1`.
    #[inline]
    pub fn try_nil(&mut self) -> Result<bool, Error> {
        match self.peek()? {
            0xc0 => {
                self.bump(1);
                Ok(true)
            }
            0xd4 => match self.undefined_at() {
                Some(true) => {
                    self.bump(3);
                    Ok(true)
                }
                Some(false) => Ok(false),
                None => Err(fail::truncated()),
            },
            0xc1 => Err(fail::reserved()),
            _ => Ok(false),
        }
    }

    /// Reads an array or map header: the compact or the named shape of a record. Checks the
    /// count against the remaining input, charges it to the element budget and enters one
    /// level of nesting; call [`leave`](Reader::leave) after the last element.
    #[inline]
    pub fn read_shape(&mut self) -> Result<Shape, Error> {
        match self.fixarray() {
            Some(n) => Ok(Shape::Array(n)),
            None => self.read_shape_slow(),
        }
    }

    /// The fast path of the array headers, inlined: a fixarray whose elements fit the
    /// input, the budget and the depth (the checks of `enter`, which all pass), entered;
    /// `None`, consuming nothing, for anything else.
    #[inline(always)]
    fn fixarray(&mut self) -> Option<u32> {
        let (&b @ 0x90..=0x9f, rest) = self.rest.split_first()? else {
            return None;
        };
        let n = u32::from(b & 0x0f);
        if n as usize > rest.len() || n > self.elements_left || self.depth >= self.limits.max_depth
        {
            return None;
        }
        self.rest = rest;
        self.elements_left -= n;
        self.depth += 1;
        Some(n)
    }

    /// [`read_shape`](Reader::read_shape) for everything but its fast path.
    #[inline(never)]
    fn read_shape_slow(&mut self) -> Result<Shape, Error> {
        let b = self.peek()?;
        match b {
            0x90..=0x9f | 0xdc | 0xdd => self.array_header(b).map(Shape::Array),
            0x80..=0x8f | 0xde | 0xdf => self.map_header(b).map(Shape::Map),
            _ => Err(self.unexpected("array or map", b)),
        }
    }

    /// Reads an array header; as [`read_shape`](Reader::read_shape) but only an array.
    #[inline]
    pub fn read_array_len(&mut self) -> Result<u32, Error> {
        match self.fixarray() {
            Some(n) => Ok(n),
            None => self.read_array_len_slow(),
        }
    }

    /// [`read_array_len`](Reader::read_array_len) for everything but a fixarray that
    /// [`fixarray`](Reader::fixarray) takes.
    #[inline(never)]
    fn read_array_len_slow(&mut self) -> Result<u32, Error> {
        let b = self.peek()?;
        match b {
            0x90..=0x9f | 0xdc | 0xdd => self.array_header(b),
            _ => Err(self.unexpected("array", b)),
        }
    }

    /// Reads a map header (entries, not keys plus values); as
    /// [`read_shape`](Reader::read_shape) but only a map.
    #[inline]
    pub fn read_map_len(&mut self) -> Result<u32, Error> {
        let b = self.peek()?;
        match b {
            0x80..=0x8f | 0xde | 0xdf => self.map_header(b),
            _ => Err(self.unexpected("map", b)),
        }
    }

    /// Leaves the container entered last, once its elements were read.
    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads `c2` (false) or `c3` (true).
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, Error> {
        match self.peek()? {
            0xc2 => {
                self.bump(1);
                Ok(false)
            }
            0xc3 => {
                self.bump(1);
                Ok(true)
            }
            b => Err(self.unexpected("bool", b)),
        }
    }

    /// Reads a UTF-8 string of `min..=max` bytes, borrowed from the input. Bin is
    /// `wrong_type`; the limits are checked at the header, before the body.
    #[inline]
    pub fn read_str(&mut self, min: u32, max: u32) -> Result<&'a str, Error> {
        // The fast path, inlined: a fixstr within the limits whose body is there.
        if let Some((&b @ 0xa0..=0xbf, rest)) = self.rest.split_first() {
            let len = u32::from(b & 0x1f);
            if (min..=max).contains(&len) {
                if let Some((body, rest)) = rest.split_at_checked(len as usize) {
                    if let Some(s) = utf8(body) {
                        self.rest = rest;
                        return Ok(s);
                    }
                }
            }
        }
        self.read_str_slow(min, max)
    }

    /// [`read_str`](Reader::read_str) for everything but its fast path.
    #[inline(never)]
    fn read_str_slow(&mut self, min: u32, max: u32) -> Result<&'a str, Error> {
        let b = self.peek()?;
        let len = match b {
            0xa0..=0xbf => {
                self.bump(1);
                u32::from(b & 0x1f)
            }
            0xd9 => {
                self.bump(1);
                u32::from(self.be_u8()?)
            }
            0xda => {
                self.bump(1);
                u32::from(self.be_u16()?)
            }
            0xdb => {
                self.bump(1);
                self.be_u32()?
            }
            _ => return Err(self.unexpected("str", b)),
        };
        let bytes = self.body(len, min, max)?;
        std::str::from_utf8(bytes).map_err(|_| fail::invalid_utf8())
    }

    /// Reads a bin of `min..=max` bytes, borrowed from the input. Str is `wrong_type`; the
    /// limits are checked at the header, before the body.
    #[inline]
    pub fn read_bin(&mut self, min: u32, max: u32) -> Result<&'a [u8], Error> {
        let b = self.peek()?;
        let len = match b {
            0xc4 => {
                self.bump(1);
                u32::from(self.be_u8()?)
            }
            0xc5 => {
                self.bump(1);
                u32::from(self.be_u16()?)
            }
            0xc6 => {
                self.bump(1);
                self.be_u32()?
            }
            _ => return Err(self.unexpected("bin", b)),
        };
        self.body(len, min, max)
    }

    // ---- internals -------------------------------------------------------------------

    /// The next byte, not consumed.
    #[inline]
    fn peek(&self) -> Result<u8, Error> {
        self.rest.first().copied().ok_or_else(fail::truncated)
    }

    /// For a `d4` at the cursor: whether it is `d4 00 00`; `None` when the input ends first.
    #[inline]
    fn undefined_at(&self) -> Option<bool> {
        self.rest
            .get(..3)
            .map(|s| s.get(1) == Some(&0) && s.get(2) == Some(&0))
    }

    /// The error for an unexpected marker at the cursor (`d4 00 00` is named nil, `d4 72`
    /// msgpackr's record extension).
    #[cold]
    fn unexpected(&self, expected: &str, b: u8) -> Error {
        if b == 0xd4 && self.undefined_at() == Some(true) {
            fail::unexpected_nil(expected)
        } else if b == 0xd4 && self.rest.get(1) == Some(&MSGPACKR_RECORD) {
            fail::msgpackr_record(expected)
        } else {
            fail::unexpected(expected, b)
        }
    }

    /// Consumes `n` bytes.
    #[inline]
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        match self.rest.split_at_checked(n) {
            Some((s, rest)) => {
                self.rest = rest;
                Ok(s)
            }
            None => Err(fail::truncated()),
        }
    }

    /// Consumes `n` bytes already known to be there (after a peek).
    #[inline(always)]
    fn bump(&mut self, n: usize) {
        self.rest = self.rest.get(n..).unwrap_or_default();
    }

    /// Consumes `N` bytes as an array.
    #[inline]
    fn take_n<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.rest.split_first_chunk::<N>() {
            Some((a, rest)) => {
                self.rest = rest;
                Ok(*a)
            }
            None => Err(fail::truncated()),
        }
    }

    #[inline]
    fn be_u8(&mut self) -> Result<u8, Error> {
        Ok(self.take_n::<1>()?[0])
    }

    #[inline]
    fn be_u16(&mut self) -> Result<u16, Error> {
        self.take_n().map(u16::from_be_bytes)
    }

    #[inline]
    fn be_u32(&mut self) -> Result<u32, Error> {
        self.take_n().map(u32::from_be_bytes)
    }

    #[inline]
    fn be_u64(&mut self) -> Result<u64, Error> {
        self.take_n().map(u64::from_be_bytes)
    }

    /// A str or bin body of `len` bytes: limits first, then the remaining input.
    #[inline]
    fn body(&mut self, len: u32, min: u32, max: u32) -> Result<&'a [u8], Error> {
        if len > max {
            return Err(fail::too_long(len, max));
        }
        if len < min {
            return Err(fail::too_short(len, min));
        }
        if len as usize > self.remaining() {
            return Err(fail::declared(u64::from(len), "bytes", self.remaining()));
        }
        self.take(len as usize)
    }

    /// The header of an array whose marker `b` is at the cursor.
    #[inline]
    fn array_header(&mut self, b: u8) -> Result<u32, Error> {
        self.bump(1);
        let n = match b {
            0xdc => u32::from(self.be_u16()?),
            0xdd => self.be_u32()?,
            _ => u32::from(b & 0x0f),
        };
        self.enter(u64::from(n), "elements")?;
        Ok(n)
    }

    /// The header of a map whose marker `b` is at the cursor.
    #[inline]
    fn map_header(&mut self, b: u8) -> Result<u32, Error> {
        self.bump(1);
        let n = match b {
            0xde => u32::from(self.be_u16()?),
            0xdf => self.be_u32()?,
            _ => u32::from(b & 0x0f),
        };
        self.enter(u64::from(n) * 2, "entries")?;
        Ok(n)
    }

    /// Enters a container of `items` values (map entries count twice): checks them against
    /// the remaining input, then the element budget, then the depth.
    #[inline]
    fn enter(&mut self, items: u64, unit: &str) -> Result<(), Error> {
        if items > self.remaining() as u64 {
            let count = if unit == "entries" { items / 2 } else { items };
            return Err(fail::declared(count, unit, self.remaining()));
        }
        if items > u64::from(self.elements_left) {
            return Err(fail::too_many_elements(self.limits.max_elements));
        }
        if self.depth >= self.limits.max_depth {
            return Err(fail::too_deep(self.limits.max_depth));
        }
        self.elements_left -= items as u32;
        self.depth += 1;
        Ok(())
    }
}
