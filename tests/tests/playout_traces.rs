//! Shared traces of input playout and reconciliation (`tuplet::netcode`), written here and
//! replayed by the TypeScript runtime (`tests/ts/tests/playout_traces.test.ts`), which must
//! apply the same frames on the same steps, keep the same counters, and draw the same
//! channels (within 1e-9 m: the two languages' `cos`, `sin` and `exp` may differ in the
//! last bit).
//!
//! `write_playout_traces` builds seeded scenarios (batches over jittery links, resent and
//! overlapping batches, gaps, frames far ahead and far behind, ten times the rate, sequence
//! numbers wrapping; predictions reconciled against a server that lags and sometimes
//! disagrees), checks the invariants of each run here, and writes
//! `tests/fixtures/playout_traces.json`; it fails when the committed file differs
//! (`TUPLET_BLESS=1` rewrites it).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::netcode::playout::{Playout, StepState};
use tuplet::netcode::reconcile::{Layout, Predict, Reconciler, RECONCILE_DEFAULTS};

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
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

/// One playout event: a batch (`first`, `n` frames whose values are their own numbers) or
/// a world step.
#[derive(Clone, Copy)]
enum Ev {
    Push(u32, u32),
    Step,
}

/// The kinds of sender a scenario models.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Four frames every four steps, each batch delayed by `base + jitter` steps, in order
    /// (a WebSocket), now and then held longer.
    Link { jitter: u32, spike: u32 },
    /// As `Link`, with every batch resent and every third one overlapping the next.
    Resent,
    /// Frames missing now and then (a client that skipped numbers).
    Gaps,
    /// A client numbering far ahead, then far behind, then normally.
    FarAheadBehind,
    /// Ten batches every four steps.
    TenTimes,
    /// Sequence numbers crossing 2^32.
    Wrap,
}

fn scenario(kind: Kind, seed: u64, steps: u32) -> Vec<Ev> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut first: u32 = match kind {
        Kind::Wrap => u32::MAX - 100,
        _ => rng.below(1000),
    };
    // Batches arrive at `at` steps, in order: `at` never decreases.
    let mut arrivals: Vec<(u32, u32, u32)> = Vec::new();
    let mut last_at = 0;
    for t in (0..steps).step_by(4) {
        let (jitter, spike) = match kind {
            Kind::Link { jitter, spike } => (jitter, spike),
            _ => (2, 0),
        };
        let mut delay = 2 + rng.below(jitter + 1);
        if spike > 0 && rng.below(50) == 0 {
            delay += rng.below(spike + 1);
        }
        let at = (t + delay).max(last_at);
        last_at = at;
        match kind {
            Kind::Resent => {
                arrivals.push((at, first, 4));
                arrivals.push((at + rng.below(3), first, 4));
                if t % 12 == 0 {
                    arrivals.push((at, first.wrapping_add(2), 4));
                }
            }
            Kind::Gaps => {
                if rng.below(8) == 0 {
                    arrivals.push((at, first.wrapping_add(2), 2));
                } else {
                    arrivals.push((at, first, 4));
                }
            }
            Kind::FarAheadBehind => {
                if t == steps / 3 {
                    arrivals.push((at, first.wrapping_add(1_000_000), 8));
                    first = first.wrapping_add(1_000_008);
                    continue;
                }
                if t == steps / 2 {
                    arrivals.push((at, first.wrapping_sub(2_000_000), 8));
                }
                arrivals.push((at, first, 4));
            }
            Kind::TenTimes => {
                for _ in 0..10 {
                    arrivals.push((at, first, 4));
                    first = first.wrapping_add(4);
                }
                continue;
            }
            _ => arrivals.push((at, first, 4)),
        }
        first = first.wrapping_add(4);
    }
    arrivals.sort_by_key(|a| a.0);
    let mut events = Vec::new();
    let mut k = 0;
    for step in 0..steps {
        while k < arrivals.len() && arrivals[k].0 <= step {
            events.push(Ev::Push(arrivals[k].1, arrivals[k].2));
            k += 1;
        }
        events.push(Ev::Step);
    }
    events
}

fn state_name(s: StepState) -> &'static str {
    match s {
        StepState::Idle => "idle",
        StepState::Priming => "priming",
        StepState::Applied => "applied",
        StepState::GapWait => "gapWait",
        StepState::Underrun => "underrun",
    }
}

