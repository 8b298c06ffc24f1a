//! The relayed `player:move` of the seeds: 35 bytes compact, over 80 named, with golden hex
//! checked against an independent encoder (rmpv).

// 3.141 rad is the seeds' example heading, not an approximation of pi.
#![allow(clippy::approx_constant)]

use tuplet::{Code, Wire};

/// Which player moves; sent once at join, so the move carries only the session id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8")]
pub struct MoveFlags {
    #[tuplet(bit = 0)]
    pub running: bool,
    #[tuplet(bit = 1)]
    pub jumping: bool,
}

/// The server's relay of a player's move to everyone in range.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c")]
pub struct RelayedMove {
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    pub t: u64,
    pub seq: Option<u32>,
    pub flags: Option<MoveFlags>,
}

fn the_move() -> RelayedMove {
    RelayedMove {
        s: "abc123def".into(),
        p: [123.45, 1.50, -25.00],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
        flags: None,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn compact_is_35_bytes_and_matches_rmpv() {
    let bytes = tuplet::to_vec(&the_move()).unwrap();
    assert_eq!(bytes.len(), 35, "{}", hex(&bytes));
    // The same value built by an independent encoder.
    use rmpv::Value;
    let value = Value::Array(vec![
        Value::from("abc123def"),
        Value::Array(vec![
            Value::from(12345),
            Value::from(150),
            Value::from(-2500),
        ]),
        Value::from(3141),
        Value::from(1_764_000_000_000u64),
        Value::from(1234),
    ]);
    let mut expected = Vec::new();
    rmpv::encode::write_value(&mut expected, &value).unwrap();
    assert_eq!(hex(&bytes), hex(&expected));
    assert_eq!(
        hex(&bytes),
        "95 a9 61 62 63 31 32 33 64 65 66 93 cd 30 39 cc 96 d1 f6 3c cd 0c 45 cf 00 00 01 9a b6 97 e8 00 cd 04 d2"
    );
}

#[test]
fn named_uses_legacy_keys_and_is_over_80_bytes() {
    let bytes = tuplet::to_vec_named(&the_move()).unwrap();
    assert!(bytes.len() > 80, "{} bytes", bytes.len());
    let value = rmpv::decode::read_value(&mut &bytes[..]).unwrap();
    let map = value.as_map().unwrap();
    let keys: Vec<&str> = map.iter().map(|(k, _)| k.as_str().unwrap()).collect();
    assert_eq!(keys, ["sessionId", "x", "y", "z", "rotationY", "t", "seq"]);
    assert_eq!(map[1].1.as_f64(), Some(123.45));
    let back: RelayedMove = tuplet::from_slice(&bytes).unwrap();
    assert!(back.wire_eq(&the_move()));
    // Byte for byte what an independent encoder writes for the legacy object of doubles.
    use rmpv::Value;
    let legacy = Value::Map(vec![
        ("sessionId".into(), "abc123def".into()),
        ("x".into(), Value::F64(123.45)),
        ("y".into(), Value::F64(1.5)),
        ("z".into(), Value::F64(-25.0)),
        ("rotationY".into(), Value::F64(3.141)),
        ("t".into(), Value::from(1_764_000_000_000u64)),
        ("seq".into(), Value::from(1234)),
    ]);
    let mut expected = Vec::new();
    rmpv::encode::write_value(&mut expected, &legacy).unwrap();
    assert_eq!(hex(&bytes), hex(&expected));
    assert_eq!(bytes.len(), 91);
}

#[test]
fn decodes_both_shapes_to_the_same_value() {
    let compact: RelayedMove = tuplet::from_slice(&tuplet::to_vec(&the_move()).unwrap()).unwrap();
    let named: RelayedMove =
        tuplet::from_slice(&tuplet::to_vec_named(&the_move()).unwrap()).unwrap();
    assert_eq!(compact, named);
    assert_eq!(compact.p, [123.45, 1.5, -25.0]);
}

#[test]
fn out_of_range_component_has_canonical_path() {
    // {"sessionId": "abc123def", "x": 0, "y": 9000.0, "z": 0, "rotationY": 0, "t": 1}
    let mut m = the_move();
    m.p[1] = 9000.0;
    let err = tuplet::to_vec(&m).unwrap_err();
    assert_eq!(err.code(), Code::OutOfRange);
    assert_eq!(
        err.path().to_string(),
        "p[1]",
        "encode errors carry their path"
    );
    let issues = tuplet::validate(&m);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path.to_string(), "p[1]");
    let named = rmpv::Value::Map(vec![
        ("sessionId".into(), "abc123def".into()),
        ("x".into(), 0.into()),
        ("y".into(), 9000.0.into()),
        ("z".into(), 0.into()),
        ("rotationY".into(), 0.into()),
        ("t".into(), 1.into()),
    ]);
    let mut bytes = Vec::new();
    rmpv::encode::write_value(&mut bytes, &named).unwrap();
    let err = tuplet::from_slice::<RelayedMove>(&bytes).unwrap_err();
    assert_eq!(err.code(), Code::OutOfRange);
    assert_eq!(err.path().to_string(), "p[1]");
}
