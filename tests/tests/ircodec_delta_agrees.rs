//! The IR codec's delta `Tracker` and `Mirror` (`tuplet_codegen::ircodec::delta`, driven by
//! the loader's IR) and the derive's `tuplet::delta::{Tracker, Mirror}` agree byte for byte
//! on the village's delta messages over sequences of ticks: entities entering, changing
//! (by less than a quantum, a little, across their whole range), leaving, all replaced,
//! reordered; keyframes due, requested and after an invalid value. For every tick:
//!
//! - both trackers say the same (`Sent`, or an error with the same code) and write the same
//!   bytes;
//! - both mirrors rebuild the same value from them, and give the same outcome (value, or
//!   code, path and message) on byte-level mutations of them;
//! - the IR mirror's `describe` reads every payload, as a keyframe exactly when one was sent.

#![allow(clippy::approx_constant)] // the village's heading range is written as 3.1416

use std::path::Path;

use serde_json::{json, Value};
use tuplet::delta::{Delta, Mirror, Sent, Tracker};
use tuplet::{Error, SampleRng};
use tuplet_codegen::ircodec::{self, delta as ir, mutate};
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;
use village::weather::{WeatherKind, WeatherState};
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

fn schema() -> ResolvedSchema {
    tuplet_schema::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/village"
    )))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The natural JSON of a village entity, straight from its Rust fields (f32 widened, not
/// quantized: the trackers quantize).
fn entity_json(e: &NearbyEntity) -> Value {
    let mut o = json!({
        "id": e.id,
        "kind": format!("{:?}", e.kind),
        "pos": e.pos.map(f64::from),
        "heading": e.heading as f64,
        "speed": e.speed as f64,
        "anim": e.anim,
    });
    if let Some(x) = &e.owner {
        o["owner"] = json!(x);
    }
    if let Some(x) = &e.label {
        o["label"] = json!(x);
    }
    o
}

fn snapshot_json(w: &WorldSnapshot) -> Value {
    json!({
        "tick": w.tick,
        "keyframe": w.keyframe,
        "entities": w.entities.iter().map(entity_json).collect::<Vec<_>>(),
        "gone": w.gone,
    })
}

fn weather_json(w: &WeatherState) -> Value {
    let mut o = json!({
        "kind": format!("{:?}", w.kind),
        "intensity": w.intensity as f64,
        "wind_dir": w.wind_dir as f64,
        "wind": w.wind as f64,
        "clouds": w.clouds,
    });
    if let Some(f) = w.fog_m {
        o["fog_m"] = json!(f);
    }
    o
}

#[derive(Debug, Default)]
struct Counts {
    payloads: usize,
    keyframes: usize,
    deltas: usize,
    nothing: usize,
    errors: usize,
    entered: usize,
    changed: usize,
    removed: usize,
    mutated: usize,
    mutated_ok: usize,
    /// The largest keyframe and delta seen.
    largest: (usize, usize),
}

/// One client's pair of trackers and pair of mirrors, derive and IR side by side.
struct Pair<'s, M: Delta> {
    schema: &'s ResolvedSchema,
    path: String,
    tracker: Tracker<M>,
    ir_tracker: ir::Tracker<'s>,
    mirror: Mirror<M>,
    ir_mirror: ir::Mirror<'s>,
}

fn outcome(r: Result<Value, Error>) -> Result<Value, String> {
    r.map_err(|e| format!("{} at '{}': {}", e.code(), e.path(), e.issue().message))
}

impl<'s, M: Delta + Clone + std::fmt::Debug> Pair<'s, M> {
    fn new(schema: &'s ResolvedSchema, id: u32, every: u32) -> Self {
        let path = ircodec::message_with_id(schema, Dir::S2c, id).expect("a message");
        Pair {
            schema,
            tracker: Tracker::new(every),
            ir_tracker: ir::Tracker::new(schema, &path, every).unwrap(),
            mirror: Mirror::new(),
            ir_mirror: ir::Mirror::new(schema, &path).unwrap(),
            path,
        }
    }

