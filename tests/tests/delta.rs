//! Delta snapshots, the Rust side: after any sequence of ticks, moves, joins, leaves,
//! keyframes and dropped or corrupted messages followed by a keyframe request, the client's
//! mirror equals the server's quantized state (the full value encoded and decoded, entity
//! lists in key order).

use proptest::prelude::*;
use tuplet::delta::{Mirror, Sent, Tracker};
use tuplet::{Code, SampleRng};
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

/// What the server's full value looks like to a client: quantized, entities by key.
fn quantized(v: &WorldSnapshot) -> WorldSnapshot {
    let mut q: WorldSnapshot = tuplet::from_slice(&tuplet::to_vec(v).unwrap()).unwrap();
    q.entities.sort_by_key(|e| e.id);
    q
}

fn entity(rng: &mut SampleRng, id: u32) -> NearbyEntity {
    let f =
        |rng: &mut SampleRng, lo: f64, hi: f64| (lo + (hi - lo) * rng.float_in(0.0, 1.0)) as f32;
    NearbyEntity {
        id,
        kind: [EntityKind::Npc, EntityKind::Pet, EntityKind::Vehicle][rng.below(3)],
        pos: [
            f(rng, -4000.0, 4000.0),
            f(rng, -4000.0, 4000.0),
            f(rng, 0.0, 30.0),
        ],
        heading: f(rng, -3.0, 3.0),
        speed: f(rng, 0.0, 20.0),
        anim: rng.below(12) as u8,
        owner: (rng.below(4) == 0).then(|| "abcdefghi".to_string()),
        label: (rng.below(3) == 0).then(|| format!("e{id}")),
    }
}

/// One step of the world: some entities move a little (some by less than a quantum), one
/// changes a whole field now and then.
fn step(rng: &mut SampleRng, w: &mut WorldSnapshot) {
    w.tick += 1;
    for e in w.entities.iter_mut() {
        match rng.below(4) {
            0 => {}
            1 => e.pos[0] += 0.004, // under a centimetre: often unchanged on the wire
            _ => {
                e.pos[0] =
                    (e.pos[0] + (rng.float_in(0.0, 1.0) as f32 - 0.5) * 3.0).clamp(-4999.0, 4999.0);
                e.pos[1] =
                    (e.pos[1] + (rng.float_in(0.0, 1.0) as f32 - 0.5) * 3.0).clamp(-4999.0, 4999.0);
                e.heading = (rng.float_in(0.0, 1.0) as f32 - 0.5) * 6.2;
                e.speed = (rng.float_in(0.0, 1.0) * 30.0) as f32;
            }
        }
        if rng.below(20) == 0 {
            e.anim = rng.below(12) as u8;
            e.label = (rng.below(2) == 0).then(|| "renamed".into());
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Tick,
    Join,
    Leave,
    Keyframe,
    Drop,
    Corrupt,
    Reorder,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Tick),
        2 => Just(Op::Join),
        2 => Just(Op::Leave),
        1 => Just(Op::Keyframe),
        1 => Just(Op::Drop),
        1 => Just(Op::Corrupt),
        1 => Just(Op::Reorder),
    ]
}

/// The client: a mirror, and whether it waits for a keyframe it asked for.
struct Client {
    mirror: Mirror<WorldSnapshot>,
    waiting: bool,
}

impl Client {
    /// Applies a payload; on an error (a decode error, a missed message) drops the mirror
    /// and asks for a keyframe (returns true when it asks).
    fn receive(&mut self, payload: &[u8], keyframe: bool) -> bool {
        match self.mirror.apply(payload) {
            Ok(_) => {
                if keyframe {
                    self.waiting = false;
                }
                false
            }
            Err(_) => !std::mem::replace(&mut self.waiting, true),
        }
    }
}

