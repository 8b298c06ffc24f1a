//! `tuplet decode`'s input side on any text: the payload parser (hex with any spacing,
//! commas and `0x`, a JSON byte array, base64 in either alphabet) with each flag, then the
//! bytes as an envelope of either direction and as plain msgpack. Invariants: no panic;
//! hex and base64 parse what `hex` and `base64` print.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::decode_input(data);
});
