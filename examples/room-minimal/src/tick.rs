//! The 20 Hz tick: each player's input frames are played out (three 60 Hz frames a tick)
//! and acknowledged, then each player gets its `world:snapshot` of what is near it, as a
//! keyframe or a delta against what it last received.

use std::f32::consts::{PI, TAU};
use std::time::Instant;

use tuplet::delta::Sent;
use tuplet::relay::dist2_xz;
use tuplet::Message;
use village::input::InputAck;
use village::player::PlayerMove;
use village::walk::{self, Body};
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

use crate::room::{envelope, now_ms, Player, Room};
use crate::stats::Stats;

/// Input frames applied per tick: 60 Hz frames at a 20 Hz tick.
const STEPS: u32 = 3;
/// Villagers walking in circles around the square, the world this room simulates, and
/// how far a player sees them, metres (the reference server honours `world:view`).
const NPCS: u32 = 12;
const VIEW: f32 = 150.0;

impl Room {
    pub(crate) fn on_tick(&mut self, scheduled: Instant) {
        Stats::sample(&mut self.stats.tick_late, scheduled.elapsed());
        self.tick = self.tick.wrapping_add(1);
        let npcs = npcs(self.tick);
        for idx in 0..self.slots.len() {
            self.play_inputs(idx);
            self.snapshot(idx, &npcs);
        }
    }

    /// Steps the player's body by its queued input frames with the village's shared step
    /// (clients predict with the same function). When a new frame was applied, acknowledges
    /// it to the player with the body it left and relays the new pose like a move.
    fn play_inputs(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else { return };
        let mut body = Body { pos: p.pos, heading: p.heading };
        for _ in 0..STEPS {
            p.inputs.step(|_, f| walk::step(&mut body, &f));
        }
        let applied = p.inputs.last_applied();
        if applied.is_none() || applied == p.acked {
            return;
        }
        p.acked = applied;
        (p.pos, p.heading) = (body.pos, body.heading);
        let ack = ack(p, self.tick);
        self.send(idx, envelope(ack));
        let t = now_ms();
        let pose = PlayerMove { p: body.pos, r: body.heading, t, seq: applied, flags: None };
        self.on_move(idx, pose);
    }

    /// The player's snapshot: the villagers within its view, nearest 50 at most.
    fn snapshot(&mut self, idx: usize, npcs: &[NearbyEntity]) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else { return };
        let r2 = VIEW * VIEW;
        let near = npcs.iter().filter(|e| dist2_xz(e.pos, p.pos) <= r2);
        let value = WorldSnapshot {
            tick: self.tick,
            keyframe: p.snapshot.keyframe_due(),
            entities: near.take(50).cloned().collect(),
            gone: Vec::new(),
        };
        let mut frame = Vec::with_capacity(256);
        tuplet::wire::write::uint(&mut frame, u64::from(WorldSnapshot::ID));
        match p.snapshot.encode(&value, &mut frame) {
            Ok(Sent::Nothing) => {}
            Ok(Sent::Keyframe | Sent::Delta) => self.send(idx, frame.into()),
            Err(e) => eprintln!("room-minimal: world:snapshot: {e}"),
        }
    }
}

/// The acknowledgement a client reconciles against: the last input frame applied to its
/// body, at which tick, how many frames wait, and the body it left.
fn ack(p: &Player, tick: u32) -> InputAck {
    let queued = p.inputs.held().min(32) as u8;
    let applied = p.acked.unwrap_or(0);
    InputAck { applied, tick, queued, p: Some(p.pos), r: Some(p.heading) }
}

/// The villagers at `tick`: villager `i` walks a circle of 20 + 10 i metres at 1.2 m/s.
fn npcs(tick: u32) -> Vec<NearbyEntity> {
    (0..NPCS)
        .map(|i| {
            let r = 20.0 + 10.0 * i as f32;
            let a = (i as f32 + tick as f32 * 0.05 * 1.2 / r).rem_euclid(TAU);
            NearbyEntity {
                id: i + 1,
                kind: EntityKind::Npc,
                pos: [r * a.cos(), 0.0, r * a.sin()],
                heading: (a + PI / 2.0 + PI).rem_euclid(TAU) - PI,
                speed: 1.2,
                anim: 1,
                owner: None,
                label: None,
            }
        })
        .collect()
}
