//! The simulated village: entities walking, trotting, riding and driving with pauses, idle
//! ones fidgeting, players moving among them, and each player's view (the 50 entities
//! nearest to it, with hysteresis so an entity at the edge does not flicker in and out).
//! Deterministic per seed ([`tuplet::SampleRng`]).

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use tuplet::SampleRng;

/// The lab's fixed parameters (the lab: 50 clients, 50 entities in view, 20 Hz).
pub const CLIENTS: usize = 50;
/// Entities in each client's view.
pub const VIEW: usize = 50;
/// Server ticks per second.
pub const RATE: u32 = 20;
/// Entities in the world: half of them move (with pauses), half stand (and fidget).
pub const ENTITIES: usize = 400;
/// The world is a square of this half-size, metres (views are about 80 m in radius).
const HALF: f64 = 200.0;
/// An entity in view stays in view until it is this much farther than the 50th nearest.
const KEEP: f64 = 1.15;

/// One entity's state on the wire: quantized ints exactly as the compact shape carries
/// them (`pos` in cm, `heading` in mrad, `speed` in 1/64 m/s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Entity id (the key).
    pub id: u32,
    /// `EntityKind` discriminant.
    pub kind: u8,
    /// Position, cm.
    pub pos: [i32; 3],
    /// Heading, mrad.
    pub heading: i32,
    /// Speed, 1/64 m/s.
    pub speed: i32,
    /// Animation clip.
    pub anim: u8,
    /// Owner (9 characters), for pets and some vehicles.
    pub owner: Option<String>,
    /// Name tag.
    pub label: Option<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Motion {
    Walk,
    Trot,
    Ride,
    Drive,
    Stand,
}

#[derive(Clone, Copy)]
enum Phase {
    Going { wx: f64, wy: f64, cruise: f64 },
    Paused { until: u32 },
}

#[derive(Clone)]
struct Body {
    motion: Motion,
    x: f64,
    y: f64,
    heading: f64,
    speed: f64,
    phase: Phase,
    wander: f64,
    anim: u8,
    fidget_at: u32,
}

/// The world at one tick: every entity's record and every client's view (ids, sorted).
pub struct Tick {
    /// Server tick number.
    pub tick: u32,
    /// Every entity, by index (`records[i].id` is entity `i`'s id).
    pub records: Vec<Record>,
    /// Each client's entities in view, as indices into `records`, sorted by id.
    pub views: Vec<Vec<usize>>,
}

/// The simulation for one seed.
pub struct World {
    rng: SampleRng,
    tick: u32,
    bodies: Vec<Body>,
    records: Vec<Record>,
    players: Vec<Body>,
    views: Vec<Vec<usize>>,
}

fn terrain(x: f64, y: f64) -> f64 {
    1.5 * (x / 37.0).sin() * (y / 53.0).cos() + 0.8 * ((x + y) / 91.0).sin() + 2.0
}

fn wrap(a: f64) -> f64 {
    let mut a = a % TAU;
    if a > PI {
        a -= TAU;
    } else if a <= -PI {
        a += TAU;
    }
    a
}

fn q(x: f64, scale: f64) -> i32 {
    (x * scale).round() as i32
}

const NAMES: [&str; 12] = [
    "Ann",
    "Baker Tom",
    "Old Fisher Marguerite",
    "Ivo",
    "Mayor Quill",
    "Rosa the Smith",
    "Pip",
    "Sir Waddles",
    "Biscuit",
    "Nell",
    "Ferryman Otto",
    "Juniper",
];

