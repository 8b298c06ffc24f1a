//! Hand-written msgpack codecs for the three datasets: what an engineer would write for
//! these structs with tuplet's quantization, as fast as safe Rust gets (output sized once
//! per message and written at a slice cursor, one fixed-size write per value, rounding
//! without libm). Two flavours:
//!
//! - `fast`: checks nothing it does not need to stay memory-safe (markers of the expected
//!   family, truncation, UTF-8);
//! - `checked`: also checks every range, length and count, in both directions (no paths, no
//!   messages: one unit error), the practical limit a validating codec is held to.
//!
//! Both write tuplet's compact bytes exactly; `main` asserts it.

use crate::{BirdS, BirdsS, EntityS, MoveS, SnapshotS};

/// Any problem; the hand codecs do not say which.
#[derive(Debug)]
pub struct Bad;

type Res<T> = Result<T, Bad>;

// ---- writing -----------------------------------------------------------------------------

#[inline(always)]
fn round(y: f64) -> i64 {
    // Half away from zero, exact for |y| < 2^51: adding the largest f64 below 0.5 (with
    // y's sign) carries a tie over and nothing below it; the truncating `as` does the rest.
    (y + 0.499_999_999_999_999_94f64.copysign(y)) as i64
}

/// A slice cursor over output sized once per message (the writer tuplet's derive uses too):
/// no capacity check or length update in memory per value, only the slice's bounds check.
pub struct Out<'a> {
    b: &'a mut [u8],
    p: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn push(&mut self, x: u8) {
        self.b[self.p] = x;
        self.p += 1;
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, x: &[u8]) {
        self.b[self.p..self.p + x.len()].copy_from_slice(x);
        self.p += x.len();
    }
}

/// Runs `f` on `max` (plus 8 of slack) zeroed bytes appended to `out`, then cuts `out` to
/// what `f` wrote (on an error, to its old length).
#[inline(always)]
fn sized<R>(out: &mut Vec<u8>, max: usize, f: impl FnOnce(&mut Out) -> Res<R>) -> Res<R> {
    let start = out.len();
    out.resize(start + max + 8, 0);
    let mut o = Out {
        b: &mut out[start..],
        p: 0,
    };
    let r = f(&mut o);
    let end = if r.is_ok() { start + o.p } else { start };
    out.truncate(end);
    r
}

/// The most bytes one move, bird or entity takes.
const MOVE_MAX: usize = 1 + 10 + 1 + 3 * 5 + 3 + 9 + 5;
const BIRD_MAX: usize = 1 + 3 + 1 + 3 * 5 + 3 + 3 + 1 + 3 + 2;
const ENTITY_MAX: usize = 1 + 5 + 1 + 1 + 3 * 5 + 3 + 3 + 2 + 10 + 25;

#[inline(always)]
fn put9(out: &mut Out, b: [u8; 9], n: usize) {
    out.b[out.p..out.p + 9].copy_from_slice(&b);
    out.p += n;
}

/// Within 32 bits (`i32::MIN..=u32::MAX`, every int of these structs but the move's `t`),
/// the encoding depends only on the sign and the highest set bit of the magnitude: one
/// lookup in a 64-entry table of (marker, length, shift of the big-endian body), the same
/// trick as tuplet's runtime.
#[inline(always)]
fn int(out: &mut Out, v: i64) {
    if (i32::MIN as i64..=u32::MAX as i64).contains(&v) {
        let sign = v >> 63;
        let class = ((v ^ sign) as u32 | 1).leading_zeros() as usize | (sign as usize & 32);
        let (marker, n, shift, fix) = INT32[class];
        let fix = v as u64 & u64::from(fix);
        let be = u64::from((v as u32).swap_bytes());
        let word = fix | u64::from(marker) | ((be >> shift) << 8);
        out.b[out.p..out.p + 8].copy_from_slice(&word.to_le_bytes());
        out.p += usize::from(n);
        return;
    }
    int64(out, v);
}

