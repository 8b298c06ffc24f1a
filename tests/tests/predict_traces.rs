//! Shared traces of prediction to now and of lag compensation (`tuplet::netcode::{predict,
//! rewind}`), written here and replayed by the TypeScript runtime
//! (`tests/ts/tests/predict_traces.test.ts`), which must draw the same channels, keep the same
//! simulation state and counters, and see the same rewound worlds (within 1e-9: the two
//! languages' `cos`, `sin` and `exp` may differ in the last bit).
//!
//! `write_predict_traces` builds seeded scenarios, checks the invariants of each run here, and
//! writes `tests/fixtures/predict_traces.json`; it fails when the committed file differs
//! (`TUPLET_BLESS=1` rewrites it). Prediction: a car driven on the server (throttle and steer
//! changing now and then, a teleport), snapshots at 20 Hz over a jittery link, drawn at a
//! render delay and predicted to the local input's time (a stall past the cap, a horizon
//! under zero). Rewind: entities moving on straight lines (joining, leaving, teleporting,
//! turning across ±π), viewed at honest, lying, future and non-number times.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::netcode::predict::{Advance, Ahead, AHEAD_DEFAULTS};
use tuplet::netcode::reconcile::Layout;
use tuplet::netcode::rewind::{Rewind, REWIND_DEFAULTS};
use tuplet::netcode::wrap_angle;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root")
}

/// A small seeded generator (xorshift64*), so the traces are the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

/// A car with its last known controls (the city's driving step, 1/60 s).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Car {
    x: f64,
    y: f64,
    h: f64,
    v: f64,
    throttle: f64,
    steer: f64,
}

impl Advance for Car {
    fn step(&mut self) {
        let dt = 1.0 / 60.0;
        self.v = (self.v + self.throttle * 6.0 * dt).clamp(0.0, 30.0);
        self.h = wrap_angle(self.h + self.steer * 1.2 * dt * (self.v / 5.0).min(1.0));
        self.x += self.h.cos() * self.v * dt;
        self.y += self.h.sin() * self.v * dt;
    }
    fn channels(&self, out: &mut [f64]) {
        out[0] = self.x;
        out[1] = self.y;
        out[2] = self.h;
    }
}

const CAR: Layout = Layout {
    linear: 2,
    angle: 1,
};

fn car_json(c: &Car) -> Value {
    json!([c.x, c.y, c.h, c.v, c.throttle, c.steer])
}

/// `a` blended toward `b` by `t` (the heading on the shortest arc), with `b`'s controls.
fn lerp(a: &Car, b: &Car, t: f64) -> Car {
    Car {
        x: a.x + (b.x - a.x) * t,
        y: a.y + (b.y - a.y) * t,
        h: wrap_angle(a.h + wrap_angle(b.h - a.h) * t),
        v: a.v + (b.v - a.v) * t,
        ..*b
    }
}

