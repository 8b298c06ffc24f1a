//! Regression (found by the random-schema run): a `delta` message whose only field is a
//! zero-length array failed to compile at the derive (`error[E0282]: type annotations
//! needed`), though the loader accepts the schema and the message compiles without `delta`.

use tuplet::delta::{Mirror, Sent, Tracker};

/// The schema the random run found: one zero-length float array.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "zero:tide", id = 1, dir = "s2c", delta)]
pub struct Tide {
    /// No element at all.
    pub tide: [f64; 0],
}

/// The same with optional elements.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "zero:maybe", id = 2, dir = "s2c", delta)]
pub struct Maybe {
    /// No element at all.
    pub tide: [Option<f64>; 0],
}

#[test]
fn a_delta_message_of_zero_length_arrays_compiles_and_travels() {
    let mut tracker = Tracker::<Tide>::new(0);
    let mut mirror = Mirror::<Tide>::new();
    let mut out = Vec::new();
    assert_eq!(
        tracker.encode(&Tide { tide: [] }, &mut out).unwrap(),
        Sent::Keyframe
    );
    assert_eq!(mirror.apply(&out).unwrap(), &Tide { tide: [] });
    out.clear();
    assert_eq!(
        tracker.encode(&Tide { tide: [] }, &mut out).unwrap(),
        Sent::Nothing
    );

    let mut tracker = Tracker::<Maybe>::new(0);
    let mut mirror = Mirror::<Maybe>::new();
    out.clear();
    assert_eq!(
        tracker.encode(&Maybe { tide: [] }, &mut out).unwrap(),
        Sent::Keyframe
    );
    assert_eq!(mirror.apply(&out).unwrap(), &Maybe { tide: [] });
}
