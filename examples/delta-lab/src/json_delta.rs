//! A JSON delta of the same changes, as a game without tuplet sends it (the seed game's
//! form): a full JSON snapshot as the keyframe (every 5 s), then per tick the entities new
//! in view whole, the known ones as `{"id", changed fields…}` with quantized numbers as
//! their change in natural units (`"pos": [0.07, 0, 0]`), and the ids that left.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::world::Record;

/// One client's JSON delta state: what it was last sent.
#[derive(Default)]
pub struct JsonDelta {
    base: BTreeMap<u32, Record>,
    since: u32,
    every: u32,
}

const KINDS: [&str; 7] = ["?", "Npc", "Pet", "Vehicle", "Boat", "Horse", "Ferry"];

fn num(q: i32, scale: f64) -> Value {
    let x = q as f64 / scale;
    if x.fract() == 0.0 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn whole(r: &Record) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(r.id));
    m.insert("kind".into(), json!(KINDS[r.kind as usize]));
    m.insert(
        "pos".into(),
        json!([
            num(r.pos[0], 100.0),
            num(r.pos[1], 100.0),
            num(r.pos[2], 100.0)
        ]),
    );
    m.insert("heading".into(), num(r.heading, 1000.0));
    m.insert("speed".into(), num(r.speed, 64.0));
    m.insert("anim".into(), json!(r.anim));
    if let Some(o) = &r.owner {
        m.insert("owner".into(), json!(o));
    }
    if let Some(l) = &r.label {
        m.insert("label".into(), json!(l));
    }
    Value::Object(m)
}

fn changes(r: &Record, b: &Record) -> Option<Value> {
    let mut m = Map::new();
    if r.kind != b.kind {
        m.insert("kind".into(), json!(KINDS[r.kind as usize]));
    }
    if r.pos != b.pos {
        let d = |i: usize| num(r.pos[i] - b.pos[i], 100.0);
        m.insert("pos".into(), json!([d(0), d(1), d(2)]));
    }
    if r.heading != b.heading {
        m.insert("heading".into(), num(r.heading - b.heading, 1000.0));
    }
    if r.speed != b.speed {
        m.insert("speed".into(), num(r.speed - b.speed, 64.0));
    }
    if r.anim != b.anim {
        m.insert("anim".into(), json!(r.anim));
    }
    if r.owner != b.owner {
        m.insert("owner".into(), json!(r.owner));
    }
    if r.label != b.label {
        m.insert("label".into(), json!(r.label));
    }
    if m.is_empty() {
        return None;
    }
    let mut with_id = Map::new();
    with_id.insert("id".into(), json!(r.id));
    with_id.extend(m);
    Some(Value::Object(with_id))
}

impl JsonDelta {
    /// A client that gets a keyframe first and then every `every` messages.
    pub fn new(every: u32) -> JsonDelta {
        JsonDelta {
            every,
            ..JsonDelta::default()
        }
    }

    /// The full JSON snapshot of `view`: a keyframe.
    fn full(tick: u32, view: &[&Record]) -> Vec<u8> {
        let all: Vec<Value> = view.iter().map(|r| whole(r)).collect();
        let msg = json!({ "tick": tick, "keyframe": true, "entities": all });
        serde_json::to_vec(&msg).unwrap_or_default()
    }

    /// The message for this tick: `view` is what the client should see, sorted by id.
    pub fn encode(&mut self, tick: u32, view: &[&Record]) -> Vec<u8> {
        let keyframe = self.since == 0 || self.since >= self.every;
        self.since = if keyframe { 1 } else { self.since + 1 };
        let bytes = if keyframe {
            JsonDelta::full(tick, view)
        } else {
            self.delta(tick, view)
        };
        self.base = view.iter().map(|r| (r.id, (*r).clone())).collect();
        bytes
    }

    fn delta(&self, tick: u32, view: &[&Record]) -> Vec<u8> {
        let mut entered = Vec::new();
        let mut changed = Vec::new();
        for r in view {
            match self.base.get(&r.id) {
                None => entered.push(whole(r)),
                Some(b) => changed.extend(changes(r, b)),
            }
        }
        let gone: Vec<u32> = self
            .base
            .keys()
            .filter(|id| view.binary_search_by_key(id, |r| &r.id).is_err())
            .copied()
            .collect();
        let mut m = Map::new();
        m.insert("tick".into(), json!(tick));
        for (k, v) in [("entities", entered), ("changes", changed)] {
            if !v.is_empty() {
                m.insert(k.into(), Value::Array(v));
            }
        }
        if !gone.is_empty() {
            m.insert("gone".into(), json!(gone));
        }
        serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
    }
}