/// One prediction trace: the events, what Rust drew, its counters, and the mean distance to
/// the truth at the input's time of the prediction and of the interpolated state.
fn predict_trace(seed: u64, frames: u32) -> (Vec<Value>, Vec<Value>, Value, f64, f64) {
    let mut rng = Rng::new(seed);
    let step_ms = 1000.0 / 60.0;
    // The server's car, one state per step (60 Hz): the truth.
    let mut truth = vec![Car {
        x: 0.0,
        y: 0.0,
        h: 2.9,
        v: 8.0,
        throttle: 1.0,
        steer: 0.3,
    }];
    let steps = frames as usize + 120;
    for s in 1..steps {
        let mut c = truth[s - 1];
        if s % 20 == 0 {
            c.throttle = [-1.0, 0.0, 1.0, 1.0][rng.below(4) as usize];
            c.steer = rng.unit() * 2.0 - 1.0;
        }
        c.step();
        if s == steps / 2 {
            c.x += 40.0; // a teleport: the start jumps, the prediction with it
        }
        if s == steps / 4 {
            // A crash: the car turns about at speed, far from where it was heading.
            c.h = wrap_angle(c.h + std::f64::consts::PI);
            c.v = 20.0;
        }
        truth.push(c);
    }
    // Snapshots every third step, each arriving 45–105 ms later (2% 150 ms more).
    let arrivals: Vec<f64> = (0..steps)
        .map(|s| {
            let spike = if rng.below(50) == 0 { 150.0 } else { 0.0 };
            s as f64 * step_ms + 45.0 + rng.unit() * 60.0 + spike
        })
        .collect();
    let mut ahead = Ahead::new(truth[0], CAR, AHEAD_DEFAULTS);
    let (mut events, mut out) = (Vec::new(), Vec::new());
    let (mut err_ahead, mut err_interp, mut counted) = (0.0, 0.0, 0u32);
    let mut now = 400.0;
    let mut prev_error = [0.0f64; 2];
    for f in 0..frames {
        let dt = 16.0 + rng.unit() * 2.0;
        now += dt;
        // The newest snapshot arrived by now, and the render time 150 ms behind it.
        let newest = (0..steps)
            .step_by(3)
            .filter(|&s| arrivals[s] <= now)
            .max()
            .unwrap_or(0);
        let drawn_at = (newest as f64 * step_ms - 150.0 + (f % 7) as f64).max(0.0);
        // The input pressed now is applied 250 ms after the render time (less now and then).
        let to = if f % 97 == 0 {
            drawn_at - 30.0
        } else {
            drawn_at + 250.0 + (f % 5) as f64
        };
        let render = if (300..330).contains(&f) {
            (drawn_at - 800.0).max(0.0) // a stalled render clock: a horizon past the cap
        } else {
            drawn_at
        };
        let a = ((render / step_ms).floor() as usize / 3) * 3;
        let b = (a + 3).min(newest);
        let t = if b > a {
            (render / step_ms - a as f64) / (b - a) as f64
        } else {
            0.0
        };
        // Interpolated position, the newest snapshot's velocity and controls.
        let mut start = lerp(&truth[a], &truth[b.max(a)], t.clamp(0.0, 1.0));
        start.v = truth[newest].v;
        start.throttle = truth[newest].throttle;
        start.steer = truth[newest].steer;
        let basis = newest as f64 * step_ms;
        if f == frames / 3 {
            ahead.reset();
            prev_error = [0.0; 2];
            events.push(json!(["reset"]));
        }
        let drawn = ahead.frame(&start, basis, render, to, dt).to_vec();
        events.push(json!(["frame", car_json(&start), basis, render, to, dt]));
        out.push(json!([drawn, car_json(ahead.state())]));
        // The easing moves the drawn car at most max_frame_ease a frame (apart from a rebase,
        // which keeps it where it was heading).
        let e = ahead.error();
        let eased = ((e[0] - prev_error[0]).powi(2) + (e[1] - prev_error[1]).powi(2)).sqrt();
        prev_error = [e[0], e[1]];
        let rebased = events.len() >= 2 && {
            let p = &events[events.len() - 2];
            p[0] == "frame" && p[2] != json!(basis)
        };
        assert!(
            rebased || eased <= AHEAD_DEFAULTS.max_frame_ease + 1e-12,
            "seed {seed} frame {f}: the easing moved {eased} m"
        );
        let target = ((to / step_ms).round() as usize).min(steps - 1);
        if to > render && to - render < 500.0 && f < 400 {
            let at = &truth[target];
            err_ahead += ((drawn[0] - at.x).powi(2) + (drawn[1] - at.y).powi(2)).sqrt();
            err_interp += ((start.x - at.x).powi(2) + (start.y - at.y).powi(2)).sqrt();
            counted += 1;
        }
    }
    let s = ahead.stats();
    let stats = json!({
        "frames": s.frames, "rebases": s.rebases, "corrections": s.corrections,
        "snaps": s.snaps, "maxDisagreement": s.max_disagreement, "capped": s.capped,
    });
    let n = f64::from(counted.max(1));
    (events, out, stats, err_ahead / n, err_interp / n)
}

/// Entity `id`'s true state at `t_ms`: a straight line with a steady turn, `None` while out
/// of the world (ids 5 and 6 come and go); id 3 jumps 50 m at 4 s.
fn entity(id: u32, t_ms: f64) -> Option<[f64; 3]> {
    let s = t_ms / 1000.0;
    if (id == 5 && (2.0..3.0).contains(&s)) || (id == 6 && s < 1.5) {
        return None;
    }
    let jump = if id == 3 && s >= 4.0 { 50.0 } else { 0.0 };
    let id = f64::from(id);
    Some([
        id + s * (id - 3.0) + jump,
        -id * 2.0 + s * 0.5 * id,
        wrap_angle(3.0 + id * 0.1 + s * (id - 2.5) * 0.4),
    ])
}