impl World {
    /// A world for `seed`, at tick 0 (nothing simulated yet).
    pub fn new(seed: u64) -> World {
        let mut rng = SampleRng::new(seed);
        let mut bodies = Vec::with_capacity(ENTITIES);
        let mut records = Vec::with_capacity(ENTITIES);
        let mut id = 1000u32;
        for i in 0..ENTITIES {
            id += 1 + rng.below(6) as u32;
            let moving = i % 2 == 0;
            let pick = rng.below(100);
            let (motion, kind) = if moving {
                match pick {
                    0..=39 => (Motion::Walk, 1),
                    40..=54 => (Motion::Trot, 2),
                    55..=89 => (Motion::Drive, 3),
                    _ => (Motion::Ride, 5),
                }
            } else {
                match pick {
                    0..=44 => (Motion::Stand, 1),
                    45..=79 => (Motion::Stand, 3),
                    80..=94 => (Motion::Stand, 4),
                    _ => (Motion::Stand, 2),
                }
            };
            let owner = match kind {
                2 => true,
                3 | 4 => rng.below(2) == 0,
                _ => false,
            }
            .then(|| format!("pl{:07}", rng.below(10_000_000)));
            let label = match kind {
                1 | 2 => rng.below(3) != 0,
                _ => false,
            }
            .then(|| NAMES[rng.below(NAMES.len())].to_string());
            let body = spawn(&mut rng, motion);
            records.push(Record {
                id,
                kind,
                pos: [0; 3],
                heading: 0,
                speed: 0,
                anim: 0,
                owner,
                label,
            });
            bodies.push(body);
        }
        let players = (0..CLIENTS)
            .map(|i| {
                spawn(
                    &mut rng,
                    if i % 2 == 0 {
                        Motion::Drive
                    } else {
                        Motion::Walk
                    },
                )
            })
            .collect();
        let mut w = World {
            rng,
            tick: 0,
            bodies,
            records,
            players,
            views: vec![Vec::new(); CLIENTS],
        };
        w.write_records();
        w.update_views();
        w
    }

    /// The current tick's state.
    pub fn snapshot(&self) -> Tick {
        Tick {
            tick: self.tick,
            records: self.records.clone(),
            views: self.views.clone(),
        }
    }

    /// Advances one tick (1/20 s): every body moves, fidgets or pauses, views follow.
    pub fn step(&mut self) {
        self.tick += 1;
        let tick = self.tick;
        for b in self.bodies.iter_mut() {
            advance(&mut self.rng, b, tick);
        }
        for p in self.players.iter_mut() {
            advance(&mut self.rng, p, tick);
        }
        self.write_records();
        self.update_views();
    }

    fn write_records(&mut self) {
        for (b, r) in self.bodies.iter().zip(self.records.iter_mut()) {
            r.pos = [q(b.x, 100.0), q(b.y, 100.0), q(terrain(b.x, b.y), 100.0)];
            let shown = wrap(b.heading + b.wander);
            r.heading = q(shown, 1000.0).clamp(-3142, 3142);
            r.speed = q(b.speed, 64.0).clamp(0, 3840);
            r.anim = b.anim;
        }
    }

    fn update_views(&mut self) {
        let mut dist: Vec<(f64, usize)> = Vec::with_capacity(ENTITIES);
        for (c, p) in self.players.iter().enumerate() {
            dist.clear();
            dist.extend(self.bodies.iter().enumerate().map(|(i, b)| {
                let (dx, dy) = (b.x - p.x, b.y - p.y);
                (dx * dx + dy * dy, i)
            }));
            dist.sort_by(|a, b| a.0.total_cmp(&b.0));
            let edge = dist[VIEW - 1].0 * KEEP * KEEP;
            let old = &self.views[c];
            let mut next: Vec<usize> = dist
                .iter()
                .filter(|&&(d, i)| d <= edge && old.contains(&i))
                .map(|&(_, i)| i)
                .take(VIEW)
                .collect();
            for &(_, i) in dist.iter() {
                if next.len() == VIEW {
                    break;
                }
                if !next.contains(&i) {
                    next.push(i);
                }
            }
            next.sort_by_key(|&i| self.records[i].id);
            self.views[c] = next;
        }
    }
}

fn spawn(rng: &mut SampleRng, motion: Motion) -> Body {
    let mut b = Body {
        motion,
        x: rng.float_in(-HALF * 0.9, HALF * 0.9),
        y: rng.float_in(-HALF * 0.9, HALF * 0.9),
        heading: rng.float_in(-3.1, 3.1),
        speed: 0.0,
        phase: Phase::Paused {
            until: rng.below(60) as u32,
        },
        wander: 0.0,
        anim: 0,
        fidget_at: 20 + rng.below(200) as u32,
    };
    if motion == Motion::Drive {
        b.heading = [0.0, FRAC_PI_2, PI, -FRAC_PI_2][rng.below(4)];
    }
    b
}

