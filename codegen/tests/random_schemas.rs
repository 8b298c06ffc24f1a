//! The random-schema property test: seeded schema crates over the whole grammar
//! (`support/random_schema.rs`), several seeds to one crate. For each crate:
//! - the loader loads it and the TypeScript package type-checks under its own tsconfig
//!   (the pinned tsc) and loads in node;
//! - the derive compiles it (a real cargo build, dispatch enums included), and its samples
//!   of every message, in every sample mode, survive a Rust round trip in both shapes;
//! - the IR codec decodes each sample's compact bytes and re-encodes them byte-identical
//!   (derive vs IR codec), and reads the named bytes to the same value;
//! - Rust to TypeScript: the TypeScript codec decodes the compact and the named bytes and
//!   re-encodes both to Rust's compact bytes, byte-identical;
//! - TypeScript to Rust: the bytes TypeScript encodes from the values it decoded (both
//!   shapes) decode in Rust (the derive) and re-encode to Rust's compact bytes, and
//!   TypeScript's value is Rust's (the natural JSON, value for value);
//! - invalid inputs (`ircodec::mutate`: mutated values in both shapes, byte-level
//!   mutations): the derive, the IR codec and TypeScript give the same outcome, the same
//!   error code, path and message (or the same re-encoded bytes when all three accept).
//!
//! `cargo test -p tuplet-codegen --test random_schemas -- --ignored` runs seeds 1..=6 in one
//! crate; `scripts/random-schemas N` runs N seeds in crates of 8 and writes the counts.
//! Env: `TUPLET_RANDOM_SEEDS=A..B` (the seeds), `TUPLET_RANDOM_BATCH` (seeds per crate),
//! `TUPLET_RANDOM_TARGET` (the cargo target dir of the generated crates).

mod support;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::random_schema::{schema, GenSchema};
use support::{emit_ts, load, node, repo, schema_crate, tsc};
use tuplet::Error;
use tuplet_codegen::ircodec::{self, mutate, Shape};
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;

/// Samples per message per sample mode.
const SAMPLES: u64 = 3;

fn seeds() -> Vec<u64> {
    let spec = std::env::var("TUPLET_RANDOM_SEEDS").unwrap_or_else(|_| "1..7".into());
    let (a, b) = spec.split_once("..").expect("TUPLET_RANDOM_SEEDS=A..B");
    (a.parse().unwrap()..b.parse().unwrap()).collect()
}

