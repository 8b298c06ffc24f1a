//! Derive macros for tuplet. Parsing and checks live in `tuplet-schema`; this crate only
//! turns the IR into Rust.

mod emit;
