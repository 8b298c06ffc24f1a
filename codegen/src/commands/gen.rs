//! `tuplet gen`: runs every configured emitter and writes the output folders (only files
//! whose bytes changed), or with `--check` compares them with the disk and writes nothing.
//!
//! Exit codes: 0 written (or fresh); 1 `--check` found files that differ; 2 bad config,
//! schema or I/O.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::shared;
use crate::exit::Exit;
use crate::writer;

/// `tuplet gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Write nothing; exit 1, listing the files, when the outputs are not what `gen` writes.
    #[arg(long)]
    pub check: bool,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// `tuplet gen`.
pub fn run(args: &GenArgs) -> Exit {
    let start = Instant::now();
    let config = match shared::config(args.config.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let schema = match shared::load(&config, "gen") {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Err(e) = crate::emit::check(&config, &schema) {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let outputs = match crate::generate(&config, &schema) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    let mut stale = 0;
    for (dir, files) in &outputs {
        if args.check {
            match writer::diff(dir, files) {
                Ok(changes) => {
                    for c in &changes {
                        eprintln!("{c}");
                    }
                    stale += changes.len();
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", dir.display());
                    return Exit::BadInput;
                }
            }
        } else {
            match writer::write(dir, files) {
                Ok(w) => {
                    for p in &w.written {
                        eprintln!("wrote   {}", p.display());
                    }
                    for p in &w.removed {
                        eprintln!("removed {}", p.display());
                    }
                    eprintln!(
                        "tuplet gen: {}: {} files ({} written, {} removed, {} unchanged)",
                        dir.display(),
                        files.len(),
                        w.written.len(),
                        w.removed.len(),
                        w.unchanged
                    );
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", dir.display());
                    return Exit::BadInput;
                }
            }
        }
    }
    let ms = start.elapsed().as_millis();
    if args.check {
        if stale > 0 {
            eprintln!(
                "tuplet gen --check: {stale} file(s) differ from what `tuplet gen` writes; run \
                 `cargo run --release -p tuplet-codegen -- gen` and commit the result"
            );
            return Exit::Failed;
        }
        eprintln!(
            "tuplet gen --check: {} item(s), outputs fresh ({ms} ms)",
            schema.items.len()
        );
    } else {
        eprintln!("tuplet gen: {} item(s) in {ms} ms", schema.items.len());
    }
    Exit::Ok
}
