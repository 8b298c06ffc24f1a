//! Two client messages with the same id, in two files.

pub mod a;
pub mod b;
