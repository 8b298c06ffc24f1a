//! `player:join`: a spawn point, a display name no one else in the room has, the roster
//! and the clock to the newcomer, its arrival to everyone else.

use tuplet::Message;
use village::common::WorldPos;
use village::dispatch::ServerMessage;
use village::player::{PlayerJoined, PlayerRoster, RosterEntry};
use village::world::WorldClock;

use super::state::{now_ms, Room};

impl Room {
    pub(super) fn join(&mut self, idx: usize, j: village::player::PlayerJoin) {
        self.inputs.leave(idx);
        let spawn = match self.config.spawns.as_slice() {
            [] => {
                let a = self.joins as f32 * 2.399_963; // golden angle: an even ring
                let r = 5.0 + (self.joins % 8) as f32 * 3.0;
                [r * a.cos(), 0.0, r * a.sin()]
            }
            spawns => spawns[self.joins % spawns.len()],
        };
        self.joins += 1;
        let p = self.slots[idx].as_mut().expect("joining player");
        p.joined = true;
        if let Err(at) = self.joined.binary_search(&idx) {
            self.joined.insert(at, idx);
        }
        // A returning player starts where it was.
        let (spawn, heading) = p.start.take().map_or((spawn, 0.0), |s| (s.pos, s.heading));
        p.pos = spawn;
        p.heading = heading;
        p.saved_pos = spawn;
        // A signed-in player is called what its token says (its name reserved from now
        // on); a guest what it asks for, unless that hides characters or looks like a
        // signed-in player's name: then it gets a generated one (a join never fails on
        // a name).
        let generated = format!("Villager{}", p.gen);
        let wanted = match &p.who {
            Some(c) => {
                let name = crate::names::clean(&c.name).unwrap_or(format!("Player{}", c.account));
                self.sessions.reserve(crate::names::key(&name), c.account);
                name
            }
            None if j.name.is_empty() => generated,
            None => match crate::names::clean(&j.name) {
                Ok(name) if self.sessions.is_reserved(&crate::names::key(&name)) => {
                    self.stats
                        .record_drop(village::player::PlayerJoin::NAME, "name_reserved");
                    generated
                }
                Ok(name) => name,
                Err(e) => {
                    self.stats
                        .record_drop(village::player::PlayerJoin::NAME, e.code());
                    generated
                }
            },
        };
        let taken: Vec<&str> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().filter(|o| o.joined && i != idx))
            .map(|o| o.name.as_str())
            .collect();
        let name = unique_name(&wanted, &taken);
        let p = self.slots[idx].as_mut().expect("joining player");
        p.name = name;
        p.snapshot.want_keyframe();
        self.presence.joined(&p.session);
        let joined = ServerMessage::from(PlayerJoined {
            s: p.session.clone(),
            name: p.name.clone(),
            colour: j.colour,
            spawn: WorldPos {
                x: spawn[0],
                y: spawn[1],
                z: spawn[2],
            },
            heading,
            guest: p.guest,
            outfit: j.outfit,
        });
        let roster = self.roster(idx);
        let clock = self.clock();
        self.send_to(idx, &roster);
        self.send_to(idx, &clock);
        self.fan_out(|| joined, spawn, None, None, |_, _| true);
    }

    /// Everyone joined but `idx`.
    pub(super) fn roster(&self, idx: usize) -> ServerMessage {
        ServerMessage::from(PlayerRoster {
            players: self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.as_ref().filter(|o| o.joined && i != idx))
                .take(39)
                .map(|o| RosterEntry {
                    s: o.session.clone(),
                    name: o.name.clone(),
                    colour: 0x88aa66,
                    p: o.pos,
                    vehicle: None,
                    guest: o.guest,
                })
                .collect(),
        })
    }

    pub(super) fn clock(&self) -> ServerMessage {
        ServerMessage::from(WorldClock {
            tick: self.tick,
            at: now_ms(),
            rate: self.config.tick_hz.clamp(1, 60) as u8,
        })
    }
}

/// `wanted`, or `wanted` with the first free number appended (`Ana 2`), so no two players
/// in a room share a display name (compared by look: [`crate::names::key`]); at most 24
/// bytes.
pub(super) fn unique_name(wanted: &str, taken: &[&str]) -> String {
    let taken: Vec<String> = taken.iter().map(|t| crate::names::key(t)).collect();
    let free = |n: &str| !taken.contains(&crate::names::key(n));
    if free(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|i| {
            let suffix = format!(" {i}");
            let mut base = wanted.to_string();
            while base.len() + suffix.len() > 24 {
                base.pop();
            }
            base + &suffix
        })
        .find(|n| free(n))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique_within_24_bytes() {
        assert_eq!(unique_name("Ana", &[]), "Ana");
        assert_eq!(unique_name("Ana", &["ana"]), "Ana 2");
        assert_eq!(unique_name("Ana", &["Ana", "Ana 2"]), "Ana 3");
        let long = "x".repeat(24);
        let got = unique_name(&long, &[&long]);
        assert_eq!(got.len(), 24);
        assert!(got.ends_with(" 2"));
    }
}
