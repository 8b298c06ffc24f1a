//! Hand-written msgpack codecs for the three datasets: what an engineer would write for
//! these structs with tuplet's quantization, as fast as safe Rust gets (one fixed-size
//! append per value, a slice cursor, rounding without libm). Two flavours:
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

fn round(y: f64) -> i64 {
    // Exact for |y| < 2^52 (truncation and the fraction are exact there); the fields'
    // ranges keep y far below.
    let t = y as i64;
    let f = y - t as f64;
    t + i64::from(f >= 0.5) - i64::from(f <= -0.5)
}

#[inline(always)]
fn put9(out: &mut Vec<u8>, b: [u8; 9], n: usize) {
    let len = out.len();
    out.extend_from_slice(&b);
    out.truncate(len + n);
}

#[inline(always)]
fn int(out: &mut Vec<u8>, v: i64) {
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
fn str(out: &mut Vec<u8>, s: &str) {
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
    if y.is_nan() || y.abs() >= 4.5e15 {
        return Err(Bad);
    }
    let v = round(y);
    if v < min || v > max {
        return Err(Bad);
    }
    Ok(v)
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
}

/// The move, every range checked.
pub fn encode_move_checked(m: &MoveS, out: &mut Vec<u8>) -> Res<()> {
    len_in(&m.s, 9, 9)?;
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
}

#[inline(always)]
fn bird(b: &BirdS, out: &mut Vec<u8>) {
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
fn bird_checked(b: &BirdS, out: &mut Vec<u8>) -> Res<()> {
    out.push(0x9a);
    int(out, i64::from(b.id));
    int(out, int_in(i64::from(b.species), 0, 15)?);
    int(out, q_in(b.x, 100.0, -500_000, 500_000)?);
    int(out, q_in(b.y, 100.0, -10_000, 100_000)?);
    int(out, q_in(b.z, 100.0, -500_000, 500_000)?);
    int(out, q_in(b.yaw, 1000.0, -3142, 3142)?);
    int(out, q_in(b.pitch, 1000.0, -1571, 1571)?);
    int(out, int_in(i64::from(b.state), 0, 7)?);
    int(out, q_in(b.flap, 1000.0, 0, 1000)?);
    int(out, q_in(b.scale, 100.0, 50, 200)?);
    Ok(())
}

fn array_header(out: &mut Vec<u8>, n: usize) {
    if n < 16 {
        out.push(0x90 | n as u8);
    } else {
        out.extend_from_slice(&[0xdc, (n >> 8) as u8, n as u8]);
    }
}

/// The bird stream, no checks.
pub fn encode_birds(b: &BirdsS, out: &mut Vec<u8>) {
    out.reserve(1 + 3 + b.birds.len() * 32);
    out.push(0x91);
    array_header(out, b.birds.len());
    for x in &b.birds {
        bird(x, out);
    }
}

/// The bird stream, every range checked.
pub fn encode_birds_checked(b: &BirdsS, out: &mut Vec<u8>) -> Res<()> {
    if b.birds.len() > 80 {
        return Err(Bad);
    }
    out.reserve(1 + 3 + b.birds.len() * 32);
    out.push(0x91);
    array_header(out, b.birds.len());
    for x in &b.birds {
        bird_checked(x, out)?;
    }
    Ok(())
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

fn opt_str(out: &mut Vec<u8>, s: &Option<String>) {
    match s {
        Some(s) => str(out, s),
        None => out.push(0xc0),
    }
}

#[inline(always)]
fn entity(e: &EntityS, out: &mut Vec<u8>) {
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
fn entity_checked(e: &EntityS, out: &mut Vec<u8>) -> Res<()> {
    let n = entity_len(e);
    out.push(0x90 | n);
    int(out, i64::from(e.id));
    int(out, int_in(i64::from(e.kind), 0, 31)?);
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
    out.reserve(1 + 5 + 3 + s.entities.len() * 70);
    out.push(0x92);
    int(out, i64::from(s.tick));
    array_header(out, s.entities.len());
    for e in &s.entities {
        entity(e, out);
    }
}

/// The snapshot, every range checked.
pub fn encode_snapshot_checked(s: &SnapshotS, out: &mut Vec<u8>) -> Res<()> {
    if s.entities.len() > 50 {
        return Err(Bad);
    }
    out.reserve(1 + 5 + 3 + s.entities.len() * 70);
    out.push(0x92);
    int(out, i64::from(s.tick));
    array_header(out, s.entities.len());
    for e in &s.entities {
        entity_checked(e, out)?;
    }
    Ok(())
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
