//! Every village message, both directions, every sample mode: valid, within its budget,
//! and round-tripping through both shapes and the envelope.

use tuplet::{Dispatch, Encoding, SampleMode};
use village::dispatch::{ClientMessage, ServerMessage};

fn check<D: Dispatch + PartialEq + std::fmt::Debug>(seeds: u64) -> usize {
    let mut checked = 0;
    for index in 0..D::MESSAGES.len() {
        for mode in SampleMode::ALL {
            for seed in 0..seeds {
                let v = D::sample_variant(index, seed, mode).unwrap();
                let issues = v.validate();
                assert!(issues.is_empty(), "{} {mode:?}: {issues:?}", v.name());
                for encoding in [Encoding::Compact, Encoding::Named] {
                    let env = v.to_envelope(encoding).unwrap();
                    let back = D::from_envelope(&env).unwrap();
                    assert_eq!(back, v, "{} {mode:?} {encoding:?}", v.name());
                    let payload = v.to_payload(encoding).unwrap();
                    assert_eq!(D::from_payload(v.name(), &payload).unwrap(), v);
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_message_round_trips_in_every_mode() {
    let c2s = check::<ClientMessage>(3);
    let s2c = check::<ServerMessage>(3);
    let messages = ClientMessage::MESSAGES.len() + ServerMessage::MESSAGES.len();
    assert!(messages >= 280, "{messages} messages");
    assert_eq!(c2s + s2c, messages * 5 * 3);
}
