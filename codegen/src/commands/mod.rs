//! The commands, as plain functions the thin `cli` calls. `shared` holds what several use
//! (config and schema loading, stdin, issue printing), `pick` which message a word names,
//! `payload` the pasted payload forms; every command returns an [`crate::exit::Exit`].

pub mod annotate;
pub mod base;
pub mod budget;
pub mod compat;
pub mod decode;
pub mod encode;
pub mod explain;
pub mod gen;
mod lock_check;
pub mod payload;
pub mod pick;
mod project;
pub mod shared;
pub mod sizes;

/// How a command prints its report: readable text (a Markdown table for `sizes`) or JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Readable text.
    #[default]
    Text,
    /// JSON, for machines.
    Json,
}
