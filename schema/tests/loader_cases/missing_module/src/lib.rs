//! A `mod` declaration without a file.

pub mod here;
pub mod nowhere;