/// The Rust program of the crate. Without arguments it prints `dir name compact-hex
/// named-hex seed mode` per sample; with `check FILE` it decodes each `dir name hex` line of
/// FILE with the derive and prints its outcome (hex of `ok <compact hex>` or of
/// `<code> at '<path>': <message>`).
fn samples_main(schemas: &[GenSchema]) -> String {
    let mut calls = String::new();
    let mut arms = String::new();
    for m in schemas.iter().flat_map(|s| &s.messages) {
        calls.push_str(&format!("    emit::<schema::{}>(&mut out);\n", m.path));
        // The direction word as `T::DIR` prints it.
        let dir = match m.dir {
            "c2s" => "C2s",
            "s2c" => "S2c",
            _ => "Both",
        };
        arms.push_str(&format!(
            "            ({dir:?}, {:?}) => redo::<schema::{}>(&b),\n",
            m.name, m.path
        ));
    }
    format!(
        r#"use tuplet::{{Message, SampleMode, Wire}};
fn hex(b: &[u8]) -> String {{ b.iter().map(|x| format!("{{x:02x}}")).collect() }}
fn unhex(h: &str) -> Vec<u8> {{ (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect() }}
fn emit<T: Message + Wire + PartialEq + std::fmt::Debug>(out: &mut String) {{
    for seed in 0..{SAMPLES} {{
        for mode in SampleMode::ALL {{
            let x: T = tuplet::sample(seed, mode);
            let issues = tuplet::validate(&x);
            assert!(issues.is_empty(), "{{}}: sample {{seed}} {{mode:?}} invalid: {{issues:?}}", T::NAME);
            let compact = tuplet::to_vec(&x).unwrap();
            let named = tuplet::to_vec_named(&x).unwrap();
            let y: T = tuplet::from_slice(&compact).unwrap();
            let z: T = tuplet::from_slice(&named).unwrap();
            assert!(x.wire_eq(&y) && x.wire_eq(&z), "{{}}: sample {{seed}} {{mode:?}}", T::NAME);
            assert_eq!(tuplet::to_vec(&z).unwrap(), compact);
            out.push_str(&format!("{{:?}} {{}} {{}} {{}} {{seed}} {{mode:?}}\n", T::DIR, T::NAME, hex(&compact), hex(&named)));
        }}
    }}
}}
fn redo<T: Wire>(b: &[u8]) -> String {{
    match tuplet::from_slice::<T>(b) {{
        Ok(x) => match tuplet::to_vec(&x) {{
            Ok(c) => format!("ok {{}}", hex(&c)),
            Err(e) => format!("decoded, but encode failed: {{e}}"),
        }},
        Err(e) => format!("{{}} at '{{}}': {{}}", e.code(), e.path(), e.issue().message),
    }}
}}
fn check(file: &str) {{
    let mut out = String::new();
    for line in std::fs::read_to_string(file).unwrap().lines() {{
        let parts: Vec<&str> = line.split(' ').collect();
        let b = unhex(parts[2]);
        let outcome = match (parts[0], parts[1]) {{
{arms}            _ => panic!("no message {{line}}"),
        }};
        out.push_str(&hex(outcome.as_bytes()));
        out.push('\n');
    }}
    print!("{{out}}");
}}
fn main() {{
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "check" {{
        return check(&args[2]);
    }}
    let mut out = String::new();
{calls}    print!("{{out}}");
}}
"#
    )
}

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{cmd:?}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The outcome of a decode as the crate's program and the node script write it.
fn outcome(r: &Result<Value, Error>, schema: &ResolvedSchema, path: &str) -> String {
    match r {
        Ok(v) => match ircodec::encode(schema, path, v, Shape::Compact) {
            Ok(b) => format!("ok {}", ircodec::hex(&b)),
            Err(e) => format!("decoded, but encode failed: {e}"),
        },
        Err(e) => format!("{} at '{}': {}", e.code(), e.path(), e.issue().message),
    }
}

/// [`ircodec::json_eq`], with a decimal string equal to the number it spells (TypeScript
/// holds an int beyond ±(2^53−1) as a `bigint`, written as its decimal text), and a key whose
/// value is `null` (an unset option: the natural JSON of a newtype variant writes it, the
/// node script omits it) equal to an absent key.
fn natural_eq(a: &Value, b: &Value) -> bool {
    let set = |o: &serde_json::Map<String, Value>| -> serde_json::Map<String, Value> {
        o.iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    match (a, b) {
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            n.to_string() == *s
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| natural_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            let (x, y) = (set(x), set(y));
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| natural_eq(v, w)))
        }
        _ => ircodec::json_eq(a, b),
    }
}

/// Counts of one batch.
#[derive(Default, Debug)]
struct Counts {
    schemas: usize,
    types: usize,
    messages: usize,
    samples: usize,
    ts_checks: usize,
    ts_encoded: usize,
    invalid: usize,
    accepted: usize,
}

impl Counts {
    fn add(&mut self, c: &Counts) {
        self.schemas += c.schemas;
        self.types += c.types;
        self.messages += c.messages;
        self.samples += c.samples;
        self.ts_checks += c.ts_checks;
        self.ts_encoded += c.ts_encoded;
        self.invalid += c.invalid;
        self.accepted += c.accepted;
    }
}

/// A message's direction word as the crate's program writes it.
fn dir_of(word: &str) -> Dir {
    if word == "S2c" {
        Dir::S2c
    } else {
        Dir::C2s
    }
}

