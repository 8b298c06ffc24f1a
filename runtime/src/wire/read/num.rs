//! Numbers: every int and float marker, under the policy of WIRE.md.

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

impl<'a> Reader<'a> {
    /// Reads a signed int in `min..=max` from any int marker, or from a float holding an
    /// integral finite value.
    #[inline]
    pub fn read_i64(&mut self, min: i64, max: i64) -> Result<i64, Error> {
        let v = self.read_integral("int", min as i128, max as i128)?;
        Ok(v as i64)
    }

    /// Reads an unsigned int in `min..=max` from any int marker, or from a float holding an
    /// integral finite value.
    #[inline]
    pub fn read_u64(&mut self, min: u64, max: u64) -> Result<u64, Error> {
        let v = self.read_integral("int", min as i128, max as i128)?;
        Ok(v as u64)
    }

    /// Reads a finite number from any int or float marker (float32 widened exactly; a uint64
    /// beyond 2^53 rounds to the nearest f64).
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64, Error> {
        let x = match self.read_num("number")? {
            Num::Int(v) => v as f64,
            Num::Float(x) => x,
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

    /// Reads any int or float marker.
    #[inline]
    fn read_num(&mut self, expected: &str) -> Result<Num, Error> {
        let b = self.peek()?;
        if b < 0x80 {
            self.pos += 1;
            return Ok(Num::Int(i128::from(b)));
        }
        if b >= 0xe0 {
            self.pos += 1;
            return Ok(Num::Int(i128::from(b as i8)));
        }
        let num = match b {
            0xca..=0xd3 => {
                self.pos += 1;
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

    /// Reads an int (or integral float) in `min..=max`.
    #[inline]
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
