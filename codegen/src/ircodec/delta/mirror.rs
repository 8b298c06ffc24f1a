//! The IR [`Mirror`]: the client side of one delta message, rebuilding the full natural
//! value from keyframes and deltas as the derive's `tuplet::delta::Mirror` does.

use serde_json::Value;
use tuplet::wire::Reader;
use tuplet::Error;
use tuplet_schema::ResolvedSchema;

use super::payload::Payload;
use super::plan::{MessagePlan, NotDelta};
use super::read::{Target, Walk};

/// The client side of one delta message of a loaded schema: the full value rebuilt from
/// keyframes and deltas, with the server's quantized numbers and entity lists in key
/// order. It accepts, rejects and rebuilds exactly as the derive's `tuplet::delta::Mirror`,
/// with the same error codes and paths.
#[derive(Debug, Clone)]
pub struct Mirror<'s> {
    schema: &'s ResolvedSchema,
    plan: MessagePlan<'s>,
    value: Option<Value>,
    seq: u8,
}

impl<'s> Mirror<'s> {
    /// An empty mirror of the delta message at canonical `path`: it accepts a keyframe first.
    pub fn new(schema: &'s ResolvedSchema, path: &str) -> Result<Self, NotDelta> {
        Ok(Mirror {
            schema,
            plan: MessagePlan::of(schema, path)?,
            value: None,
            seq: 0,
        })
    }

    /// Applies one payload (a keyframe or a delta) and returns the full natural value. On
    /// any error (a decode error, a delta without a baseline or out of sequence:
    /// `no_baseline`) the mirror is dropped and fails until a keyframe arrives.
    pub fn apply(&mut self, payload: &[u8]) -> Result<&Value, Error> {
        let walk = Walk {
            schema: self.schema,
            buf: payload,
        };
        let mut r = Reader::new(payload);
        let target = Target {
            value: &mut self.value,
            seq: self.seq,
        };
        let read = walk.payload(&self.plan, &mut r, Some(target));
        match read.and_then(|p| r.finish().map(|()| p)) {
            Ok(p) => {
                self.seq = (p.seq + 1) & 0x7f;
                self.value
                    .as_ref()
                    .ok_or_else(|| tuplet::delta::no_baseline("the keyframe"))
            }
            Err(e) => {
                self.value = None;
                Err(e)
            }
        }
    }

    /// Reads one payload without applying it (no baseline needed): its number, whether it
    /// is a keyframe, and what it carries per field and per entity. Differences are not
    /// range-checked (that needs the baseline); whole values are.
    pub fn describe(&self, payload: &[u8]) -> Result<Payload, Error> {
        let walk = Walk {
            schema: self.schema,
            buf: payload,
        };
        let mut r = Reader::new(payload);
        let p = walk.payload(&self.plan, &mut r, None)?;
        r.finish()?;
        Ok(p)
    }

    /// The last full value, if the mirror holds one.
    pub fn value(&self) -> Option<&Value> {
        self.value.as_ref()
    }

    /// Drops the mirror; the next payload must be a keyframe.
    pub fn clear(&mut self) {
        self.value = None;
    }
}