    /// `tuplet sizes`' largest keyframe and largest delta of this message.
    fn bound(&self) -> (usize, usize) {
        let size = tuplet_schema::sizes::message_sizes(self.schema)
            .into_iter()
            .find(|s| s.path == self.path)
            .unwrap();
        let d = size.delta.unwrap();
        (d.keyframe.unwrap(), d.delta.unwrap())
    }

    /// What a derived mirror's value is as natural JSON.
    fn natural(&self, v: &M) -> Value {
        let bytes = tuplet::to_vec(v).unwrap();
        ircodec::decode(self.schema, &self.path, &bytes).unwrap()
    }

    /// Both mirrors apply `payload`; their outcomes must agree. Returns whether it applied.
    fn apply_both(
        &self,
        mirror: &mut Mirror<M>,
        ir_mirror: &mut ir::Mirror<'s>,
        payload: &[u8],
        what: &str,
    ) -> bool {
        let a = outcome(mirror.apply(payload).map(|v| self.natural(v)));
        let b = outcome(ir_mirror.apply(payload).cloned());
        match (&a, &b) {
            (Ok(x), Ok(y)) => assert!(
                ircodec::json_eq(x, y),
                "{what}: mirrors differ on {}\nderive: {x}\nIR:     {y}",
                ircodec::hex(payload)
            ),
            _ => assert_eq!(a, b, "{what}: mirrors differ on {}", ircodec::hex(payload)),
        }
        a.is_ok()
    }

    /// One tick: both trackers encode `value`; the payload goes through both mirrors, and
    /// its mutations through copies of them.
    fn tick(&mut self, value: &M, json: &Value, counts: &mut Counts, what: &str) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let sa = self.tracker.encode(value, &mut a);
        let sb = self.ir_tracker.encode(json, &mut b);
        let sent = match (sa, sb) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x, y, "{what}: Sent differs");
                x
            }
            (Err(x), Err(y)) => {
                assert_eq!(x.code(), y.code(), "{what}: errors differ: {x} / {y}");
                assert!(a.is_empty() && b.is_empty(), "{what}: an error wrote bytes");
                counts.errors += 1;
                return;
            }
            (x, y) => panic!("{what}: derive {x:?}, IR {y:?}\n{json}"),
        };
        assert_eq!(
            ircodec::hex(&a),
            ircodec::hex(&b),
            "{what}: payloads differ ({sent:?})"
        );
        match sent {
            Sent::Nothing => {
                counts.nothing += 1;
                assert!(a.is_empty());
                return;
            }
            Sent::Keyframe => counts.keyframes += 1,
            Sent::Delta => counts.deltas += 1,
        }
        let bound = self.bound();
        let (limit, seen) = match sent {
            Sent::Keyframe => (bound.0, &mut counts.largest.0),
            _ => (bound.1, &mut counts.largest.1),
        };
        assert!(
            a.len() <= limit,
            "{what}: {} bytes over the bound {limit}",
            a.len()
        );
        *seen = (*seen).max(a.len());
        counts.payloads += 1;
        let described = self.ir_mirror.describe(&a).unwrap();
        assert_eq!(described.is_keyframe(), sent == Sent::Keyframe, "{what}");
        if let ir::PayloadForm::Delta(fields) = &described.form {
            for f in fields {
                if let ir::Change::Entities(entries) = &f.change {
                    for e in entries {
                        match e {
                            ir::Entry::Entered(_) => counts.entered += 1,
                            ir::Entry::Changed { .. } => counts.changed += 1,
                            ir::Entry::Removed { .. } => counts.removed += 1,
                        }
                    }
                }
            }
        }
        for (how, m) in mutate::byte_mutations(&a) {
            let (mut x, mut y) = (self.mirror.clone(), self.ir_mirror.clone());
            if self.apply_both(&mut x, &mut y, &m, &format!("{what}: {how}")) {
                counts.mutated_ok += 1;
            }
            counts.mutated += 1;
        }
        let (mut x, mut y) = (self.mirror.clone(), self.ir_mirror.clone());
        assert!(
            self.apply_both(&mut x, &mut y, &a, what),
            "{what}: a tracker's payload does not apply"
        );
        (self.mirror, self.ir_mirror) = (x, y);
    }
}

