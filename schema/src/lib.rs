//! tuplet-schema: the typed IR of a tuplet protocol, the attribute grammar that builds it
//! from Rust source (syn), and the named checks on it. Shared by the derive and the CLI.

#![warn(missing_docs)]

mod check;
pub mod grammar;
pub mod ir;

pub use grammar::{parse_item, parse_item_tokens, Derive};