/// (marker, length, body shift, fixint mask) by `class`: 31 minus the highest set bit of the magnitude
/// (`v`, or `!v` below zero), plus 32 below zero. A fixint's marker is the value itself.
static INT32: [(u8, u8, u8, u8); 64] = {
    let mut t = [(0u8, 1u8, 32u8, 0xffu8); 64];
    let mut class = 0;
    while class < 64 {
        let (top, neg) = (31 - (class & 31), class >= 32);
        let (fix, one, two) = if neg { (4, 6, 14) } else { (6, 7, 15) };
        let family = if neg { 0xd0 } else { 0xcc };
        if top > fix {
            let log = if top <= one {
                0
            } else if top <= two {
                1
            } else {
                2
            };
            t[class] = (family + log, 1 + (1 << log), 8 * (4 - (1 << log)), 0);
        }
        class += 1;
    }
    t
};

/// Any int, in its smallest encoding.
#[inline(always)]
fn int64(out: &mut Out, v: i64) {
    if (-32..128).contains(&v) {
        out.push(v as u8);
        return;
    }
    let (base, bits) = if v >= 0 {
        (0xcc, 64 - v.leading_zeros())
    } else {
        (0xd0, 65 - (!v).leading_zeros())
    };
    let log = [0u8, 0, 1, 2, 2, 3, 3, 3, 3][(bits.div_ceil(8) as usize).min(8)];
    let width = 1usize << log;
    let body = ((v as u64) << (64 - 8 * width)).to_be_bytes();
    let mut b = [base + log; 9];
    b[1..].copy_from_slice(&body);
    put9(out, b, 1 + width);
}

#[inline(always)]
fn str(out: &mut Out, s: &str) {
    // Every string of these structs is shorter than 32 bytes: a fixstr.
    out.push(0xa0 | s.len() as u8);
    out.extend_from_slice(s.as_bytes());
}

#[inline(always)]
fn q(x: f32, scale: f64) -> i64 {
    round(f64::from(x) * scale)
}

#[inline(always)]
fn q_in(x: f32, scale: f64, min: i64, max: i64) -> Res<i64> {
    let y = f64::from(x) * scale;
    // The range checked before rounding: `round(y)` is within `min..=max` exactly when `y`
    // is within the bounds' rounding edges (a tie at an edge rounds away from zero); NaN
    // fails both comparisons.
    let (lo, hi) = (min as f64 - 0.5, max as f64 + 0.5);
    let above = if min > 0 { y >= lo } else { y > lo };
    let below = if max < 0 { y <= hi } else { y < hi };
    if !(above && below) {
        return Err(Bad);
    }
    Ok(round(y))
}

#[inline(always)]
fn int_in(v: i64, min: i64, max: i64) -> Res<i64> {
    if v < min || v > max {
        return Err(Bad);
    }
    Ok(v)
}

#[inline(always)]
fn len_in(s: &str, min: usize, max: usize) -> Res<()> {
    if s.len() < min || s.len() > max {
        return Err(Bad);
    }
    Ok(())
}

/// The move, no checks.
pub fn encode_move(m: &MoveS, out: &mut Vec<u8>) {
    let _ = sized(out, MOVE_MAX, |out| {
        out.push(0x90 | if m.seq.is_some() { 5 } else { 4 });
        str(out, &m.s);
        out.push(0x93);
        for x in m.p {
            int(out, q(x, 100.0));
        }
        int(out, q(m.r, 1000.0));
        int(out, m.t as i64);
        if let Some(seq) = m.seq {
            int(out, i64::from(seq));
        }
        Ok(())
    });
}

/// The move, every range checked.
pub fn encode_move_checked(m: &MoveS, out: &mut Vec<u8>) -> Res<()> {
    len_in(&m.s, 9, 9)?;
    sized(out, MOVE_MAX, |out| {
        out.push(0x90 | if m.seq.is_some() { 5 } else { 4 });
        str(out, &m.s);
        out.push(0x93);
        for x in m.p {
            int(out, q_in(x, 100.0, -500_000, 500_000)?);
        }
        int(out, q_in(m.r, 1000.0, -3142, 3142)?);
        int(out, int_in(m.t as i64, 0, (1 << 53) - 1)?);
        if let Some(seq) = m.seq {
            int(out, i64::from(seq));
        }
        Ok(())
    })
}

