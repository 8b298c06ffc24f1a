//! A second, independent writer of WIRE.md's delta form for the village snapshot, written
//! from the spec with its own msgpack writer: in its default form it must write exactly the
//! [`tuplet::delta::Tracker`]'s bytes (the lab checks every message), and it can send chosen
//! quantized fields as their new wire int instead of the difference, and count which field
//! every byte belongs to. That is how the lab compares the two forms per field kind and
//! tells which fields dominate the bytes.

use std::collections::BTreeMap;

use crate::world::Record;

/// Which quantized or small-int fields travel as their new value instead of the difference.
#[derive(Debug, Clone, Copy, Default)]
pub struct Absolute {
    /// The message's `tick`.
    pub tick: bool,
    /// `pos` (all three elements).
    pub pos: bool,
    /// `heading`.
    pub heading: bool,
    /// `speed`.
    pub speed: bool,
    /// `anim`.
    pub anim: bool,
}

/// Where the bytes of the messages went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Keyframes, whole.
    Keyframe,
    /// A delta's array header, seq, mask, tick and the entity list's header.
    Header,
    /// Entities entering view, whole.
    Entered,
    /// Entities leaving view (key, 0).
    Left,
    /// A changed entity's key and mask.
    KeyMask,
    /// `pos` changes.
    Pos,
    /// `heading` changes.
    Heading,
    /// `speed` changes.
    Speed,
    /// `anim` changes.
    Anim,
    /// `kind`, `owner`, `label` changes.
    Other,
}

impl Part {
    /// Every part, in table order.
    pub const ALL: [Part; 10] = [
        Part::Keyframe,
        Part::Header,
        Part::Entered,
        Part::Left,
        Part::KeyMask,
        Part::Pos,
        Part::Heading,
        Part::Speed,
        Part::Anim,
        Part::Other,
    ];

    /// The part's name in the lab's table.
    pub fn name(self) -> &'static str {
        match self {
            Part::Keyframe => "keyframes (whole)",
            Part::Header => "message header (array, seq, mask, tick, list header)",
            Part::Entered => "entities entering view (whole)",
            Part::Left => "entities leaving view (key, 0)",
            Part::KeyMask => "changed entity: key and mask",
            Part::Pos => "changed entity: pos",
            Part::Heading => "changed entity: heading",
            Part::Speed => "changed entity: speed",
            Part::Anim => "changed entity: anim",
            Part::Other => "changed entity: kind, owner, label",
        }
    }
}

