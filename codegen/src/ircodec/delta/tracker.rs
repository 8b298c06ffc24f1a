//! The IR [`Tracker`]: the server side of one delta message for one client, over natural
//! JSON, with the derive's `tuplet::delta::Tracker` cadence and bytes.

use serde_json::Value;
use tuplet::delta::Sent;
use tuplet::Error;
use tuplet_schema::ResolvedSchema;

use super::super::encode::encode;
use super::super::Shape;
use super::encode::{changes, keyframe};
use super::plan::{MessagePlan, NotDelta};

/// The server side for one client and one delta message of a loaded schema: the baseline
/// (what this client was last sent), the keyframe cadence and keyframe requests. Writes
/// exactly the bytes of the derive's `tuplet::delta::Tracker` for the same values.
#[derive(Debug, Clone)]
pub struct Tracker<'s> {
    schema: &'s ResolvedSchema,
    path: String,
    plan: MessagePlan<'s>,
    base: Option<Value>,
    every: u32,
    since: u32,
    wanted: bool,
    seq: u8,
}

impl<'s> Tracker<'s> {
    /// A tracker for the delta message at canonical `path` that sends a keyframe first and
    /// then every `keyframe_every` encodes (0: only on request).
    pub fn new(
        schema: &'s ResolvedSchema,
        path: &str,
        keyframe_every: u32,
    ) -> Result<Self, NotDelta> {
        Ok(Tracker {
            schema,
            path: path.to_owned(),
            plan: MessagePlan::of(schema, path)?,
            base: None,
            every: keyframe_every,
            since: 0,
            wanted: true,
            seq: 0,
        })
    }

    /// Makes the next encode a keyframe (a client's keyframe request).
    pub fn request_keyframe(&mut self) {
        self.wanted = true;
    }

    /// Whether the next [`encode`](Self::encode) writes a keyframe (requested, due, or no
    /// baseline yet).
    pub fn keyframe_due(&self) -> bool {
        self.wanted || self.base.is_none() || (self.every > 0 && self.since >= self.every)
    }

    /// What this client was last sent (entity lists sorted by key), if anything.
    pub fn baseline(&self) -> Option<&Value> {
        self.base.as_ref()
    }

    /// Appends the next payload for natural value `value` to `out` and advances the
    /// baseline: a keyframe when requested, due or without a baseline; else the changes,
    /// or nothing (`Sent::Nothing`) when nothing changed on the wire. An invalid value is
    /// an error with its canonical path; nothing is written and the next payload is a
    /// keyframe.
    pub fn encode(&mut self, value: &Value, out: &mut Vec<u8>) -> Result<Sent, Error> {
        let key = self.keyframe_due();
        let start = out.len();
        match self.write(value, key, out) {
            Ok(wrote) => {
                if wrote {
                    self.seq = (self.seq + 1) & 0x7f;
                }
                if key {
                    self.wanted = false;
                    self.since = 1;
                    return Ok(Sent::Keyframe);
                }
                self.since += 1;
                Ok(if wrote { Sent::Delta } else { Sent::Nothing })
            }
            Err(e) => {
                out.truncate(start);
                self.base = None;
                self.wanted = true;
                Err(e)
            }
        }
    }

    fn write(&mut self, value: &Value, key: bool, out: &mut Vec<u8>) -> Result<bool, Error> {
        // Every check first, reported at its path as `validate` reports it.
        encode(self.schema, &self.path, value, Shape::Compact)?;
        match (key, self.base.as_mut()) {
            (false, Some(base)) => changes(self.schema, &self.plan, value, base, self.seq, out),
            _ => {
                let sent = keyframe(self.schema, &self.path, &self.plan, value, self.seq, out)?;
                self.base = Some(sent);
                Ok(true)
            }
        }
    }
}