/// Cruise speed, m/s, of one leg: walking, trotting, riding, driving.
fn cruise(rng: &mut SampleRng, m: Motion) -> f64 {
    match m {
        Motion::Walk => rng.float_in(1.1, 1.6),
        Motion::Trot => rng.float_in(1.5, 3.5),
        Motion::Ride => rng.float_in(3.0, 8.0),
        Motion::Drive => rng.float_in(8.0, 16.0),
        Motion::Stand => 0.0,
    }
}

/// A new waypoint: vehicles drive along the street grid (one axis at a time), the rest
/// head anywhere nearby.
fn waypoint(rng: &mut SampleRng, b: &Body) -> (f64, f64) {
    let lim = HALF * 0.95;
    let (wx, wy) = if b.motion == Motion::Drive {
        let d = rng.float_in(40.0, 200.0) * if rng.coin() { 1.0 } else { -1.0 };
        if rng.coin() {
            (b.x + d, b.y)
        } else {
            (b.x, b.y + d)
        }
    } else {
        let reach = match b.motion {
            Motion::Walk => 40.0,
            Motion::Trot => 25.0,
            _ => 120.0,
        };
        (
            b.x + rng.float_in(-reach, reach),
            b.y + rng.float_in(-reach, reach),
        )
    };
    (wx.clamp(-lim, lim), wy.clamp(-lim, lim))
}

fn advance(rng: &mut SampleRng, b: &mut Body, tick: u32) {
    let dt = 1.0 / RATE as f64;
    if b.motion == Motion::Stand {
        // Idle: a fidget clip now and then, and a glance around.
        if tick >= b.fidget_at {
            b.anim = if b.anim == 0 {
                4 + rng.below(4) as u8
            } else {
                0
            };
            if rng.below(3) == 0 {
                b.heading = wrap(b.heading + rng.float_in(-1.0, 1.0));
            }
            b.fidget_at = tick + RATE * (2 + rng.below(10) as u32);
        }
        return;
    }
    match b.phase {
        Phase::Paused { until } => {
            b.speed = 0.0;
            b.anim = 0;
            if tick >= until {
                let (wx, wy) = waypoint(rng, b);
                b.phase = Phase::Going {
                    wx,
                    wy,
                    cruise: cruise(rng, b.motion),
                };
            }
        }
        Phase::Going { wx, wy, cruise } => {
            let (dx, dy) = (wx - b.x, wy - b.y);
            let dist = (dx * dx + dy * dy).sqrt();
            let (accel, turn) = match b.motion {
                Motion::Drive => (3.0, 1.2),
                Motion::Ride => (2.5, 2.0),
                _ => (2.0, 4.0),
            };
            // Turn toward the waypoint, at most `turn` rad/s.
            let want = dy.atan2(dx);
            let err = wrap(want - b.heading);
            b.heading = wrap(b.heading + err.clamp(-turn * dt, turn * dt));
            // Brake to stop at the waypoint, else reach cruise speed.
            let stop = b.speed * b.speed / (2.0 * accel);
            let target = if dist <= stop + 0.05 { 0.0 } else { cruise };
            b.speed = if b.speed < target {
                (b.speed + accel * dt).min(target)
            } else {
                (b.speed - accel * dt).max(target)
            };
            let step = (b.speed * dt).min(dist);
            b.x += b.heading.cos() * step;
            b.y += b.heading.sin() * step;
            if matches!(b.motion, Motion::Walk | Motion::Trot) {
                // People and pets do not walk like rails: a slow sway of the heading.
                b.wander = 0.12 * (tick as f64 * 0.07 + b.x * 0.01).sin();
            }
            b.anim = match b.motion {
                Motion::Drive => 3,
                _ if b.speed > 2.5 => 2,
                _ if b.speed > 0.1 => 1,
                _ => 0,
            };
            if dist < 0.05 || (b.speed == 0.0 && target == 0.0) {
                let pause = match b.motion {
                    Motion::Drive => rng.float_in(2.0, 10.0),
                    _ => rng.float_in(1.0, 8.0),
                };
                b.phase = Phase::Paused {
                    until: tick + (pause * RATE as f64) as u32,
                };
            }
        }
    }
}
