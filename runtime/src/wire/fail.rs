//! Cold constructors for every reader error, one per message template (listed in read.rs
//! and WIRE.md). Kept out of line so the hot paths stay small.

use std::fmt::Display;

use super::marker::found_name;
use crate::error::{Code, Error};

/// `{n} {unit}` with the unit singular when `n` is 1: `1 byte`, `2 bytes`, `1 entry`.
/// `plural` is one of "bytes", "elements", "entries".
pub(crate) fn units(n: u64, plural: &str) -> String {
    if n != 1 {
        return format!("{n} {plural}");
    }
    let one = match plural {
        "entries" => "entry",
        other => other.strip_suffix('s').unwrap_or(other),
    };
    format!("1 {one}")
}

/// `truncated`: "input ends inside a value".
#[cold]
#[inline(never)]
pub(crate) fn truncated() -> Error {
    Error::new(Code::Truncated, "input ends inside a value")
}

/// `truncated`: "{count} {unit} declared, {remaining} bytes left".
#[cold]
#[inline(never)]
pub(crate) fn declared(count: u64, unit: &str, remaining: usize) -> Error {
    Error::new(
        Code::Truncated,
        format!(
            "{} declared, {} left",
            units(count, unit),
            units(remaining as u64, "bytes")
        ),
    )
}

/// `reserved_marker`: "reserved byte 0xc1".
#[cold]
#[inline(never)]
pub(crate) fn reserved() -> Error {
    Error::new(Code::ReservedMarker, "reserved byte 0xc1")
}

/// `wrong_type`: "expected {expected}, found {found}"; `0xc1` is `reserved_marker` instead.
#[cold]
#[inline(never)]
pub(crate) fn unexpected(expected: &str, marker: u8) -> Error {
    if marker == 0xc1 {
        return reserved();
    }
    Error::new(
        Code::WrongType,
        format!("expected {expected}, found {}", found_name(marker)),
    )
}

/// `wrong_type` for `d4 00 00` (msgpackr's undefined) where a non-nil value is expected.
#[cold]
#[inline(never)]
pub(crate) fn unexpected_nil(expected: &str) -> Error {
    Error::new(Code::WrongType, format!("expected {expected}, found nil"))
}

/// `wrong_type` for msgpackr's record extension (`d4 72`, what `new Packr()` and the
/// Colyseus client write for plain objects) where a value is expected: names it and the fix.
#[cold]
#[inline(never)]
pub(crate) fn msgpackr_record(expected: &str) -> Error {
    Error::new(
        Code::WrongType,
        format!(
            "expected {expected}, found a msgpackr record (ext 0x72); \
             send tuples, or encode with useRecords: false"
        ),
    )
}

/// `trailing_bytes`: "{n} bytes after the end of the message".
#[cold]
#[inline(never)]
pub(crate) fn trailing(n: usize) -> Error {
    Error::new(
        Code::TrailingBytes,
        format!("{} after the end of the message", units(n as u64, "bytes")),
    )
}

/// `invalid_utf8`: "string is not valid utf-8".
#[cold]
#[inline(never)]
pub(crate) fn invalid_utf8() -> Error {
    Error::new(Code::InvalidUtf8, "string is not valid utf-8")
}

/// The spelling of a non-finite value in messages: `nan`, `infinity`, `-infinity`.
fn non_finite_name(x: f64) -> &'static str {
    if x.is_nan() {
        "nan"
    } else if x > 0.0 {
        "infinity"
    } else {
        "-infinity"
    }
}

/// `not_finite`: "expected a finite number, found {nan|infinity|-infinity}".
#[cold]
#[inline(never)]
pub(crate) fn not_finite(x: f64) -> Error {
    Error::new(
        Code::NotFinite,
        format!("expected a finite number, found {}", non_finite_name(x)),
    )
}

/// `not_finite`: "{value} overflows f32".
#[cold]
#[inline(never)]
pub(crate) fn f32_overflow(x: f64) -> Error {
    Error::new(Code::NotFinite, format!("{} overflows f32", float_text(x)))
}

/// `not_integral`: "{value} is not an integer".
#[cold]
#[inline(never)]
pub(crate) fn not_integral(x: f64) -> Error {
    Error::new(
        Code::NotIntegral,
        format!("{} is not an integer", float_text(x)),
    )
}

/// `out_of_range`: "{value} is outside {min}..={max}".
#[cold]
#[inline(never)]
pub(crate) fn out_of_range(value: impl Display, min: impl Display, max: impl Display) -> Error {
    Error::new(
        Code::OutOfRange,
        format!("{value} is outside {min}..={max}"),
    )
}

/// `too_long`: "{len} bytes, at most {max}".
#[cold]
#[inline(never)]
pub(crate) fn too_long(len: u32, max: u32) -> Error {
    Error::new(
        Code::TooLong,
        format!("{}, at most {max}", units(len.into(), "bytes")),
    )
}

/// `too_short`: "{len} bytes, at least {min}".
#[cold]
#[inline(never)]
pub(crate) fn too_short(len: u32, min: u32) -> Error {
    Error::new(
        Code::TooShort,
        format!("{}, at least {min}", units(len.into(), "bytes")),
    )
}

/// `too_deep`: "nesting deeper than {max_depth}".
#[cold]
#[inline(never)]
pub(crate) fn too_deep(max_depth: u32) -> Error {
    Error::new(Code::TooDeep, format!("nesting deeper than {max_depth}"))
}

/// `too_many_elements`: "more than {max_elements} elements".
#[cold]
#[inline(never)]
pub(crate) fn too_many_elements(max_elements: u32) -> Error {
    Error::new(
        Code::TooManyElements,
        format!("more than {max_elements} elements"),
    )
}

/// A float as message text: integral values below 2^64 as plain integers (`1764000000000`),
/// larger magnitudes in exponent form (`1e300`), others as the shortest round-trip decimal
/// (`2.5`, `-0.1`).
pub(crate) fn float_text(x: f64) -> String {
    if !x.is_finite() {
        non_finite_name(x).to_owned()
    } else if x.fract() == 0.0 && x.abs() < 18_446_744_073_709_551_616.0 {
        format!("{}", x as i128)
    } else if x.abs() >= 18_446_744_073_709_551_616.0 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}