fn run(seed: u64, ops: &[Op]) {
    let mut rng = SampleRng::new(seed);
    let mut world = WorldSnapshot {
        tick: 1000,
        keyframe: false,
        entities: (0..10).map(|i| entity(&mut rng, i * 7 + 1)).collect(),
        gone: vec![],
    };
    let mut next_id = 1000;
    let mut tracker = Tracker::<WorldSnapshot>::new(40);
    let mut client = Client {
        mirror: Mirror::new(),
        waiting: true,
    };
    fn send(
        client: &mut Client,
        world: &mut WorldSnapshot,
        tracker: &mut Tracker<WorldSnapshot>,
        fate: Option<Op>,
        rng: &mut SampleRng,
    ) -> Option<bool> {
        step(rng, world);
        let mut out = Vec::new();
        let sent = tracker.encode(world, &mut out).unwrap();
        if sent == Sent::Nothing {
            return None;
        }
        match fate {
            Some(Op::Drop) => None,
            Some(Op::Corrupt) => {
                // A flipped bit may still decode (no checksum: the transport guarantees
                // integrity); the client is told to resynchronise either way.
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
                client.receive(&out, false);
                client.waiting = true;
                Some(true)
            }
            _ => Some(client.receive(&out, sent == Sent::Keyframe)),
        }
    }
    for &o in ops {
        match o {
            Op::Join if world.entities.len() < 50 => {
                world.entities.push(entity(&mut rng, next_id));
                next_id += 1;
            }
            Op::Leave if !world.entities.is_empty() => {
                let i = rng.below(world.entities.len());
                world.entities.swap_remove(i);
            }
            Op::Keyframe => tracker.request_keyframe(),
            Op::Reorder => world.entities.reverse(),
            _ => {}
        }
        let fate = matches!(o, Op::Drop | Op::Corrupt).then_some(o);
        if send(&mut client, &mut world, &mut tracker, fate, &mut rng) == Some(true) {
            tracker.request_keyframe();
        }
        if let (Some(m), false) = (client.mirror.value(), client.waiting) {
            // Between a silent drop and the next message the mirror is stale, by design.
            if o.is_delivered() {
                assert_eq!(m, &quantized(&world), "after {o:?}");
            }
        }
    }
    // Recovery: whatever happened, a keyframe request brings the mirror back.
    tracker.request_keyframe();
    send(&mut client, &mut world, &mut tracker, None, &mut rng);
    assert!(!client.waiting);
    assert_eq!(client.mirror.value(), Some(&quantized(&world)));
}

impl Op {
    fn is_delivered(self) -> bool {
        !matches!(self, Op::Drop | Op::Corrupt)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mirror_equals_the_servers_quantized_state(seed in any::<u64>(), ops in prop::collection::vec(op(), 1..120)) {
        run(seed, &ops);
    }
}

#[test]
fn a_delta_before_any_keyframe_is_no_baseline() {
    let mut tracker = Tracker::<WorldSnapshot>::new(0);
    let mut rng = SampleRng::new(1);
    let mut w = WorldSnapshot {
        tick: 1,
        keyframe: true,
        entities: vec![entity(&mut rng, 1)],
        gone: vec![],
    };
    let mut out = Vec::new();
    assert_eq!(tracker.encode(&w, &mut out).unwrap(), Sent::Keyframe);
    w.tick = 2;
    out.clear();
    assert_eq!(tracker.encode(&w, &mut out).unwrap(), Sent::Delta);
    let mut fresh = Mirror::<WorldSnapshot>::new();
    let err = fresh.apply(&out).unwrap_err();
    assert_eq!(err.code(), Code::NoBaseline);
}

#[test]
fn unchanged_values_send_nothing() {
    let mut tracker = Tracker::<WorldSnapshot>::new(0);
    let mut rng = SampleRng::new(2);
    let w = WorldSnapshot {
        tick: 1,
        keyframe: false,
        entities: (0..5).map(|i| entity(&mut rng, i)).collect(),
        gone: vec![],
    };
    let mut out = Vec::new();
    assert_eq!(tracker.encode(&w, &mut out).unwrap(), Sent::Keyframe);
    out.clear();
    assert_eq!(tracker.encode(&w, &mut out).unwrap(), Sent::Nothing);
    assert!(out.is_empty());
}

#[test]
fn duplicate_keys_are_an_error_with_a_path() {
    let mut tracker = Tracker::<WorldSnapshot>::new(0);
    let mut rng = SampleRng::new(3);
    let w = WorldSnapshot {
        tick: 1,
        keyframe: false,
        entities: vec![entity(&mut rng, 4), entity(&mut rng, 4)],
        gone: vec![],
    };
    let err = tracker.encode(&w, &mut Vec::new()).unwrap_err();
    assert_eq!(err.code(), Code::DuplicateKey);
    assert_eq!(err.path().to_string(), "entities[1].id");
}

/// A delta carries a list's entries, not the list, so the tracker checks the list's length
/// itself: one entity past `len(max = 50)` after a keyframe is `too_long`, as a keyframe of
/// it would be, and the next message is a keyframe again.
#[test]
fn a_delta_of_a_list_past_its_length_is_too_long() {
    let mut tracker = Tracker::<WorldSnapshot>::new(0);
    let mut rng = SampleRng::new(5);
    let mut w = WorldSnapshot {
        tick: 1,
        keyframe: false,
        entities: (0..50).map(|id| entity(&mut rng, id)).collect(),
        gone: vec![],
    };
    assert_eq!(tracker.encode(&w, &mut Vec::new()).unwrap(), Sent::Keyframe);
    w.tick += 1;
    w.entities.push(entity(&mut rng, 50));
    let err = tracker.encode(&w, &mut Vec::new()).unwrap_err();
    assert_eq!(err.code(), Code::TooLong);
    assert_eq!(err.path().to_string(), "entities");
    w.entities.pop();
    assert_eq!(tracker.encode(&w, &mut Vec::new()).unwrap(), Sent::Keyframe);
}
