//! The bytes the TypeScript benchmark (`tests/ts/bench`, `npm run bench`) decodes, written by
//! the derived Rust encoders from realistic values: the relayed `player:move` of a running
//! player, an 80-bird `birds:stream` of one flock around the pond, a 50-entity
//! `world:snapshot` keyframe of the square (villagers, pets, carts, a boat).
//!
//! The files live in `tests/ts/bench/fixtures/` and are checked here byte for byte;
//! `TUPLET_BLESS=1 cargo test -p tuplet-tests --test bench_fixtures` rewrites them.

// Headings in radians near ±π are realistic values, not approximations of π.
#![allow(clippy::approx_constant)]

use std::path::{Path, PathBuf};

use village::birds::{Bird, BirdState, BirdStream, Species};
use village::player::{MoveFlags, PlayerMoveRelayed};
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ts/bench/fixtures")
}

/// A small deterministic generator (xorshift32): the same values on every machine.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// A value in `lo..hi`, in steps of `step` (what the wire keeps of it).
    fn range(&mut self, lo: f64, hi: f64, step: f64) -> f32 {
        let steps = ((hi - lo) / step) as u32;
        (lo + f64::from(self.next() % steps) * step) as f32
    }

    fn pick(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

fn player_move() -> PlayerMoveRelayed {
    PlayerMoveRelayed {
        s: "k3Jf9xQ2a".into(),
        p: [123.45, 1.5, -25.0],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
        flags: Some(MoveFlags {
            running: true,
            ..MoveFlags::default()
        }),
    }
}

fn birds() -> BirdStream {
    let mut rng = Rng(0x5eed_b1d5);
    let species = [
        Species::Sparrow,
        Species::Pigeon,
        Species::Gull,
        Species::Crow,
        Species::Robin,
    ];
    let states = [
        BirdState::Perched,
        BirdState::Hopping,
        BirdState::Flying,
        BirdState::Gliding,
    ];
    let b = (0..80)
        .map(|i| Bird {
            id: 300 + i,
            species: species[rng.pick(species.len() as u32) as usize],
            x: rng.range(-212.0, -142.0, 0.01),
            y: rng.range(0.0, 35.0, 0.01),
            z: rng.range(80.0, 150.0, 0.01),
            yaw: rng.range(-3.14, 3.14, 0.001),
            pitch: rng.range(-0.6, 0.6, 0.001),
            state: states[rng.pick(states.len() as u32) as usize],
            flap: rng.range(0.0, 1.0, 0.001),
            scale: rng.range(0.8, 1.3, 0.01),
        })
        .collect();
    BirdStream { b }
}

fn snapshot() -> WorldSnapshot {
    let mut rng = Rng(0x0051_7a7e);
    let names = ["Baker Ann", "Old Tom", "Postie", "Mayor Lin", "Fisher Jo"];
    let entities = (0..50)
        .map(|i| {
            let kind = match i % 10 {
                0..=4 => EntityKind::Npc,
                5..=7 => EntityKind::Pet,
                8 => EntityKind::Vehicle,
                _ => EntityKind::Boat,
            };
            let moving = rng.pick(3) != 0;
            NearbyEntity {
                id: 10_000 + i * 7,
                kind,
                pos: [
                    rng.range(-60.0, 60.0, 0.01),
                    rng.range(0.0, 4.0, 0.01),
                    rng.range(-60.0, 60.0, 0.01),
                ],
                heading: rng.range(-3.14, 3.14, 0.001),
                speed: if moving {
                    rng.range(0.5, 6.0, 1.0 / 64.0)
                } else {
                    0.0
                },
                anim: if moving { 2 } else { 0 },
                owner: (kind == EntityKind::Pet).then(|| format!("pl{:07}", 4000 + i)),
                label: (kind == EntityKind::Npc)
                    .then(|| names[(i as usize / 10) % names.len()].to_string()),
            }
        })
        .collect();
    WorldSnapshot {
        tick: 73_412,
        keyframe: true,
        entities,
        gone: vec![10_011, 10_032],
    }
}

fn check(name: &str, bytes: Vec<u8>) {
    let path = fixtures_dir().join(name);
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::create_dir_all(fixtures_dir()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        return;
    }
    let committed = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; rerun with TUPLET_BLESS=1", path.display()));
    assert!(
        committed == bytes,
        "{} is stale; rerun with TUPLET_BLESS=1",
        path.display()
    );
}

#[test]
fn the_benchmark_fixtures_are_what_rust_writes() {
    let mv = tuplet::to_vec(&player_move()).unwrap();
    assert_eq!(mv.len(), 36, "the relayed move with seq and flags");
    check("player-move.bin", mv);
    let birds = tuplet::to_vec(&birds()).unwrap();
    check("birds-stream.bin", birds);
    let snapshot = tuplet::to_vec(&snapshot()).unwrap();
    check("world-snapshot.bin", snapshot);
}
