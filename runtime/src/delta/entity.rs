//! What the keyed lists of a delta message hold: the [`Entity`] trait the derive implements
//! for `#[tuplet(entity(key = "id"))]` records, and the error for state the receiver lacks.

use crate::codec::Wire;
use crate::error::{Code, Error};
use crate::wire::Reader;

/// A record sent as changes against a baseline, identified by an int key field
/// (`#[tuplet(entity(key = "id"))]`). Implemented by the derive.
pub trait Entity: Wire + Clone {
    /// The key field's type.
    type Key: Copy + Ord + std::fmt::Display;
    /// The key field's name, for paths.
    const KEY: &'static str;

    /// This entity's key.
    fn key(&self) -> Self::Key;
    /// Writes a key as a msgpack int.
    fn write_key(key: Self::Key, out: &mut Vec<u8>);
    /// Reads a key, checked against the key field's range.
    fn read_key(r: &mut Reader<'_>) -> Result<Self::Key, Error>;
    /// Writes the changed-field mask and the changed fields of `self` against `base` (same
    /// key) and returns how many msgpack values it wrote (the mask plus one per field), or
    /// writes nothing and returns 0 when every field is wire-equal.
    fn encode_changes(&self, base: &Self, out: &mut Vec<u8>) -> Result<u32, Error>;
    /// Reads the values announced by `mask` (nonzero) and applies them to `self`.
    fn apply_changes(&mut self, mask: u64, r: &mut Reader<'_>) -> Result<(), Error>;
    /// Reads the values announced by `mask` (nonzero) as their fields' changes, against no
    /// baseline and applying nothing (whether a payload is a tracker's: `delta::probe`).
    fn probe_changes(mask: u64, r: &mut Reader<'_>) -> Result<(), Error>;
}

/// A delta refers to state the receiver does not hold: `what` names it (`entity 7`, `the
/// previous message`).
#[cold]
pub fn no_baseline(what: impl std::fmt::Display) -> Error {
    Error::new(Code::NoBaseline, format!("no baseline for {what}"))
}

/// The largest mask and the largest difference a probe of a delta payload accepts:
/// 2^53 - 1, as TypeScript.
pub const SAFE: u64 = (1 << 53) - 1;

/// A difference as a probe reads it (`-(2^53 - 1)..=2^53 - 1`, as TypeScript).
#[inline]
pub fn probe_difference(r: &mut Reader<'_>) -> Result<(), Error> {
    r.read_i64(-(SAFE as i64), SAFE as i64).map(|_| ())
}

/// A change mask as a probe reads it (`0..=2^53 - 1`, as TypeScript).
#[inline]
pub fn probe_mask(r: &mut Reader<'_>) -> Result<u64, Error> {
    r.read_u64(0, SAFE)
}
