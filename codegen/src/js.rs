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

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::process::Command;

/// The TypeScript compiler version `tuplet gen` runs (the one `tests/ts` pins too; a test
/// checks they agree).
pub const TYPESCRIPT: &str = "5.9.3";

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
