//! The server side of a delta message for one client: [`Tracker`], in the reliable mode (the
//! baseline is what was last sent) or the acknowledged mode (the baseline is the newest
//! snapshot the client acknowledged, from a ring).

use super::message::{clone_delta, next_seq, Delta, Sent};
use super::ring::Ring;
use crate::codec::{same_issue, validate};
use crate::error::Error;
use crate::wire::write;

/// The server side for one client and one delta message: the baseline, the keyframe
/// cadence and keyframe requests.
///
/// - [`Tracker::new`]: the baseline is what was last *sent*, which is what the client holds
///   on an ordered, reliable transport (a WebSocket).
/// - [`Tracker::acked`]: every payload is a numbered snapshot; the baseline is the newest
///   one the client acknowledged ([`ack`](Self::ack)) among the last `ring` sent. For
///   unreliable datagrams: a lost, late or duplicated payload costs nothing but its bytes.
#[derive(Debug, Clone)]
pub struct Tracker<M> {
    base: Option<M>,
    every: u32,
    since: u32,
    wanted: bool,
    seq: u8,
    acked: Option<Acked<M>>,
}

/// The acknowledged mode's state: what was sent, numbered, and the newest acknowledgement.
#[derive(Debug, Clone)]
struct Acked<M> {
    ring: Ring<M>,
    /// The number of the next snapshot (the first is 1).
    next: u64,
    /// The newest number the client acknowledged (0: none).
    acked: u64,
}

impl<M: Delta> Tracker<M> {
    /// A tracker that sends a keyframe first and then every `keyframe_every` encodes
    /// (0 never repeats one unless requested).
    pub fn new(keyframe_every: u32) -> Self {
        Tracker {
            base: None,
            every: keyframe_every,
            since: 0,
            wanted: true,
            seq: 0,
            acked: None,
        }
    }

    /// A tracker with the default cadence, a keyframe every 5 s at `ticks_per_second`.
    pub fn at_rate(ticks_per_second: u32) -> Self {
        Self::new(ticks_per_second.saturating_mul(5))
    }

    /// A tracker in the acknowledged mode: numbered snapshots (`[number, ago, payload]`),
    /// each a delta against the newest acknowledged one still among the last `ring` sent
    /// (clamped to `1..=MAX_RING`; [`RING`](super::RING) is 32), else a keyframe. Keyframes
    /// also go every `keyframe_every` encodes (0: only when needed) and on request.
    pub fn acked(keyframe_every: u32, ring: usize) -> Self {
        Tracker {
            acked: Some(Acked {
                ring: Ring::new(ring),
                next: 1,
                acked: 0,
            }),
            ..Self::new(keyframe_every)
        }
    }

    /// Records the client's acknowledgement: `number` is the newest snapshot its mirror
    /// applied ([`Mirror::ack`](super::Mirror::ack)), carried in its inputs. An older
    /// acknowledgement than one already recorded, or a number never sent, is ignored. Does
    /// nothing in the reliable mode.
    pub fn ack(&mut self, number: u64) {
        if let Some(a) = self.acked.as_mut() {
            if number > a.acked && number < a.next {
                a.acked = number;
            }
        }
    }

    /// The number of the last snapshot written in the acknowledged mode (0: none yet, or the
    /// reliable mode).
    pub fn number(&self) -> u64 {
        self.acked.as_ref().map_or(0, |a| a.next - 1)
    }

    /// Makes the next encode a keyframe (on the client's `world:keyframe`-style request).
    pub fn request_keyframe(&mut self) {
        self.wanted = true;
    }

    /// Whether the next [`encode`](Self::encode) writes a keyframe (requested, due, or no
    /// baseline: none yet, or no acknowledged one in the ring): a message with a field that
    /// says so (the village's `keyframe`) sets it from this.
    pub fn keyframe_due(&self) -> bool {
        self.wanted || self.baseline().is_none() || (self.every > 0 && self.since >= self.every)
    }

    /// The baseline of the next delta, if any: what this client was last sent (reliable
    /// mode) or the newest snapshot it acknowledged that the ring still holds (entity lists
    /// sorted by key).
    pub fn baseline(&self) -> Option<&M> {
        match &self.acked {
            None => self.base.as_ref(),
            Some(a) => a.ring.get(a.acked),
        }
    }

    /// Appends the next message for this client to `out` and advances the baseline. A
    /// keyframe goes when requested, when due, or when there is no baseline. An invalid
    /// value is an error with its path; nothing is written and the next message is a
    /// keyframe. In the acknowledged mode, [`Sent::Nothing`] means the value equals the
    /// newest snapshot, which the client acknowledged.
    pub fn encode(&mut self, value: &M, out: &mut Vec<u8>) -> Result<Sent, Error> {
        let keyframe = self.keyframe_due();
        let result = match self.acked.as_mut() {
            None => value.encode_delta(&mut self.base, keyframe, self.seq, out),
            Some(a) => a.encode(value, keyframe, out),
        };
        match result {
            Ok(wrote) => {
                if wrote {
                    self.seq = next_seq(self.seq);
                }
                if keyframe {
                    self.wanted = false;
                    self.since = 1;
                    return Ok(Sent::Keyframe);
                }
                self.since += 1;
                Ok(if wrote { Sent::Delta } else { Sent::Nothing })
            }
            Err(e) => {
                self.wanted = true;
                Err(if e.path().0.is_empty() {
                    same_issue(validate(value), e)
                } else {
                    e
                })
            }
        }
    }
}

impl<M: Delta> Acked<M> {
    /// Writes snapshot `next` as `[next, ago, payload]`: a keyframe (`ago` 0) or the changes
    /// since the acknowledged snapshot `next - ago`. Returns false, writing nothing, when the
    /// value equals the newest snapshot and the client acknowledged it.
    fn encode(&mut self, value: &M, keyframe: bool, out: &mut Vec<u8>) -> Result<bool, Error> {
        let n = self.next;
        let mut base = match keyframe {
            true => None,
            false => self.ring.get(self.acked).map(clone_delta),
        };
        let ago = if base.is_some() { n - self.acked } else { 0 };
        let start = out.len();
        write::array_len(out, 3);
        write::uint(out, n);
        write::uint(out, ago);
        let seq = (n & 0x7f) as u8;
        let wrote = match value.encode_delta(&mut base, keyframe, seq, out) {
            Ok(wrote) => wrote,
            Err(e) => {
                out.truncate(start);
                return Err(e);
            }
        };
        if !wrote {
            if self.ring.newest().map(|(newest, _)| newest) == Some(self.acked) {
                out.truncate(start);
                return Ok(false);
            }
            // The value is back at the acknowledged snapshot, but the client may hold a
            // newer one: an empty delta says so.
            write::array_len(out, 2);
            write::uint(out, seq as u64);
            write::uint(out, 0);
        }
        match base {
            Some(sent) => self.ring.push(n, sent),
            None => unreachable!("encode_delta leaves what it sent as the baseline"),
        }
        self.next += 1;
        Ok(true)
    }
}
