//! Cross-language vectors: the Rust side.
//!
//! `write_vectors` writes `target/tuplet-vectors/{c2s,s2c}.json` (from the workspace root):
//!
//! ```json
//! { "valid": [{ "message": "player:move", "id": 1, "mode": "min|max|absent|present|random",
//!               "seed": 0, "compact": "<hex>", "named": "<hex>", "value": <natural JSON> }],
//!   "invalid": [{ "message": "player:move", "shape": "compact|named", "bytes": "<hex>",
//!                 "code": "out_of_range", "path": "p[1]", "error": "<message>",
//!                 "what": "<the mutation>" }],
//!   "accepted": [{ "message": "player:move", "shape": "compact|named", "bytes": "<hex>",
//!                  "value": <natural JSON>, "canonical": "<hex>", "what": "<the mutation>" }],
//!   "rejected": [{ "message": "player:move", "compact": "<hex>", "remove": ["flags", "running"],
//!                  "code": "missing_field", "path": "flags.running",
//!                  "error": "<message>" }] }
//! ```
//!
//! `valid` holds every village message in every sample mode (the derive's `sample`), its
//! bytes in both shapes and its natural value (the JSON convention of
//! `tuplet_codegen::ircodec`); `invalid` holds the mutated inputs of `ircodec_agrees.rs` with
//! the derived decoder's code, path and message; `accepted` holds the mutated inputs the derived
//! decoder reads successfully (integral floats in int fields, msgpackr's `d4 00 00` as nil,
//! extra trailing elements, unknown named keys, open enums' unknown numbers and tags, open
//! flags' unknown bits, and, built here from the valid bytes, every int at a 64-bit marker, ints
//! as integral float64, float32 as float64, every header at its widest, canonical names instead
//! of legacy aliases), with the value Rust decodes and its compact re-encoding (`canonical`).
//! `rejected` holds values the encoders refuse (see `rejected_values`). The TypeScript tests
//! decode and validate every one identically, re-encode the valid ones to identical bytes and
//! the accepted ones to `canonical`, and refuse the rejected ones with the same code and path.
//!
//! `ts_encoded_samples_decode_in_rust` (ignored: run after the TypeScript tests, by
//! `scripts/test`) reads `target/tuplet-vectors/ts_encoded.json`, written by the TypeScript
//! tests, and checks that the derived decoders read every TypeScript-encoded sample as the
//! value TypeScript meant. It fails when the file is missing.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::{Dispatch, Encoding, SampleMode};
use tuplet_codegen::ircodec::{self, mutate, Shape};
use tuplet_schema::ir::{Dir, Field, ItemKind, Slot, TypeRef};
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

/// The village crate's folder.
fn crate_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/village"))
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
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

/// The vectors of one direction: valid, invalid, accepted.
struct Set {
    valid: Vec<Value>,
    invalid: Vec<Value>,
    accepted: Vec<Value>,
    rejected: Vec<Value>,
}

/// Values every encoder rejects, built from a valid sample, each with the keys `remove` deletes:
/// each required top-level field left out, and in each top-level record or flag-set field its
/// first field or flag left out. The rules (WIRE.md, "Errors" and "Enums and flags"): a required
/// field is written out, and so is every flag; a missing one is `missing_field` at its path
/// (`t`, `flags.running`). `tuplet encode` (the IR codec, checked) gives the code, path and
/// message; the TypeScript tests decode `compact`, delete the keys and expect the same from
/// `encode` and `validate`.
fn rejected_values(schema: &ResolvedSchema, path: &str, name: &str, compact: &[u8]) -> Vec<Value> {
    let value = ircodec::decode(schema, path, compact).unwrap();
    let ItemKind::Message(m) = &schema.get(path).unwrap().item.kind else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut reject = |remove: &[&str], v: &Value| {
        let e = ircodec::encode(schema, path, v, Shape::Compact)
            .expect_err("a value without one of its required fields or flags is rejected");
        out.push(json!({
            "message": name, "compact": ircodec::hex(compact), "remove": remove,
            "code": e.code().as_str(), "path": e.path().to_string(), "error": e.issue().message,
        }));
    };
    for slot in &m.record.slots {
        let Slot::Field(f) = slot else { continue };
        if !matches!(f.ty, TypeRef::Option { .. }) {
            let mut v = value.clone();
            v.as_object_mut().unwrap().remove(&f.name);
            reject(&[&f.name], &v);
        }
        let ty = match &f.ty {
            TypeRef::Option { inner } => inner.as_ref(),
            t => t,
        };
        let TypeRef::Named { path: ty } = ty else {
            continue;
        };
        // An absent option holds nothing to leave out.
        if !value[&f.name].is_object() {
            continue;
        }
        let inner = match schema.get(ty).map(|i| &i.item.kind) {
            Some(ItemKind::Flags(flags)) => flags.bits.first().map(|b| b.name.as_str()),
            Some(ItemKind::Record(r)) => r.slots.iter().find_map(|s| match s {
                Slot::Field(g) if !matches!(g.ty, TypeRef::Option { .. }) => Some(g.name.as_str()),
                _ => None,
            }),
            _ => None,
        };
        let Some(inner) = inner else { continue };
        let mut v = value.clone();
        v[&f.name].as_object_mut().unwrap().remove(inner);
        reject(&[&f.name, inner], &v);
    }
    out
}

