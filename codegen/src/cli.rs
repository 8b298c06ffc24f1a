//! The `tuplet` command line (clap). Thin: parse arguments, call the library, print.
//!
//! Exit codes: 0 success; 1 `gen --check` found `generated/` stale; 2 bad input (an
//! unreadable or invalid `tuplet.toml`, a schema the loader rejects, an I/O error) or bad
//! arguments. `lock` and `compat` (see `commands::compat` and RULES.md): 0 compatible; 1 a
//! change breaks peers (unaccepted) or an acceptance matches nothing; 2 unreadable input.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use crate::config::Config;
use crate::writer;

/// tuplet: a protocol schema compiler for realtime games.
#[derive(Debug, Parser)]
#[command(name = "tuplet", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write every output named in tuplet.toml (only files whose bytes changed).
    Gen(GenArgs),
    /// Write tuplet.lock.json, refusing unaccepted breaks (`tuplet explain` lists the rules).
    Lock(crate::commands::compat::LockArgs),
    /// Check the schema against tuplet.lock.json (exit 1 when a change breaks peers).
    Compat(crate::commands::compat::CompatArgs),
    /// Per message the smallest and largest compact size, the largest field, sample sizes.
    Sizes(crate::commands::sizes::SizesArgs),
    /// Print a captured payload (hex or base64) as JSON in natural units, or its issue.
    Decode(crate::commands::decode::DecodeArgs),
    /// Encode a message from JSON in natural units; prints hex (or base64).
    Encode(crate::commands::encode::EncodeArgs),
    /// Print a compatibility rule's documentation (every rule without an argument).
    Explain(crate::commands::explain::ExplainArgs),
}

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

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: `gen --check` found stale, missing or extra files.
pub const STALE: u8 = 1;
/// Exit code: bad config, schema or I/O.
pub const BAD_INPUT: u8 = 2;

/// Parses the process arguments and runs.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(run(&cli))
}

/// Runs a parsed command line, printing to stderr; returns the exit code.
pub fn run(cli: &Cli) -> u8 {
    match &cli.command {
        Command::Gen(args) => gen(args),
        Command::Lock(args) => with_config(args.config.as_deref(), |c| {
            crate::commands::compat::lock(c, args)
        }),
        Command::Compat(args) => with_config(args.config.as_deref(), |c| {
            crate::commands::compat::compat(c, args)
        }),
        Command::Sizes(args) => crate::commands::sizes::run(args),
        Command::Decode(args) => crate::commands::decode::run(args),
        Command::Encode(args) => crate::commands::encode::run(args),
        Command::Explain(args) => crate::commands::explain::run(args),
    }
}

fn with_config(path: Option<&std::path::Path>, f: impl FnOnce(&Config) -> u8) -> u8 {
    match crate::commands::compat::read_config(path) {
        Ok(config) => f(&config),
        Err(code) => code,
    }
}

fn gen(args: &GenArgs) -> u8 {
    let start = Instant::now();
    let config = match &args.config {
        Some(path) => Config::read(path),
        None => Config::discover(),
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return BAD_INPUT;
        }
    };
    let schema = match crate::load(&config) {
        Ok(s) => s,
        Err(errors) => {
            eprintln!("{errors}");
            eprintln!(
                "tuplet gen: {} error(s) in the schema crate {}",
                errors.0.len(),
                config.schema_crate().display()
            );
            return BAD_INPUT;
        }
    };
    if let Err(e) = crate::emit::check(&config, &schema) {
        eprintln!("error: {e}");
        return BAD_INPUT;
    }
    let outputs = match crate::generate(&config, &schema) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return BAD_INPUT;
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
                    return BAD_INPUT;
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
                    return BAD_INPUT;
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
            return STALE;
        }
        eprintln!(
            "tuplet gen --check: {} item(s), outputs fresh ({ms} ms)",
            schema.items.len()
        );
    } else {
        eprintln!("tuplet gen: {} item(s) in {ms} ms", schema.items.len());
    }
    OK
}
