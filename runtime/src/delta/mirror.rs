//! The client side of a delta message: [`Mirror`], in the reliable mode (each payload
//! applies to the last) or the acknowledged mode (each payload names its baseline in a ring).

use super::entity::{no_baseline, SAFE};
use super::message::{clone_delta, mask_count, next_seq, Delta};
use super::ring::Ring;
use crate::error::Error;
use crate::wire::Reader;

/// The client side of one delta message: the full value rebuilt from keyframes and deltas,
/// with exactly the server's quantized numbers and entity lists in key order.
///
/// - [`Mirror::new`] matches [`Tracker::new`](super::Tracker::new): payloads apply in order;
///   on any error the mirror is dropped until a keyframe arrives.
/// - [`Mirror::acked`] matches [`Tracker::acked`](super::Tracker::acked): it keeps the last
///   `ring` snapshots it applied and applies each payload to the one it names. A payload
///   not newer than the last applied (late, duplicated) or naming a snapshot it no longer
///   holds is refused (`no_baseline`) and changes nothing; the server keyframes when the
///   acknowledgements ([`ack`](Self::ack)) stop advancing.
#[derive(Debug, Clone)]
pub struct Mirror<M> {
    value: Option<M>,
    seq: u8,
    ring: Option<Ring<M>>,
}

impl<M: Delta> Default for Mirror<M> {
    fn default() -> Self {
        Mirror {
            value: None,
            seq: 0,
            ring: None,
        }
    }
}

impl<M: Delta> Mirror<M> {
    /// An empty mirror: it accepts a keyframe first.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty mirror in the acknowledged mode, keeping the last `ring` snapshots applied
    /// (clamped to `1..=MAX_RING`; at least the tracker's ring, [`RING`](super::RING) by
    /// default).
    pub fn acked(ring: usize) -> Self {
        Mirror {
            ring: Some(Ring::new(ring)),
            ..Self::default()
        }
    }

    /// Applies one payload and returns the full value. Reliable mode: on any error (a decode
    /// error, or a delta with no mirror to apply to: `no_baseline`) the mirror is dropped:
    /// ask the server for a keyframe and keep calling `apply`, which fails until the
    /// keyframe arrives. Acknowledged mode: on an error nothing changes and nothing needs
    /// doing.
    pub fn apply(&mut self, payload: &[u8]) -> Result<&M, Error> {
        let mut r = Reader::new(payload);
        if let Some(ring) = self.ring.as_mut() {
            return apply_acked(ring, &mut r);
        }
        let applied = M::apply_delta(&mut self.value, self.seq, &mut r);
        match applied.and_then(|got| r.finish().map(|()| got)) {
            Ok(got) => {
                self.seq = next_seq(got);
                self.value
                    .as_ref()
                    .ok_or_else(|| no_baseline("the keyframe"))
            }
            Err(e) => {
                self.value = None;
                Err(e)
            }
        }
    }

    /// The last full value, if the mirror holds one.
    pub fn value(&self) -> Option<&M> {
        match &self.ring {
            None => self.value.as_ref(),
            Some(ring) => ring.newest().map(|(_, m)| m),
        }
    }

    /// The acknowledgement to send in the client's next input: the number of the newest
    /// snapshot applied (0: none yet, or the reliable mode).
    pub fn ack(&self) -> u64 {
        self.ring
            .as_ref()
            .and_then(|ring| ring.newest())
            .map_or(0, |(n, _)| n)
    }

    /// Drops the mirror (for instance after a reconnect); the next payload must be a keyframe.
    pub fn clear(&mut self) {
        self.value = None;
        if let Some(ring) = self.ring.as_mut() {
            ring.clear();
        }
    }
}

/// Applies `[number, ago, payload]` to the snapshot `number - ago` (none when `ago` is 0:
/// a keyframe) and keeps the result as snapshot `number`.
fn apply_acked<'a, M: Delta>(ring: &'a mut Ring<M>, r: &mut Reader<'_>) -> Result<&'a M, Error> {
    let len = r.read_array_len()?;
    if len != 3 {
        return Err(mask_count(len, 3));
    }
    let number = r.read_u64(1, SAFE)?;
    let ago = r.read_u64(0, number - 1)?;
    let newest = ring.newest().map_or(0, |(n, _)| n);
    if number <= newest {
        return Err(no_baseline(format_args!(
            "snapshot {number} (stale: {newest} applied)"
        )));
    }
    let mut value = match ago {
        0 => None,
        _ => match ring.get(number - ago) {
            Some(base) => Some(clone_delta(base)),
            None => {
                return Err(no_baseline(format_args!(
                    "snapshot {} (not held)",
                    number - ago
                )))
            }
        },
    };
    M::apply_delta(&mut value, (number & 0x7f) as u8, r)?;
    r.leave();
    r.finish()?;
    match value {
        Some(v) => ring.push(number, v),
        None => return Err(no_baseline("the keyframe")),
    }
    match ring.newest() {
        Some((_, m)) => Ok(m),
        None => unreachable!("a snapshot was just pushed"),
    }
}
