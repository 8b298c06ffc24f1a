//! Delta messages through typed dispatch: `from_envelope_with` and a `Mirrors` yield the
//! full value across keyframes and changes; `from_envelope` without mirrors reports a
//! tracker's payload as `delta_payload`, and only a tracker's payload (other invalid input
//! keeps its own error).

use tuplet::delta::{Mirrors, Sent, Tracker};
use tuplet::{Code, Dispatch, Encoding, SampleRng};
use village::dispatch::ServerMessage;
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

fn world(tick: u32) -> WorldSnapshot {
    let entities = (0..4)
        .map(|i| NearbyEntity {
            id: 100 + i,
            kind: EntityKind::Npc,
            pos: [i as f32 + tick as f32 * 0.25, 0.0, 2.0],
            heading: 0.5,
            speed: 1.25,
            anim: (tick % 3) as u8,
            owner: None,
            label: (i == 0).then(|| "Ann".to_string()),
        })
        .collect();
    WorldSnapshot {
        tick,
        keyframe: false,
        entities,
        gone: Vec::new(),
    }
}

/// What the client holds after the round trip: the compact bytes read back, entities by id.
fn quantized(v: &WorldSnapshot) -> WorldSnapshot {
    let mut q: WorldSnapshot = tuplet::from_slice(&tuplet::to_vec(v).unwrap()).unwrap();
    q.entities.sort_by_key(|e| e.id);
    q
}

/// The envelope of one tracker payload: the message id, then the payload.
fn envelope(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    tuplet::wire::write::uint(&mut out, <WorldSnapshot as tuplet::Message>::ID as u64);
    out.extend_from_slice(payload);
    out
}

#[test]
fn dispatch_with_mirrors_yields_full_values_across_keyframes_and_changes() {
    let mut tracker = Tracker::<WorldSnapshot>::new(5);
    let mut mirrors = Mirrors::new();
    let (mut keyframes, mut deltas) = (0, 0);
    for tick in 1..=12 {
        let value = world(tick);
        let mut payload = Vec::new();
        match tracker.encode(&value, &mut payload).unwrap() {
            Sent::Keyframe => keyframes += 1,
            Sent::Delta => deltas += 1,
            Sent::Nothing => continue,
        }
        let env = envelope(&payload);
        match ServerMessage::from_envelope_with(&env, &mut mirrors).unwrap() {
            ServerMessage::WorldSnapshot(got) => assert_eq!(got, quantized(&value), "tick {tick}"),
            other => panic!("{other:?}"),
        }
        // The same payload framed by name (as Colyseus frames it) needs its own mirror.
        let mut by_name = Mirrors::new();
        let named = ServerMessage::from_payload_with("world:snapshot", &payload, &mut by_name);
        assert_eq!(
            named.is_ok(),
            tracker.baseline().is_some() && payload[2] == 0xc0
        );
        // Without mirrors: the error says what it is and what to use.
        let err = ServerMessage::from_envelope(&env).unwrap_err();
        assert_eq!(err.code(), Code::DeltaPayload, "tick {tick}: {err}");
        assert!(
            err.to_string()
                .contains("this is a delta message; apply it with a Mirror"),
            "{err}"
        );
    }
    assert_eq!((keyframes, deltas), (3, 9));
    let held = mirrors.get::<WorldSnapshot>().value().cloned();
    assert_eq!(held, Some(quantized(&world(12))));
    // A missed payload: the mirror drops, the next delta is no_baseline, a keyframe mends it.
    mirrors.clear();
    let mut payload = Vec::new();
    assert_eq!(
        tracker.encode(&world(13), &mut payload).unwrap(),
        Sent::Delta
    );
    let err = ServerMessage::from_envelope_with(&envelope(&payload), &mut mirrors).unwrap_err();
    assert_eq!(err.code(), Code::NoBaseline);
    tracker.request_keyframe();
    payload.clear();
    assert_eq!(
        tracker.encode(&world(14), &mut payload).unwrap(),
        Sent::Keyframe
    );
    let got = ServerMessage::from_envelope_with(&envelope(&payload), &mut mirrors).unwrap();
    assert_eq!(got, ServerMessage::WorldSnapshot(quantized(&world(14))));
}

#[test]
fn plain_messages_and_other_invalid_input_are_unchanged() {
    // A plain snapshot still decodes as one, with or without mirrors for other messages.
    let plain = ServerMessage::WorldSnapshot(quantized(&world(3)));
    let env = plain.to_envelope(Encoding::Compact).unwrap();
    assert_eq!(ServerMessage::from_envelope(&env).unwrap(), plain);
    // Input that is neither keeps its own error: a keyframe whose fields do not read, a
    // delta whose announced value is not a difference, an empty delta.
    for (hex, code) in [
        ("9400c09090", Code::WrongType),
        ("940003 9090", Code::WrongType),
        ("920500", Code::WrongType),
    ] {
        let bytes: Vec<u8> = (0..hex.replace(' ', "").len() / 2)
            .map(|i| u8::from_str_radix(&hex.replace(' ', "")[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let err = ServerMessage::from_envelope(&envelope(&bytes)).unwrap_err();
        assert_eq!(err.code(), code, "{hex}: {err}");
    }
    // Random bytes are never taken for a tracker's payload unless they are one.
    let mut rng = SampleRng::new(7);
    for _ in 0..2000 {
        let n = rng.below(12);
        let mut bytes = vec![0x94u8];
        bytes.extend((0..n).map(|_| rng.below(256) as u8));
        if let Err(e) = ServerMessage::from_envelope(&envelope(&bytes)) {
            if e.code() == Code::DeltaPayload {
                assert!(tuplet::delta::probe::<WorldSnapshot>(&bytes).is_some());
            }
        }
    }
}