fn vectors<D: Dispatch>(schema: &ResolvedSchema, dir: Dir) -> Set {
    let mut set = Set {
        valid: Vec::new(),
        invalid: Vec::new(),
        accepted: Vec::new(),
        rejected: Vec::new(),
    };
    for (index, (name, id)) in D::MESSAGES.iter().enumerate() {
        let path = ircodec::message_with_id(schema, dir, *id).expect("message in the schema");
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        for mode in SampleMode::ALL {
            for &seed in seeds(mode) {
                let v = D::sample_variant(index, seed, mode).unwrap();
                let compact = v.to_payload(Encoding::Compact).unwrap();
                let named = v.to_payload(Encoding::Named).unwrap();
                let value = ircodec::decode(schema, &path, &compact).unwrap();
                set.valid.push(json!({
                    "message": name, "id": id, "mode": mode_name(mode), "seed": seed,
                    "compact": ircodec::hex(&compact), "named": ircodec::hex(&named),
                    "value": value,
                }));
                seen.insert(compact.clone());
                seen.insert(named.clone());
                if seed == 0 && matches!(mode, SampleMode::Present) {
                    set.rejected
                        .extend(rejected_values(schema, &path, name, &compact));
                }
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
                        for (what, b) in rewrites(bytes) {
                            inputs.push((what.into(), shape, b));
                        }
                    }
                    for (what, v) in named_variants(schema, &path, &value) {
                        let bytes = ircodec::encode_unchecked(schema, &path, &v, Shape::Named);
                        inputs.push((what, "named", bytes));
                    }
                }
                for (what, shape, bytes) in inputs {
                    if !seen.insert(bytes.clone()) {
                        continue;
                    }
                    match D::from_payload(name, &bytes) {
                        Ok(decoded) => {
                            let canonical = decoded.to_payload(Encoding::Compact).unwrap();
                            let value = ircodec::decode(schema, &path, &canonical)
                                .unwrap_or_else(|e| panic!("{name}: {what}: ircodec: {e}"));
                            set.accepted.push(json!({
                                "message": name, "shape": shape, "bytes": ircodec::hex(&bytes),
                                "value": value, "canonical": ircodec::hex(&canonical),
                                "what": what,
                            }));
                        }
                        Err(e) => set.invalid.push(json!({
                            "message": name, "shape": shape, "bytes": ircodec::hex(&bytes),
                            "code": e.code().as_str(), "path": e.path().to_string(),
                            "error": e.issue().message, "what": what,
                        })),
                    }
                }
            }
        }
    }
    set
}

/// Named-shape variants of a valid natural value the mutations do not make: each field with a
/// legacy alias under its canonical name instead (one at a time, and all at once), and an
/// unknown key holding a nested value.
fn named_variants(schema: &ResolvedSchema, path: &str, value: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let Some(o) = value.as_object() else {
        return out;
    };
    let fields: Vec<&Field> = match schema.get(path).map(|i| &i.item.kind) {
        Some(ItemKind::Message(m)) => m
            .record
            .slots
            .iter()
            .filter_map(|s| match s {
                Slot::Field(f) => Some(f),
                Slot::Reserved(_) => None,
            })
            .collect(),
        _ => return out,
    };
    let aliased: Vec<&Field> = fields
        .into_iter()
        .filter(|f| !f.legacy.is_empty() && o.get(&f.name).is_some_and(|x| !x.is_null()))
        .collect();
    let canonical = |names: &[&Field]| {
        let mut with = o.clone();
        let mut extra = Vec::new();
        for f in names {
            if let Some(x) = with.remove(&f.name) {
                extra.push(json!([f.name, x]));
            }
        }
        with.insert("$extra".into(), Value::Array(extra));
        Value::Object(with)
    };
    for f in &aliased {
        out.push((
            format!("canonical name {} instead of its legacy alias", f.name),
            canonical(&[f]),
        ));
    }
    if aliased.len() > 1 {
        out.push((
            "canonical names instead of every legacy alias".into(),
            canonical(&aliased),
        ));
    }
    let mut unknown = o.clone();
    unknown.insert(
        "$extra".into(),
        json!([["future_field", [1, "x", null, {"k": [true, 2.5]}]], ["zz", -7]]),
    );
    out.push(("unknown named keys".into(), Value::Object(unknown)));
    out
}

