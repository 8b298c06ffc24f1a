//! The source loader on mutated village files, in memory: the first byte picks one of the
//! village's source files, the rest replaces its text, and the crate is loaded from a
//! `SourceTree` holding the other files already parsed. Invariants: no panic (a bad file
//! is a `LoadErrors` whose errors name a file of the crate, and a line outside fuzzing
//! builds, where proc-macro2 keeps no span locations).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::source_loader(data);
});
