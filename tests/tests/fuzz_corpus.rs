//! The fuzzers' minimized corpora (fuzz/corpus/*.b64) replayed on stable in every `cargo test`:
//! the `decode_village` invariants (no panic; what decodes is valid, re-encodes in both
//! shapes and decodes to itself) over every committed input, and the other targets' checks
//! (`fuzz/fuzz_targets/common/mod.rs`, included here) over theirs.

use tuplet::Dispatch;
use village::dispatch::{ClientMessage, ServerMessage};

/// The `decode_village` check: by envelope, or by the name `by_name` picks.
fn check<D: Dispatch + PartialEq + std::fmt::Debug>(data: &[u8], by_name: Option<usize>) -> bool {
    let decoded = match by_name {
        None => D::from_envelope(data),
        Some(i) => D::from_payload(D::MESSAGES[i % D::MESSAGES.len()].0, data),
    };
    let Ok(value) = decoded else { return false };
    common::round_trips(&value);
    true
}

#[test]
fn the_committed_fuzz_corpus_keeps_its_invariants() {
    let (inputs, decoded) = replay("decode_village", |data| {
        let Some((&selector, rest)) = data.split_first() else {
            return false;
        };
        let by_name = (selector & 2 != 0).then_some((selector >> 2) as usize);
        if selector & 1 == 0 {
            check::<ClientMessage>(rest, by_name)
        } else {
            check::<ServerMessage>(rest, by_name)
        }
    });
    assert!(inputs > 1000, "{inputs} inputs");
    assert!(decoded > 100, "only {decoded} of {inputs} inputs decode");
}

/// The checks of the other fuzz targets, shared with them.
#[path = "../../fuzz/fuzz_targets/common/mod.rs"]
mod common;

/// Every committed input of `target` through `check`: (inputs, accepted).
fn replay(target: &str, check: impl Fn(&[u8]) -> bool) -> (usize, usize) {
    let inputs = tuplet_tests::corpus::inputs(target);
    let accepted = inputs.iter().filter(|data| check(data)).count();
    (inputs.len(), accepted)
}

#[test]
fn the_envelope_and_named_shape_corpora_keep_their_invariants() {
    use tuplet_schema::ir::Dir;
    for (target, counts) in [
        (
            "envelope_c2s",
            replay("envelope_c2s", |d| {
                common::envelope::<ClientMessage>(d, Dir::C2s)
            }),
        ),
        (
            "envelope_s2c",
            replay("envelope_s2c", |d| {
                common::envelope::<ServerMessage>(d, Dir::S2c)
            }),
        ),
        ("named_shape", replay("named_shape", common::named_shape)),
    ] {
        assert!(counts.0 > 500, "{target}: {} inputs", counts.0);
        assert!(
            counts.1 > 50,
            "{target}: only {} of {} decode",
            counts.1,
            counts.0
        );
    }
}

#[test]
fn the_cli_input_corpora_keep_their_invariants() {
    let (inputs, parsed) = replay("decode_input", common::decode_input);
    assert!(
        inputs > 100 && parsed > 10,
        "decode_input: {parsed} of {inputs}"
    );
    let (inputs, read) = replay("lock_file", common::lock_file);
    assert!(read > 0, "lock_file: {read} of {inputs}");
    let (inputs, loaded) = replay("source_loader", common::source_loader);
    assert!(
        inputs >= 5 && loaded > 0,
        "source_loader: {loaded} of {inputs}"
    );
}