/// How `rewrite` re-encodes a msgpack value.
#[derive(Clone, Copy, PartialEq)]
enum Rewrite {
    /// Every int at a 64-bit marker (`cf`, or `d3` when negative).
    Ints64,
    /// Every int as a float64 (exact below 2^53).
    IntsAsF64,
    /// Every float32 as a float64.
    F32AsF64,
    /// Every array, map, str and bin header at its widest (32-bit) marker.
    WideHeaders,
}

/// Valid bytes re-encoded with wider markers than the smallest: what other msgpack encoders
/// may write (msgpackr writes `Date.now()` as float64, some always write 64-bit ints).
fn rewrites(bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let Ok(v) = rmpv::decode::read_value(&mut &bytes[..]) else {
        return Vec::new();
    };
    [
        ("every int at a 64-bit marker", Rewrite::Ints64),
        ("every int as an integral float64", Rewrite::IntsAsF64),
        ("every float32 as a float64", Rewrite::F32AsF64),
        ("every header at its widest marker", Rewrite::WideHeaders),
    ]
    .into_iter()
    .map(|(what, how)| {
        let mut out = Vec::new();
        rewrite(&v, how, &mut out);
        (what, out)
    })
    .filter(|(_, out)| out != bytes)
    .collect()
}

fn rewrite(v: &rmpv::Value, how: Rewrite, out: &mut Vec<u8>) {
    use rmpv::Value as V;
    use tuplet::wire::write;
    let wide = how == Rewrite::WideHeaders;
    match v {
        V::Nil => write::nil(out),
        V::Boolean(b) => write::bool(out, *b),
        V::Integer(i) => match (how, i.as_u64(), i.as_i64()) {
            (Rewrite::Ints64, Some(u), _) => {
                out.push(0xcf);
                out.extend_from_slice(&u.to_be_bytes());
            }
            (Rewrite::Ints64, None, Some(n)) => {
                out.push(0xd3);
                out.extend_from_slice(&n.to_be_bytes());
            }
            (Rewrite::IntsAsF64, Some(u), _) if u <= 1 << 53 => write::f64(out, u as f64),
            (Rewrite::IntsAsF64, None, Some(n)) if n >= -(1 << 53) => write::f64(out, n as f64),
            (_, Some(u), _) => write::uint(out, u),
            (_, None, Some(n)) => write::int(out, n),
            _ => unreachable!("an int is u64 or i64"),
        },
        V::F32(x) if how == Rewrite::F32AsF64 => write::f64(out, f64::from(*x)),
        V::F32(x) => write::f32(out, *x),
        V::F64(x) => write::f64(out, *x),
        V::String(s) => {
            let b = s.as_bytes();
            if wide {
                out.push(0xdb);
                out.extend_from_slice(&(b.len() as u32).to_be_bytes());
                out.extend_from_slice(b);
            } else {
                match s.as_str() {
                    Some(text) => write::str(out, text),
                    None => {
                        out.push(0xdb);
                        out.extend_from_slice(&(b.len() as u32).to_be_bytes());
                        out.extend_from_slice(b);
                    }
                }
            }
        }
        V::Binary(b) => {
            if wide {
                out.push(0xc6);
                out.extend_from_slice(&(b.len() as u32).to_be_bytes());
                out.extend_from_slice(b);
            } else {
                write::bin(out, b);
            }
        }
        V::Array(a) => {
            if wide {
                out.push(0xdd);
                out.extend_from_slice(&(a.len() as u32).to_be_bytes());
            } else {
                write::array_len(out, a.len() as u32);
            }
            for x in a {
                rewrite(x, how, out);
            }
        }
        V::Map(m) => {
            if wide {
                out.push(0xdf);
                out.extend_from_slice(&(m.len() as u32).to_be_bytes());
            } else {
                write::map_len(out, m.len() as u32);
            }
            for (k, x) in m {
                rewrite(k, how, out);
                rewrite(x, how, out);
            }
        }
        V::Ext(ty, data) => {
            match data.len() {
                1 => out.push(0xd4),
                2 => out.push(0xd5),
                4 => out.push(0xd6),
                8 => out.push(0xd7),
                16 => out.push(0xd8),
                n => {
                    out.push(0xc9);
                    out.extend_from_slice(&(n as u32).to_be_bytes());
                }
            }
            out.push(*ty as u8);
            out.extend_from_slice(data);
        }
    }
}

