//! The IR codec (`tuplet_codegen::ircodec`, driven by the loader's IR) and the derived
//! codecs agree on every village vector:
//!
//! - valid: for every message of both directions, every sample mode and a few seeds, the
//!   IR decode of the derived bytes re-encodes (both shapes) to the derived bytes, the IR
//!   sampler draws the same value as the derive's `sample`, and both shapes decode to the
//!   same natural value;
//! - invalid: mutations of valid values per field kind, written with the IR codec's
//!   unchecked writer, and byte-level mutations: both decoders fail with the same code,
//!   path and message (or both succeed with the same value).

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;
use tuplet::{Dispatch, Encoding, Error, SampleMode};
use tuplet_codegen::ircodec::{self, mutate, Shape};
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

fn schema() -> ResolvedSchema {
    tuplet_schema::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/village"
    )))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn outcome(r: &Result<Value, Error>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(e) => format!("{} at '{}': {}", e.code(), e.path(), e.issue().message),
    }
}

#[derive(Default)]
struct Counts {
    valid: usize,
    invalid: usize,
    agreeing_ok: usize,
    codes: std::collections::BTreeMap<String, usize>,
}

fn check<D: Dispatch>(schema: &ResolvedSchema, dir: Dir, seeds: u64, counts: &mut Counts) {
    for (index, (name, id)) in D::MESSAGES.iter().enumerate() {
        let path = ircodec::message_with_id(schema, dir, *id)
            .unwrap_or_else(|| panic!("{name}: id {id} not in the loaded schema"));
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        for mode in SampleMode::ALL {
            for seed in 0..seeds {
                let v = D::sample_variant(index, seed, mode).unwrap();
                let compact = v.to_payload(Encoding::Compact).unwrap();
                let named = v.to_payload(Encoding::Named).unwrap();
                let value = ircodec::decode(schema, &path, &compact).unwrap_or_else(|e| {
                    panic!("{name} {mode:?} {seed}: IR decode of compact: {e}")
                });
                let from_named = ircodec::decode(schema, &path, &named)
                    .unwrap_or_else(|e| panic!("{name} {mode:?} {seed}: IR decode of named: {e}"));
                assert!(
                    ircodec::json_eq(&value, &from_named),
                    "{name} {mode:?} {seed}: the shapes decode differently\n{value}\n{from_named}"
                );
                let sampled = ircodec::sample(schema, &path, seed, mode);
                assert!(
                    ircodec::json_eq(&value, &sampled),
                    "{name} {mode:?} {seed}: IR sample differs\nderive: {value}\nIR:     {sampled}"
                );
                for (shape, want) in [(Shape::Compact, &compact), (Shape::Named, &named)] {
                    let got = ircodec::encode(schema, &path, &value, shape)
                        .unwrap_or_else(|e| panic!("{name} {mode:?} {seed} {shape:?}: {e}"));
                    assert_eq!(
                        ircodec::hex(&got),
                        ircodec::hex(want),
                        "{name} {mode:?} {seed} {shape:?}: IR encode differs"
                    );
                    let unchecked = ircodec::encode_unchecked(schema, &path, &value, shape);
                    assert_eq!(
                        &unchecked, want,
                        "{name} {mode:?} {seed} {shape:?}: unchecked"
                    );
                }
                counts.valid += 1;
                if seed > 0 && matches!(mode, SampleMode::Min | SampleMode::Max) {
                    continue;
                }
                let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
                if seed == 0 && matches!(mode, SampleMode::Present | SampleMode::Max) {
                    for m in mutate::mutations(schema, &path, &value) {
                        for shape in [Shape::Compact, Shape::Named] {
                            let bytes = ircodec::encode_unchecked(schema, &path, &m.value, shape);
                            inputs.push((format!("{} ({})", m.what, shape.as_str()), bytes));
                        }
                    }
                }
                for (shape, bytes) in [("compact", &compact), ("named", &named)] {
                    for (what, b) in mutate::byte_mutations(bytes) {
                        inputs.push((format!("{what} ({shape})"), b));
                    }
                }
                for (what, bytes) in inputs {
                    if !seen.insert(bytes.clone()) {
                        continue;
                    }
                    let derived = D::from_payload(name, &bytes).map(|m| {
                        let c = m.to_payload(Encoding::Compact).unwrap();
                        ircodec::decode(schema, &path, &c).unwrap()
                    });
                    let ir = ircodec::decode(schema, &path, &bytes);
                    let (a, b) = (outcome(&derived), outcome(&ir));
                    assert_eq!(
                        a,
                        b,
                        "{name}: {what}: bytes {}\nderive: {a}\nIR:     {b}",
                        ircodec::hex(&bytes)
                    );
                    match (&derived, &ir) {
                        (Ok(x), Ok(y)) => {
                            assert!(ircodec::json_eq(x, y), "{name}: {what}: values differ");
                            counts.agreeing_ok += 1;
                        }
                        (Err(e), _) => {
                            counts.invalid += 1;
                            *counts.codes.entry(e.code().to_string()).or_default() += 1;
                        }
                        _ => unreachable!(),
                    }
                }
            }
        }
    }
}

