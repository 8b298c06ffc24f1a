//! The `tuplet` command line (clap). Thin: parse arguments, hand them to the command in
//! `commands`, return its [`Exit`] (0 done; 1 what was checked is not right; 2 bad input:
//! see `exit`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands::{compat, decode, encode, explain, gen, sizes};
use crate::exit::Exit;

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
    Gen(gen::GenArgs),
    /// Write tuplet.lock.json, refusing unaccepted breaks (`tuplet explain` lists the rules).
    Lock(compat::LockArgs),
    /// Check the schema against tuplet.lock.json, or a base (`--against origin/main`); exit 1
    /// when a change breaks peers.
    Compat(compat::CompatArgs),
    /// Per message the smallest and largest compact size, the largest field, sample sizes.
    Sizes(sizes::SizesArgs),
    /// Print a captured payload (hex or base64) as JSON in natural units, or its issue.
    Decode(decode::DecodeArgs),
    /// Encode a message from JSON in natural units; prints hex (or base64).
    Encode(encode::EncodeArgs),
    /// Print a compatibility rule's documentation (every rule without an argument).
    Explain(explain::ExplainArgs),
}

/// Parses the process arguments and runs.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    run(&cli).into()
}

/// Runs a parsed command line, printing to stderr; returns the exit status.
pub fn run(cli: &Cli) -> Exit {
    match &cli.command {
        Command::Gen(args) => gen::run(args),
        Command::Lock(args) => compat::lock_command(args),
        Command::Compat(args) => compat::compat_command(args),
        Command::Sizes(args) => sizes::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Explain(args) => explain::run(args),
    }
}
