//! Typed dispatch over a 23-message protocol in both directions: both envelopes (binary id
//! + payload, and a transport that frames the name), both shapes, every sample mode.

use tuplet::{Code, Dispatch, Encoding, Meter, SampleMode, Wire};
use tuplet_tests::kinds::Pose;
use tuplet_tests::proto::*;

fn every_value<D: Dispatch>() -> Vec<D> {
    let mut out = Vec::new();
    for index in 0..D::MESSAGES.len() {
        for mode in SampleMode::ALL {
            for seed in 0..4 {
                out.push(D::sample_variant(index, seed, mode).expect("index in range"));
            }
        }
    }
    assert!(D::sample_variant(D::MESSAGES.len(), 0, SampleMode::Min).is_none());
    out
}

fn round_trips<D: Dispatch + PartialEq + std::fmt::Debug>() -> usize {
    let values = every_value::<D>();
    for v in &values {
        assert!(v.validate().is_empty(), "{v:?}");
        for encoding in [Encoding::Compact, Encoding::Named] {
            let env = v.to_envelope(encoding).unwrap();
            let mut r = tuplet::wire::Reader::new(&env);
            assert_eq!(r.read_u64(0, u32::MAX as u64).unwrap(), v.id() as u64);
            assert_eq!(&D::from_envelope(&env).unwrap(), v, "{encoding:?} envelope");
            let payload = v.to_payload(encoding).unwrap();
            assert_eq!(
                &D::from_payload(v.name(), &payload).unwrap(),
                v,
                "{encoding:?} payload"
            );
            assert!(env.ends_with(&payload));
        }
        assert_eq!(D::MESSAGES[v.index()], (v.name(), v.id()));
    }
    values.len()
}

#[test]
fn every_message_round_trips_in_both_directions_envelopes_and_shapes() {
    assert_eq!(ClientMsg::MESSAGES.len(), 12);
    assert_eq!(ServerMsg::MESSAGES.len(), 11);
    let n = round_trips::<ClientMsg>() + round_trips::<ServerMsg>();
    assert_eq!(n, (12 + 11) * 5 * 4);
}

#[test]
fn the_same_name_may_differ_by_direction() {
    let c2s = ClientMsg::from(Heartbeat { t: 5 });
    assert_eq!((c2s.name(), c2s.id()), ("player:heartbeat", 3));
    let s2c = ServerMsg::from(Left {
        s: "abcdefghi".into(),
    });
    assert_eq!(s2c.id(), 3);
    // The client's player:move payload is not the server's player:move.
    let mv = ClientMsg::sample_variant(1, 7, SampleMode::Max).unwrap();
    assert_eq!(mv.name(), "player:move");
    let payload = mv.to_payload(Encoding::Compact).unwrap();
    assert!(ServerMsg::from_payload("player:move", &payload).is_err());
    assert_eq!(<Ping as tuplet::Message>::DIR, tuplet::Dir::Both);
}

#[test]
fn unknown_and_reserved_ids_and_names_are_rejected() {
    let err = ClientMsg::from_envelope(&[40, 0x90]).unwrap_err();
    assert_eq!(err.code(), Code::UnknownMessage);
    let err = ServerMsg::from_payload("player:teleport", &[0x90]).unwrap_err();
    assert_eq!(err.code(), Code::UnknownMessage);
    let err = ClientMsg::from_envelope(&[]).unwrap_err();
    assert_eq!(err.code(), Code::Truncated);
    // Trailing bytes after a complete message.
    let mut env = ClientMsg::from(Heartbeat { t: 1 })
        .to_envelope(Encoding::Compact)
        .unwrap();
    env.push(0xc0);
    assert_eq!(
        ClientMsg::from_envelope(&env).unwrap_err().code(),
        Code::TrailingBytes
    );
}

#[test]
fn bad_input_is_rejected_with_its_path() {
    // player:join with a 30-byte name: [name, colour]
    let mut bytes = vec![1, 0x92, 0xbe];
    bytes.extend_from_slice(&[b'a'; 30]);
    bytes.push(0x07);
    let err = ClientMsg::from_envelope(&bytes).unwrap_err();
    assert_eq!(err.code(), Code::TooLong);
    assert_eq!(err.path().to_string(), "name");
    // The same as a value built in Rust.
    let join = ClientMsg::from(Join {
        name: "a".repeat(30),
        colour: 0x1000000,
    });
    let issues = join.validate();
    let found: Vec<(Code, String)> = issues
        .iter()
        .map(|i| (i.code, i.path.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            (Code::TooLong, "name".into()),
            (Code::OutOfRange, "colour".into())
        ]
    );
    assert_eq!(
        join.to_envelope(Encoding::Compact).unwrap_err().code(),
        Code::TooLong
    );
}

#[test]
fn meter_counts_bytes_per_message_type_sorted_by_bytes() {
    let meter = Meter::<ServerMsg>::new();
    let birds = ServerMsg::sample_variant(5, 1, SampleMode::Max).unwrap();
    let left = ServerMsg::from(Left {
        s: "abcdefghi".into(),
    });
    for _ in 0..3 {
        let bytes = birds.to_envelope(Encoding::Compact).unwrap();
        meter.record_out(&birds, bytes.len(), 39);
    }
    meter.record_in(&left, 11);
    meter.record_dropped(3);
    let rows = meter.report();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (rows[2].name, rows[2].count_in, rows[2].bytes_in),
        ("(dropped)", 1, 3)
    );
    assert_eq!(rows[0].name, "birds:update");
    assert_eq!(rows[0].count_out, 3 * 39);
    assert!(rows[0].bytes_out > 80 * 10 * 3 * 39);
    assert_eq!(
        (rows[1].name, rows[1].count_in, rows[1].bytes_in),
        ("player:left", 1, 11)
    );
    assert!(meter
        .to_string()
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("birds:update"));
    meter.reset();
    assert!(meter.report().is_empty());
}

#[test]
fn wire_equality_sees_through_quantization() {
    let a = Pose {
        p: [1.0, 2.0, 3.0],
        r: 0.5,
    };
    let mut b = a.clone();
    b.p[0] += 0.004; // under half a centimetre: same wire int
    assert!(a.wire_eq(&b));
    assert_eq!(tuplet::to_vec(&a).unwrap(), tuplet::to_vec(&b).unwrap());
    b.p[0] += 0.004; // now 0.8 cm away: rounds to the next centimetre
    assert!(!a.wire_eq(&b));
    assert_ne!(tuplet::to_vec(&a).unwrap(), tuplet::to_vec(&b).unwrap());
}
