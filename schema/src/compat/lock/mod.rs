//! The lock: what `tuplet.lock.json` holds ([`model`]), built from a resolved schema
//! ([`build`]), written as canonical JSON (sorted maps, fields in a fixed order, two-space
//! indent, a trailing newline), so writing the same schema twice gives the same bytes.
//!
//! Messages are keyed by direction then wire name (a `both` message is listed under each
//! direction), types by canonical path. Type references hold canonical paths; the compat
//! check pairs types structurally, from the messages down, so moving a type to another
//! module changes the lock but not the verdict.

mod build;
mod lines;
pub mod merge;
mod model;

pub use build::ty_of;
pub use model::*;
