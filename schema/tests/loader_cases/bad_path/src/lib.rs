//! `#[path]` to a file that does not exist.

#[path = "gone/area.rs"]
pub mod area;