#[inline(always)]
fn bird(b: &BirdS, out: &mut Out) {
    out.push(0x9a);
    int(out, i64::from(b.id));
    int(out, i64::from(b.species));
    int(out, q(b.x, 100.0));
    int(out, q(b.y, 100.0));
    int(out, q(b.z, 100.0));
    int(out, q(b.yaw, 1000.0));
    int(out, q(b.pitch, 1000.0));
    int(out, i64::from(b.state));
    int(out, q(b.flap, 1000.0));
    int(out, q(b.scale, 100.0));
}

#[inline(always)]
fn bird_checked(b: &BirdS, out: &mut Out) -> Res<()> {
    out.push(0x9a);
    int(out, i64::from(b.id));
    // Checked small ranges are positive fixints: one byte.
    out.push(int_in(i64::from(b.species), 0, 15)? as u8);
    int(out, q_in(b.x, 100.0, -500_000, 500_000)?);
    int(out, q_in(b.y, 100.0, -10_000, 100_000)?);
    int(out, q_in(b.z, 100.0, -500_000, 500_000)?);
    int(out, q_in(b.yaw, 1000.0, -3142, 3142)?);
    int(out, q_in(b.pitch, 1000.0, -1571, 1571)?);
    out.push(int_in(i64::from(b.state), 0, 7)? as u8);
    int(out, q_in(b.flap, 1000.0, 0, 1000)?);
    int(out, q_in(b.scale, 100.0, 50, 200)?);
    Ok(())
}

fn array_header(out: &mut Out, n: usize) {
    if n < 16 {
        out.push(0x90 | n as u8);
    } else {
        out.extend_from_slice(&[0xdc, (n >> 8) as u8, n as u8]);
    }
}

/// The bird stream, no checks.
pub fn encode_birds(b: &BirdsS, out: &mut Vec<u8>) {
    let _ = sized(out, 1 + 3 + b.birds.len() * BIRD_MAX, |out| {
        out.push(0x91);
        array_header(out, b.birds.len());
        for x in &b.birds {
            bird(x, out);
        }
        Ok(())
    });
}

/// The bird stream, every range checked.
pub fn encode_birds_checked(b: &BirdsS, out: &mut Vec<u8>) -> Res<()> {
    if b.birds.len() > 80 {
        return Err(Bad);
    }
    sized(out, 1 + 3 + b.birds.len() * BIRD_MAX, |out| {
        out.push(0x91);
        array_header(out, b.birds.len());
        for x in &b.birds {
            bird_checked(x, out)?;
        }
        Ok(())
    })
}

fn entity_len(e: &EntityS) -> u8 {
    if e.label.is_some() {
        8
    } else if e.owner.is_some() {
        7
    } else {
        6
    }
}

fn opt_str(out: &mut Out, s: &Option<String>) {
    match s {
        Some(s) => str(out, s),
        None => out.push(0xc0),
    }
}

#[inline(always)]
fn entity(e: &EntityS, out: &mut Out) {
    let n = entity_len(e);
    out.push(0x90 | n);
    int(out, i64::from(e.id));
    int(out, i64::from(e.kind));
    out.push(0x93);
    for x in e.pos {
        int(out, q(x, 100.0));
    }
    int(out, q(e.heading, 1000.0));
    int(out, q(e.speed, 64.0));
    int(out, i64::from(e.anim));
    if n > 6 {
        opt_str(out, &e.owner);
    }
    if n > 7 {
        opt_str(out, &e.label);
    }
}

