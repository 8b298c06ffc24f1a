//! tuplet-schema: the typed IR of a tuplet protocol, the attribute grammar that builds it
//! from Rust source (syn), and the named checks on it. Shared by the derive and the CLI.

#![warn(missing_docs)]

pub mod ir;
