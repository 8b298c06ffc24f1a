//! What the acknowledged-mode tests share: a seeded village world and a seeded lossy link.

#![allow(dead_code)]

use tuplet::SampleRng;
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

/// What the server's value looks like to a client: quantized, entities by key.
pub fn quantized(v: &WorldSnapshot) -> WorldSnapshot {
    let mut q: WorldSnapshot = tuplet::from_slice(&tuplet::to_vec(v).unwrap()).unwrap();
    q.entities.sort_by_key(|e| e.id);
    q
}

fn entity(rng: &mut SampleRng, id: u32) -> NearbyEntity {
    let f = |rng: &mut SampleRng, lo: f64, hi: f64| rng.float_in(lo, hi) as f32;
    NearbyEntity {
        id,
        kind: [EntityKind::Npc, EntityKind::Pet, EntityKind::Vehicle][rng.below(3)],
        pos: [
            f(rng, -400.0, 400.0),
            f(rng, -400.0, 400.0),
            f(rng, 0.0, 3.0),
        ],
        heading: f(rng, -3.0, 3.0),
        speed: f(rng, 0.0, 20.0),
        anim: rng.below(12) as u8,
        owner: (rng.below(4) == 0).then(|| "abcdefghi".to_string()),
        label: (rng.below(3) == 0).then(|| format!("e{id}")),
    }
}

/// A world of up to `most` entities that move, turn, join and leave.
pub struct World {
    pub rng: SampleRng,
    pub value: WorldSnapshot,
    most: usize,
    next_id: u32,
}

impl World {
    /// A seeded world starting with `start` entities.
    pub fn new(seed: u64, start: usize, most: usize) -> World {
        let mut rng = SampleRng::new(seed);
        let entities = (0..start as u32).map(|id| entity(&mut rng, id)).collect();
        World {
            rng,
            value: WorldSnapshot {
                tick: 1000,
                keyframe: false,
                entities,
                gone: Vec::new(),
            },
            most,
            next_id: start as u32,
        }
    }

    /// One tick: most entities move a little (some by less than a centimetre), a few change
    /// a whole field; now and then one joins or leaves.
    pub fn step(&mut self) {
        let rng = &mut self.rng;
        let w = &mut self.value;
        w.tick += 1;
        for e in w.entities.iter_mut() {
            match rng.below(4) {
                0 => {}
                1 => e.pos[0] += 0.004,
                _ => {
                    e.pos[0] = (e.pos[0] + rng.float_in(-1.5, 1.5) as f32).clamp(-4999.0, 4999.0);
                    e.pos[1] = (e.pos[1] + rng.float_in(-1.5, 1.5) as f32).clamp(-4999.0, 4999.0);
                    e.heading = rng.float_in(-3.1, 3.1) as f32;
                }
            }
            if rng.below(20) == 0 {
                e.anim = rng.below(12) as u8;
            }
        }
        if rng.below(8) == 0 && w.entities.len() < self.most {
            w.entities.push(entity(rng, self.next_id));
            self.next_id += 1;
        }
        if rng.below(10) == 0 && !w.entities.is_empty() {
            let i = rng.below(w.entities.len());
            w.entities.remove(i);
        }
    }
}

/// A seeded link: each packet is lost with probability `loss`, sent twice with probability
/// `dup`, and delayed by `delay` ticks plus up to `jitter` more (so packets overtake each
/// other).
pub struct Link<T> {
    rng: SampleRng,
    pub loss: f64,
    pub dup: f64,
    pub delay: u64,
    pub jitter: u64,
    queue: Vec<(u64, u64, T)>,
    order: u64,
}

impl<T: Clone> Link<T> {
    /// A link with these odds and delays.
    pub fn new(seed: u64, loss: f64, dup: f64, delay: u64, jitter: u64) -> Self {
        Link {
            rng: SampleRng::new(seed ^ 0x9e37_79b9_7f4a_7c15),
            loss,
            dup,
            delay,
            jitter,
            queue: Vec::new(),
            order: 0,
        }
    }

    /// Sends `packet` at tick `now`.
    pub fn send(&mut self, now: u64, packet: T) {
        let copies = if self.rng.float_in(0.0, 1.0) < self.dup {
            2
        } else {
            1
        };
        for _ in 0..copies {
            if self.rng.float_in(0.0, 1.0) < self.loss {
                continue;
            }
            let due = now + self.delay + self.rng.below(self.jitter as usize + 1) as u64;
            self.order += 1;
            self.queue.push((due, self.order, packet.clone()));
        }
    }

    /// The packets due by tick `now`, in arrival order.
    pub fn deliver(&mut self, now: u64) -> Vec<T> {
        let mut due: Vec<(u64, u64, T)> = Vec::new();
        let mut i = 0;
        while i < self.queue.len() {
            if self.queue[i].0 <= now {
                due.push(self.queue.swap_remove(i));
            } else {
                i += 1;
            }
        }
        due.sort_by_key(|(at, order, _)| (*at, *order));
        due.into_iter().map(|(_, _, p)| p).collect()
    }
}
