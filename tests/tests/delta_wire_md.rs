//! WIRE.md's ```wire-delta blocks and the shared delta vectors, the Rust side.
//!
//! Each block is one client's sequence of `world:snapshot` messages: `sent:` (keyframe,
//! delta or nothing), `value:` (the server's full value, natural JSON) and `bytes:` (the
//! payload). The test runs the values through one `Tracker` and checks the kind and the
//! bytes, that rmpv reads each payload as one msgpack value, and that a `Mirror` fed the bytes
//! rebuilds each value (quantized, entities in key order). `TUPLET_BLESS=1` rewrites the hex.
//!
//! `write_delta_vectors` writes `tests/fixtures/delta_vectors.json`: longer seeded sequences
//! (moves under and over a quantum, joins, leaves, keyframes on request): each server value
//! (natural JSON) with the Rust payload; the TypeScript tests encode the same values and must
//! write the same bytes, and apply the bytes to the same values. The TypeScript side writes
//! `target/tuplet-vectors/delta_ts.json` (its own sequences), which
//! `ts_encoded_deltas_apply_in_rust` (ignored; run by `scripts/test` after the TypeScript
//! tests) applies here.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::delta::{Mirror, Sent, Tracker};
use tuplet::SampleRng;
use tuplet_codegen::ircodec::{self, hex, unhex, Shape};
use tuplet_schema::ResolvedSchema;
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

const PATH: &str = "crate::world::WorldSnapshot";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root")
}

fn schema() -> ResolvedSchema {
    tuplet_schema::load(&root().join("examples/village")).unwrap_or_else(|e| panic!("{e}"))
}

fn from_json(schema: &ResolvedSchema, v: &Value) -> WorldSnapshot {
    let bytes = ircodec::encode(schema, PATH, v, Shape::Compact).expect("a valid value");
    tuplet::from_slice(&bytes).expect("decodes")
}

fn to_json(schema: &ResolvedSchema, v: &WorldSnapshot) -> Value {
    ircodec::decode(schema, PATH, &tuplet::to_vec(v).unwrap()).expect("decodes")
}

fn sent_name(s: Sent) -> &'static str {
    match s {
        Sent::Keyframe => "keyframe",
        Sent::Delta => "delta",
        Sent::Nothing => "nothing",
    }
}

/// The server's value as the client must see it: quantized, entities by key.
fn quantized(v: &WorldSnapshot) -> WorldSnapshot {
    let mut q: WorldSnapshot = tuplet::from_slice(&tuplet::to_vec(v).unwrap()).unwrap();
    q.entities.sort_by_key(|e| e.id);
    q
}

struct Step {
    sent: String,
    value: Value,
    bytes: String,
}

fn blocks(md: &str) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```wire-delta" {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut cur: Option<Step> = None;
        for line in lines.by_ref() {
            if line.trim() == "```" {
                break;
            }
            if let Some(v) = line.strip_prefix("sent: ") {
                cur = Some(Step {
                    sent: v.trim().into(),
                    value: Value::Null,
                    bytes: String::new(),
                });
            } else if let Some(v) = line.strip_prefix("value: ") {
                cur.as_mut().expect("sent: first").value = serde_json::from_str(v).unwrap();
            } else if let Some(v) = line.strip_prefix("bytes: ") {
                let mut s = cur.take().expect("sent: first");
                s.bytes = v.trim().into();
                steps.push(s);
            }
        }
        out.push(steps);
    }
    out
}

/// Runs one sequence through a tracker and a mirror; returns the actual (sent, hex) per step.
fn run(schema: &ResolvedSchema, values: &[Value]) -> Vec<(String, String)> {
    let mut tracker = Tracker::<WorldSnapshot>::at_rate(20);
    let mut mirror = Mirror::<WorldSnapshot>::new();
    let mut out = Vec::new();
    for v in values {
        let value = from_json(schema, v);
        let mut bytes = Vec::new();
        let sent = tracker.encode(&value, &mut bytes).expect("encodes");
        if sent != Sent::Nothing {
            let one = rmpv::decode::read_value(&mut &bytes[..]).expect("one msgpack value");
            assert!(one.is_array());
            assert_eq!(mirror.apply(&bytes).expect("applies"), &quantized(&value));
        }
        out.push((sent_name(sent).to_string(), spaced(&bytes)));
    }
    out
}

