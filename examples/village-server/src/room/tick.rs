//! The room's tick: grace windows expire, positions are saved, NPCs and input bodies step,
//! and each caught-up player gets its entity snapshot and the bird stream.

use std::time::Instant;

use tuplet::relay::dist2_xz;
use village::birds::BirdStream;
use village::dispatch::ServerMessage;
use village::world::NearbyEntity;

use crate::counters::Counter;
use crate::fanout::Frames;

use super::event::close;
use super::send::{behind, flush, push};
use super::session_end::End;
use super::state::Room;

impl Room {
    pub(super) fn on_tick(&mut self, scheduled: Instant) {
        self.stats
            .record_tick(Instant::now().saturating_duration_since(scheduled));
        self.tick = self.tick.wrapping_add(1);
        self.presence.tick();
        if self.tick.is_multiple_of(self.config.tick_hz.max(1)) {
            self.stats.moves_last_s = std::mem::take(&mut self.stats.moves_this_s);
            self.tell_if_saving_changed();
        }
        if self.detached > 0 {
            // A guest's window is `guest_grace`; with no connection in the room and a new
            // room wanted, it ends now, so no guest holds an empty room.
            let ghosts = self.open == 0 && self.guests.room_wanted();
            for idx in 0..self.slots.len() {
                let expired = self.slots[idx].as_ref().is_some_and(|p| {
                    p.detached_at.is_some_and(|t| {
                        t.elapsed() >= self.config.grace_for(p.guest) || (p.guest && ghosts)
                    })
                });
                if expired {
                    self.end_session(idx, End::GraceExpired);
                }
            }
        }
        let save_ticks =
            (self.config.save_every.as_secs_f64() * f64::from(self.config.tick_hz)).max(1.0) as u32;
        if self.tick.is_multiple_of(save_ticks) {
            for idx in 0..self.slots.len() {
                let moved = self.slots[idx]
                    .as_ref()
                    .is_some_and(|p| p.joined && p.account.is_some() && p.pos != p.saved_pos);
                if moved {
                    self.save(idx);
                }
            }
        }
        if self.open == 0 {
            return;
        }
        self.world.step(self.tick);
        self.drive_inputs();
        self.relay_stops(Instant::now());
        let birds_due = self.tick.is_multiple_of(self.config.birds_every.max(1));
        let bird_r2 = self.config.bird_radius * self.config.bird_radius;
        let Room {
            config,
            slots,
            world,
            meter_out,
            stats,
            tick,
            snapshot_kind,
            ..
        } = self;
        let mut in_view: Vec<&NearbyEntity> = Vec::with_capacity(world.npcs.len());
        let mut evict = Vec::new();
        for (idx, p) in slots.iter_mut().enumerate() {
            let Some(p) = p.as_mut().filter(|p| p.joined && p.detached_at.is_none()) else {
                continue;
            };
            if behind(p, config) {
                // Behind: skip the snapshot it would miss anyway; a keyframe goes out once
                // it has caught up. Behind for too long: closed.
                p.snapshot.want_keyframe();
                if p.behind_since
                    .is_some_and(|t| t.elapsed() >= config.behind_close)
                {
                    evict.push(idx);
                }
                continue;
            }
            in_view.clear();
            in_view.extend(world.in_view(p.pos, p.view_radius));
            if let Some((bytes, _)) = p.snapshot.next(*tick, &in_view, p.shape) {
                push(p, bytes, snapshot_kind, config, meter_out, stats);
            }
            // Guests never get the bird stream: their client does not draw birds.
            if birds_due && p.birds && !p.guest {
                let b = world
                    .birds
                    .iter()
                    .filter(|b| dist2_xz([b.x, b.y, b.z], p.pos) <= bird_r2)
                    .take(80)
                    .cloned()
                    .collect();
                let msg = ServerMessage::from(BirdStream { b });
                if let Some(bytes) = Frames::new(&msg).get(p.shape) {
                    push(p, bytes, &msg, config, meter_out, stats);
                }
            }
            flush(p, stats);
        }
        for idx in evict {
            self.counters.add(Counter::EvictedSlow);
            self.evict(idx, close::POLICY, "too slow a reader");
        }
    }
}