/// One rewind trace: ticks recorded at 60 Hz, views every fourth tick (honest, lying, future,
/// non-number). Returns the events and the views Rust answered.
fn rewind_trace(seed: u64, ticks: u32) -> (Vec<Value>, Vec<Value>, Value) {
    let mut rng = Rng::new(seed);
    let s = REWIND_DEFAULTS;
    let mut r = Rewind::new(CAR, s);
    let (mut events, mut out) = (Vec::new(), Vec::new());
    for tick in 0..ticks {
        let now = f64::from(tick) * s.tick_ms;
        r.record(tick, now);
        let mut ids: Vec<u32> = (1..=6).collect();
        if tick % 10 == 0 {
            ids.reverse(); // another order now and then
        }
        let mut put = Vec::new();
        for id in ids {
            if let Some(c) = entity(id, now) {
                assert!(r.put(id, &c));
                put.push(json!([id, c]));
            }
        }
        events.push(json!(["record", tick, now, put]));
        if tick % 4 != 3 {
            continue;
        }
        let view = match rng.below(10) {
            0 => now - 600.0 - rng.unit() * 5000.0, // older than the cap: a lying client
            1 => now + 1.0 + rng.unit() * 100.0,    // in the future
            2 => f64::NAN,
            _ => now - 100.0 - rng.unit() * 300.0, // an honest view time
        };
        let at = r.view(view).expect("a record");
        let clamped = (now - s.max_rewind_ms).max(0.0);
        if view.is_nan() || view > now {
            assert_eq!(at, now);
        } else {
            assert_eq!(at, view.max(clamped), "view {view} at {now}");
        }
        let mut seen = Vec::new();
        for i in 0..r.len() {
            let (id, c) = (r.id(i), r.channels(i));
            // Straight lines blend exactly, away from comings, goings and the jump.
            let near_change = |t: f64| {
                [1500.0, 2000.0, 3000.0, 4000.0]
                    .iter()
                    .any(|e| (t - e).abs() < 20.0)
            };
            if !near_change(at) {
                let want = entity(id, at).expect("in the world at the view time");
                for k in 0..2 {
                    assert!(
                        (c[k] - want[k]).abs() < 1e-9,
                        "{id} at {at}: {c:?} {want:?}"
                    );
                }
                assert!(wrap_angle(c[2] - want[2]).abs() < 1e-9);
            }
            seen.push(json!([id, c]));
        }
        let view_json = if view.is_nan() {
            Value::Null
        } else {
            json!(view)
        };
        events.push(json!(["view", view_json]));
        out.push(json!([at, seen]));
    }
    let st = r.stats();
    assert!(st.capped > 0 && st.ahead > 0 && st.invalid > 0, "{st:?}");
    let stats = json!({
        "records": st.records, "dropped": st.dropped, "restarts": st.restarts, "views": st.views,
        "capped": st.capped, "ahead": st.ahead, "invalid": st.invalid,
    });
    (events, out, stats)
}

/// Writes `tests/fixtures/predict_traces.json`; fails when the committed file differs.
#[test]
fn write_predict_traces() {
    let mut predict = Vec::new();
    for seed in 1..=3u64 {
        let (events, out, stats, ahead_err, interp_err) = predict_trace(seed, 900);
        eprintln!("seed {seed}: predicted {ahead_err:.3} m off, interpolated {interp_err:.3} m off; {stats}");
        // Predicting to the input's time is closer to where the car is then than drawing it
        // at the render time: the point of the piece.
        assert!(
            ahead_err < interp_err * 0.5,
            "seed {seed}: predicted {ahead_err} m off, interpolated {interp_err} m off"
        );
        for key in ["rebases", "corrections", "snaps", "capped"] {
            assert!(stats[key].as_u64().unwrap() > 0, "seed {seed}: no {key}");
        }
        predict.push(json!({
            "name": format!("car/{seed}"),
            "start": car_json(&Car { x: 0.0, y: 0.0, h: 2.9, v: 8.0, throttle: 1.0, steer: 0.3 }),
            "events": events,
            "out": out,
            "stats": stats,
        }));
    }
    let mut rewind = Vec::new();
    for seed in 1..=2u64 {
        let (events, out, stats) = rewind_trace(seed, 420);
        rewind.push(json!({
            "name": format!("world/{seed}"),
            "events": events,
            "out": out,
            "stats": stats,
        }));
    }
    let text = serde_json::to_string(&json!({
        "about": "written by tests/tests/predict_traces.rs; replayed by tests/ts/tests/predict_traces.test.ts",
        "predict": predict,
        "rewind": rewind,
    }))
    .unwrap()
        + "\n";
    let path = root().join("tests/fixtures/predict_traces.json");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/fixtures/predict_traces.json is stale: TUPLET_BLESS=1"
    );
}