fn f(rng: &mut SampleRng, lo: f64, hi: f64) -> f32 {
    (lo + (hi - lo) * rng.float_in(0.0, 1.0)) as f32
}

/// A position coordinate: anywhere in range, at its ends now and then.
fn coord(rng: &mut SampleRng) -> f32 {
    match rng.below(8) {
        0 => -5000.0,
        1 => 5000.0,
        _ => f(rng, -4999.0, 4999.0),
    }
}

const KINDS: [EntityKind; 6] = [
    EntityKind::Npc,
    EntityKind::Pet,
    EntityKind::Vehicle,
    EntityKind::Boat,
    EntityKind::Horse,
    EntityKind::Ferry,
];

fn entity(rng: &mut SampleRng, id: u32) -> NearbyEntity {
    NearbyEntity {
        id,
        kind: KINDS[rng.below(KINDS.len())],
        pos: [coord(rng), coord(rng), f(rng, 0.0, 30.0)],
        heading: f(rng, -3.1416, 3.1416),
        speed: f(rng, 0.0, 60.0),
        anim: rng.below(256) as u8,
        owner: (rng.below(4) == 0).then(|| "abcdefghi".to_string()),
        label: (rng.below(3) == 0).then(|| "x".repeat(rng.below(25))),
    }
}

/// A fresh key: small, large or near the top of `u32`.
fn key(rng: &mut SampleRng, next: &mut u32) -> u32 {
    *next += 1 + rng.below(3) as u32;
    match rng.below(4) {
        0 => u32::MAX - *next,
        _ => *next,
    }
}

/// Changes some entities of `w`: by less than a quantum, a little, across their range, or
/// whole fields.
fn wander(rng: &mut SampleRng, w: &mut WorldSnapshot) {
    for e in w.entities.iter_mut() {
        match rng.below(6) {
            0 => {}
            1 => e.pos[0] = (e.pos[0] + 0.004).min(5000.0),
            2 => {
                for p in &mut e.pos[..2] {
                    *p = (*p + (rng.float_in(0.0, 1.0) as f32 - 0.5) * 3.0).clamp(-5000.0, 5000.0);
                }
                e.heading = f(rng, -3.1416, 3.1416);
            }
            3 => {
                *e = NearbyEntity {
                    id: e.id,
                    ..entity(rng, e.id)
                }
            }
            4 => e.anim = if e.anim == 0 { 255 } else { 0 },
            _ => {
                e.speed = f(rng, 0.0, 60.0);
                e.label = (rng.below(2) == 0).then(|| "renamed".into());
                e.owner = (rng.below(2) == 0).then(|| "ownerabcd".into());
            }
        }
    }
}

