//! The 20 Hz tick: each player's input frames are played out and acknowledged, then each
//! player gets its `world:snapshot`, a keyframe or a delta against what it last received.

use std::f32::consts::{PI, TAU};
use std::time::Instant;

use tuplet::delta::Sent;
use tuplet::Message;
use village::input::InputAck;
use village::player::PlayerMove;
use village::walk;
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

use crate::room::{envelope, now_ms, Room};

/// Input frames applied per tick: 60 Hz frames at a 20 Hz tick.
const STEPS: u32 = 3;

impl Room {
    pub(crate) fn on_tick(&mut self, scheduled: Instant) {
        self.stats.late(scheduled.elapsed());
        self.tick = self.tick.wrapping_add(1);
        let npcs = npcs(self.tick);
        for idx in 0..self.slots.len() {
            self.play_inputs(idx);
            self.snapshot(idx, &npcs);
        }
    }

    /// Steps the player's body by its queued input frames with the village's walking step,
    /// the one clients predict with. When a new frame was applied, acknowledges it with the
    /// body it left (what the client reconciles against) and relays the pose like a move.
    fn play_inputs(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else { return };
        let mut body = p.body;
        let before = p.inputs.last_applied();
        for _ in 0..STEPS {
            p.inputs.step(|_, frame| walk::step(&mut body, &frame));
        }
        let applied = p.inputs.last_applied();
        let Some(applied) = applied.filter(|&a| Some(a) != before) else { return };
        let queued = p.inputs.held().min(32) as u8;
        let (pos, heading) = (Some(body.pos), Some(body.heading));
        let ack = InputAck { applied, tick: self.tick, queued, p: pos, r: heading };
        self.send(idx, envelope(ack));
        let (p, r, t) = (body.pos, body.heading, now_ms());
        self.on_move(idx, PlayerMove { p, r, t, seq: Some(applied), flags: None });
    }

    /// The player's snapshot: every villager, as a keyframe or a delta.
    fn snapshot(&mut self, idx: usize, npcs: &[NearbyEntity]) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else { return };
        let (entities, keyframe) = (npcs.to_vec(), p.snapshot.keyframe_due());
        let value = WorldSnapshot { tick: self.tick, keyframe, entities, gone: Vec::new() };
        let mut frame = Vec::with_capacity(256);
        tuplet::wire::write::uint(&mut frame, u64::from(WorldSnapshot::ID));
        let sent = p.snapshot.encode(&value, &mut frame).expect("a valid snapshot");
        if sent != Sent::Nothing {
            self.send(idx, frame.into());
        }
    }
}

/// The world this room simulates: twelve villagers, villager `i` walking a circle of
/// 20 + 10 i metres around the square at 1.2 m/s.
fn npcs(tick: u32) -> Vec<NearbyEntity> {
    let villager = |i: u32| {
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
    };
    (0..12).map(villager).collect()
}
