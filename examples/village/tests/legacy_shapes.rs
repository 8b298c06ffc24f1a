//! Where the world migrated, the old object-of-doubles shape still decodes: `player:move`
//! as the seeds' `{sessionId, x, y, z, rotationY, t, seq}` of doubles (171 bytes before the
//! change) and the bird stream as ten-key objects of doubles. Old shapes are built with
//! rmpv, an independent encoder, exactly as the old JavaScript client sent them.

// 3.141 rad is the seeds' example heading, not an approximation of pi.
#![allow(clippy::approx_constant)]

use rmpv::Value;
use tuplet::Wire;
use village::birds::{BirdState, BirdStream, Species};
use village::player::PlayerMoveRelayed;

fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).unwrap();
    out
}

fn map(entries: &[(&str, Value)]) -> Value {
    Value::Map(
        entries
            .iter()
            .map(|(k, v)| (Value::from(*k), v.clone()))
            .collect(),
    )
}

#[test]
fn old_player_move_object_of_doubles_decodes() {
    let old = map(&[
        ("sessionId", "abc123def".into()),
        ("x", 123.45.into()),
        ("y", 1.5.into()),
        ("z", (-25.0).into()),
        ("rotationY", 3.141.into()),
        ("t", 1_764_000_000_000.0f64.into()),
        ("seq", 1234.0f64.into()),
    ]);
    let bytes = encode(&old);
    let m: PlayerMoveRelayed = tuplet::from_slice(&bytes).unwrap();
    assert_eq!(m.s, "abc123def");
    assert_eq!(m.p, [123.45, 1.5, -25.0]);
    assert_eq!((m.t, m.seq), (1_764_000_000_000, Some(1234)));
    // The new compact shape of the same move is far smaller.
    let compact = tuplet::to_vec(&m).unwrap();
    assert_eq!(compact.len(), 35);
    assert!(
        bytes.len() > 2 * compact.len(),
        "{} vs {}",
        bytes.len(),
        compact.len()
    );
    let again: PlayerMoveRelayed = tuplet::from_slice(&compact).unwrap();
    assert!(again.wire_eq(&m));
}

fn old_bird(id: f64, kind: f64, x: f64, mode: f64) -> Value {
    map(&[
        ("birdId", id.into()),
        ("kind", kind.into()),
        ("x", x.into()),
        ("y", 12.5.into()),
        ("z", (-300.25).into()),
        ("rotY", 1.25.into()),
        ("rotX", (-0.5).into()),
        ("mode", mode.into()),
        ("flapPhase", 0.75.into()),
        ("size", 1.1.into()),
    ])
}

#[test]
fn old_bird_stream_of_ten_key_objects_decodes() {
    let birds: Vec<Value> = (0..80)
        .map(|i| {
            old_bird(
                i as f64,
                1.0 + (i % 3) as f64,
                -2000.0 + i as f64 * 7.31,
                2.0,
            )
        })
        .collect();
    let old = map(&[("birds", Value::Array(birds))]);
    let bytes = encode(&old);
    let stream: BirdStream = tuplet::from_slice(&bytes).unwrap();
    assert_eq!(stream.b.len(), 80);
    let b = &stream.b[4];
    assert_eq!(
        (b.id, b.species, b.state),
        (4, Species::Robin, BirdState::Flying)
    );
    assert_eq!(b.x, (-2000.0f64 + 4.0 * 7.31) as f32);
    let compact = tuplet::to_vec(&stream).unwrap();
    println!(
        "80 birds: {} bytes as objects of doubles, {} compact",
        bytes.len(),
        compact.len()
    );
    assert!(compact.len() * 3 < bytes.len());
    let again: BirdStream = tuplet::from_slice(&compact).unwrap();
    assert!(again.wire_eq(&stream));
}

#[test]
fn a_fractional_id_in_the_old_shape_is_rejected_with_its_path() {
    let old = map(&[("birds", Value::Array(vec![old_bird(3.5, 1.0, 0.0, 0.0)]))]);
    let err = tuplet::from_slice::<BirdStream>(&encode(&old)).unwrap_err();
    assert_eq!(err.code(), tuplet::Code::NotIntegral);
    assert_eq!(err.path().to_string(), "b[0].id");
}
