//! Cross-language vectors (issue 7, item 4): the Rust side.
//!
//! `write_vectors` writes `target/tuplet-vectors/{c2s,s2c}.json` (from the workspace root):
//!
//! ```json
//! { "valid": [{ "message": "player:move", "id": 1, "mode": "min|max|absent|present|random",
//!               "seed": 0, "compact": "<hex>", "named": "<hex>", "value": <natural JSON> }],
//!   "invalid": [{ "message": "player:move", "shape": "compact|named", "bytes": "<hex>",
//!                 "code": "out_of_range", "path": "p[1]", "error": "<message>",
//!                 "what": "<the mutation>" }] }
//! ```
//!
//! `valid` holds every village message in every sample mode (the derive's `sample`), its
//! bytes in both shapes and its natural value (the JSON convention of
//! `tuplet_codegen::ircodec`); `invalid` holds the mutated inputs of `ircodec_agrees.rs` with
//! the derived decoder's code, path and message. The TypeScript tests decode and validate
//! every one identically and re-encode the valid ones to identical bytes.
//!
//! `ts_encoded_samples_decode_in_rust` (ignored: run after the TypeScript tests, by
//! `scripts/test`) reads `target/tuplet-vectors/ts_encoded.json`, written by the TypeScript
//! tests, and checks that the derived decoders read every TypeScript-encoded sample as the
//! value TypeScript meant. It fails when the file is missing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::{Dispatch, Encoding, SampleMode};
use tuplet_codegen::ircodec::{self, mutate, Shape};
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn vectors_dir() -> PathBuf {
    crate_dir()
        .parent()
        .and_then(Path::parent)
        .expect("the workspace root")
        .join("target/tuplet-vectors")
}

fn schema() -> ResolvedSchema {
    tuplet_schema::load(crate_dir()).unwrap_or_else(|e| panic!("{e}"))
}

fn mode_name(mode: SampleMode) -> &'static str {
    match mode {
        SampleMode::Min => "min",
        SampleMode::Max => "max",
        SampleMode::Absent => "absent",
        SampleMode::Present => "present",
        SampleMode::Random => "random",
    }
}

/// Seeds per mode: min and max are deterministic, the others get two.
fn seeds(mode: SampleMode) -> &'static [u64] {
    match mode {
        SampleMode::Min | SampleMode::Max => &[0],
        _ => &[0, 1],
    }
}

fn vectors<D: Dispatch>(schema: &ResolvedSchema, dir: Dir) -> (Vec<Value>, Vec<Value>) {
    let mut valid = Vec::new();
    let mut invalid = Vec::new();
    for (index, (name, id)) in D::MESSAGES.iter().enumerate() {
        let path = ircodec::message_with_id(schema, dir, *id).expect("message in the schema");
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        for mode in SampleMode::ALL {
            for &seed in seeds(mode) {
                let v = D::sample_variant(index, seed, mode).unwrap();
                let compact = v.to_payload(Encoding::Compact).unwrap();
                let named = v.to_payload(Encoding::Named).unwrap();
                let value = ircodec::decode(schema, &path, &compact).unwrap();
                valid.push(json!({
                    "message": name, "id": id, "mode": mode_name(mode), "seed": seed,
                    "compact": ircodec::hex(&compact), "named": ircodec::hex(&named),
                    "value": value,
                }));
                let mut inputs: Vec<(String, &str, Vec<u8>)> = Vec::new();
                if seed == 0 && matches!(mode, SampleMode::Present | SampleMode::Min) {
                    for m in mutate::mutations(schema, &path, &value) {
                        for shape in [Shape::Compact, Shape::Named] {
                            let bytes = ircodec::encode_unchecked(schema, &path, &m.value, shape);
                            inputs.push((m.what.clone(), shape.as_str(), bytes));
                        }
                    }
                    for (shape, bytes) in [("compact", &compact), ("named", &named)] {
                        for (what, b) in mutate::byte_mutations(bytes) {
                            inputs.push((what, shape, b));
                        }
                    }
                }
                for (what, shape, bytes) in inputs {
                    if !seen.insert(bytes.clone()) {
                        continue;
                    }
                    let Err(e) = D::from_payload(name, &bytes) else {
                        continue;
                    };
                    invalid.push(json!({
                        "message": name, "shape": shape, "bytes": ircodec::hex(&bytes),
                        "code": e.code().as_str(), "path": e.path().to_string(),
                        "error": e.issue().message, "what": what,
                    }));
                }
            }
        }
    }
    (valid, invalid)
}

#[test]
fn write_vectors() {
    let schema = schema();
    let dir = vectors_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let mut total = (0, 0);
    for (file, (valid, invalid)) in [
        ("c2s.json", vectors::<ClientMessage>(&schema, Dir::C2s)),
        ("s2c.json", vectors::<ServerMessage>(&schema, Dir::S2c)),
    ] {
        total.0 += valid.len();
        total.1 += invalid.len();
        let doc = json!({ "valid": valid, "invalid": invalid });
        std::fs::write(dir.join(file), serde_json::to_string(&doc).unwrap()).unwrap();
    }
    eprintln!(
        "wrote {}: {} valid, {} invalid vectors",
        dir.display(),
        total.0,
        total.1
    );
    let messages = ClientMessage::MESSAGES.len() + ServerMessage::MESSAGES.len();
    assert_eq!(total.0, messages * 8);
    assert!(total.1 > messages * 20);
}

fn check_ts<D: Dispatch>(schema: &ResolvedSchema, dir: Dir, entry: &Value) -> Result<(), String> {
    let name = entry["message"].as_str().ok_or("no message")?;
    let hex = entry["bytes"].as_str().ok_or("no bytes")?;
    let bytes = ircodec::unhex(hex).ok_or("bytes are not hex")?;
    let want = &entry["value"];
    let path = ircodec::message_named(schema, dir, name).ok_or("unknown message")?;
    let decoded = D::from_payload(name, &bytes).map_err(|e| format!("derive: {e}"))?;
    let compact = decoded.to_payload(Encoding::Compact).unwrap();
    let got = ircodec::decode(schema, &path, &compact).map_err(|e| format!("ircodec: {e}"))?;
    if !ircodec::json_eq(&got, want) {
        return Err(format!("decoded {got}\nexpected {want}"));
    }
    Ok(())
}

#[test]
#[ignore = "reads target/tuplet-vectors/ts_encoded.json, written by the TypeScript tests"]
fn ts_encoded_samples_decode_in_rust() {
    let file = vectors_dir().join("ts_encoded.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; the TypeScript tests write it (cd tests/ts && npm test)",
            file.display()
        )
    });
    let entries: Vec<Value> = serde_json::from_str(&text).expect("ts_encoded.json is JSON");
    assert!(!entries.is_empty(), "{}: no entries", file.display());
    let schema = schema();
    let mut failures = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let result = match entry["direction"].as_str() {
            Some("c2s") => check_ts::<ClientMessage>(&schema, Dir::C2s, entry),
            Some("s2c") => check_ts::<ServerMessage>(&schema, Dir::S2c, entry),
            other => Err(format!("unknown direction {other:?}")),
        };
        if let Err(e) = result {
            failures.push(format!(
                "#{i} {} {} ({}): {e}",
                entry["direction"], entry["message"], entry["shape"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} TypeScript-encoded samples differ:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}
