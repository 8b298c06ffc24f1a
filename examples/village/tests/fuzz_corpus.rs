//! The fuzzers' minimized corpora (fuzz/corpus/) replayed on stable in every `cargo test`:
//! the `decode_village` invariants (no panic; what decodes is valid, re-encodes in both
//! shapes and decodes to itself) over every committed input.

use std::path::Path;

use tuplet::{Dispatch, Encoding};
use village::dispatch::{ClientMessage, ServerMessage};

fn check<D: Dispatch + PartialEq + std::fmt::Debug>(data: &[u8], by_name: Option<usize>) -> bool {
    let decoded = match by_name {
        None => D::from_envelope(data),
        Some(i) => D::from_payload(D::MESSAGES[i % D::MESSAGES.len()].0, data),
    };
    let Ok(value) = decoded else { return false };
    assert!(
        value.validate().is_empty(),
        "decoded an invalid value: {value:?}"
    );
    for encoding in [Encoding::Compact, Encoding::Named] {
        let bytes = value
            .to_envelope(encoding)
            .expect("a decoded value encodes");
        assert_eq!(D::from_envelope(&bytes).expect("re-decodes"), value);
    }
    true
}

#[test]
fn the_committed_fuzz_corpus_keeps_its_invariants() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/decode_village");
    let mut inputs = 0;
    let mut decoded = 0;
    for entry in std::fs::read_dir(&dir).expect("the committed corpus") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let Some((&selector, rest)) = data.split_first() else {
            continue;
        };
        let by_name = (selector & 2 != 0).then_some((selector >> 2) as usize);
        let ok = if selector & 1 == 0 {
            check::<ClientMessage>(rest, by_name)
        } else {
            check::<ServerMessage>(rest, by_name)
        };
        inputs += 1;
        decoded += ok as usize;
    }
    assert!(inputs > 1000, "{inputs} inputs");
    assert!(decoded > 100, "only {decoded} of {inputs} inputs decode");
}
