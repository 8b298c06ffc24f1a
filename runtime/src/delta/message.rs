//! What a delta message is ([`Delta`], implemented by the derive), what a tracker reports
//! having written ([`Sent`]), and the small helpers the tracker and the mirror share.

use crate::codec::Message;
use crate::error::Error;
use crate::wire::Reader;

/// The `Clone` a delta message needs: a tracker keeps a copy of what it sent, a mirror hands
/// out copies of what it holds. Every `Clone` type has it; the derive's error for a delta
/// message without `Clone` says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is declared `#[tuplet(delta)]`, so it must implement `Clone`",
    label = "a delta message derives `Clone`",
    note = "add `Clone` to its derives, `#[derive(Clone, tuplet::Message)]`: a Tracker keeps a copy of what it sent, a Mirror hands out copies of what it holds"
)]
pub trait DeltaClone {
    /// A copy (`Clone::clone`).
    fn delta_clone(&self) -> Self
    where
        Self: Sized;
}

impl<T: Clone> DeltaClone for T {
    #[inline]
    fn delta_clone(&self) -> Self {
        self.clone()
    }
}

/// A copy of `m` (the derived `encode_delta` calls it, so that a message without `Clone` has
/// one error, `DeltaClone`'s, at its `impl Delta`).
#[inline]
pub fn clone_delta<M: Delta>(m: &M) -> M {
    m.delta_clone()
}

/// A message declared `#[tuplet(delta)]`: encoded against a per-client baseline, applied to
/// a client's mirror. Implemented by the derive; [`Tracker`](super::Tracker) and [`Mirror`](super::Mirror) are the
/// friendly front ends.
pub trait Delta: Message + DeltaClone {
    /// Writes `self`, numbered `seq` (0..=127), as a keyframe (when `keyframe` or there is
    /// no baseline) or as the changes against `base`, then makes `base` what was sent (its
    /// entity lists sorted by key). Returns false, writing nothing, when nothing changed. On
    /// an error nothing is written and `base` is cleared, so the next message is a keyframe.
    fn encode_delta(
        &self,
        base: &mut Option<Self>,
        keyframe: bool,
        seq: u8,
        out: &mut Vec<u8>,
    ) -> Result<bool, Error>;
    /// Reads one payload and applies it to `mirror`, returning its number: a keyframe
    /// replaces the mirror whatever its number; a delta must be numbered `seq` (else
    /// `no_baseline`: a message was missed). On an error `mirror` may be partly updated:
    /// drop it ([`Mirror`](super::Mirror) does).
    fn apply_delta(mirror: &mut Option<Self>, seq: u8, r: &mut Reader<'_>) -> Result<u8, Error>;
    /// Reads the values a delta's `mask` announces as their fields' changes, against no
    /// baseline and applying nothing: whether a payload is a delta of this message
    /// ([`probe`](super::probe)). Fails where one does not read.
    fn probe_changes(mask: u64, r: &mut Reader<'_>) -> Result<(), Error>;
}

/// What [`Tracker::encode`](super::Tracker::encode) wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Every field, every entity whole: the client's mirror is replaced.
    Keyframe,
    /// Only what changed.
    Delta,
    /// Nothing changed; nothing was written and nothing needs sending.
    Nothing,
}

/// The number after `seq`: every message sent counts, 0..=127 (one msgpack byte), wrapping.
pub(crate) fn next_seq(seq: u8) -> u8 {
    (seq + 1) & 0x7f
}

/// A delta payload must hold at least its mask; `n` values do not match the mask's count.
#[cold]
pub fn mask_count(n: u32, expected: u32) -> Error {
    crate::support::wrong_length(n, expected)
}