/// Hex as WIRE.md writes it: bytes separated by spaces.
fn spaced(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn wire_md_delta_examples() {
    let schema = schema();
    let path = root().join("WIRE.md");
    let mut md = std::fs::read_to_string(&path).unwrap();
    let all = blocks(&md);
    assert!(!all.is_empty(), "WIRE.md has wire-delta blocks");
    let bless = std::env::var_os("TUPLET_BLESS").is_some();
    for steps in &all {
        let values: Vec<Value> = steps.iter().map(|s| s.value.clone()).collect();
        for (step, (sent, bytes)) in steps.iter().zip(run(&schema, &values)) {
            assert_eq!(step.sent, sent, "{}", step.value);
            if bless {
                md = md.replacen(
                    &format!("bytes: {}", step.bytes),
                    &format!("bytes: {bytes}"),
                    1,
                );
            } else {
                assert_eq!(step.bytes, bytes, "{}", step.value);
            }
        }
    }
    if bless {
        std::fs::write(&path, md).unwrap();
    }
}

// ---------------------------------------------------------------------------------------
// Shared vectors.

fn entity(rng: &mut SampleRng, id: u32) -> NearbyEntity {
    NearbyEntity {
        id,
        kind: [EntityKind::Npc, EntityKind::Pet, EntityKind::Vehicle][rng.below(3)],
        pos: [
            rng.float_in(-400.0, 400.0) as f32,
            rng.float_in(-400.0, 400.0) as f32,
            rng.float_in(0.0, 5.0) as f32,
        ],
        heading: rng.float_in(-3.1, 3.1) as f32,
        speed: rng.float_in(0.0, 15.0) as f32,
        anim: rng.below(8) as u8,
        owner: rng.coin().then(|| "abcdefghi".to_string()),
        label: (rng.below(3) == 0).then(|| format!("n{id}")),
    }
}

/// One seeded sequence of server values: moves (some under a centimetre), joins, leaves.
fn sequence(seed: u64, len: usize) -> (Vec<WorldSnapshot>, Vec<bool>) {
    let mut rng = SampleRng::new(seed);
    let mut w = WorldSnapshot {
        tick: 5000,
        keyframe: false,
        entities: (0..12).map(|i| entity(&mut rng, 3 * i + 2)).collect(),
        gone: vec![],
    };
    let mut next = 100;
    let mut values = Vec::new();
    let mut requests = Vec::new();
    for _ in 0..len {
        w.tick += 1;
        for e in w.entities.iter_mut() {
            match rng.below(5) {
                0 => {}
                1 => e.pos[1] += 0.003,
                2 => e.heading = rng.float_in(-3.1, 3.1) as f32,
                _ => {
                    e.pos[0] += rng.float_in(-1.0, 1.0) as f32;
                    e.pos[1] += rng.float_in(-1.0, 1.0) as f32;
                    e.speed = rng.float_in(0.0, 15.0) as f32;
                }
            }
            if rng.below(25) == 0 {
                e.anim = rng.below(8) as u8;
                e.label = rng.coin().then(|| "x".into());
            }
        }
        if rng.below(6) == 0 && w.entities.len() < 50 {
            w.entities.push(entity(&mut rng, next));
            next += 1;
        }
        if rng.below(7) == 0 && !w.entities.is_empty() {
            let i = rng.below(w.entities.len());
            w.entities.remove(i);
        }
        if rng.below(9) == 0 {
            w.entities.reverse();
        }
        values.push(w.clone());
        requests.push(rng.below(30) == 0);
    }
    (values, requests)
}

/// Writes `tests/fixtures/delta_vectors.json`; fails when the committed file differs (run with
/// `TUPLET_BLESS=1` to rewrite it).
#[test]
fn write_delta_vectors() {
    let schema = schema();
    let mut seqs = Vec::new();
    for seed in 0..4u64 {
        let (values, requests) = sequence(seed, 40);
        let mut tracker = Tracker::<WorldSnapshot>::new(25);
        let mut mirror = Mirror::<WorldSnapshot>::new();
        let mut steps = Vec::new();
        for (v, req) in values.iter().zip(requests) {
            if req {
                tracker.request_keyframe();
            }
            let mut bytes = Vec::new();
            let sent = tracker.encode(v, &mut bytes).unwrap();
            if sent != Sent::Nothing {
                assert_eq!(mirror.apply(&bytes).unwrap(), &quantized(v));
            }
            steps.push(json!({
                "request": req,
                "value": to_json(&schema, v),
                "sent": sent_name(sent),
                "bytes": hex(&bytes),
            }));
        }
        seqs.push(json!({ "seed": seed, "keyframe_every": 25, "steps": steps }));
    }
    let text = serde_json::to_string(&json!({ "sequences": seqs })).unwrap() + "\n";
    let path = root().join("tests/fixtures/delta_vectors.json");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/fixtures/delta_vectors.json is stale: TUPLET_BLESS=1"
    );
}

/// Applies the TypeScript-encoded sequences (written by the TypeScript tests) in Rust.
#[test]
#[ignore = "needs target/tuplet-vectors/delta_ts.json from the TypeScript tests"]
fn ts_encoded_deltas_apply_in_rust() {
    let schema = schema();
    let path = root().join("target/tuplet-vectors/delta_ts.json");
    let text = std::fs::read_to_string(&path).expect("run the TypeScript tests first");
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut n = 0;
    for seq in doc["sequences"].as_array().unwrap() {
        let mut mirror = Mirror::<WorldSnapshot>::new();
        for step in seq["steps"].as_array().unwrap() {
            if step["sent"] == "nothing" {
                continue;
            }
            let bytes = unhex(step["bytes"].as_str().unwrap()).unwrap();
            let got = mirror.apply(&bytes).unwrap_or_else(|e| panic!("{e}"));
            let want = from_json(&schema, &step["value"]);
            assert_eq!(got, &quantized(&want));
            n += 1;
        }
    }
    assert!(n > 100, "{n} payloads");
}
