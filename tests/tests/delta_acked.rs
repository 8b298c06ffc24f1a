//! Deltas against acknowledged baselines, the Rust side: over a link that loses, duplicates
//! and reorders payloads and acknowledgements, every snapshot the client's mirror applies
//! equals the server's state at that snapshot's number, and the mirror catches up once the
//! link is clean. The rules each decision follows are tested one by one below.

mod acked;

use std::collections::HashMap;

use acked::{quantized, Link, World};
use proptest::prelude::*;
use tuplet::delta::{Mirror, Sent, Tracker, RING};
use tuplet::Code;
use village::world::WorldSnapshot;

/// Runs `ticks` ticks over a lossy link then 20 clean ones (the last 5 without a change); checks every applied snapshot
/// and returns (applied, refused).
fn run(seed: u64, ticks: u64, loss: f64, dup: f64, jitter: u64, ring: usize) -> (u64, u64) {
    let mut world = World::new(seed, 6, 30);
    let mut tracker = Tracker::<WorldSnapshot>::acked(0, ring);
    let mut mirror = Mirror::<WorldSnapshot>::acked(ring);
    let mut down = Link::new(seed, loss, dup, 1, jitter);
    let mut up = Link::new(seed + 1, loss, dup, 1, jitter);
    let mut states: HashMap<u64, WorldSnapshot> = HashMap::new();
    let (mut applied, mut refused) = (0, 0);
    for t in 0..ticks + 20 {
        if t == ticks {
            (down.loss, down.dup, down.jitter) = (0.0, 0.0, 0);
            (up.loss, up.dup, up.jitter) = (0.0, 0.0, 0);
        }
        if t < ticks + 15 {
            world.step(); // the world stands still for the last 5 ticks: the mirror catches up
        }
        for ack in up.deliver(t) {
            tracker.ack(ack);
        }
        let mut out = Vec::new();
        if tracker.encode(&world.value, &mut out).expect("encodes") != Sent::Nothing {
            states.insert(tracker.number(), quantized(&world.value));
            down.send(t, out);
        }
        for payload in down.deliver(t) {
            match mirror.apply(&payload) {
                Ok(v) => {
                    let v = v.clone();
                    applied += 1;
                    let n = mirror.ack();
                    assert_eq!(Some(&v), states.get(&n), "snapshot {n}");
                }
                Err(e) => {
                    refused += 1;
                    assert_eq!(e.code(), Code::NoBaseline, "{e}");
                }
            }
        }
        up.send(t, mirror.ack());
    }
    assert_eq!(mirror.value(), Some(&quantized(&world.value)), "caught up");
    (applied, refused)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_applied_snapshot_is_the_servers_state_at_its_number(
        seed in any::<u64>(),
        ticks in 20u64..160,
        loss in 0.0f64..0.4,
        dup in 0.0f64..0.3,
        jitter in 0u64..6,
        ring in 1usize..40,
    ) {
        let (applied, _) = run(seed, ticks, loss, dup, jitter, ring);
        prop_assert!(applied > 0);
    }
}

/// Loss alone (no reordering, no duplicates) never makes an arriving payload unusable: its
/// baseline was acknowledged, so the mirror holds it.
#[test]
fn under_loss_alone_every_arriving_payload_applies() {
    for loss in [0.02, 0.05, 0.3] {
        let (applied, refused) = run(7, 400, loss, 0.0, 0, RING);
        assert_eq!(refused, 0, "{loss}: {applied} applied");
        assert!(applied > 200, "{loss}: {applied} applied");
    }
}

fn snapshot(tick: u32, ids: &[u32]) -> WorldSnapshot {
    let mut w = World::new(3, 0, 0).value;
    w.tick = tick;
    w.entities = ids
        .iter()
        .map(|&id| village::world::NearbyEntity {
            id,
            kind: village::world::EntityKind::Npc,
            pos: [id as f32, 0.0, 0.0],
            heading: 0.0,
            speed: 0.0,
            anim: 0,
            owner: None,
            label: None,
        })
        .collect();
    w
}

fn encode(t: &mut Tracker<WorldSnapshot>, v: &WorldSnapshot) -> (Sent, Vec<u8>) {
    let mut out = Vec::new();
    let sent = t.encode(v, &mut out).expect("encodes");
    (sent, out)
}

#[test]
fn a_late_or_duplicated_snapshot_is_refused_and_changes_nothing() {
    let mut t = Tracker::acked(0, RING);
    let mut m = Mirror::<WorldSnapshot>::acked(RING);
    let (_, one) = encode(&mut t, &snapshot(1, &[1]));
    let (_, two) = encode(&mut t, &snapshot(2, &[1, 2]));
    m.apply(&two).expect("a keyframe applies");
    for late in [&one, &two] {
        let e = m.apply(late).unwrap_err();
        assert_eq!(
            (e.code(), e.to_string().contains("stale")),
            (Code::NoBaseline, true)
        );
    }
    assert_eq!(
        (m.ack(), m.value()),
        (2, Some(&quantized(&snapshot(2, &[1, 2]))))
    );
}

