//! Moves: each one checked against the map and a speed limit, then relayed by distance
//! tier while its pose changes; the bodies stepped from `input:batch` are relayed the same way.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

use village::common::Medium;
use village::dispatch::ServerMessage;
use village::player::{PlayerCorrection, PlayerMove, PlayerMoveRelayed, RejectReason};

use super::state::{now_ms, Room};

impl Room {
    /// Validates a move against the map and the speed limit: a rejected one is answered
    /// with a correction to its sender alone and goes nowhere else. An accepted one is
    /// relayed by distance tier, unless its pose did not change.
    pub(super) fn on_move(&mut self, idx: usize, m: PlayerMove, now: Instant) {
        let cfg = &self.config;
        let p = self.slots[idx].as_mut().expect("moving player");
        let out_of_map = (0..3).any(|i| m.p[i] < cfg.map_min[i] || m.p[i] > cfg.map_max[i]);
        let quiet = now.saturating_duration_since(p.last_move) >= cfg.stopped_after;
        let dt = now.saturating_duration_since(p.last_move).as_secs_f32();
        p.last_move = now;
        p.bank = (p.bank + dt * cfg.max_speed).min(cfg.max_speed * cfg.speed_bank_s);
        let step = dist(p.pos, m.p);
        let reason = if out_of_map {
            Some(RejectReason::OutOfBounds)
        } else if step > p.bank {
            Some(RejectReason::TooFast)
        } else {
            None
        };
        if let Some(reason) = reason {
            let correction = ServerMessage::from(PlayerCorrection {
                pos: p.pos,
                heading: p.heading,
                accepted_seq: p.seq,
                reason,
                medium: Medium::Land,
            });
            return self.send_to(idx, &correction);
        }
        p.bank -= step;
        p.pos = m.p;
        p.heading = m.r;
        if let Some(seq) = m.seq {
            p.seq = seq;
        }
        // After meaningful movement, not every move.
        if p.account.is_some() && dist(p.saved_pos, p.pos) >= cfg.save_after_m {
            self.save(idx);
        }
        let p = self.slots[idx].as_mut().expect("moving player");
        // What viewers draw: the sample time and sequence number change on every report.
        let pose = PlayerMove {
            t: 0,
            seq: None,
            ..m.clone()
        };
        let resting = p.silence.is_resting();
        let report = p.silence.observe(&pose);
        if !report.relay() {
            return;
        }
        let update = p.cadence.advance();
        // Never decimated: the first unchanged report (the mover stopped), and the first pose
        // after a silence (the mover set off): every viewer learns both at once.
        let forced = report.forced() || resting || quiet;
        // The room's config, shared: cloning the tiers would allocate on every move.
        let config = Arc::clone(&self.config);
        let skipped = self.relay(idx, &m, |d2, seen| {
            config.tiers.should_send(update, d2, seen, forced)
        });
        if let Some(p) = self.slots[idx].as_mut() {
            p.owed = skipped.then_some((m, update));
        }
    }

    /// The pose that ended a movement, to the viewers its tier skipped: for each mover that
    /// has sent nothing for `Config::stopped_after` since a pose some viewer did not get. A mover
    /// that stops without an unchanged report is otherwise drawn, far away, where one of its
    /// earlier poses put it, for as long as it stands.
    pub(super) fn relay_stops(&mut self, now: Instant) {
        for k in 0..self.joined.len() {
            let idx = self.joined[k];
            let Some(p) = self.slots[idx].as_mut() else {
                continue;
            };
            if now.saturating_duration_since(p.last_move) < self.config.stopped_after {
                continue;
            }
            let Some((m, update)) = p.owed.take() else {
                continue;
            };
            let config = Arc::clone(&self.config);
            self.relay(idx, &m, |d2, seen| !seen || !config.tiers.due(update, d2));
        }
    }

    /// Relays mover `idx`'s move `m` to the viewers `want(d2, seen)` accepts; true when it
    /// skipped any.
    fn relay(&mut self, idx: usize, m: &PlayerMove, want: impl Fn(f32, bool) -> bool) -> bool {
        let p = self.slots[idx].as_mut().expect("moving player");
        let mover = (idx, p.gen);
        // Built only when someone gets it (the session id is a heap string); the id is
        // lent to it for the fan-out, which needs the room.
        let session = std::mem::take(&mut p.session);
        let relayed = || {
            ServerMessage::from(PlayerMoveRelayed {
                s: session.clone(),
                p: m.p,
                r: m.r,
                t: m.t,
                seq: m.seq,
                flags: m.flags,
            })
        };
        let skipped = Cell::new(false);
        self.fan_out(relayed, m.p, Some(idx), Some(mover), |d2, seen| {
            let send = want(d2, seen);
            skipped.set(skipped.get() || !send);
            send
        });
        if let Some(p) = self.slots[idx].as_mut() {
            p.session = session;
        }
        skipped.get()
    }

    /// The bodies stepped from `input:batch` (input_playout.rs): an ack to each sender, the
    /// new pose relayed like a move.
    pub(super) fn drive_inputs(&mut self) {
        let steps = crate::input_playout::steps_per_tick(self.config.tick_hz);
        for s in self.inputs.tick(self.tick, steps) {
            let (t, seq) = (now_ms(), Some(s.ack.applied));
            self.send_to(s.idx, &ServerMessage::from(s.ack));
            let m = PlayerMove {
                p: s.pos,
                r: s.heading,
                t,
                seq,
                flags: None,
            };
            self.on_move(s.idx, m, Instant::now());
        }
    }
}

pub(super) fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}
