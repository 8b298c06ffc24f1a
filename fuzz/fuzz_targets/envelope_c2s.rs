//! Any bytes as a client-to-server envelope (the id, then the payload), through the derived
//! dispatch enum and the CLI's IR-driven codec. Invariants: no panic; both decoders accept
//! the same inputs (same message) or reject with the same code and path; whatever decodes is
//! valid and re-encodes, in both shapes, to an envelope that decodes to itself.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::envelope::<village::dispatch::ClientMessage>(data, tuplet_schema::ir::Dir::C2s);
});
