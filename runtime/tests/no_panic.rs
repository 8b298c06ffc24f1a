//! No input panics the reader: every input of up to 2 bytes, and 200k fixed-seed random
//! inputs of up to 64 bytes biased toward markers, through every reader operation.

mod support;

use support::{run, small_limits, OPS};
use tuplet::wire::{Kind, Limits, Reader};
use tuplet::SampleRng;

/// Runs every op on `bytes` (a panic fails the test) and checks a few invariants.
fn check(bytes: &[u8], limits: Limits) {
    for op in OPS {
        let mut r = Reader::with_limits(bytes, limits);
        let result = run(&mut r, op);
        assert!(r.position() <= bytes.len());
        if result.is_ok() && *op == "skip" {
            assert!(r.position() > 0, "a value is at least one byte");
        }
    }
    // Whatever peek_kind says, the matching read succeeds or fails on what follows.
    let mut r = Reader::with_limits(bytes, limits);
    if let Ok(kind) = r.peek_kind() {
        let ok = match kind {
            Kind::Nil => r.try_nil() == Ok(true),
            Kind::Bool => r.read_bool().is_ok(),
            _ => true,
        };
        assert!(ok, "{bytes:02x?}");
    }
    // A sequence of reads until the first error never panics either.
    let mut r = Reader::with_limits(bytes, limits);
    let mut guard = 0;
    while r.remaining() > 0 && guard < 100 {
        guard += 1;
        if r.skip_value().is_err() {
            break;
        }
    }
}

#[test]
fn every_input_up_to_two_bytes() {
    check(&[], Limits::default());
    for a in 0..=255u8 {
        check(&[a], Limits::default());
        for b in 0..=255u8 {
            check(&[a, b], Limits::default());
        }
    }
}

const INTERESTING: &[u8] = &[
    0xc0, 0xc1, 0xc2, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd3, 0xd4, 0xd8, 0xc7, 0xc9, 0xd9,
    0xdb, 0xc4, 0xc6, 0xdc, 0xdd, 0xde, 0xdf, 0x91, 0x9f, 0x81, 0x8f, 0xa3, 0xbf, 0x00, 0xff, 0x7f,
    0x80, 0xed, 0xa0,
];

#[test]
fn random_inputs_up_to_64_bytes() {
    let mut rng = SampleRng::new(0x7475_706c_6574);
    let mut buf = Vec::with_capacity(64);
    for i in 0..200_000 {
        buf.clear();
        let len = rng.below(65);
        for _ in 0..len {
            let b = if rng.below(3) == 0 {
                INTERESTING[rng.below(INTERESTING.len())]
            } else {
                rng.next_u64() as u8
            };
            buf.push(b);
        }
        let limits = if i % 4 == 0 {
            small_limits()
        } else {
            Limits::default()
        };
        check(&buf, limits);
    }
}
