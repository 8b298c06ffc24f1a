//! Numbers: every int and float marker, under the policy of WIRE.md.
//!
//! The hot path reads ints without 128-bit arithmetic: a fixint is its own marker; the eight
//! wider int markers (`cc`..`d3`) share one branch-free read of the 8 bytes after the marker,
//! shifted down to the marker's width (arithmetic shift for the signed ones), whenever 8
//! bytes follow. Everything else (floats in int fields, the last bytes of the input, wrong
//! markers) goes through the exact general path, which decides codes and messages.

use super::super::fail;
use super::Reader;
use crate::error::Error;

/// A number as read, before the field's policy applies.
#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// An int as read on the fast path: its 64 bits and whether the marker was signed (the
/// value is `bits as i64`) or unsigned (`bits` as u64).
#[derive(Clone, Copy)]
struct RawInt {
    bits: u64,
    signed: bool,
}

impl<'a> Reader<'a> {
    /// Reads a signed int in `min..=max` from any int marker, or from a float holding an
    /// integral finite value.
    #[inline]
    pub fn read_i64(&mut self, min: i64, max: i64) -> Result<i64, Error> {
        match self.raw_int() {
            Some(RawInt { bits, signed }) => {
                let v = bits as i64;
                if (!signed && v < 0) || v < min || v > max {
                    return Err(int_out_of_range(bits, signed, min as i128, max as i128));
                }
                Ok(v)
            }
            None => self
                .read_integral("int", min as i128, max as i128)
                .map(|v| v as i64),
        }
    }

    /// Reads an int known to lie in `MIN..=MAX`, as [`read_i64`](Reader::read_i64) does
    /// (same values, same errors): what derived code calls for bounded int and quantized
    /// fields, whose bounds are constants.
    ///
    /// The fast path, inlined into the caller, takes a fixint and (unless the range fits a
    /// fixint) the int markers of 1, 2 and 4 bytes followed by at least 4 bytes, reading the
    /// 4 bytes after the marker at once and shifting them down to the marker's width. A range
    /// beyond 32 bits takes [`read_i64`](Reader::read_i64). Anything else (a value out of
    /// range, a wider marker, a float, the last bytes of the input, a wrong marker) leaves
    /// the cursor where it was and goes to [`read_i64`](Reader::read_i64) out of line, which
    /// decides the code and the message.
    #[inline]
    pub fn read_int_in<const MIN: i64, const MAX: i64>(&mut self) -> Result<i64, Error> {
        self.read_int_within(MIN, MAX)
    }

