//! tuplet-schema: the typed IR of a tuplet protocol, the attribute grammar that builds it
//! from Rust source (syn), and the named checks on it. Shared by the derive and the CLI.

#![warn(missing_docs)]

pub mod compat;
pub mod delta;
pub mod grammar;
pub mod heap;
pub mod interp;
pub mod ir;
pub mod limits;
pub mod loader;
pub mod plan;
pub mod resolved;
pub mod sizes;
pub mod suggest;
mod wide_int;

pub use grammar::{parse_item, parse_item_tokens, Derive};
pub use loader::{load, load_from, load_items, LoadError, LoadErrors};
pub use resolved::{Kind, ResolvedItem, ResolvedSchema};
