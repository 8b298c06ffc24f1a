//! Shared by the codegen tests that build a TypeScript package from a schema written inline:
//! a one-crate schema in a temporary folder, loaded by the CLI's loader, emitted, then
//! type-checked by the pinned `tsc` (tests/ts) under the package's own tsconfig and loaded
//! in node.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use tuplet_codegen::emit::typescript::{Package, TypeScript};
use tuplet_codegen::emit::Emitter;
use tuplet_schema::{LoadErrors, ResolvedSchema};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A schema crate in a temporary folder: `files` are (path under `src/`, text).
pub fn schema_crate(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join("src").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Loads a schema crate written by [`schema_crate`].
pub fn load(dir: &Path) -> Result<ResolvedSchema, LoadErrors> {
    tuplet_schema::load_from(dir, &dir.join("src/lib.rs"))
}

/// Emits the TypeScript package of `schema` into `out`.
pub fn emit_ts(schema: &ResolvedSchema, out: &Path) {
    let files = TypeScript {
        source: "schema".into(),
        package: Package {
            name: "schema-protocol".into(),
            version: "0.0.0".into(),
            description: "A test schema.".into(),
            private: true,
            js: false,
        },
        hot: None,
    }
    .emit(schema);
    for (path, text) in files {
        let p = out.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

/// Type-checks the package at `pkg` under its own tsconfig and compiles it to `pkg/build`.
pub fn tsc(pkg: &Path) -> Result<(), String> {
    let tsc = repo().join("tests/ts/node_modules/typescript/bin/tsc");
    assert!(
        tsc.exists(),
        "{} is missing: run `npm ci` in tests/ts",
        tsc.display()
    );
    run(Command::new("node")
        .arg(&tsc)
        .arg("-p")
        .arg(pkg)
        .args(["--noEmit", "false", "--outDir"])
        .arg(pkg.join("build")))
    .map(drop)
}

/// Runs an ES module `script` in node beside the compiled package (`./build/index.js`).
pub fn node(pkg: &Path, script: &str) -> Result<String, String> {
    let file = pkg.join("check.mjs");
    std::fs::write(&file, script).unwrap();
    run(Command::new("node").arg(&file))
}

/// Loads, emits, type-checks and imports in node the package of the schema `files`;
/// `script` runs after the import (it may use `pkg`, the package's index).
pub fn package_works(files: &[(&str, &str)], script: &str) -> Result<String, String> {
    let krate = schema_crate(files);
    let schema = load(krate.path()).map_err(|e| format!("load: {e}"))?;
    let pkg = tempfile::tempdir().unwrap();
    emit_ts(&schema, pkg.path());
    tsc(pkg.path())?;
    node(
        pkg.path(),
        &format!("import * as pkg from \"./build/index.js\";\n{script}\n"),
    )
}
pub mod random_schema;
