//! Skipping one value of any kind, iteratively, within the reader's caps.

use super::super::fail;
use super::Reader;
use crate::error::Error;

/// Levels kept inline: the default depth cap, so that skipping allocates nothing unless a
/// caller raises the cap.
const INLINE_LEVELS: usize = 64;

/// Values still to skip in each enclosing container, innermost last: up to
/// `INLINE_LEVELS` inline, deeper ones spilled to a `Vec` (which allocates only past that
/// depth).
struct Pending {
    inline: [u64; INLINE_LEVELS],
    len: usize,
    spill: Vec<u64>,
}

impl Pending {
    #[inline]
    fn new() -> Pending {
        Pending {
            inline: [0; INLINE_LEVELS],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, left: u64) {
        match self.inline.get_mut(self.len) {
            Some(slot) => {
                *slot = left;
                self.len += 1;
            }
            None => self.spill.push(left),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u64> {
        if let Some(v) = self.spill.pop() {
            return Some(v);
        }
        self.len = self.len.checked_sub(1)?;
        self.inline.get(self.len).copied()
    }
}

impl<'a> Reader<'a> {
    /// Skips exactly one value of any kind (nested containers and every ext included),
    /// without recursion. Nested containers count toward the depth cap and their elements
    /// toward the element budget; strings are not UTF-8 checked. `reserved_marker` on
    /// `0xc1`, `truncated` when the input ends inside the value.
    pub fn skip_value(&mut self) -> Result<(), Error> {
        let base = self.depth;
        let result = self.skip_inner();
        self.depth = base;
        result
    }

    fn skip_inner(&mut self) -> Result<(), Error> {
        let mut pending = Pending::new();
        // Values left in the innermost open container (or the one value asked for).
        let mut left: u64 = 1;
        loop {
            match self.skip_one()? {
                Some(n) if n > 0 => {
                    pending.push(left - 1);
                    left = n;
                    continue;
                }
                Some(_) => {
                    self.leave();
                    left -= 1;
                }
                None => left -= 1,
            }
            while left == 0 {
                match pending.pop() {
                    Some(outer) => {
                        self.leave();
                        left = outer;
                    }
                    None => return Ok(()),
                }
            }
        }
    }

    /// Consumes one scalar (`None`) or one container header, entering it and returning how
    /// many values it holds (map entries count twice).
    #[inline]
    fn skip_one(&mut self) -> Result<Option<u64>, Error> {
        let b = self.peek()?;
        self.bump(1);
        let body: usize = match b {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => 0,
            0xc1 => return Err(fail::reserved()),
            0x90..=0x9f => return self.enter_skip(u64::from(b & 0x0f), false),
            0x80..=0x8f => return self.enter_skip(u64::from(b & 0x0f), true),
            0xdc => {
                let n = u64::from(self.be_u16()?);
                return self.enter_skip(n, false);
            }
            0xdd => {
                let n = u64::from(self.be_u32()?);
                return self.enter_skip(n, false);
            }
            0xde => {
                let n = u64::from(self.be_u16()?);
                return self.enter_skip(n, true);
            }
            0xdf => {
                let n = u64::from(self.be_u32()?);
                return self.enter_skip(n, true);
            }
            0xa0..=0xbf => usize::from(b & 0x1f),
            0xd9 | 0xc4 => usize::from(self.be_u8()?),
            0xda | 0xc5 => usize::from(self.be_u16()?),
            0xdb | 0xc6 => self.be_u32()? as usize,
            0xcc | 0xd0 => 1,
            0xcd | 0xd1 => 2,
            0xce | 0xd2 | 0xca => 4,
            0xcf | 0xd3 | 0xcb => 8,
            // fixext 1, 2, 4, 8, 16: a type byte and the data.
            0xd4 => 2,
            0xd5 => 3,
            0xd6 => 5,
            0xd7 => 9,
            0xd8 => 17,
            // ext 8, 16, 32: the length, then a type byte and the data.
            0xc7 => usize::from(self.be_u8()?) + 1,
            0xc8 => usize::from(self.be_u16()?) + 1,
            0xc9 => (self.be_u32()? as usize).saturating_add(1),
        };
        self.take(body)?;
        Ok(None)
    }

    #[inline]
    fn enter_skip(&mut self, n: u64, map: bool) -> Result<Option<u64>, Error> {
        if map {
            self.enter(n * 2, "entries")?;
            Ok(Some(n * 2))
        } else {
            self.enter(n, "elements")?;
            Ok(Some(n))
        }
    }
}