/// Builds and checks one crate of `seeds`; Err names the first failure.
fn check_batch(seeds: &[u64], target: &Path) -> Result<Counts, String> {
    let schemas: Vec<GenSchema> = seeds.iter().map(|&s| schema(s)).collect();
    let lib: String = schemas.iter().map(|s| s.text.as_str()).collect();
    let label = format!("seeds {seeds:?}");
    let krate = schema_crate(&[("lib.rs", &lib), ("main.rs", &samples_main(&schemas))]);
    let dir = krate.path();
    // Loader, TypeScript package, tsc.
    let loaded = load(dir).map_err(|e| format!("{label}: load: {e}\n{lib}"))?;
    let pkg = tempfile::tempdir().unwrap();
    emit_ts(&loaded, pkg.path());
    tsc(pkg.path()).map_err(|e| format!("{label}: tsc: {e}"))?;
    // The derive: a real build of the crate (the workspace's lock pins its dependencies).
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"schema\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[lib]\npath = \"src/lib.rs\"\n\n[[bin]]\nname = \"samples\"\npath = \"src/main.rs\"\n\n[dependencies]\ntuplet = {{ path = {:?}, features = [\"sample\"] }}\n\n[workspace]\n",
            repo().join("runtime").display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(repo().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let program = |args: &[&str]| {
        run(Command::new(env!("CARGO"))
            .args(["run", "-q", "--offline", "--bin", "samples", "--"])
            .args(args)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target)
            .env_remove("RUSTFLAGS"))
    };
    let samples = program(&[]).map_err(|e| format!("{label}: cargo run: {e}\n{lib}"))?;
    let mut counts = Counts {
        schemas: schemas.len(),
        types: schemas.iter().map(|s| s.types).sum(),
        messages: schemas.iter().map(|s| s.messages.len()).sum(),
        ..Counts::default()
    };
    // Derive vs IR codec, and the invalid inputs built from each sample.
    let mut inputs: Vec<(String, String, Vec<u8>)> = Vec::new();
    let mut seen = HashSet::new();
    let mut paths = std::collections::BTreeMap::new();
    for line in samples.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        let [dir_word, name, compact, named, seed, mode] = parts[..] else {
            return Err(format!("{label}: bad sample line {line}"));
        };
        let path = ircodec::message_named(&loaded, dir_of(dir_word), name)
            .ok_or_else(|| format!("{label}: the loader has no {name}"))?;
        let compact_bytes = ircodec::unhex(compact).unwrap();
        let named_bytes = ircodec::unhex(named).unwrap();
        let value: Value = ircodec::decode(&loaded, &path, &compact_bytes)
            .map_err(|e| format!("{label}: IR decode of {name} {compact}: {e:?}"))?;
        let again = ircodec::encode(&loaded, &path, &value, Shape::Compact)
            .map_err(|e| format!("{label}: IR encode of {name} {value}: {e:?}"))?;
        if ircodec::hex(&again) != compact {
            return Err(format!(
                "{label}: {name}: IR re-encoded {}, derive {compact} (value {value})",
                ircodec::hex(&again)
            ));
        }
        let from_named = ircodec::decode(&loaded, &path, &named_bytes)
            .map_err(|e| format!("{label}: IR decode of named {name} {named}: {e:?}"))?;
        if !ircodec::json_eq(&from_named, &value) {
            return Err(format!(
                "{label}: {name}: named {from_named} != compact {value}"
            ));
        }
        counts.samples += 1;
        let mut add = |b: Vec<u8>| {
            if seen.insert((dir_word.to_owned(), name.to_owned(), b.clone())) {
                inputs.push((dir_word.to_owned(), name.to_owned(), b));
            }
        };
        if seed == "0" && (mode == "Present" || mode == "Max") {
            for m in mutate::mutations(&loaded, &path, &value) {
                for shape in [Shape::Compact, Shape::Named] {
                    add(ircodec::encode_unchecked(&loaded, &path, &m.value, shape));
                }
            }
        }
        for b in [&compact_bytes, &named_bytes] {
            for (_, m) in mutate::byte_mutations(b) {
                add(m);
            }
        }
        paths.insert((dir_word.to_owned(), name.to_owned()), path);
    }
    // TypeScript: Rust's samples decoded and re-encoded, its own encodings, the inputs.
    std::fs::write(pkg.path().join("samples.txt"), &samples).unwrap();
    let input_lines: String = inputs
        .iter()
        .map(|(d, n, b)| format!("{d} {n} {}\n", ircodec::hex(b)))
        .collect();
    std::fs::write(pkg.path().join("inputs.txt"), &input_lines).unwrap();
    let script = include_str!("support/random_check.mjs");
    node(
        pkg.path(),
        &format!("import * as pkg from \"./build/index.js\";\n{script}"),
    )
    .map_err(|e| format!("{label}: node: {e}"))?;
    let text = std::fs::read_to_string(pkg.path().join("ts_out.json"))
        .map_err(|e| format!("{label}: node wrote no ts_out.json: {e}"))?;
    let report: Value =
        serde_json::from_str(&text).map_err(|e| format!("{label}: ts_out.json: {e}"))?;
    let bad = report["bad"].as_array().unwrap();
    if !bad.is_empty() {
        return Err(format!(
            "{label}: TypeScript disagrees:\n{}",
            serde_json::to_string_pretty(bad).unwrap()
        ));
    }
    counts.ts_checks = report["checked"].as_u64().unwrap() as usize;
    // TypeScript to Rust: its bytes decoded by the derive, its values equal to the IR's.
    let encoded = report["encoded"].as_array().unwrap();
    let mut check_lines = input_lines.clone();
    for e in encoded {
        let (d, n) = (e["dir"].as_str().unwrap(), e["name"].as_str().unwrap());
        for shape in ["compact", "named"] {
            check_lines.push_str(&format!("{d} {n} {}\n", e[shape].as_str().unwrap()));
        }
    }
    let check_file = pkg.path().join("check.txt");
    std::fs::write(&check_file, &check_lines).unwrap();
    let derived = program(&["check", check_file.to_str().unwrap()])
        .map_err(|e| format!("{label}: cargo run check: {e}"))?;
    let derived: Vec<String> = derived
        .lines()
        .map(|h| String::from_utf8(ircodec::unhex(h).unwrap()).unwrap())
        .collect();
    let mut disagreements = Vec::new();
    let ts_outcomes = report["outcomes"].as_array().unwrap();
    for (i, (d, n, b)) in inputs.iter().enumerate() {
        let path = &paths[&(d.clone(), n.clone())];
        let ir = outcome(&ircodec::decode(&loaded, path, b), &loaded, path);
        let ts = ts_outcomes[i].as_str().unwrap();
        if derived[i] != ir || ir != ts {
            disagreements.push(format!(
                "{n} {}:\n  derive: {}\n  IR:     {ir}\n  TS:     {ts}",
                ircodec::hex(b),
                derived[i]
            ));
        } else if ir.starts_with("ok ") {
            counts.accepted += 1;
        } else {
            counts.invalid += 1;
        }
    }
    for (k, e) in encoded.iter().enumerate() {
        let rust = e["rust"].as_str().unwrap();
        let n = e["name"].as_str().unwrap();
        for (j, shape) in ["compact", "named"].iter().enumerate() {
            let got = &derived[inputs.len() + 2 * k + j];
            if *got != format!("ok {rust}") {
                disagreements.push(format!(
                    "{n}: TypeScript's {shape} bytes {}: derive {got}, Rust's bytes {rust}",
                    e[shape]
                ));
            }
        }
        let d = e["dir"].as_str().unwrap();
        let path = &paths[&(d.to_owned(), n.to_owned())];
        let value = ircodec::decode(&loaded, path, &ircodec::unhex(rust).unwrap()).unwrap();
        if !natural_eq(&value, &e["value"]) {
            disagreements.push(format!(
                "{n} {rust}: TypeScript's value {} != Rust's {value}",
                e["value"]
            ));
        }
        counts.ts_encoded += 1;
    }
    if !disagreements.is_empty() {
        let shown = disagreements.len().min(20);
        return Err(format!(
            "{label}: {} disagreements (first {shown}):\n{}",
            disagreements.len(),
            disagreements[..shown].join("\n")
        ));
    }
    Ok(counts)
}