#[test]
fn ir_codec_agrees_with_the_derive_on_every_village_vector() {
    let schema = schema();
    let mut counts = Counts::default();
    check::<ClientMessage>(&schema, Dir::C2s, 3, &mut counts);
    check::<ServerMessage>(&schema, Dir::S2c, 3, &mut counts);
    let messages = ClientMessage::MESSAGES.len() + ServerMessage::MESSAGES.len();
    eprintln!(
        "ircodec agrees: {messages} messages, {} valid vectors, {} invalid vectors, {} \
         mutated inputs both accept",
        counts.valid, counts.invalid, counts.agreeing_ok
    );
    eprintln!("invalid vectors by code: {:?}", counts.codes);
    assert_eq!(counts.valid, messages * 5 * 3);
    // Every decoding error code but unknown_message (envelopes_agree covers it),
    // too_many_elements (needs 2^20 elements), no_baseline and delta_payload (delta payloads
    // only, tests/tests/delta.rs and tests/tests/dispatch.rs) occurs.
    for code in tuplet::Code::ALL {
        let c = code.as_str();
        if !matches!(
            c,
            "unknown_message" | "too_many_elements" | "no_baseline" | "delta_payload"
        ) {
            assert!(
                counts.codes.contains_key(c),
                "no invalid vector with code {c}"
            );
        }
    }
    assert!(counts.invalid > messages * 20, "{} invalid", counts.invalid);
}

#[test]
fn envelopes_agree() {
    let schema = schema();
    for (index, _) in ServerMessage::MESSAGES.iter().enumerate().step_by(7) {
        let v = ServerMessage::sample_variant(index, 1, SampleMode::Random).unwrap();
        let env = v.to_envelope(Encoding::Compact).unwrap();
        let (path, value) = ircodec::decode_envelope(&schema, Dir::S2c, &env).unwrap();
        let back = ircodec::encode(&schema, &path, &value, Shape::Compact).unwrap();
        assert_eq!(back, env[env.len() - back.len()..]);
    }
    for bytes in [&[0xcd, 0xff, 0xff, 0x90][..], &[0xc1], &[0xa1, 0x61], &[]] {
        let derived = ServerMessage::from_envelope(bytes).map(|_| Value::Null);
        let ir = ircodec::decode_envelope(&schema, Dir::S2c, bytes).map(|(_, v)| v);
        assert_eq!(outcome(&derived), outcome(&ir));
    }
}

#[test]
fn max_sizes_agree_with_the_schema_sizes() {
    let schema = schema();
    let sizes = tuplet_schema::sizes::message_sizes(&schema);
    for (dir, msgs, max) in [
        (Dir::C2s, ClientMessage::MESSAGES, ClientMessage::MAX_SIZES),
        (Dir::S2c, ServerMessage::MESSAGES, ServerMessage::MAX_SIZES),
    ] {
        for ((name, id), max) in msgs.iter().zip(max) {
            let s = sizes
                .iter()
                .find(|s| s.dir == dir && s.id == *id)
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(s.max.clone().ok(), *max, "{name}");
        }
    }
}
