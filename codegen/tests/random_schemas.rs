//! The random-schema property test: seeded schema crates over the whole grammar
//! (`support/random_schema.rs`), several seeds to one crate. For each crate:
//! - the loader loads it and the TypeScript package type-checks under its own tsconfig
//!   (the pinned tsc) and loads in node;
//! - the derive compiles it (a real cargo build, dispatch enums included), and its samples
//!   of every message, in every sample mode, survive a Rust round trip in both shapes;
//! - the IR codec decodes each sample's compact bytes and re-encodes them byte-identical
//!   (derive vs IR codec), and reads the named bytes to the same value;
//! - the TypeScript codec decodes the compact and the named bytes and re-encodes both to
//!   Rust's compact bytes, byte-identical (Rust to TypeScript and back).
//!
//! `cargo test -p tuplet-codegen --test random_schemas -- --ignored` runs seeds 1..=6 in one
//! crate; `scripts/random-schemas N` runs N seeds in crates of 8 and writes the counts.
//! Env: `TUPLET_RANDOM_SEEDS=A..B` (the seeds), `TUPLET_RANDOM_BATCH` (seeds per crate),
//! `TUPLET_RANDOM_TARGET` (the cargo target dir of the generated crates).

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::random_schema::{schema, GenSchema};
use support::{emit_ts, load, node, repo, schema_crate, tsc};
use tuplet_codegen::ircodec::{self, Shape};
use tuplet_schema::ir::Dir;

/// Samples per message per sample mode.
const SAMPLES: u64 = 3;

fn seeds() -> Vec<u64> {
    let spec = std::env::var("TUPLET_RANDOM_SEEDS").unwrap_or_else(|_| "1..7".into());
    let (a, b) = spec.split_once("..").expect("TUPLET_RANDOM_SEEDS=A..B");
    (a.parse().unwrap()..b.parse().unwrap()).collect()
}

/// The Rust program of the crate: prints `dir name compact-hex named-hex` per sample.
fn samples_main(schemas: &[GenSchema]) -> String {
    let mut calls = String::new();
    for m in schemas.iter().flat_map(|s| &s.messages) {
        calls.push_str(&format!("    emit::<schema::{}>(&mut out);\n", m.path));
    }
    format!(
        r#"use tuplet::{{Message, SampleMode, Wire}};
fn hex(b: &[u8]) -> String {{ b.iter().map(|x| format!("{{x:02x}}")).collect() }}
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
            out.push_str(&format!("{{:?}} {{}} {{}} {{}}\n", T::DIR, T::NAME, hex(&compact), hex(&named)));
        }}
    }}
}}
fn main() {{
    let mut out = String::new();
{calls}    print!("{{out}}");
}}
"#
    )
}

/// The node script: every sample's compact and named bytes decoded by the TypeScript codec
/// and re-encoded; prints one line per disagreement.
const NODE_CHECK: &str = r#"
import { readFileSync } from "node:fs";
const hex = (b) => Buffer.from(b).toString("hex");
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));
let checked = 0;
const bad = [];
for (const line of readFileSync(new URL("./samples.txt", import.meta.url), "utf8").split("\n")) {
  if (!line) continue;
  const [dir, name, compact, named] = line.split(" ");
  const table = dir === "S2c" ? pkg.s2c : pkg.c2s;
  const c = table.byName[name];
  if (!c) { bad.push(`${name}: no codec`); continue; }
  for (const [shape, h] of [["compact", compact], ["named", named]]) {
    const r = c.decode(bytes(h));
    if (!r.ok) { bad.push(`${name} ${shape} ${h}: ${JSON.stringify(r.issues)}`); continue; }
    let again;
    try { again = hex(c.encode(r.value)); } catch (e) { bad.push(`${name} ${shape} ${h}: encode threw ${e}`); continue; }
    if (again !== compact) bad.push(`${name} ${shape} ${h}: re-encoded ${again}, Rust ${compact}`);
    checked++;
  }
}
console.log(JSON.stringify({ checked, bad }));
"#;

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