fn int(out: &mut Vec<u8>, v: i64) {
    match v {
        0..=0x7f => out.push(v as u8),
        -32..=-1 => out.push(v as i8 as u8),
        0x80..=0xff => out.extend([0xcc, v as u8]),
        0x100..=0xffff => {
            out.push(0xcd);
            out.extend((v as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(0xce);
            out.extend((v as u32).to_be_bytes());
        }
        -128..=-33 => out.extend([0xd0, v as i8 as u8]),
        -32768..=-129 => {
            out.push(0xd1);
            out.extend((v as i16).to_be_bytes());
        }
        -2_147_483_648..=-32769 => {
            out.push(0xd2);
            out.extend((v as i32).to_be_bytes());
        }
        _ => {
            out.push(if v < 0 { 0xd3 } else { 0xcf });
            out.extend(v.to_be_bytes());
        }
    }
}

fn array(out: &mut Vec<u8>, n: usize) {
    match n {
        0..=15 => out.push(0x90 | n as u8),
        16..=0xffff => {
            out.push(0xdc);
            out.extend((n as u16).to_be_bytes());
        }
        _ => {
            out.push(0xdd);
            out.extend((n as u32).to_be_bytes());
        }
    }
}

fn text(out: &mut Vec<u8>, s: &str) {
    match s.len() {
        0..=31 => out.push(0xa0 | s.len() as u8),
        n => out.extend([0xd9, n as u8]),
    }
    out.extend(s.as_bytes());
}

fn opt(out: &mut Vec<u8>, s: &Option<String>) {
    match s {
        Some(s) => text(out, s),
        None => out.push(0xc0),
    }
}

/// A record whole, compact shape (trailing absent options omitted).
fn whole(out: &mut Vec<u8>, r: &Record) {
    let n = match (&r.owner, &r.label) {
        (_, Some(_)) => 8,
        (Some(_), None) => 7,
        (None, None) => 6,
    };
    array(out, n);
    int(out, r.id as i64);
    int(out, r.kind as i64);
    array(out, 3);
    for p in r.pos {
        int(out, p as i64);
    }
    int(out, r.heading as i64);
    int(out, r.speed as i64);
    int(out, r.anim as i64);
    if n >= 7 {
        opt(out, &r.owner);
    }
    if n == 8 {
        opt(out, &r.label);
    }
}

/// One client's baseline in the model, and the byte counts per [`Part`].
pub struct Model {
    form: Absolute,
    base: BTreeMap<u32, Record>,
    tick: u32,
    seq: u8,
    since: u32,
    every: u32,
    /// Bytes written per part.
    pub parts: BTreeMap<Part, u64>,
    /// Entities that entered view (sent whole in a delta).
    pub entered: u64,
    /// Entities whose `pos` changed on the wire.
    pub moved: u64,
}

impl Model {
    /// A client's model writer, a keyframe every `every` messages.
    pub fn new(form: Absolute, every: u32) -> Model {
        Model {
            form,
            base: BTreeMap::new(),
            tick: 0,
            seq: 0,
            since: 0,
            every,
            parts: BTreeMap::new(),
            entered: 0,
            moved: 0,
        }
    }

    fn count(&mut self, part: Part, from: usize, out: &[u8]) {
        *self.parts.entry(part).or_default() += (out.len() - from) as u64;
    }

    /// The message for this tick (`view` sorted by id), as the tracker writes it for a
    /// snapshot `{tick, keyframe: false, entities: view, gone: []}`.
    /// Returns false, writing nothing, when nothing changed.
    pub fn encode(&mut self, tick: u32, view: &[&Record], out: &mut Vec<u8>) -> bool {
        let start = out.len();
        let keyframe = self.since == 0 || self.since >= self.every;
        let seq = self.seq;
        self.seq = (self.seq + 1) & 0x7f;
        if keyframe {
            self.since = 1;
            array(out, 6);
            int(out, seq as i64);
            out.push(0xc0);
            int(out, tick as i64);
            out.push(0xc2);
            array(out, view.len());
            for r in view {
                whole(out, r);
            }
            array(out, 0);
            self.count(Part::Keyframe, start, out);
        } else {
            // The cadence counts encodes, sent or not, as the tracker's does.
            self.since += 1;
            if !self.delta(seq, tick, view, out) {
                // Nothing changed: nothing is sent and the number is not used.
                self.seq = seq;
                return false;
            }
        }
        self.tick = tick;
        self.base = view.iter().map(|r| (r.id, (*r).clone())).collect();
        true
    }

    fn delta(&mut self, seq: u8, tick: u32, view: &[&Record], out: &mut Vec<u8>) -> bool {
        // The entity list's entries first, into a scratch buffer, to know its length.
        let mut list = Vec::new();
        let mut values = 0usize;
        let mut parts: Vec<(Part, usize)> = Vec::new();
        let mut gone = self.base.keys().copied().peekable();
        let mark = |list: &Vec<u8>, parts: &mut Vec<(Part, usize)>, p: Part, from: usize| {
            parts.push((p, list.len() - from));
        };
        for r in view {
            while let Some(&g) = gone.peek() {
                if g >= r.id {
                    break;
                }
                let from = list.len();
                int(&mut list, g as i64);
                list.push(0);
                values += 2;
                mark(&list, &mut parts, Part::Left, from);
                gone.next();
            }
            if gone.peek() == Some(&r.id) {
                gone.next();
            }
            let Some(b) = self.base.get(&r.id) else {
                let from = list.len();
                whole(&mut list, r);
                values += 1;
                self.entered += 1;
                mark(&list, &mut parts, Part::Entered, from);
                continue;
            };
            let mut mask = 0u64;
            let mut body = Vec::new();
            let mut fields: Vec<(Part, usize)> = Vec::new();
            let mut field =
                |body: &mut Vec<u8>, part: Part, bit: u32, write: &dyn Fn(&mut Vec<u8>)| {
                    let from = body.len();
                    write(body);
                    mask |= 1 << bit;
                    fields.push((part, body.len() - from));
                };
            let f = self.form;
            if r.kind != b.kind {
                field(&mut body, Part::Other, 0, &|o| int(o, r.kind as i64));
            }
            if r.pos != b.pos {
                self.moved += 1;
                field(&mut body, Part::Pos, 1, &|o| {
                    array(o, 3);
                    for i in 0..3 {
                        let d = if f.pos { r.pos[i] } else { r.pos[i] - b.pos[i] };
                        int(o, d as i64);
                    }
                });
            }
            if r.heading != b.heading {
                let d = if f.heading {
                    r.heading
                } else {
                    r.heading - b.heading
                };
                field(&mut body, Part::Heading, 2, &|o| int(o, d as i64));
            }
            if r.speed != b.speed {
                let d = if f.speed { r.speed } else { r.speed - b.speed };
                field(&mut body, Part::Speed, 3, &|o| int(o, d as i64));
            }
            if r.anim != b.anim {
                let d = if f.anim {
                    r.anim as i32
                } else {
                    r.anim as i32 - b.anim as i32
                };
                field(&mut body, Part::Anim, 4, &|o| int(o, d as i64));
            }
            if r.owner != b.owner {
                field(&mut body, Part::Other, 5, &|o| opt(o, &r.owner));
            }
            if r.label != b.label {
                field(&mut body, Part::Other, 6, &|o| opt(o, &r.label));
            }
            if mask == 0 {
                continue;
            }
            let from = list.len();
            int(&mut list, r.id as i64);
            int(&mut list, mask as i64);
            mark(&list, &mut parts, Part::KeyMask, from);
            values += 2 + fields.len();
            list.extend(body);
            parts.extend(fields);
        }
        for g in gone {
            let from = list.len();
            int(&mut list, g as i64);
            list.push(0);
            values += 2;
            mark(&list, &mut parts, Part::Left, from);
        }
        let start = out.len();
        let mut mask = 0u64;
        let mut n = 0;
        if tick != self.tick {
            mask |= 1;
            n += 1;
        }
        if values > 0 {
            mask |= 4;
            n += 1;
        }
        if mask == 0 {
            return false;
        }
        array(out, 2 + n);
        int(out, seq as i64);
        int(out, mask as i64);
        if mask & 1 != 0 {
            let dt = tick as i64 - if self.form.tick { 0 } else { self.tick as i64 };
            int(out, dt);
        }
        if values > 0 {
            array(out, values);
        }
        self.count(Part::Header, start, out);
        out.extend(list);
        for (p, n) in parts {
            *self.parts.entry(p).or_default() += n as u64;
        }
        true
    }
}