    /// [`read_int_in`](Reader::read_int_in) with the bounds as arguments: what derived code
    /// calls. Not generic, so a debug build compiles it once, not once per pair of bounds;
    /// an optimized build inlines it always (the bounds are constants at every call, and the
    /// code folds to what the const-generic version compiles to).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn read_int_within(&mut self, min: i64, max: i64) -> Result<i64, Error> {
        if min < i32::MIN as i64 || max > u32::MAX as i64 {
            return self.read_i64(min, max);
        }
        // The out-of-line path gets a copy of the unread bytes and returns what it consumed
        // packed with the value in registers, so the reader stays in registers across it.
        let (v, rest) = match int_fast(self.rest, min, max) {
            Some(x) => x,
            None => {
                let (v, used) = unpack(int_in_slow(self.rest, min, max)?, min);
                (v, self.rest.get(used..).unwrap_or_default())
            }
        };
        self.rest = rest;
        Ok(v)
    }

    /// Reads an unsigned int in `min..=max` from any int marker, or from a float holding an
    /// integral finite value.
    #[inline]
    pub fn read_u64(&mut self, min: u64, max: u64) -> Result<u64, Error> {
        match self.raw_int() {
            Some(RawInt { bits, signed }) => {
                if (signed && (bits as i64) < 0) || bits < min || bits > max {
                    return Err(int_out_of_range(bits, signed, min as i128, max as i128));
                }
                Ok(bits)
            }
            None => self
                .read_integral("int", min as i128, max as i128)
                .map(|v| v as u64),
        }
    }

    /// Reads a finite number from any int or float marker (float32 widened exactly; a uint64
    /// beyond 2^53 rounds to the nearest f64).
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64, Error> {
        let x = match self.rest {
            [0xcb, b @ ..] if b.len() >= 8 => {
                let x = f64::from_bits(self.be_at::<8>(1));
                self.bump(9);
                x
            }
            [0xca, b @ ..] if b.len() >= 4 => {
                let x = f64::from(f32::from_bits(self.be_at::<4>(1) as u32));
                self.bump(5);
                x
            }
            _ => match self.raw_int() {
                Some(RawInt { bits, signed: true }) => return Ok(bits as i64 as f64),
                Some(RawInt { bits, .. }) => return Ok(bits as f64),
                None => match self.read_num("number")? {
                    Num::Int(v) => v as f64,
                    Num::Float(x) => x,
                },
            },
        };
        if x.is_finite() {
            Ok(x)
        } else {
            Err(fail::not_finite(x))
        }
    }

    /// Reads a number as [`read_f64`](Reader::read_f64) does, then narrows it to f32; a value
    /// that overflows f32 is `not_finite`.
    #[inline]
    pub fn read_f32(&mut self) -> Result<f32, Error> {
        let x = self.read_f64()?;
        let y = x as f32;
        if y.is_finite() {
            Ok(y)
        } else {
            Err(fail::f32_overflow(x))
        }
    }

    // ---- internals -------------------------------------------------------------------

    /// The fast path of an int: a fixint, or a wider int marker followed by at least 8
    /// bytes. Consumes the int; `None` (consuming nothing) for anything else.
    #[inline(always)]
    fn raw_int(&mut self) -> Option<RawInt> {
        let b = *self.rest.first()?;
        if !(0x80..0xe0).contains(&b) {
            self.bump(1);
            return Some(RawInt {
                bits: b as i8 as i64 as u64,
                signed: b >= 0xe0,
            });
        }
        if !(0xcc..=0xd3).contains(&b) || self.rest.len() < 9 {
            return None;
        }
        // cc..cf: uint 8/16/32/64; d0..d3: int 8/16/32/64. Width 1 << (b & 3) bytes.
        let width = 1u32 << (b & 3);
        let shift = 64 - 8 * width;
        let raw = self.be_at::<8>(1);
        let signed = b >= 0xd0;
        let bits = if signed {
            ((raw as i64) >> shift) as u64
        } else {
            raw >> shift
        };
        self.bump(1 + width as usize);
        Some(RawInt { bits, signed })
    }

    /// The `N` bytes at `offset` from the cursor as a big-endian number; the caller has
    /// checked they are there (0 otherwise, never a panic).
    #[inline(always)]
    fn be_at<const N: usize>(&self, offset: usize) -> u64 {
        let mut a = [0u8; 8];
        if let Some(s) = self.rest.get(offset..offset + N) {
            a[8 - N..].copy_from_slice(s);
        }
        u64::from_be_bytes(a)
    }

    /// Reads any int or float marker.
    #[inline(never)]
    fn read_num(&mut self, expected: &str) -> Result<Num, Error> {
        let b = self.peek()?;
        if b < 0x80 {
            self.bump(1);
            return Ok(Num::Int(i128::from(b)));
        }
        if b >= 0xe0 {
            self.bump(1);
            return Ok(Num::Int(i128::from(b as i8)));
        }
        let num = match b {
            0xca..=0xd3 => {
                self.bump(1);
                match b {
                    0xcc => Num::Int(i128::from(self.be_u8()?)),
                    0xcd => Num::Int(i128::from(self.be_u16()?)),
                    0xce => Num::Int(i128::from(self.be_u32()?)),
                    0xcf => Num::Int(i128::from(self.be_u64()?)),
                    0xd0 => Num::Int(i128::from(self.be_u8()? as i8)),
                    0xd1 => Num::Int(i128::from(self.be_u16()? as i16)),
                    0xd2 => Num::Int(i128::from(self.be_u32()? as i32)),
                    0xd3 => Num::Int(i128::from(self.be_u64()? as i64)),
                    0xca => Num::Float(f64::from(f32::from_bits(self.be_u32()?))),
                    _ => Num::Float(f64::from_bits(self.be_u64()?)),
                }
            }
            _ => return Err(self.unexpected(expected, b)),
        };
        Ok(num)
    }

    /// Reads an int (or integral float) in `min..=max`: the general path, for everything
    /// [`raw_int`](Reader::raw_int) leaves.
    #[inline(never)]
    fn read_integral(&mut self, expected: &str, min: i128, max: i128) -> Result<i128, Error> {
        let v = match self.read_num(expected)? {
            Num::Int(v) => v,
            Num::Float(x) => {
                if !x.is_finite() {
                    return Err(fail::not_finite(x));
                }
                if x.fract() != 0.0 {
                    return Err(fail::not_integral(x));
                }
                if x.abs() >= TWO_POW_64 {
                    return Err(fail::out_of_range(fail::float_text(x), min, max));
                }
                x as i128
            }
        };
        if v < min || v > max {
            return Err(fail::out_of_range(v, min, max));
        }
        Ok(v)
    }
}

