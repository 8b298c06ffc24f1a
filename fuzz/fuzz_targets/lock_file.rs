//! The lock file reader behind `tuplet compat` on any text, and the compatibility check of
//! what it reads against the village's own lock, both ways and under every deploy order.
//! Invariant: no panic.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::lock_file(data);
});