/// Runs a playout trace: per step `[state, held, target, applied seqs...]`, and the counters.
fn run_playout(events: &[Ev]) -> (Vec<Value>, Value) {
    let mut p = Playout::<u32>::new();
    let cap = p.settings().capacity;
    let mut log = Vec::new();
    let mut last: Option<u32> = None;
    for ev in events {
        match *ev {
            Ev::Push(first, n) => {
                let frames: Vec<u32> = (0..n).map(|k| first.wrapping_add(k)).collect();
                p.push(first, &frames);
                assert!(p.held() <= cap, "held {} past the cap", p.held());
            }
            Ev::Step => {
                let mut row = vec![];
                let r = p.step(|seq, frame| {
                    assert_eq!(seq, frame, "a frame applied under another number");
                    if let Some(l) = last {
                        assert!((seq.wrapping_sub(l) as i32) > 0, "applied {seq} after {l}");
                    }
                    last = Some(seq);
                    row.push(json!(seq));
                });
                assert_eq!(r.applied as usize, row.len());
                let mut out = vec![
                    json!(state_name(r.state)),
                    json!(p.held()),
                    json!(p.target()),
                ];
                out.extend(row);
                log.push(Value::Array(out));
            }
        }
    }
    let s = p.stats();
    assert_eq!(
        s.received,
        s.applied + s.duplicates + s.stale + s.dropped + u64::from(p.held())
    );
    let stats = json!({
        "received": s.received, "applied": s.applied, "duplicates": s.duplicates,
        "stale": s.stale, "skipped": s.skipped, "dropped": s.dropped,
        "underruns": s.underruns, "shrinks": s.shrinks, "catchups": s.catchups,
        "lastApplied": p.last_applied(),
    });
    (log, stats)
}

/// A car for the reconciliation traces: heading, speed, position (the city's driving step).
#[derive(Debug, Clone, PartialEq)]
struct Car {
    x: f64,
    y: f64,
    h: f64,
    v: f64,
}

/// One input frame: throttle −1..1 and steer −1..1, 1/60 s.
#[derive(Debug, Clone, Copy)]
struct Frame {
    throttle: f64,
    steer: f64,
}

impl Predict for Car {
    type Input = Frame;
    fn step(&mut self, f: &Frame) {
        let dt = 1.0 / 60.0;
        self.v = (self.v + f.throttle * 6.0 * dt).clamp(0.0, 30.0);
        self.h += f.steer * 1.2 * dt * (self.v / 5.0).min(1.0);
        self.x += self.h.cos() * self.v * dt;
        self.y += self.h.sin() * self.v * dt;
    }
    fn channels(&self, out: &mut [f64]) {
        out[0] = self.x;
        out[1] = self.y;
        out[2] = self.h;
    }
}

const CAR_LAYOUT: Layout = Layout {
    linear: 2,
    angle: 1,
};

fn car_json(c: &Car) -> Value {
    json!([c.x, c.y, c.h, c.v])
}

/// A reconciliation trace: predictions each 1/60 s, a server `lag` frames behind sending its
/// state every third frame (sometimes pushed aside: a bump the client could not predict),
/// drawn frames at uneven intervals. Returns the events and what Rust drew.
fn reconcile_trace(seed: u64, frames: u32) -> (Vec<Value>, Vec<Value>, Value) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let start = Car {
        x: 0.0,
        y: 0.0,
        h: 0.3,
        v: 0.0,
    };
    let mut r = Reconciler::new(start.clone(), 500, CAR_LAYOUT, RECONCILE_DEFAULTS);
    let mut server = start;
    let mut inputs: Vec<Frame> = Vec::new();
    let mut applied = 0usize;
    let mut events = Vec::new();
    let mut drawn = Vec::new();
    for t in 0..frames {
        let f = Frame {
            throttle: if rng.below(5) == 0 { -1.0 } else { 1.0 },
            steer: (rng.unit() * 2.0 - 1.0) * if t % 120 < 60 { 1.0 } else { 0.2 },
        };
        let seq = r.predict(f);
        assert_eq!(seq, 500 + t);
        inputs.push(f);
        events.push(json!(["predict", f.throttle, f.steer]));
        if t % 3 == 2 {
            let lag = 6 + rng.below(14) as usize;
            let upto = inputs.len().saturating_sub(lag);
            while applied < upto {
                server.step(&inputs[applied]);
                applied += 1;
            }
            if rng.below(10) == 0 {
                // A bump: the server's car is somewhere the client did not predict.
                server.x += rng.unit() - 0.5;
                server.y += if rng.below(8) == 0 { 6.0 } else { 0.1 };
            }
            if applied > 0 {
                let acked = 500 + applied as u32 - 1;
                let c = r.reconcile(&server, acked).expect("a fresh ack");
                events.push(json!(["reconcile", car_json(&server), acked]));
                drawn.push(json!(["correction", c.distance, c.replayed, c.snapped]));
            }
        }
        let dt = 16.0 + rng.unit() * 2.0;
        events.push(json!(["frame", dt]));
        drawn.push(json!(["drawn", r.frame(dt).to_vec()]));
    }
    let s = r.stats();
    assert!(
        s.max_eased <= RECONCILE_DEFAULTS.max_frame_ease + 1e-12,
        "the easing moved the avatar {} m in a frame",
        s.max_eased
    );
    let stats = json!({
        "reconciled": s.reconciled, "corrections": s.corrections, "snaps": s.snaps,
        "maxCorrection": s.max_correction, "maxEased": s.max_eased, "forgotten": s.forgotten,
        "stale": s.stale,
    });
    (events, drawn, stats)
}