#[inline(always)]
fn entity_checked(e: &EntityS, out: &mut Out) -> Res<()> {
    let n = entity_len(e);
    out.push(0x90 | n);
    int(out, i64::from(e.id));
    out.push(int_in(i64::from(e.kind), 0, 31)? as u8);
    out.push(0x93);
    for x in e.pos {
        int(out, q_in(x, 100.0, -500_000, 500_000)?);
    }
    int(out, q_in(e.heading, 1000.0, -3142, 3142)?);
    int(out, q_in(e.speed, 64.0, 0, 3840)?);
    int(out, i64::from(e.anim));
    if let Some(s) = &e.owner {
        len_in(s, 9, 9)?;
    }
    if let Some(s) = &e.label {
        len_in(s, 0, 24)?;
    }
    if n > 6 {
        opt_str(out, &e.owner);
    }
    if n > 7 {
        opt_str(out, &e.label);
    }
    Ok(())
}

/// The snapshot, no checks.
pub fn encode_snapshot(s: &SnapshotS, out: &mut Vec<u8>) {
    let _ = sized(out, 1 + 5 + 3 + s.entities.len() * ENTITY_MAX, |out| {
        out.push(0x92);
        int(out, i64::from(s.tick));
        array_header(out, s.entities.len());
        for e in &s.entities {
            entity(e, out);
        }
        Ok(())
    });
}

/// The snapshot, every range checked.
pub fn encode_snapshot_checked(s: &SnapshotS, out: &mut Vec<u8>) -> Res<()> {
    if s.entities.len() > 50 {
        return Err(Bad);
    }
    sized(out, 1 + 5 + 3 + s.entities.len() * ENTITY_MAX, |out| {
        out.push(0x92);
        int(out, i64::from(s.tick));
        array_header(out, s.entities.len());
        for e in &s.entities {
            entity_checked(e, out)?;
        }
        Ok(())
    })
}

// ---- reading -----------------------------------------------------------------------------

/// A slice cursor.
pub struct In<'a> {
    b: &'a [u8],
}

impl<'a> In<'a> {
    fn new(b: &'a [u8]) -> Self {
        In { b }
    }

    #[inline(always)]
    fn byte(&mut self) -> Res<u8> {
        let (&x, rest) = self.b.split_first().ok_or(Bad)?;
        self.b = rest;
        Ok(x)
    }

    /// Any int marker, as i64 (a uint64 above i64::MAX is an error).
    #[inline(always)]
    fn int(&mut self) -> Res<i64> {
        let m = self.byte()?;
        if !(0x80..0xe0).contains(&m) {
            return Ok(i64::from(m as i8));
        }
        if !(0xcc..=0xd3).contains(&m) {
            return Err(Bad);
        }
        // cc..cf uint, d0..d3 int, of 1 << (m & 3) bytes: one 8-byte read shifted down
        // (arithmetic shift for the signed family) when 8 bytes follow.
        let width = 1usize << (m & 3);
        let shift = 64 - 8 * width as u32;
        let raw = match self.b.first_chunk::<8>() {
            Some(a) => u64::from_be_bytes(*a),
            None => {
                let bytes = self.b.get(..width).ok_or(Bad)?;
                let mut a = [0u8; 8];
                for (i, x) in bytes.iter().enumerate() {
                    a[i] = *x;
                }
                u64::from_be_bytes(a)
            }
        };
        self.b = self.b.get(width..).ok_or(Bad)?;
        if m >= 0xd0 {
            Ok((raw as i64) >> shift)
        } else if (raw >> shift) > i64::MAX as u64 {
            Err(Bad)
        } else {
            Ok((raw >> shift) as i64)
        }
    }

    #[inline(always)]
    fn int_in(&mut self, min: i64, max: i64) -> Res<i64> {
        let v = self.int()?;
        if v < min || v > max {
            return Err(Bad);
        }
        Ok(v)
    }

    /// An array header (fixarray or array16).
    #[inline(always)]
    fn array(&mut self) -> Res<usize> {
        match self.byte()? {
            m @ 0x90..=0x9f => Ok(usize::from(m & 0x0f)),
            0xdc => {
                let hi = self.byte()?;
                let lo = self.byte()?;
                Ok(usize::from(hi) << 8 | usize::from(lo))
            }
            _ => Err(Bad),
        }
    }

