//! The msgpack wire layer: a bounded, validating reader and a smallest-encoding writer.
//!
//! Everything the derived codecs do on the wire goes through here; WIRE.md is the contract.

pub(crate) mod fail;
mod marker;
pub mod put;
mod read;
pub mod write;

pub use marker::Kind;
pub use read::{Limits, Reader, Shape};
