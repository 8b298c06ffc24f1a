//! Any bytes through the village decoders, by envelope and by name, in either direction.
//! Invariants: no panic; whatever decodes is valid, re-encodes, and decodes to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuplet::{Dispatch, Encoding};
use village::dispatch::{ClientMessage, ServerMessage};

fn check<D: Dispatch + PartialEq + std::fmt::Debug>(data: &[u8], by_name: Option<usize>) {
    let decoded = match by_name {
        None => D::from_envelope(data),
        Some(i) => D::from_payload(D::MESSAGES[i % D::MESSAGES.len()].0, data),
    };
    let Ok(value) = decoded else { return };
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
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let by_name = (selector & 2 != 0).then_some((selector >> 2) as usize);
    if selector & 1 == 0 {
        check::<ClientMessage>(rest, by_name);
    } else {
        check::<ServerMessage>(rest, by_name);
    }
});
