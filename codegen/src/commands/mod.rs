//! Command logic beyond `gen`, as plain functions the thin `cli` calls.

pub mod compat;
pub mod decode;
pub mod encode;
pub mod explain;
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