#[test]
fn write_vectors() {
    let schema = schema();
    let dir = vectors_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let mut total = (0, 0, 0, 0);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for (file, set) in [
        ("c2s.json", vectors::<ClientMessage>(&schema, Dir::C2s)),
        ("s2c.json", vectors::<ServerMessage>(&schema, Dir::S2c)),
    ] {
        total.0 += set.valid.len();
        total.1 += set.invalid.len();
        total.2 += set.accepted.len();
        for a in &set.accepted {
            let what = a["what"].as_str().unwrap_or("");
            let kind = what.split(" at /").next().unwrap_or(what);
            *kinds
                .entry(format!("{kind} ({})", a["shape"].as_str().unwrap_or("")))
                .or_default() += 1;
        }
        total.3 += set.rejected.len();
        for r in &set.rejected {
            assert_eq!(r["code"], "missing_field", "{r}");
            let removed: Vec<&str> = r["remove"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .collect();
            assert_eq!(r["path"].as_str().unwrap(), removed.join("."), "{r}");
        }
        let doc = json!({
            "valid": set.valid, "invalid": set.invalid, "accepted": set.accepted,
            "rejected": set.rejected,
        });
        std::fs::write(dir.join(file), serde_json::to_string(&doc).unwrap()).unwrap();
    }
    eprintln!(
        "wrote {}: {} valid, {} invalid, {} accepted, {} rejected vectors",
        dir.display(),
        total.0,
        total.1,
        total.2,
        total.3
    );
    assert!(total.3 > 0, "no message has a flag-set field");
    for (kind, n) in &kinds {
        eprintln!("  accepted: {n:6} {kind}");
    }
    let messages = ClientMessage::MESSAGES.len() + ServerMessage::MESSAGES.len();
    assert_eq!(total.0, messages * 8);
    assert!(total.1 > messages * 20);
    // Every kind of input Rust accepts beyond the canonical bytes is present.
    for kind in [
        "an integral float (compact)",
        "msgpackr's undefined (compact)",
        "msgpackr's undefined (named)",
        "extra elements (compact)",
        "unknown named keys (named)",
        "an unknown variant number (compact)",
        "an unknown tag (compact)",
        "an unknown flag bit (compact)",
        "every int at a 64-bit marker (compact)",
        "every int as an integral float64 (compact)",
        "every float32 as a float64 (compact)",
        "every header at its widest marker (compact)",
        "every header at its widest marker (named)",
        "canonical names instead of every legacy alias (named)",
    ] {
        assert!(
            kinds.contains_key(kind),
            "no accepted vector of kind {kind:?}"
        );
    }
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

/// `ok`, or `code@path`, as the TypeScript hostile-input run writes its verdicts.
fn envelope_verdict<D: Dispatch>(bytes: &[u8]) -> String {
    match D::from_envelope(bytes) {
        Ok(_) => "ok".to_owned(),
        Err(e) => format!("{}@{}", e.code().as_str(), e.path()),
    }
}

#[test]
#[ignore = "reads target/tuplet-vectors/ts_hostile_sample.json, written by the TypeScript tests"]
fn ts_hostile_sample_gets_the_same_verdicts_in_rust() {
    let file = vectors_dir().join("ts_hostile_sample.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; the TypeScript tests write it (cd tests/ts && npm test)",
            file.display()
        )
    });
    let sample: BTreeMap<String, Vec<Value>> = serde_json::from_str(&text).expect("JSON");
    let mut checked = 0;
    let mut disagree = Vec::new();
    for (dir, entries) in &sample {
        for e in entries {
            let hex = e["hex"].as_str().expect("hex");
            let bytes = ircodec::unhex(hex).expect("hex bytes");
            let rust = match dir.as_str() {
                "c2s" => envelope_verdict::<ClientMessage>(&bytes),
                _ => envelope_verdict::<ServerMessage>(&bytes),
            };
            if rust != e["verdict"] {
                disagree.push(format!("{dir} {hex}: rust {rust}, ts {}", e["verdict"]));
            }
            checked += 1;
        }
    }
    assert!(checked >= 2000, "only {checked} sampled inputs");
    assert!(
        disagree.is_empty(),
        "{} disagreements:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
}