#[test]
fn a_delta_from_a_snapshot_the_mirror_never_applied_is_refused() {
    let mut t = Tracker::acked(0, RING);
    let mut m = Mirror::<WorldSnapshot>::acked(RING);
    let (_, one) = encode(&mut t, &snapshot(1, &[1]));
    m.apply(&one).unwrap();
    t.ack(1);
    let (_, two) = encode(&mut t, &snapshot(2, &[1, 2]));
    let mut other = Mirror::<WorldSnapshot>::acked(RING);
    let e = other.apply(&two).unwrap_err();
    assert_eq!(e.code(), Code::NoBaseline);
    assert_eq!(m.apply(&two).unwrap(), &quantized(&snapshot(2, &[1, 2])));
}

#[test]
fn the_tracker_keyframes_until_an_ack_then_deltas_from_the_newest_acked() {
    let mut t = Tracker::acked(0, RING);
    assert_eq!(encode(&mut t, &snapshot(1, &[1])).0, Sent::Keyframe);
    assert_eq!(encode(&mut t, &snapshot(2, &[1])).0, Sent::Keyframe);
    t.ack(1);
    let (sent, bytes) = encode(&mut t, &snapshot(3, &[1]));
    // [3, ago 2 (snapshot 1), [seq 3, mask 0b1 (tick), +2]]
    assert_eq!(
        (sent, bytes),
        (Sent::Delta, vec![0x93, 3, 2, 0x93, 3, 1, 2])
    );
}

#[test]
fn an_ack_older_than_the_ring_brings_a_keyframe() {
    let mut t = Tracker::acked(0, 4);
    encode(&mut t, &snapshot(1, &[1]));
    t.ack(1);
    for tick in 2..=4 {
        assert_eq!(encode(&mut t, &snapshot(tick, &[1])).0, Sent::Delta);
    }
    // Snapshot 5 pushes snapshot 1 out of a ring of 4.
    assert_eq!(encode(&mut t, &snapshot(5, &[1])).0, Sent::Delta);
    assert_eq!(encode(&mut t, &snapshot(6, &[1])).0, Sent::Keyframe);
}

#[test]
fn acks_of_numbers_never_sent_or_older_are_ignored() {
    let mut t = Tracker::acked(0, RING);
    encode(&mut t, &snapshot(1, &[1]));
    encode(&mut t, &snapshot(2, &[1]));
    t.ack(9);
    assert_eq!(t.baseline(), None);
    t.ack(2);
    t.ack(1);
    assert_eq!(t.baseline().map(|b| b.tick), Some(2));
}

#[test]
fn an_acked_unchanged_value_sends_nothing() {
    let mut t = Tracker::acked(0, RING);
    encode(&mut t, &snapshot(1, &[1]));
    t.ack(1);
    assert_eq!(encode(&mut t, &snapshot(1, &[1])), (Sent::Nothing, vec![]));
    assert_eq!(t.number(), 1);
}

#[test]
fn a_value_back_at_the_acked_snapshot_sends_an_empty_delta() {
    let mut t = Tracker::acked(0, RING);
    let mut m = Mirror::<WorldSnapshot>::acked(RING);
    m.apply(&encode(&mut t, &snapshot(1, &[1])).1).unwrap();
    t.ack(1);
    m.apply(&encode(&mut t, &snapshot(2, &[1])).1).unwrap();
    // The client holds 2, the server knows only of 1: back at 1's value, it must say so.
    let (sent, bytes) = encode(&mut t, &snapshot(1, &[1]));
    assert_eq!(
        (sent, &bytes[..]),
        (Sent::Delta, &[0x93, 3, 2, 0x92, 3, 0][..])
    );
    assert_eq!(m.apply(&bytes).unwrap(), &quantized(&snapshot(1, &[1])));
}

#[test]
fn a_delta_naming_no_baseline_is_no_baseline() {
    let mut m = Mirror::<WorldSnapshot>::acked(RING);
    // [1, ago 0, [seq 1, mask 1, +1]]: ago 0 names no snapshot, so only a keyframe applies.
    assert_eq!(
        m.apply(&[0x93, 1, 0, 0x93, 1, 1, 1]).unwrap_err().code(),
        Code::NoBaseline
    );
    // ago past snapshot 1 is out of range.
    assert_eq!(
        m.apply(&[0x93, 2, 2, 0x93, 2, 1, 1]).unwrap_err().code(),
        Code::OutOfRange
    );
    assert_eq!(m.ack(), 0);
}

#[test]
fn typed_dispatch_reads_through_an_inserted_acked_mirror() {
    use tuplet::delta::Mirrors;
    use tuplet::{Dispatch, Message};
    use village::dispatch::ServerMessage;
    let mut mirrors = Mirrors::new();
    mirrors.insert(Mirror::<WorldSnapshot>::acked(RING));
    let mut t = Tracker::acked(0, RING);
    for tick in 1..=3 {
        let mut frame = Vec::new();
        tuplet::wire::write::uint(&mut frame, WorldSnapshot::ID as u64);
        t.encode(&snapshot(tick, &[1, 2]), &mut frame).unwrap();
        let got = ServerMessage::from_envelope_with(&frame, &mut mirrors).unwrap();
        assert_eq!(
            got,
            ServerMessage::WorldSnapshot(quantized(&snapshot(tick, &[1, 2])))
        );
        t.ack(mirrors.get::<WorldSnapshot>().ack());
    }
    assert_eq!(mirrors.get::<WorldSnapshot>().ack(), 3);
}
