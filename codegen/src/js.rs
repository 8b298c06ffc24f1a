//! `[ts] js = true`: the TypeScript package compiled to JavaScript and `.d.ts` under
//! `dist/`, so plain node (which cannot import `.ts`) and any bundler use it as is.
//!
//! The compiler is TypeScript's own `tsc`, at the version pinned here ([`TYPESCRIPT`]), run
//! through `npm exec` on the emitted files in a temporary folder; its output joins the
//! package's files, so `tuplet gen` writes it and `tuplet gen --check` compares it like any
//! other file. Why not emit JavaScript directly: `.d.ts` files and type erasure are the
//! compiler's job, a second emitter would have to mirror every TypeScript construct the
//! emitter and the hand-written runtime use, and a pinned compiler gives the same bytes on
//! every machine.
//!
//! The compile runs only when it could change something: `dist/` holds a stamp ([`STAMP`])
//! with a hash of the emitted sources (and the compiler version) and a hash of the compiled
//! files. While both still match what is on disk, `dist/` is read back instead of compiled,
//! so `gen` and `gen --check` on an unchanged schema take no npm and no tsc. A hand edit of
//! a compiled file breaks the second hash, so it is compiled again and `--check` reports it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

/// The TypeScript compiler version `tuplet gen` runs (the one `tests/ts` pins too; a test
/// checks they agree).
pub const TYPESCRIPT: &str = "5.9.3";

/// The stamp under the package folder: what `dist/` was compiled from.
pub const STAMP: &str = "dist/.tuplet-build";

/// `dist/`'s files for the package `files` (as [`compile`] gives them, plus the [`STAMP`]):
/// read back from `dir` when its stamp says they were compiled from the same sources by the
/// same compiler and are unedited, else compiled.
pub fn compile_or_reuse(
    dir: &Path,
    files: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, JsError> {
    let sources = hash(files);
    if let Some(dist) = reusable(dir, &sources) {
        return Ok(dist);
    }
    let mut dist = compile(files)?;
    let stamp = stamp_text(&sources, &hash(&dist));
    dist.insert(STAMP.to_string(), stamp);
    Ok(dist)
}

/// The `dist/` on disk under `dir`, stamp included, if its stamp matches `sources` and the
/// compiled files' hash.
fn reusable(dir: &Path, sources: &str) -> Option<BTreeMap<String, String>> {
    let stamp = std::fs::read_to_string(dir.join(STAMP)).ok()?;
    let mut dist = BTreeMap::new();
    read_tree(&dir.join("dist"), "dist", &mut dist).ok()?;
    dist.remove(STAMP);
    if dist.is_empty() || stamp != stamp_text(sources, &hash(&dist)) {
        return None;
    }
    dist.insert(STAMP.to_string(), stamp);
    Some(dist)
}

fn stamp_text(sources: &str, dist: &str) -> String {
    format!(
        "# Written by tuplet gen: what dist/ was compiled from, so an unchanged package is not\n\
         # compiled again. Delete it to force a compile.\n\
         typescript {TYPESCRIPT}\nsources sha256:{sources}\ndist sha256:{dist}\n"
    )
}

/// SHA-256 of a file set: each path and text, length-prefixed, in path order.
fn hash(files: &BTreeMap<String, String>) -> String {
    let mut h = Sha256::new();
    for (path, text) in files {
        for part in [path.as_bytes(), text.as_bytes()] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Why the JavaScript could not be compiled.
#[derive(Debug)]
pub struct JsError(pub String);

impl fmt::Display for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JsError {}

/// Compiles the package `files` (relative path -> text, as the TypeScript emitter gives
/// them, tsconfig included) and returns `dist/`'s files, keyed `dist/...`.
pub fn compile(files: &BTreeMap<String, String>) -> Result<BTreeMap<String, String>, JsError> {
    let io = |what: &str, e: std::io::Error| JsError(format!("{what}: {e}"));
    let tmp = tempfile::tempdir().map_err(|e| io("cannot make a temporary folder", e))?;
    for (path, text) in files {
        let file = tmp.path().join(path);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(&dir.display().to_string(), e))?;
        }
        std::fs::write(&file, text).map_err(|e| io(&file.display().to_string(), e))?;
    }
    let package = format!("--package=typescript@{TYPESCRIPT}");
    let output = Command::new("npm")
        .args(["exec", "--yes", "--prefer-offline", &package, "--"])
        .args(["tsc", "-p", "tsconfig.json"])
        .current_dir(tmp.path())
        .output()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                JsError(missing_npm())
            } else {
                io("cannot run npm", e)
            }
        })?;
    if !output.status.success() {
        let mut log = String::from_utf8_lossy(&output.stdout).into_owned();
        log.push_str(&String::from_utf8_lossy(&output.stderr));
        if log.contains("node: not found") || log.contains("env: 'node'") {
            return Err(JsError(missing_npm()));
        }
        return Err(JsError(format!(
            "TypeScript {TYPESCRIPT} (npm exec tsc) failed compiling the package ({}):\n{}",
            output.status,
            log.trim_end()
        )));
    }
    let mut dist = BTreeMap::new();
    read_tree(&tmp.path().join("dist"), "dist", &mut dist)
        .map_err(|e| io("cannot read the compiled dist/", e))?;
    if dist.is_empty() {
        return Err(JsError("tsc wrote nothing under dist/".into()));
    }
    Ok(dist)
}

fn missing_npm() -> String {
    format!(
        "`[ts] js = true` compiles the package with TypeScript {TYPESCRIPT} through npm, and \
         npm (or node) was not found on PATH: install Node.js 20 or later (it brings npm), or \
         remove `js = true` from [ts] in tuplet.toml to emit the .ts sources alone"
    )
}

fn read_tree(dir: &Path, rel: &str, out: &mut BTreeMap<String, String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{rel}/{name}");
        if entry.file_type()?.is_dir() {
            read_tree(&entry.path(), &rel, out)?;
        } else {
            out.insert(rel, std::fs::read_to_string(entry.path())?);
        }
    }
    Ok(())
}