fn run_world(schema: &ResolvedSchema, seed: u64, counts: &mut Counts) {
    let mut rng = SampleRng::new(seed);
    let mut pair = Pair::<WorldSnapshot>::new(schema, 110, rng.below(30) as u32);
    let mut next = 0u32;
    let mut w = WorldSnapshot {
        tick: 1000,
        keyframe: true,
        entities: (0..rng.below(12))
            .map(|_| {
                let k = key(&mut rng, &mut next);
                entity(&mut rng, k)
            })
            .collect(),
        gone: vec![],
    };
    for t in 0..60 {
        w.keyframe = pair.tracker.keyframe_due();
        w.gone.clear();
        let mut bad = None;
        match rng.below(16) {
            0 => {}
            1 | 2 if w.entities.len() < 50 => {
                for _ in 0..=rng.below(4).min(49 - w.entities.len()) {
                    let k = key(&mut rng, &mut next);
                    w.entities.push(entity(&mut rng, k));
                }
            }
            3 | 4 if !w.entities.is_empty() => {
                let i = rng.below(w.entities.len());
                w.gone.push(w.entities.swap_remove(i).id);
            }
            5 => {
                // Every entity in view replaced by others.
                let n = rng.below(51);
                w.gone = w.entities.iter().map(|e| e.id).take(64).collect();
                w.entities = (0..n)
                    .map(|_| {
                        let k = key(&mut rng, &mut next);
                        entity(&mut rng, k)
                    })
                    .collect();
            }
            6 => w.entities.reverse(),
            7 => {
                pair.tracker.request_keyframe();
                pair.ir_tracker.request_keyframe();
            }
            8 => {
                w.tick = [0, u32::MAX, w.tick.wrapping_add(1)][rng.below(3)];
            }
            9 if !w.entities.is_empty() => {
                // Invalid: a key twice, or a label too long; both trackers refuse it.
                let mut copy = w.clone();
                let i = rng.below(copy.entities.len());
                if rng.below(2) == 0 && copy.entities.len() < 50 {
                    let dup = copy.entities[i].clone();
                    copy.entities.push(dup);
                } else {
                    copy.entities[i].label = Some("y".repeat(25));
                }
                bad = Some(copy);
            }
            _ => wander(&mut rng, &mut w),
        }
        w.tick = w.tick.wrapping_add(1);
        if let Some(b) = bad {
            pair.tick(
                &b,
                &snapshot_json(&b),
                counts,
                &format!("world {seed} tick {t} (invalid)"),
            );
            pair.ir_tracker.request_keyframe();
            pair.tracker.request_keyframe();
        }
        if rng.below(2) == 0 {
            // The request above is already pending on both; a second is harmless.
            let json = snapshot_json(&w);
            pair.tick(&w, &json, counts, &format!("world {seed} tick {t}"));
        } else {
            let json = snapshot_json(&w);
            pair.tick(&w, &json, counts, &format!("world {seed} tick {t}"));
            // The same value again: nothing changed, nothing sent (unless a keyframe is due).
            pair.tick(&w, &json, counts, &format!("world {seed} tick {t} (again)"));
        }
        if rng.below(10) == 0 {
            pair.ir_tracker.request_keyframe();
            pair.tracker.request_keyframe();
        }
    }
}

const WEATHER: [WeatherKind; 6] = [
    WeatherKind::Clear,
    WeatherKind::Cloudy,
    WeatherKind::Rain,
    WeatherKind::Storm,
    WeatherKind::Fog,
    WeatherKind::Snow,
];

fn run_weather(schema: &ResolvedSchema, seed: u64, counts: &mut Counts) {
    let mut rng = SampleRng::new(seed);
    let mut pair = Pair::<WeatherState>::new(schema, 294, rng.below(10) as u32);
    let mut w = WeatherState {
        kind: WeatherKind::Clear,
        intensity: 0.0,
        wind_dir: 0.0,
        wind: 0.0,
        clouds: 0,
        fog_m: None,
    };
    for t in 0..40 {
        match rng.below(7) {
            0 => {}
            1 => w.kind = WEATHER[rng.below(WEATHER.len())],
            2 => w.intensity = [0.0, 1.0, f(&mut rng, 0.0, 1.0)][rng.below(3)],
            3 => w.wind_dir = [0.0, 360.0, f(&mut rng, 0.0, 360.0)][rng.below(3)],
            4 => w.wind = (w.wind + 0.01).min(40.0),
            5 => w.clouds = [0, 100, rng.below(101) as u8][rng.below(3)],
            _ => w.fog_m = [None, Some(0), Some(5000), Some(rng.below(5001) as u16)][rng.below(4)],
        }
        pair.tick(
            &w,
            &weather_json(&w),
            counts,
            &format!("weather {seed} tick {t}"),
        );
        if rng.below(12) == 0 {
            pair.ir_tracker.request_keyframe();
            pair.tracker.request_keyframe();
        }
    }
}