/// The fast path of [`Reader::read_int_in`] over the unread bytes: the value and the bytes
/// after it, or `None` (for the general path) when the value is not a fixint or an int of
/// 1, 2 or 4 bytes, or lies outside `min..=max`.
#[inline(always)]
fn int_fast(rest: &[u8], min: i64, max: i64) -> Option<(i64, &[u8])> {
    let (&b, tail) = rest.split_first()?;
    if !(0x80..0xe0).contains(&b) {
        let v = i64::from(b as i8);
        return (min..=max).contains(&v).then_some((v, tail));
    }
    if min >= -32 && max <= 127 {
        // Every value of the range is a fixint: a wider marker is legal but rare.
        return None;
    }
    // cc, cd, ce: uint 8/16/32; d0, d1, d2: int 8/16/32 (k & 3 is log2 of the width).
    let k = b.wrapping_sub(0xcc);
    if k >= 8 || k & 3 == 3 {
        return None;
    }
    let (&word, _) = tail.split_first_chunk::<4>()?;
    let word = u32::from_be_bytes(word);
    let width = 1usize << (k & 3);
    let shift = 32 - 8 * width as u32;
    let v = if k >= 4 {
        i64::from((word as i32) >> shift)
    } else {
        i64::from(word >> shift)
    };
    if !(min..=max).contains(&v) {
        return None;
    }
    tail.get(width..).map(|after| (v, after))
}

/// Bit position of the byte count in [`int_in_slow`]'s result, above `value - min` (below
/// 2^33 for a range within 32 bits).
const USED_SHIFT: u32 = 40;

/// Everything [`int_fast`] leaves, out of line: the general path of
/// [`read_i64`](Reader::read_i64) on a reader over the same bytes (numbers touch neither
/// the element budget nor the depth). Returns the bytes taken and `value - min` packed in
/// one word, so that the result comes back in registers.
#[cold]
#[inline(never)]
fn int_in_slow(rest: &[u8], min: i64, max: i64) -> Result<u64, Error> {
    // An int of 1 or 2 bytes among the last 4 of the input (a message's last field, often):
    // read exactly.
    if let Some((&b, tail)) = rest.split_first() {
        let k = b.wrapping_sub(0xcc);
        if k < 8 && k & 3 < 2 {
            let width = 1usize << (k & 3);
            if let Some(bytes) = tail.get(..width) {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(bytes);
                let word = u32::from_be_bytes(word);
                let shift = 32 - 8 * width as u32;
                let v = if k >= 4 {
                    i64::from((word as i32) >> shift)
                } else {
                    i64::from(word >> shift)
                };
                if (min..=max).contains(&v) {
                    return Ok(((1 + width as u64) << USED_SHIFT) | (v - min) as u64);
                }
            }
        }
    }
    let mut r = Reader::new(rest);
    let v = r.read_i64(min, max)?;
    let used = rest.len() - r.rest.len();
    Ok(((used as u64) << USED_SHIFT) | (v - min) as u64)
}

/// The value and the bytes taken, from [`int_in_slow`]'s packed result.
#[inline(always)]
fn unpack(packed: u64, min: i64) -> (i64, usize) {
    let v = (packed & ((1 << USED_SHIFT) - 1)) as i64 + min;
    (v, (packed >> USED_SHIFT) as usize)
}

/// `out_of_range` for a fast-path int, with the same text the general path writes.
#[cold]
#[inline(never)]
fn int_out_of_range(bits: u64, signed: bool, min: i128, max: i128) -> Error {
    let v = if signed {
        i128::from(bits as i64)
    } else {
        i128::from(bits)
    };
    fail::out_of_range(v, min, max)
}
