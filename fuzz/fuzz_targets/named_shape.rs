//! Any bytes as the named shape (a map keyed by field name) of a village message picked by
//! the first two bytes, through the derived decoder and the CLI's IR-driven codec. The corpus is
//! seeded with named-shape encodings, so mutations stay inside maps: unknown, duplicate and
//! legacy keys, nested records and enums by name. Invariants: no panic; the two decoders
//! agree; whatever decodes is valid and round-trips in both shapes.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::named_shape(data);
});