/// Counts of one batch.
#[derive(Default, Debug)]
struct Counts {
    schemas: usize,
    types: usize,
    messages: usize,
    samples: usize,
    ts_checks: usize,
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
            "[package]\nname = \"schema\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[lib]\npath = \"src/lib.rs\"\n\n[[bin]]\nname = \"samples\"\npath = \"src/main.rs\"\n\n[dependencies]\ntuplet = {{ path = {:?} }}\n\n[workspace]\n",
            repo().join("runtime").display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(repo().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let samples = run(Command::new(env!("CARGO"))
        .args(["run", "-q", "--offline", "--bin", "samples"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS"))
    .map_err(|e| format!("{label}: cargo run: {e}\n{lib}"))?;
    let mut counts = Counts {
        schemas: schemas.len(),
        types: schemas.iter().map(|s| s.types).sum(),
        messages: schemas.iter().map(|s| s.messages.len()).sum(),
        ..Counts::default()
    };
    // Derive vs IR codec.
    for line in samples.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        let [dir_word, name, compact, named] = parts[..] else {
            return Err(format!("{label}: bad sample line {line}"));
        };
        let dir = if dir_word == "S2c" {
            Dir::S2c
        } else {
            Dir::C2s
        };
        let path = ircodec::message_named(&loaded, dir, name)
            .ok_or_else(|| format!("{label}: the loader has no {name}"))?;
        let compact_bytes = ircodec::unhex(compact).unwrap();
        let value: Value = ircodec::decode(&loaded, &path, &compact_bytes)
            .map_err(|e| format!("{label}: IR decode of {name} {compact}: {e:?}"))?;
        let again = ircodec::encode(&loaded, &path, &value, Shape::Compact)
            .map_err(|e| format!("{label}: IR encode of {name} {value}: {e:?}"))?;
        if ircodec::hex(&again).replace(' ', "") != compact {
            return Err(format!(
                "{label}: {name}: IR re-encoded {}, derive {compact} (value {value})",
                ircodec::hex(&again)
            ));
        }
        let from_named = ircodec::decode(&loaded, &path, &ircodec::unhex(named).unwrap())
            .map_err(|e| format!("{label}: IR decode of named {name} {named}: {e:?}"))?;
        if !ircodec::json_eq(&from_named, &value) {
            return Err(format!(
                "{label}: {name}: named {from_named} != compact {value}"
            ));
        }
        counts.samples += 1;
    }
    // Rust to TypeScript and back.
    std::fs::write(pkg.path().join("samples.txt"), &samples).unwrap();
    let out = node(
        pkg.path(),
        &format!("import * as pkg from \"./build/index.js\";\n{NODE_CHECK}"),
    )
    .map_err(|e| format!("{label}: node: {e}"))?;
    let report: Value = serde_json::from_str(out.trim().lines().last().unwrap_or(""))
        .map_err(|e| format!("{label}: node said {out}: {e}"))?;
    let bad = report["bad"].as_array().unwrap();
    if !bad.is_empty() {
        return Err(format!(
            "{label}: TypeScript disagrees:\n{}",
            serde_json::to_string_pretty(bad).unwrap()
        ));
    }
    counts.ts_checks = report["checked"].as_u64().unwrap() as usize;
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
            Ok(c) => {
                total.schemas += c.schemas;
                total.types += c.types;
                total.messages += c.messages;
                total.samples += c.samples;
                total.ts_checks += c.ts_checks;
            }
            Err(e) => failures.push(e),
        }
    }
    println!(
        "random schemas: {} schemas, {} types, {} messages, {} samples (derive = IR codec), {} TypeScript round trips, {} failed batches",
        total.schemas, total.types, total.messages, total.samples, total.ts_checks, failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The generator is deterministic and its schemas load (no build: cheap, in every run).
#[test]
fn generated_schemas_load() {
    for seed in 0..40 {
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
