//! What the size analysis reports: per message its smallest and largest compact encoding
//! (or why it is unbounded), and the messages whose largest size breaks their budget.
//! Re-exported by `sizes`.

use crate::ir::Dir;

/// Why a size has no bound: the field path (`notes[].text`) and what is unbounded there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unbounded {
    /// The path from the message root, in canonical names (`[]` for any element).
    pub field: String,
    /// What has no limit (`String without len(max)`).
    pub reason: String,
}

/// One message's sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageSize {
    /// The wire name.
    pub name: String,
    /// The envelope id.
    pub id: u32,
    /// The direction it is listed in (`C2s` or `S2c`; a `both` message is listed twice).
    pub dir: Dir,
    /// The canonical path of the message type.
    pub path: String,
    /// Its source file, relative to the crate.
    pub file: String,
    /// The line of its identifier.
    pub line: usize,
    /// The declared byte budget.
    pub budget: Option<u32>,
    /// The smallest compact encoding in bytes.
    pub min: usize,
    /// The largest compact encoding in bytes, or why there is none.
    pub max: Result<usize, Unbounded>,
    /// The field whose largest encoding is the biggest share of the maximum (the
    /// unbounded one when the message is unbounded), with its largest size; `None` for a
    /// message without fields.
    pub dominant: Option<(String, Option<usize>)>,
    /// For a message declared `delta`, the largest payloads its tracker sends.
    pub delta: Option<DeltaSize>,
}

/// The largest delta payloads of a message declared `delta` (WIRE.md, "Delta snapshots").
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaSize {
    /// The largest keyframe: `[seq, nil, ...fields]`, every field at its largest.
    pub keyframe: Max,
    /// The largest delta: every field changed by its largest difference or to its largest
    /// value, and each entity list at its longest with every entity either replaced (the
    /// old one removed, a new one entering whole) or changed in every field, whichever
    /// is larger.
    pub delta: Max,
}

impl MessageSize {
    /// The largest payload of any form that `budget` bounds: the full compact message and,
    /// for a `delta` message, its largest keyframe and largest delta.
    pub fn largest(&self) -> Max {
        let mut m = self.max.clone()?;
        if let Some(d) = &self.delta {
            m = m.max(d.keyframe.clone()?).max(d.delta.clone()?);
        }
        Ok(m)
    }
}

/// A message whose largest possible size breaks its declared budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetFinding {
    /// The wire name.
    pub message: String,
    /// The direction.
    pub dir: Dir,
    /// The envelope id.
    pub id: u32,
    /// The declared budget, bytes.
    pub budget: u32,
    /// The largest possible compact size; `None` when unbounded.
    pub largest: Option<usize>,
    /// The field that dominates the largest size (the unbounded one when unbounded).
    pub field: String,
    /// Why it is unbounded, when it is.
    pub reason: Option<String>,
    /// The message's source file, relative to the crate.
    pub file: String,
    /// The line of the message's identifier.
    pub line: usize,
}

impl std::fmt::Display for BudgetFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.largest, &self.reason) {
            (Some(n), _) => write!(
                f,
                "{}:{}: {} ({}, id {}): up to {n} bytes, over its budget of {} bytes; the largest \
                 field is `{}`",
                self.file,
                self.line,
                self.message,
                self.dir.as_str(),
                self.id,
                self.budget,
                self.field
            ),
            (None, reason) => write!(
                f,
                "{}:{}: {} ({}, id {}): unbounded, but its budget is {} bytes: `{}` is {}",
                self.file,
                self.line,
                self.message,
                self.dir.as_str(),
                self.id,
                self.budget,
                self.field,
                reason.as_deref().unwrap_or("unbounded")
            ),
        }
    }
}

/// A largest size, or why there is none.
pub type Max = Result<usize, Unbounded>;
