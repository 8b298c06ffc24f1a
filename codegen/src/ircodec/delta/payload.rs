//! What one delta payload carries, as [`read_payload`](super::read_payload) reads it without
//! a baseline: a keyframe's whole value, or per changed field its difference(s), its new
//! value, or (an entity list) the entities that entered whole, changed or left.

use serde_json::{json, Map, Value};

use super::super::common::hex;

/// One delta payload: its sequence number and what it carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    /// The message's number, 0..=127 (each payload sent to a client counts, wrapping).
    pub seq: u8,
    /// A keyframe or a delta.
    pub form: PayloadForm,
}

/// A keyframe or a delta.
#[derive(Debug, Clone, PartialEq)]
pub enum PayloadForm {
    /// Every field, entity lists whole in key order: the receiver replaces its mirror.
    Keyframe(Value),
    /// The fields that changed, in mask-bit order.
    Delta(Vec<FieldChange>),
}

/// One changed field.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    /// Its mask bit (fields counted in declaration order, reserved slots and not the key).
    pub bit: u32,
    /// Its canonical name; `None` for a bit this schema does not know (a newer sender's
    /// field, skipped by a mirror).
    pub field: Option<String>,
    /// What it carries.
    pub change: Change,
}

/// What a changed field carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The new value, whole (natural JSON).
    Whole(Value),
    /// The difference of its wire int from the baseline's.
    Difference(i64),
    /// Every element's difference (a fixed array of numbers).
    Differences(Vec<i64>),
    /// An entity list's entries, in the order sent.
    Entities(Vec<Entry>),
    /// The msgpack bytes of a value under an unknown bit.
    Unknown(Vec<u8>),
}

/// One entry of an entity list.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// An entity entering view (or replaced), whole.
    Entered(Value),
    /// An entity's changed fields.
    Changed {
        /// Its key.
        key: i128,
        /// Its changed fields, in mask-bit order (bits counted without the key).
        fields: Vec<FieldChange>,
    },
    /// An entity that left view.
    Removed {
        /// Its key.
        key: i128,
    },
}

fn key_json(key: i128) -> Value {
    i64::try_from(key).map_or_else(|_| Value::String(key.to_string()), Value::from)
}

fn fields_json(fields: &[FieldChange]) -> Value {
    let mut o = Map::new();
    for f in fields {
        let name = f.field.clone().unwrap_or_else(|| format!("bit {}", f.bit));
        o.insert(name, f.change.to_json());
    }
    Value::Object(o)
}

impl Change {
    /// As `tuplet decode --delta` prints it: `{"difference": 7}`, `{"differences": [7, 0,
    /// 0]}`, `{"whole": value}`, `{"unknown": "<hex>"}`, or an entity list's entries.
    pub fn to_json(&self) -> Value {
        match self {
            Change::Whole(v) => json!({ "whole": v }),
            Change::Difference(d) => json!({ "difference": d }),
            Change::Differences(d) => json!({ "differences": d }),
            Change::Unknown(bytes) => json!({ "unknown": hex(bytes) }),
            Change::Entities(entries) => Value::Array(entries.iter().map(Entry::to_json).collect()),
        }
    }
}

impl Entry {
    /// `{"entered": value}`, `{"changed": key, "fields": {...}}` or `{"removed": key}`.
    pub fn to_json(&self) -> Value {
        match self {
            Entry::Entered(v) => json!({ "entered": v }),
            Entry::Changed { key, fields } => {
                json!({ "changed": key_json(*key), "fields": fields_json(fields) })
            }
            Entry::Removed { key } => json!({ "removed": key_json(*key) }),
        }
    }
}

impl Payload {
    /// Whether this payload is a keyframe.
    pub fn is_keyframe(&self) -> bool {
        matches!(self.form, PayloadForm::Keyframe(_))
    }

    /// As `tuplet decode --delta` prints it: `{"seq", "keyframe": true, "value"}` or
    /// `{"seq", "keyframe": false, "changed": {field: change, ...}}`.
    pub fn to_json(&self) -> Value {
        match &self.form {
            PayloadForm::Keyframe(v) => json!({ "seq": self.seq, "keyframe": true, "value": v }),
            PayloadForm::Delta(fields) => {
                json!({ "seq": self.seq, "keyframe": false, "changed": fields_json(fields) })
            }
        }
    }
}
