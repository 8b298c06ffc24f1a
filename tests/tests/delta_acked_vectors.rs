//! Deltas against acknowledged baselines: WIRE.md's ```wire-acked blocks and the shared
//! vectors, the Rust side.
//!
//! A ```wire-acked block is one client's sequence of `world:snapshot` payloads in the
//! acknowledged mode: `ack:` (the client's acknowledgement the server read before this
//! tick, if any), `sent:`, `value:` (natural JSON) and `bytes:`. The test runs the values
//! through `Tracker::acked` and checks the kind and the bytes, that rmpv reads each payload
//! as one msgpack value, and that `Mirror::acked` fed the bytes in order rebuilds each value.
//! `TUPLET_BLESS=1` rewrites the hex.
//!
//! `write_acked_vectors` writes `tests/fixtures/delta_acked_vectors.json`: seeded sequences
//! over a lossy, duplicating, reordering link. Per tick, the acknowledgement the server read,
//! the value and the payload; then every delivery to the client in arrival order with its
//! outcome (the snapshot number applied, or refused). The TypeScript tests run the same
//! acknowledgements and values and must write the same bytes, then replay the deliveries and
//! must reach the same outcomes and values.

mod acked;

use std::path::{Path, PathBuf};

use acked::{quantized, Link, World};
use serde_json::{json, Value};
use tuplet::delta::{Mirror, Sent, Tracker, RING};
use tuplet_codegen::ircodec::{self, hex, Shape};
use tuplet_schema::ResolvedSchema;
use village::world::WorldSnapshot;

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

fn spaced(bytes: &[u8]) -> String {
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    hex.join(" ")
}

struct Step {
    ack: Option<u64>,
    sent: String,
    value: Value,
    bytes: String,
}

fn blocks(md: &str) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```wire-acked" {
            continue;
        }
        let (mut steps, mut ack, mut cur) = (Vec::new(), None, None::<Step>);
        for line in lines.by_ref() {
            if line.trim() == "```" {
                break;
            }
            if let Some(v) = line.strip_prefix("ack: ") {
                ack = Some(v.trim().parse().expect("an ack number"));
            } else if let Some(v) = line.strip_prefix("sent: ") {
                cur = Some(Step {
                    ack: ack.take(),
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

#[test]
fn wire_md_acked_examples() {
    let schema = schema();
    let path = root().join("WIRE.md");
    let mut md = std::fs::read_to_string(&path).unwrap();
    let all = blocks(&md);
    assert!(!all.is_empty(), "WIRE.md has wire-acked blocks");
    let bless = std::env::var_os("TUPLET_BLESS").is_some();
    for steps in &all {
        let mut tracker = Tracker::<WorldSnapshot>::acked(0, RING);
        let mut mirror = Mirror::<WorldSnapshot>::acked(RING);
        for step in steps {
            if let Some(n) = step.ack {
                tracker.ack(n);
            }
            let value = from_json(&schema, &step.value);
            let mut bytes = Vec::new();
            let sent = tracker.encode(&value, &mut bytes).expect("encodes");
            assert_eq!(step.sent, sent_name(sent), "{}", step.value);
            if sent != Sent::Nothing {
                let one = rmpv::decode::read_value(&mut &bytes[..]).expect("one msgpack value");
                assert!(one.is_array());
                assert_eq!(mirror.apply(&bytes).expect("applies"), &quantized(&value));
            }
            if bless {
                let (old, new) = (step.bytes.clone(), spaced(&bytes));
                md = md.replacen(&format!("bytes: {old}"), &format!("bytes: {new}"), 1);
            } else {
                assert_eq!(step.bytes, spaced(&bytes), "{}", step.value);
            }
        }
    }
    if bless {
        std::fs::write(&path, md).unwrap();
    }
}

/// One seeded sequence over a lossy link: (ticks, deliveries) as JSON.
fn sequence(schema: &ResolvedSchema, seed: u64, ticks: u64) -> Value {
    let mut world = World::new(seed, 5, 10);
    let mut tracker = Tracker::<WorldSnapshot>::acked(0, 8);
    let mut mirror = Mirror::<WorldSnapshot>::acked(8);
    let mut down = Link::new(seed, 0.15, 0.1, 1, 3);
    let mut up = Link::new(seed + 1, 0.15, 0.1, 1, 3);
    let (mut steps, mut deliveries) = (Vec::new(), Vec::new());
    let mut values = std::collections::HashMap::new();
    for t in 0..ticks {
        world.step();
        let ack = up.deliver(t).into_iter().max();
        if let Some(n) = ack {
            tracker.ack(n);
        }
        let mut out = Vec::new();
        let sent = tracker.encode(&world.value, &mut out).expect("encodes");
        if sent != Sent::Nothing {
            values.insert(tracker.number(), quantized(&world.value));
            down.send(t, (steps.len(), out.clone()));
        }
        steps.push(json!({
            "ack": ack,
            "value": to_json(schema, &world.value),
            "sent": sent_name(sent),
            "bytes": hex(&out),
        }));
        for (step, payload) in down.deliver(t) {
            let applied = mirror.apply(&payload).ok().cloned().map(|v| {
                assert_eq!(Some(&v), values.get(&mirror.ack()));
                mirror.ack()
            });
            deliveries.push(json!({ "after": t, "step": step, "applied": applied }));
        }
        up.send(t, mirror.ack());
    }
    json!({ "seed": seed, "ring": 8, "steps": steps, "deliveries": deliveries })
}

/// Writes `tests/fixtures/delta_acked_vectors.json`; fails when the committed file differs
/// (run with `TUPLET_BLESS=1` to rewrite it).
#[test]
fn write_acked_vectors() {
    let schema = schema();
    let seqs: Vec<Value> = (0..3u64).map(|s| sequence(&schema, s, 50)).collect();
    let text = serde_json::to_string(&json!({ "sequences": seqs })).unwrap() + "\n";
    let path = root().join("tests/fixtures/delta_acked_vectors.json");
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/fixtures/delta_acked_vectors.json is stale: TUPLET_BLESS=1"
    );
}
