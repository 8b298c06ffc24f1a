//! The simulated world the room streams: birds around the square and NPCs walking their
//! rounds. Deterministic and cheap (closed-form paths), so the load test measures the
//! server, not a simulation.

use std::f32::consts::TAU;

use village::birds::{Bird, BirdState, Species};
use village::world::{EntityKind, NearbyEntity};

/// Birds and NPCs at the current tick.
#[derive(Debug)]
pub struct World {
    /// The village's birds (the bird stream's content).
    pub birds: Vec<Bird>,
    /// NPCs and pets, by id (the entity snapshot's content).
    pub npcs: Vec<NearbyEntity>,
}

impl World {
    /// The world with `birds` birds and `npcs` NPCs, at tick 0.
    pub fn new(birds: u16, npcs: u32) -> World {
        let mut w = World {
            birds: (0..birds)
                .map(|id| Bird {
                    id,
                    species: Species::Sparrow,
                    x: 0.0,
                    y: 2.0,
                    z: 0.0,
                    yaw: 0.0,
                    pitch: 0.0,
                    state: BirdState::Perched,
                    flap: 0.0,
                    scale: 1.0,
                })
                .collect(),
            npcs: (0..npcs)
                .map(|i| NearbyEntity {
                    id: 1000 + i,
                    kind: if i % 4 == 3 {
                        EntityKind::Pet
                    } else {
                        EntityKind::Npc
                    },
                    pos: [0.0; 3],
                    heading: 0.0,
                    speed: 1.25,
                    anim: 1,
                    owner: None,
                    label: (i % 4 != 3).then(|| format!("Villager {i}")),
                })
                .collect(),
        };
        w.step(0);
        w
    }

    /// The NPCs a player at `at` sees with view radius `radius` (ground distance), by id.
    pub fn in_view(&self, at: [f32; 3], radius: f32) -> impl Iterator<Item = &NearbyEntity> {
        let r2 = radius * radius;
        self.npcs
            .iter()
            .filter(move |e| tuplet::relay::dist2_xz(e.pos, at) <= r2)
    }

    /// Moves everything to where it is at `tick` (20 Hz).
    pub fn step(&mut self, tick: u32) {
        let t = tick as f32 / 20.0;
        for (i, b) in self.birds.iter_mut().enumerate() {
            let k = i as f32;
            let radius = 8.0 + (i % 9) as f32 * 6.0;
            let a = k * 0.77 + t * (0.2 + (i % 5) as f32 * 0.05);
            b.species = [
                Species::Sparrow,
                Species::Robin,
                Species::Pigeon,
                Species::Crow,
            ][i % 4];
            b.x = radius * a.cos();
            b.z = radius * a.sin();
            b.y = 3.0 + (i % 7) as f32 + (t + k).sin();
            b.yaw = wrap(a + std::f32::consts::FRAC_PI_2);
            b.pitch = 0.1 * (t * 2.0 + k).sin();
            b.state = if i % 6 == 0 {
                BirdState::Perched
            } else {
                BirdState::Flying
            };
            b.flap = (t * 4.0 + k * 0.1).fract();
            b.scale = 0.8 + (i % 5) as f32 * 0.1;
        }
        for (i, e) in self.npcs.iter_mut().enumerate() {
            let k = i as f32;
            let radius = 10.0 + (i % 12) as f32 * 12.0;
            let w = 1.25 / radius; // walking pace
            let a = k * 1.3 + t * w;
            e.pos = [radius * a.cos(), 0.0, radius * a.sin()];
            e.heading = wrap(a + std::f32::consts::FRAC_PI_2);
        }
    }
}

/// An angle in (-π, π].
fn wrap(a: f32) -> f32 {
    let a = a.rem_euclid(TAU);
    if a > std::f32::consts::PI {
        a - TAU
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_encodes() {
        let mut w = World::new(80, 24);
        for tick in [0, 1, 77, 20_000, 1_000_000] {
            w.step(tick);
            let birds = village::birds::BirdStream { b: w.birds.clone() };
            tuplet::to_vec(&birds).unwrap();
            for e in &w.npcs {
                tuplet::to_vec(e).unwrap();
            }
        }
    }
}