    /// A fixstr or str8.
    #[inline(always)]
    fn str(&mut self) -> Res<&'a str> {
        let len = match self.byte()? {
            m @ 0xa0..=0xbf => usize::from(m & 0x1f),
            0xd9 => usize::from(self.byte()?),
            _ => return Err(Bad),
        };
        let bytes = self.b.get(..len).ok_or(Bad)?;
        self.b = &self.b[len..];
        std::str::from_utf8(bytes).map_err(|_| Bad)
    }

    #[inline(always)]
    fn str_len(&mut self, min: usize, max: usize) -> Res<&'a str> {
        let s = self.str()?;
        if s.len() < min || s.len() > max {
            return Err(Bad);
        }
        Ok(s)
    }

    #[inline(always)]
    fn opt_str(&mut self, present: bool, min: usize, max: usize) -> Res<Option<String>> {
        if !present {
            return Ok(None);
        }
        if self.b.first() == Some(&0xc0) {
            self.b = &self.b[1..];
            return Ok(None);
        }
        Ok(Some(self.str_len(min, max)?.to_owned()))
    }

    fn end(&self) -> Res<()> {
        if self.b.is_empty() {
            Ok(())
        } else {
            Err(Bad)
        }
    }
}

#[inline(always)]
fn deq(q: i64, inv: f64) -> f32 {
    (q as f64 * inv) as f32
}

/// The move, no checks.
pub fn decode_move(b: &[u8]) -> Res<MoveS> {
    let mut r = In::new(b);
    let n = r.array()?;
    let s = r.str()?.to_owned();
    r.array()?;
    let p = [
        deq(r.int()?, 0.01),
        deq(r.int()?, 0.01),
        deq(r.int()?, 0.01),
    ];
    let rr = deq(r.int()?, 0.001);
    let t = r.int()? as u64;
    let seq = if n > 4 { Some(r.int()? as u32) } else { None };
    Ok(MoveS {
        s,
        p,
        r: rr,
        t,
        seq,
    })
}

/// The move, every range, length and count checked.
pub fn decode_move_checked(b: &[u8]) -> Res<MoveS> {
    let mut r = In::new(b);
    let n = r.array()?;
    if !(4..=5).contains(&n) {
        return Err(Bad);
    }
    let s = r.str_len(9, 9)?.to_owned();
    if r.array()? != 3 {
        return Err(Bad);
    }
    let p = [
        deq(r.int_in(-500_000, 500_000)?, 0.01),
        deq(r.int_in(-500_000, 500_000)?, 0.01),
        deq(r.int_in(-500_000, 500_000)?, 0.01),
    ];
    let rr = deq(r.int_in(-3142, 3142)?, 0.001);
    let t = r.int_in(0, (1 << 53) - 1)? as u64;
    let seq = if n > 4 {
        if r.b.first() == Some(&0xc0) {
            r.b = &r.b[1..];
            None
        } else {
            Some(r.int_in(0, i64::from(u32::MAX))? as u32)
        }
    } else {
        None
    };
    r.end()?;
    Ok(MoveS {
        s,
        p,
        r: rr,
        t,
        seq,
    })
}

#[inline(always)]
fn read_bird(r: &mut In) -> Res<BirdS> {
    r.array()?;
    Ok(BirdS {
        id: r.int()? as u16,
        species: r.int()? as u8,
        x: deq(r.int()?, 0.01),
        y: deq(r.int()?, 0.01),
        z: deq(r.int()?, 0.01),
        yaw: deq(r.int()?, 0.001),
        pitch: deq(r.int()?, 0.001),
        state: r.int()? as u8,
        flap: deq(r.int()?, 0.001),
        scale: deq(r.int()?, 0.01),
    })
}

#[inline(always)]
fn read_bird_checked(r: &mut In) -> Res<BirdS> {
    if r.array()? != 10 {
        return Err(Bad);
    }
    Ok(BirdS {
        id: r.int_in(0, 65535)? as u16,
        species: r.int_in(0, 15)? as u8,
        x: deq(r.int_in(-500_000, 500_000)?, 0.01),
        y: deq(r.int_in(-10_000, 100_000)?, 0.01),
        z: deq(r.int_in(-500_000, 500_000)?, 0.01),
        yaw: deq(r.int_in(-3142, 3142)?, 0.001),
        pitch: deq(r.int_in(-1571, 1571)?, 0.001),
        state: r.int_in(0, 7)? as u8,
        flap: deq(r.int_in(0, 1000)?, 0.001),
        scale: deq(r.int_in(50, 200)?, 0.01),
    })
}

