//! Shared traces of the village's walking step (`village::walk::step`), written here and
//! replayed by its TypeScript twin (`examples/village/ts/walk.ts`, in
//! `tests/ts/tests/walk_traces.test.ts`), which must reach the same body after every frame
//! (to 1e-5 m and 1e-6 rad: the two languages' `cos` and `sin` may differ in the last bit).
//!
//! `write_walk_traces` builds seeded walks (walking, sprinting, standing, turning across ±π,
//! running into the map's edge, every other button pressed at random), checks the speeds
//! here, and writes `tests/fixtures/walk_traces.json`; it fails when the committed file
//! differs (`TUPLET_BLESS=1` rewrites it).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use village::input::{Buttons, InputFrame};
use village::walk::{self, Body, MAP, SPRINT, WALK};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root")
}

/// A small seeded generator (xorshift64*), so the traces are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random frame: `look` in whole milliradians (as the wire carries it).
fn frame(rng: &mut Rng, turn: i64) -> InputFrame {
    let bits = rng.next();
    let b = |i: u32| bits >> i & 1 == 1;
    let buttons = Buttons {
        forward: rng.below(4) != 0,
        back: b(1),
        left: b(2),
        right: b(3),
        jump: b(4),
        sprint: b(5),
        interact: b(6),
        primary: b(7),
        aim: b(8),
        brake: b(10),
        horn: b(11),
    };
    let yaw = (rng.below(2 * turn as u64 + 1) as i64 - turn) as f32 / 1000.0;
    let dt = [16, 17, 16, 33, 1, 100][rng.below(6) as usize];
    InputFrame {
        dt,
        buttons,
        look: [yaw, 0.0],
        steer: 0,
        view: None,
        ahead: None,
    }
}

fn frame_json(f: &InputFrame) -> Value {
    let b = &f.buttons;
    let pressed: Vec<&str> = [
        ("forward", b.forward),
        ("back", b.back),
        ("left", b.left),
        ("right", b.right),
        ("jump", b.jump),
        ("sprint", b.sprint),
        ("interact", b.interact),
        ("primary", b.primary),
        ("aim", b.aim),
        ("brake", b.brake),
        ("horn", b.horn),
    ]
    .into_iter()
    .filter_map(|(n, on)| on.then_some(n))
    .collect();
    json!([f.dt, pressed, f.look[0]])
}

fn body_json(b: &Body) -> Value {
    json!([b.pos[0], b.pos[1], b.pos[2], b.heading])
}

/// One walk of `frames` frames from `start`, turning up to `turn` mrad a frame.
fn trace(name: &str, seed: u64, start: Body, frames: usize, turn: i64) -> Value {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut body = start;
    let mut steps = Vec::new();
    for _ in 0..frames {
        let f = frame(&mut rng, turn);
        let before = body;
        walk::step(&mut body, &f);
        // The speed the frame says, unless the map's edge stopped it.
        let v = match (f.buttons.forward, f.buttons.sprint) {
            (true, true) => SPRINT,
            (true, false) => WALK,
            _ => 0.0,
        };
        let moved = (body.pos[0] - before.pos[0]).hypot(body.pos[2] - before.pos[2]);
        let edge = body.pos[0].abs() == MAP || body.pos[2].abs() == MAP;
        let want = v * f32::from(f.dt) / 1000.0;
        assert!(
            edge || (moved - want).abs() < 1e-3 * want.max(1.0),
            "{name}: {moved} vs {want}"
        );
        assert!(
            moved <= want + 1e-3,
            "{name}: never faster than the frame says"
        );
        assert!((-std::f32::consts::PI..std::f32::consts::PI).contains(&body.heading));
        assert_eq!(body.pos[1], start.pos[1], "walking never changes y");
        steps.push(json!([frame_json(&f), body_json(&body)]));
    }
    json!({ "name": name, "start": body_json(&start), "steps": steps })
}

#[test]
fn write_walk_traces() {
    let origin = Body::default();
    let traces = vec![
        trace("stroll", 1, origin, 600, 20),
        trace(
            "turning across pi",
            2,
            Body {
                pos: [3.0, 1.5, -2.0],
                heading: 3.1,
            },
            600,
            200,
        ),
        trace(
            "east edge",
            3,
            Body {
                pos: [MAP - 0.5, 0.0, 10.0],
                heading: 0.0,
            },
            300,
            2,
        ),
        trace(
            "south-west corner",
            4,
            Body {
                pos: [-MAP + 0.2, 0.0, -MAP + 0.2],
                heading: -2.35,
            },
            300,
            5,
        ),
        trace(
            "far from the origin",
            5,
            Body {
                pos: [1234.56, 0.0, -4321.0],
                heading: 1.0,
            },
            600,
            50,
        ),
    ];
    let text = serde_json::to_string(&json!({ "walk": traces })).unwrap() + "\n";
    let path = root().join("tests/fixtures/walk_traces.json");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/fixtures/walk_traces.json is stale: TUPLET_BLESS=1"
    );
}