#[test]
#[ignore = "builds crates with cargo: run by scripts/test and scripts/random-schemas"]
fn random_schemas() {
    let seeds = seeds();
    let batch: usize = std::env::var("TUPLET_RANDOM_BATCH")
        .ok()
        .map_or(8, |b| b.parse().unwrap());
    let target = std::env::var("TUPLET_RANDOM_TARGET")
        .map(Into::into)
        .unwrap_or_else(|_| repo().join("target/random-schemas"));
    let mut total = Counts::default();
    let mut failures = Vec::new();
    for chunk in seeds.chunks(batch) {
        match check_batch(chunk, &target) {
            Ok(c) => total.add(&c),
            Err(e) => failures.push(e),
        }
    }
    println!(
        "random schemas: {} schemas, {} types, {} messages, {} samples (derive = IR codec), \
         {} TypeScript round trips, {} TypeScript encodings decoded in Rust, {} invalid inputs \
         (same code, path and message in the derive, the IR codec and TypeScript), {} mutated \
         inputs all three accept alike, {} failed batches",
        total.schemas,
        total.types,
        total.messages,
        total.samples,
        total.ts_checks,
        total.ts_encoded,
        total.invalid,
        total.accepted,
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The generator is deterministic and its schemas load (no build: cheap, in every run).
#[test]
fn generated_schemas_load() {
    for seed in 0..200 {
        let s = schema(seed);
        assert_eq!(s.text, schema(seed).text);
        let krate = schema_crate(&[("lib.rs", &s.text)]);
        if let Err(e) = load(krate.path()) {
            panic!("seed {seed}: {e}\n{}", s.text);
        }
    }
}

/// Prints the schema of `TUPLET_RANDOM_PRINT=seed` (to reproduce a failure by hand).
#[test]
#[ignore = "a tool: TUPLET_RANDOM_PRINT=seed"]
fn print_schema() {
    if let Ok(seed) = std::env::var("TUPLET_RANDOM_PRINT") {
        print!("{}", schema(seed.parse().unwrap()).text);
    }
}
