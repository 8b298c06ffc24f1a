//! tuplet-codegen: the `tuplet` CLI and its emitters. The CLI reads `tuplet.toml`, loads
//! the schema crate's source into the resolved IR (`tuplet_schema::load`), runs one emitter
//! per configured output and writes (or, with `--check`, compares) the files.
//!
//! The layers: a thin `cli` (arguments) calls one function per command in `commands`, which
//! share `commands::shared` (config and schema loading, input, issue printing) and return
//! one [`exit::Exit`]; `config` reads `tuplet.toml`; one file per target behind the
//! [`emit::Emitter`] trait; and a `writer` that writes only into folders tuplet owns, leaves
//! unchanged files untouched and removes only files it wrote.

#![warn(missing_docs)]

pub mod cli;
pub mod commands;
pub mod config;
pub mod emit;
pub mod exit;
pub mod ircodec;
pub mod js;
pub mod manifest;
pub mod writer;

use std::collections::BTreeMap;
use std::path::PathBuf;

use config::Config;
use tuplet_schema::{LoadErrors, ResolvedSchema};

/// The files of every configured output: output folder -> (relative path -> contents).
pub type Outputs = BTreeMap<PathBuf, BTreeMap<String, String>>;

/// Loads the schema crate named in `config` into the resolved IR.
pub fn load(config: &Config) -> Result<ResolvedSchema, LoadErrors> {
    tuplet_schema::load(&config.schema_crate())
}

/// Runs every configured emitter on `schema`; with `[ts] js = true`, compiles the
/// TypeScript package's `dist/` too ([`js::compile_or_reuse`]: compiled only when the
/// sources changed), which is the only way this fails.
pub fn generate(config: &Config, schema: &ResolvedSchema) -> Result<Outputs, js::JsError> {
    let mut outputs = Outputs::new();
    for (emitter, dir) in emit::configured(config) {
        let mut files = emitter.emit(schema);
        if emitter.name() == "ts" && config.ts.js {
            let dist = js::compile_or_reuse(&dir, &files)?;
            files.extend(dist);
        }
        outputs.insert(dir, files);
    }
    Ok(outputs)
}
