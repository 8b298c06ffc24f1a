//! Server-authoritative input: `input:batch`. A player who sends input frames instead of
//! positions has their body stepped by the room: the frames go into the runtime's jitter
//! buffer (`tuplet::netcode::playout::Playout`), each tick applies `60 / tick_hz` of them
//! (60 Hz frames) through the village's shared step (`village::walk::step`, which clients run
//! for their prediction), and the result goes out as the game's state: an `input:ack` to the
//! sender (the last frame applied and the body it left, for its reconciliation) and the new
//! pose relayed like any move.
//! A client that sends far ahead, far behind, repeated, or ten times too fast holds at most
//! the playout's capacity (32 frames) and costs one push per frame it sent, within the room's
//! rate limit.

use tuplet::netcode::playout::Playout;
use village::input::{InputAck, InputBatch, InputFrame};
use village::walk::{self, Body};

/// The frame rate `input:batch` frames are sampled at.
const FRAMES_PER_S: u32 = 60;

/// Input frames each tick applies per player at `tick_hz` (3 at 20 Hz).
pub(crate) fn steps_per_tick(tick_hz: u32) -> u32 {
    (FRAMES_PER_S / tick_hz.max(1)).max(1)
}

/// One player's server-driven body.
struct Driven {
    playout: Playout<InputFrame>,
    body: Body,
    /// The last applied number acknowledged.
    acked: Option<u32>,
}

/// What one tick did for one player: the new pose and the ack to send.
pub(crate) struct Stepped {
    pub idx: usize,
    pub pos: [f32; 3],
    pub heading: f32,
    pub ack: InputAck,
}

/// The room's driven bodies, by slot.
#[derive(Default)]
pub(crate) struct InputPlayouts {
    by_slot: Vec<Option<Driven>>,
}

impl InputPlayouts {
    /// Queues a batch of the player in slot `idx`, whose body starts at `pos`, `heading`
    /// the first time.
    pub fn push(&mut self, idx: usize, pos: [f32; 3], heading: f32, batch: &InputBatch) {
        if self.by_slot.len() <= idx {
            self.by_slot.resize_with(idx + 1, || None);
        }
        let d = self.by_slot[idx].get_or_insert_with(|| Driven {
            playout: Playout::new(),
            body: Body { pos, heading },
            acked: None,
        });
        d.playout.push(batch.first, &batch.frames);
    }

    /// Forgets slot `idx` (a new player there starts without a buffer).
    pub fn leave(&mut self, idx: usize) {
        if let Some(d) = self.by_slot.get_mut(idx) {
            *d = None;
        }
    }

    /// One tick: `steps` frames per driven body; returns the bodies whose applied frame
    /// moved, with their acks.
    pub fn tick(&mut self, tick: u32, steps: u32) -> Vec<Stepped> {
        let mut out = Vec::new();
        for (idx, slot) in self.by_slot.iter_mut().enumerate() {
            let Some(d) = slot else { continue };
            let body = &mut d.body;
            for _ in 0..steps {
                d.playout.step(|_, f| walk::step(body, &f));
            }
            let applied = d.playout.last_applied();
            if applied.is_none() || applied == d.acked {
                continue;
            }
            d.acked = applied;
            out.push(Stepped {
                idx,
                pos: d.body.pos,
                heading: d.body.heading,
                ack: InputAck {
                    applied: applied.unwrap_or(0),
                    tick,
                    queued: d.playout.held().min(32) as u8,
                    p: Some(d.body.pos),
                    r: Some(d.body.heading),
                },
            });
        }
        out
    }

    /// Frames held for slot `idx`.
    #[cfg(test)]
    pub fn held(&self, idx: usize) -> u32 {
        self.by_slot
            .get(idx)
            .and_then(Option::as_ref)
            .map_or(0, |d| d.playout.held())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use village::walk::Button;

    fn frame() -> InputFrame {
        InputFrame::pressed(&[Button::Forward])
    }

    fn batch(first: u32) -> InputBatch {
        InputBatch {
            first,
            frames: vec![frame(); 4],
        }
    }

    #[test]
    fn three_frames_per_tick_and_an_ack() {
        let mut p = InputPlayouts::default();
        p.push(2, [0.0; 3], 0.0, &batch(0));
        let out = p.tick(1, steps_per_tick(20));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].ack.applied, 2);
        assert!((out[0].pos[0] - 3.0 * 1.6 * 0.016).abs() < 1e-6);
        assert_eq!(
            out[0].ack.p,
            Some(out[0].pos),
            "the ack carries the body it left"
        );
        assert_eq!(out[0].ack.r, Some(out[0].heading));
        assert_eq!(p.held(2), 1);
    }

    #[test]
    fn hostile_batches_hold_no_more_than_the_cap() {
        let mut p = InputPlayouts::default();
        // Far ahead, far behind, repeated, and ten times the rate.
        for (i, first) in [0u32, 4_000_000_000, 10, 10, 10].into_iter().enumerate() {
            p.push(0, [0.0; 3], 0.0, &batch(first));
            assert!(p.held(0) <= 32, "push {i}");
        }
        // (4_000_000_000 is behind 0 in wrapping order: stale, ignored.) Ten times the rate:
        let mut first = 14u32;
        for t in 0..100 {
            for _ in 0..10 {
                p.push(0, [0.0; 3], 0.0, &batch(first));
                first = first.wrapping_add(4);
            }
            p.tick(t, 3);
            assert!(p.held(0) <= 32);
        }
        // Full to the cap before the last tick took its three frames.
        assert_eq!(p.held(0), 32 - 3);
    }
}