fn events_json(events: &[Ev]) -> Value {
    Value::Array(
        events
            .iter()
            .map(|e| match *e {
                Ev::Push(first, n) => json!([first, n]),
                Ev::Step => json!(0),
            })
            .collect(),
    )
}

/// Writes `tests/fixtures/playout_traces.json`; fails when the committed file differs.
#[test]
fn write_playout_traces() {
    let kinds = [
        (
            "none",
            Kind::Link {
                jitter: 0,
                spike: 0,
            },
        ),
        (
            "clean",
            Kind::Link {
                jitter: 1,
                spike: 0,
            },
        ),
        (
            "wifi",
            Kind::Link {
                jitter: 2,
                spike: 7,
            },
        ),
        (
            "far",
            Kind::Link {
                jitter: 2,
                spike: 9,
            },
        ),
        (
            "jitter80",
            Kind::Link {
                jitter: 5,
                spike: 0,
            },
        ),
        ("resent", Kind::Resent),
        ("gaps", Kind::Gaps),
        ("farAheadBehind", Kind::FarAheadBehind),
        ("tenTimes", Kind::TenTimes),
        ("wrap", Kind::Wrap),
    ];
    let mut playout = Vec::new();
    for (name, kind) in kinds {
        for seed in 1..=2u64 {
            let events = scenario(kind, seed, 600);
            let (log, stats) = run_playout(&events);
            playout.push(json!({
                "name": format!("{name}/{seed}"),
                "events": events_json(&events),
                "steps": log,
                "stats": stats,
            }));
        }
    }
    let mut reconcile = Vec::new();
    for seed in 1..=3u64 {
        let (events, drawn, stats) = reconcile_trace(seed, 600);
        reconcile.push(json!({
            "name": format!("car/{seed}"),
            "start": [0.0, 0.0, 0.3, 0.0],
            "firstSeq": 500,
            "events": events,
            "out": drawn,
            "stats": stats,
        }));
    }
    let text = serde_json::to_string(&json!({
        "about": "written by tests/tests/playout_traces.rs; replayed by tests/ts/tests/playout_traces.test.ts",
        "playout": playout,
        "reconcile": reconcile,
    }))
    .unwrap()
        + "\n";
    let path = root().join("tests/fixtures/playout_traces.json");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/fixtures/playout_traces.json is stale: TUPLET_BLESS=1"
    );
}

/// The hostile senders hold no more than the cap and lose nothing a well-behaved sender sent.
#[test]
fn hostile_senders_stay_bounded() {
    for (kind, seed) in [
        (Kind::FarAheadBehind, 3),
        (Kind::TenTimes, 3),
        (Kind::Resent, 3),
        (Kind::Gaps, 3),
    ] {
        let events = scenario(kind, seed, 600);
        let (_, stats) = run_playout(&events);
        match kind {
            Kind::Resent => {
                assert_eq!(stats["dropped"], 0, "{kind:?}");
                assert_eq!(stats["skipped"], 0, "{kind:?}");
                assert!(stats["duplicates"].as_u64().unwrap() > 100, "{kind:?}");
            }
            Kind::TenTimes => assert!(stats["dropped"].as_u64().unwrap() > 1000, "{kind:?}"),
            Kind::FarAheadBehind => {
                assert!(stats["stale"].as_u64().unwrap() >= 8, "{kind:?}");
                assert!(stats["dropped"].as_u64().unwrap() > 0, "{kind:?}");
            }
            Kind::Gaps => assert!(stats["skipped"].as_u64().unwrap() > 0, "{kind:?}"),
            _ => {}
        }
    }
}
