//! The slice writer: the same encodings as [`write`](mod@super::write), written at a position of
//! a pre-sized byte slice and returning the position after the value.
//!
//! A record whose compact encoding has a largest size (`Wire::MAX_SIZE`) is encoded through
//! here: [`bounded`] grows the output once by that size plus [`SLACK`], the derived code
//! writes every value at a cursor held in a register (no per-value capacity check or length
//! update in memory, as appending to a `Vec` needs), and the output is cut back to the bytes
//! written. Every function writes a fixed number of bytes (an int always 9: its marker and 8
//! big-endian bytes, of which only the first `1 + width` count), so the slice needs
//! [`SLACK`] bytes beyond the largest encoding; the next value overwrites the rest.
//!
//! Indexing is checked: a slice too short for a write is a bug in a `MAX_SIZE` and panics
//! rather than writing out of bounds. The tests compare every boundary with [`write`](mod@super::write)
//! (`runtime/tests/writer.rs`).

use super::write;
use crate::error::Error;

/// Bytes past the largest encoding that a fixed-size write may touch.
pub const SLACK: usize = 8;

/// Encodes through the slice writer: grows `out` by `max + SLACK` bytes, runs `encode` from
/// the old end, then cuts `out` back to the bytes written (on an error, to its old length).
#[inline]
pub fn bounded(
    out: &mut Vec<u8>,
    max: usize,
    encode: impl FnOnce(&mut [u8], usize) -> Result<usize, Error>,
) -> Result<(), Error> {
    let start = out.len();
    out.resize(start + max + SLACK, 0);
    match encode(out, start) {
        Ok(end) => {
            out.truncate(end);
            Ok(())
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// The part of `buf` a record of at most `max` bytes writes at `p`: `max` plus [`SLACK`]
/// bytes from `p` (the rest of `buf` when `max` is `None`). What a bounded record's derived
/// encoder writes into, from position 0: one bounds check for the record, and a slice of
/// constant length, against which the compiler proves most of the record's writes in
/// bounds (every value's length is bounded) and drops their checks.
#[inline(always)]
pub fn record(buf: &mut [u8], p: usize, max: Option<usize>) -> &mut [u8] {
    let end = match max {
        Some(max) => p + max + SLACK,
        None => buf.len(),
    };
    let len = buf.len();
    match buf.get_mut(p..end) {
        Some(rec) => rec,
        None => short(len, end),
    }
}

/// Writes `bytes` at `p` (all `N` of them) and returns `p + n`.
#[inline(always)]
fn put<const N: usize>(buf: &mut [u8], p: usize, bytes: [u8; N], n: usize) -> usize {
    match buf.get_mut(p..p + N) {
        Some(dst) => dst.copy_from_slice(&bytes),
        None => short(buf.len(), p + N),
    }
    p + n
}

#[cold]
#[inline(never)]
fn short(len: usize, need: usize) -> ! {
    panic!("tuplet: slice writer needs {need} bytes, has {len} (a MAX_SIZE is wrong)")
}

/// Writes one byte (nil, a bool, a fixint, a fix header) at `p`.
#[inline(always)]
pub fn byte(buf: &mut [u8], p: usize, b: u8) -> usize {
    put(buf, p, [b], 1)
}

/// Writes nil.
#[inline(always)]
pub fn nil(buf: &mut [u8], p: usize) -> usize {
    byte(buf, p, 0xc0)
}

/// Writes a bool.
#[inline(always)]
pub fn bool(buf: &mut [u8], p: usize, v: bool) -> usize {
    byte(buf, p, 0xc2 | v as u8)
}

/// Writes an int known to lie in `-32..=127`: a fixint, one byte.
#[inline(always)]
pub fn fixint(buf: &mut [u8], p: usize, v: i64) -> usize {
    byte(buf, p, v as u8)
}

/// Writes a signed int in its smallest encoding, as [`write::int`]. Branch-free: the marker,
/// the width and the fixint case are selected, not branched on.
#[inline(always)]
pub fn int(buf: &mut [u8], p: usize, v: i64) -> usize {
    let bits = v as u64;
    let neg = v < 0;
    // Significant bits: of the value (non-negative), or of its complement plus the sign bit.
    let magnitude = if neg { !bits } else { bits };
    let significant = 64 - magnitude.leading_zeros() + neg as u32;
    let base = if neg { 0xd0 } else { 0xcc };
    wide(buf, p, bits, base, significant, bits.wrapping_add(32) < 160)
}

/// Writes an int known to lie in `MIN..=MAX` in its smallest encoding, as [`int`]: what
/// derived code calls for an int or quantized field, whose bounds are constants.
///
/// Each encoding of a value within 32 bits covers one contiguous range: a fixint
/// `-32..=127`, one byte `-128..=255` (int8 below zero, uint8 above), two bytes
/// `-32768..=65535`, four bytes the rest of `i32::MIN..=u32::MAX`; the marker family is
/// `cc` (uint) for a value of zero or more and `d0` (int) below. A range within the fixints
/// is one byte; one spanning three or four encodings takes `int32`'s table; one spanning
/// two (a fixint or one byte) is picked by one subtraction and comparison, by conditional
/// moves. The marker and the body go out as one 8-byte store. A range reaching beyond 32
/// bits takes [`int`].
#[inline(always)]
pub fn int_in<const MIN: i64, const MAX: i64>(buf: &mut [u8], p: usize, v: i64) -> usize {
    int_within(buf, p, v, MIN, MAX)
}

/// [`int_in`] with the bounds as arguments: what derived code calls. Not generic, so a
/// debug build compiles it once, not once per pair of bounds; an optimized build inlines it
/// always (the bounds are constants at every call, and the code folds to what the
/// const-generic version compiles to).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn int_within(buf: &mut [u8], p: usize, v: i64, min: i64, max: i64) -> usize {
    if min >= -32 && max <= 127 {
        return fixint(buf, p, v);
    }
    if min < i32::MIN as i64 || max > u32::MAX as i64 {
        return int(buf, p, v);
    }
    if max > 0xff || min < -0x80 {
        return int32(buf, p, v, min < 0);
    }
    // uint8 (`cc`), or int8 (`d0`) below zero.
    let family = if min < 0 {
        0xcc + 4 * (v < 0) as u64
    } else {
        0xcc
    };
    let bits = v as u64;
    let w8 = family | ((bits & 0xff) << 8);
    let (word, n) = pick(within(v, -32, 127), (bits & 0xff, 1), (w8, 2));
    put(buf, p, word.to_le_bytes(), n)
}

/// Writes an int within `i32::MIN..=u32::MAX` (`0..=u32::MAX` unless `signed`) in its
/// smallest encoding, by table: what [`int_in`] takes for a range spanning three or four
/// encodings (there the chain of range tests costs more than the lookup).
///
/// Within 32 bits the encoding depends only on the sign and on the index of the highest set
/// bit of the magnitude (`v` for a value of zero or more, `!v` below zero): 64 classes,
/// each giving the marker, the length and how far to shift the value's four big-endian
/// bytes to keep its low `width` bytes (a fixint keeps none: its marker is the value's own
/// low byte, `FIX`). One lookup replaces the range tests and the conditional moves.
#[inline(always)]
fn int32(buf: &mut [u8], p: usize, v: i64, signed: bool) -> usize {
    let sign = if signed { v >> 63 } else { 0 };
    // 31 minus the highest set bit of the magnitude (which fits 32 bits: `!v` of a negative
    // `i32`, or a `u32`).
    let lz = ((v ^ sign) as u32 | 1).leading_zeros() as usize;
    let class = lz | (sign as usize & 32);
    let be = u64::from((v as u32).swap_bytes());
    let word = (v as u64 & u64::from(CLASSES.fix[class]))
        | u64::from(CLASSES.marker[class])
        | ((be >> CLASSES.shift[class]) << 8);
    // At most 5 (`& 7` tells the compiler so, and the record's later writes keep their
    // bounds proven).
    put(
        buf,
        p,
        word.to_le_bytes(),
        usize::from(CLASSES.len[class]) & 7,
    )
}

/// [`int32`]'s table, by class: 31 minus the highest set bit of the magnitude, plus 32
/// below zero.
struct Classes {
    marker: [u8; 64],
    fix: [u8; 64],
    shift: [u8; 64],
    len: [u8; 64],
}

static CLASSES: Classes = classes();

const fn classes() -> Classes {
    let mut t = Classes {
        marker: [0; 64],
        fix: [0; 64],
        shift: [0; 64],
        len: [0; 64],
    };
    let mut class = 0;
    while class < 64 {
        let (top, neg) = (31 - (class & 31), class >= 32);
        // The magnitude is below 2^(top + 1): a fixint up to 127 (or down to -32, magnitude
        // 31), one byte up to 255 (down to -128, magnitude 127), two up to 65535 (down to
        // -32768), four beyond.
        let (fix, one, two) = if neg { (4, 6, 14) } else { (6, 7, 15) };
        let family = if neg { 0xd0 } else { 0xcc };
        if top <= fix {
            t.fix[class] = 0xff;
            t.shift[class] = 32;
            t.len[class] = 1;
        } else {
            let log = if top <= one {
                0
            } else if top <= two {
                1
            } else {
                2
            };
            t.marker[class] = family + log;
            t.shift[class] = 8 * (4 - (1 << log));
            t.len[class] = 1 + (1 << log);
        }
        class += 1;
    }
    t
}

/// Whether `lo <= v <= hi`, as one subtraction and one unsigned comparison.
#[inline(always)]
fn within(v: i64, lo: i64, hi: i64) -> bool {
    (v.wrapping_sub(lo) as u64) <= (hi - lo) as u64
}

/// `a` if `c`, else `b`, by masking: data-dependent widths are a coin toss for the branch
/// predictor, so the choice is made without a branch.
#[inline(always)]
fn pick(c: bool, a: (u64, usize), b: (u64, usize)) -> (u64, usize) {
    let m = (c as u64).wrapping_neg();
    let word = (a.0 & m) | (b.0 & !m);
    let n = (a.1 & m as usize) | (b.1 & !m as usize);
    (word, n)
}

/// Writes an unsigned int in its smallest encoding, as [`write::uint`].
#[inline(always)]
pub fn uint(buf: &mut [u8], p: usize, v: u64) -> usize {
    wide(buf, p, v, 0xcc, 64 - v.leading_zeros(), v < 0x80)
}

/// The 9-byte write of an int: `fix` picks the fixint byte, otherwise marker `base +
/// log2(width)` and the low `width` bytes of `bits` big-endian, the smallest of 1, 2, 4, 8
/// bytes holding `significant` bits.
#[inline(always)]
fn wide(buf: &mut [u8], p: usize, bits: u64, base: u8, significant: u32, fix: bool) -> usize {
    let log = write::width_log(significant);
    let width = 1usize << log;
    let body = (bits << (64 - 8 * width)).to_be_bytes();
    let mut head = [0u8; 9];
    head[0] = if fix { bits as u8 } else { base + log };
    head[1..].copy_from_slice(&body);
    put(buf, p, head, if fix { 1 } else { 1 + width })
}

/// Writes a float32 (`ca`).
#[inline(always)]
pub fn f32(buf: &mut [u8], p: usize, v: f32) -> usize {
    let b = v.to_bits().to_be_bytes();
    put(buf, p, [0xca, b[0], b[1], b[2], b[3]], 5)
}

/// Writes a float64 (`cb`).
#[inline(always)]
pub fn f64(buf: &mut [u8], p: usize, v: f64) -> usize {
    let mut head = [0xcb; 9];
    head[1..].copy_from_slice(&v.to_be_bytes());
    put(buf, p, head, 9)
}

/// Writes a str header and its bytes, as [`write::str`].
#[inline]
pub fn str(buf: &mut [u8], p: usize, v: &str) -> usize {
    let p = header(buf, p, &write::str_header(v.len()));
    bytes(buf, p, v.as_bytes())
}

/// Writes a bin header and its bytes, as [`write::bin`].
#[inline]
pub fn bin(buf: &mut [u8], p: usize, v: &[u8]) -> usize {
    let p = header(buf, p, &write::bin_header(v.len()));
    bytes(buf, p, v)
}

/// Writes an array header, as [`write::array_len`].
#[inline(always)]
pub fn array_len(buf: &mut [u8], p: usize, len: u32) -> usize {
    if len < 16 {
        byte(buf, p, 0x90 | len as u8)
    } else {
        header(buf, p, &write::wide_header([0xdc, 0xdd], len))
    }
}

/// Writes a map header, as [`write::map_len`].
#[inline(always)]
pub fn map_len(buf: &mut [u8], p: usize, len: u32) -> usize {
    if len < 16 {
        byte(buf, p, 0x80 | len as u8)
    } else {
        header(buf, p, &write::wide_header([0xde, 0xdf], len))
    }
}

/// A header of up to 5 bytes, `(bytes, length)`.
#[inline(always)]
fn header(buf: &mut [u8], p: usize, &(h, n): &([u8; 5], usize)) -> usize {
    put(buf, p, h, n)
}

/// Writes `bytes` as they are (a length only known at run time).
#[inline(always)]
pub fn bytes(buf: &mut [u8], p: usize, bytes: &[u8]) -> usize {
    match buf.get_mut(p..p + bytes.len()) {
        Some(dst) => dst.copy_from_slice(bytes),
        None => short(buf.len(), p + bytes.len()),
    }
    p + bytes.len()
}
