//! The source loader on mutated village files: the first byte picks one of the village's
//! source files, the rest replaces its text in a private copy of the crate, and the crate is
//! loaded. Invariants: no panic (a bad file is a `LoadErrors` with file and line).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::source_loader(data);
});