#[test]
fn ir_delta_agrees_with_the_derive_on_the_village() {
    let schema = schema();
    let mut counts = Counts::default();
    for seed in 0..40 {
        run_world(&schema, seed, &mut counts);
        run_weather(&schema, seed, &mut counts);
    }
    eprintln!("ircodec delta agrees: {counts:?}");
    // Random sequences stay under `tuplet sizes`' bounds (asserted per payload in `tick`).
    assert!(counts.keyframes > 100 && counts.deltas > 1000, "{counts:?}");
    assert!(counts.nothing > 100 && counts.errors > 20, "{counts:?}");
    assert!(
        counts.entered > 1000 && counts.changed > 1000 && counts.removed > 1000,
        "{counts:?}"
    );
    assert!(counts.mutated_ok > 100, "{counts:?}");
}

#[test]
fn a_message_without_delta_has_no_tracker() {
    let schema = schema();
    let path = ircodec::message_with_id(&schema, Dir::S2c, 292).unwrap();
    let err = ir::Tracker::new(&schema, &path, 10).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("`{path}` is not a message declared `#[tuplet(delta)]`")
    );
    assert!(ir::Mirror::new(&schema, &path).is_err());
}

/// The largest village entity with key `id`: every field at the end of its range whose
/// encoding is longest (`low`: the other end where it differs).
fn extreme(id: u32, low: bool) -> NearbyEntity {
    let (p, h, s) = if low {
        (-5000.0, -3.1416, 0.0)
    } else {
        (5000.0, 3.1416, 60.0)
    };
    NearbyEntity {
        id,
        kind: if low {
            EntityKind::Npc
        } else {
            EntityKind::Ferry
        },
        pos: [p; 3],
        heading: h,
        speed: s,
        anim: if low { 0 } else { 255 },
        owner: (!low).then(|| "o".repeat(9)),
        label: (!low).then(|| "l".repeat(24)),
    }
}

/// `tuplet sizes`' bounds of `world:snapshot` hold and are reached: a keyframe of the
/// largest value, and a delta that replaces every one of 50 entities in view, with the tick
/// going back by its whole range and `gone` at its longest. A delta that changes every
/// field of every entity instead stays under the bound.
#[test]
fn the_delta_size_bounds_are_reached() {
    let schema = schema();
    let mut pair = Pair::<WorldSnapshot>::new(&schema, 110, 0);
    let (keyframe_max, delta_max) = pair.bound();
    let world = |base: u32, low: bool, tick: u32| WorldSnapshot {
        tick,
        keyframe: low,
        entities: (0..50).map(|i| extreme(base + i, low)).collect(),
        gone: vec![u32::MAX - base; 64],
    };
    let mut counts = Counts::default();
    let mut first = world(1 << 20, false, u32::MAX);
    first.keyframe = true;
    pair.tick(
        &first,
        &snapshot_json(&first),
        &mut counts,
        "largest keyframe",
    );
    let replaced = world(1 << 21, false, 0);
    pair.tick(
        &replaced,
        &snapshot_json(&replaced),
        &mut counts,
        "every entity replaced",
    );
    assert_eq!(
        counts.largest,
        (keyframe_max, delta_max),
        "the bounds are tight"
    );
    let changed = world(1 << 21, true, u32::MAX);
    pair.tick(
        &changed,
        &snapshot_json(&changed),
        &mut counts,
        "every field changed",
    );
    eprintln!(
        "world:snapshot bounds: keyframe {keyframe_max} B, delta {delta_max} B, reached: {:?}",
        counts.largest
    );
}

/// `budget` bounds a delta message's keyframe and delta too: a budget the full value fits
/// (3633 B) but the largest delta (3939 B) does not is `budget-exceeded`.
#[test]
fn a_budget_bounds_the_largest_delta() {
    let mut schema = schema();
    let path = ircodec::message_with_id(&schema, Dir::S2c, 110).unwrap();
    let set = |schema: &mut ResolvedSchema, budget: u32| {
        let item = schema.items.get_mut(&path).unwrap();
        if let tuplet_schema::ir::ItemKind::Message(m) = &mut item.item.kind {
            m.budget = Some(budget);
        }
    };
    set(&mut schema, 3700);
    let findings = tuplet_schema::sizes::budget_findings(&schema);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].largest, Some(3939));
    set(&mut schema, 3939);
    assert!(tuplet_schema::sizes::budget_findings(&schema).is_empty());
}
