//! The bounded ring of numbered snapshots that the acknowledged mode keeps on both sides
//! (WIRE.md, "Deltas against acknowledged baselines"): the server's [`Tracker`](super::Tracker)
//! keeps what it sent, the client's [`Mirror`](super::Mirror) what it applied.

use std::collections::VecDeque;

/// How many snapshots a ring holds unless told otherwise: 32, 1.6 s at 20 Hz. A baseline is
/// usable while it is one of the last `size` snapshots sent; an older acknowledgement makes
/// the next payload a keyframe.
pub const RING: usize = 32;

/// The largest ring: a tracker holds `size` copies of a snapshot per client.
pub const MAX_RING: usize = 256;

/// Numbered snapshots, oldest first, at most `size` of them: pushing one more drops the
/// oldest.
#[derive(Debug, Clone)]
pub(crate) struct Ring<M> {
    slots: VecDeque<(u64, M)>,
    size: usize,
}

impl<M> Ring<M> {
    /// An empty ring of `size` slots (clamped to `1..=MAX_RING`).
    pub(crate) fn new(size: usize) -> Self {
        let size = size.clamp(1, MAX_RING);
        Ring {
            slots: VecDeque::with_capacity(size),
            size,
        }
    }

    /// Adds snapshot `number` (newer than every one held), dropping the oldest when full.
    pub(crate) fn push(&mut self, number: u64, m: M) {
        if self.slots.len() == self.size {
            self.slots.pop_front();
        }
        self.slots.push_back((number, m));
    }

    /// Snapshot `number`, if held.
    pub(crate) fn get(&self, number: u64) -> Option<&M> {
        self.slots
            .iter()
            .rev()
            .find(|(n, _)| *n == number)
            .map(|(_, m)| m)
    }

    /// The newest snapshot and its number.
    pub(crate) fn newest(&self) -> Option<(u64, &M)> {
        self.slots.back().map(|(n, m)| (*n, m))
    }

    /// Forgets every snapshot.
    pub(crate) fn clear(&mut self) {
        self.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_ring_drops_its_oldest() {
        let mut r = Ring::new(3);
        for n in 1..=5u64 {
            r.push(n, n * 10);
        }
        assert_eq!(r.get(2), None);
        assert_eq!(r.get(3), Some(&30));
        assert_eq!(r.newest(), Some((5, &50)));
    }

    #[test]
    fn a_ring_holds_one_to_max_ring() {
        let mut one = Ring::new(0);
        one.push(1, 'a');
        one.push(2, 'b');
        assert_eq!((one.get(1), one.get(2)), (None, Some(&'b')));
        let mut big = Ring::new(10_000);
        for n in 0..=MAX_RING as u64 {
            big.push(n, ());
        }
        assert_eq!((big.get(0), big.get(1)), (None, Some(&())));
    }
}