/// The bird stream, no checks.
pub fn decode_birds(b: &[u8]) -> Res<BirdsS> {
    let mut r = In::new(b);
    r.array()?;
    let n = r.array()?;
    let mut birds = Vec::with_capacity(n.min(r.b.len()));
    for _ in 0..n {
        birds.push(read_bird(&mut r)?);
    }
    Ok(BirdsS { birds })
}

/// The bird stream, every range, length and count checked.
pub fn decode_birds_checked(b: &[u8]) -> Res<BirdsS> {
    let mut r = In::new(b);
    if r.array()? != 1 {
        return Err(Bad);
    }
    let n = r.array()?;
    if n > 80 {
        return Err(Bad);
    }
    let mut birds = Vec::with_capacity(n);
    for _ in 0..n {
        birds.push(read_bird_checked(&mut r)?);
    }
    r.end()?;
    Ok(BirdsS { birds })
}

#[inline(always)]
fn read_entity(r: &mut In) -> Res<EntityS> {
    let n = r.array()?;
    let id = r.int()? as u32;
    let kind = r.int()? as u8;
    r.array()?;
    let pos = [
        deq(r.int()?, 0.01),
        deq(r.int()?, 0.01),
        deq(r.int()?, 0.01),
    ];
    Ok(EntityS {
        id,
        kind,
        pos,
        heading: deq(r.int()?, 0.001),
        speed: deq(r.int()?, 1.0 / 64.0),
        anim: r.int()? as u8,
        owner: r.opt_str(n > 6, 0, usize::MAX)?,
        label: r.opt_str(n > 7, 0, usize::MAX)?,
    })
}

#[inline(always)]
fn read_entity_checked(r: &mut In) -> Res<EntityS> {
    let n = r.array()?;
    if !(6..=8).contains(&n) {
        return Err(Bad);
    }
    let id = r.int_in(0, i64::from(u32::MAX))? as u32;
    let kind = r.int_in(0, 31)? as u8;
    if r.array()? != 3 {
        return Err(Bad);
    }
    let pos = [
        deq(r.int_in(-500_000, 500_000)?, 0.01),
        deq(r.int_in(-500_000, 500_000)?, 0.01),
        deq(r.int_in(-500_000, 500_000)?, 0.01),
    ];
    Ok(EntityS {
        id,
        kind,
        pos,
        heading: deq(r.int_in(-3142, 3142)?, 0.001),
        speed: deq(r.int_in(0, 3840)?, 1.0 / 64.0),
        anim: r.int_in(0, 255)? as u8,
        owner: r.opt_str(n > 6, 9, 9)?,
        label: r.opt_str(n > 7, 0, 24)?,
    })
}

/// The snapshot, no checks.
pub fn decode_snapshot(b: &[u8]) -> Res<SnapshotS> {
    let mut r = In::new(b);
    r.array()?;
    let tick = r.int()? as u32;
    let n = r.array()?;
    let mut entities = Vec::with_capacity(n.min(r.b.len()));
    for _ in 0..n {
        entities.push(read_entity(&mut r)?);
    }
    Ok(SnapshotS { tick, entities })
}

/// The snapshot, every range, length and count checked.
pub fn decode_snapshot_checked(b: &[u8]) -> Res<SnapshotS> {
    let mut r = In::new(b);
    if r.array()? != 2 {
        return Err(Bad);
    }
    let tick = r.int_in(0, i64::from(u32::MAX))? as u32;
    let n = r.array()?;
    if n > 50 {
        return Err(Bad);
    }
    let mut entities = Vec::with_capacity(n);
    for _ in 0..n {
        entities.push(read_entity_checked(&mut r)?);
    }
    r.end()?;
    Ok(SnapshotS { tick, entities })
}
