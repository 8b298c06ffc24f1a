//! The derived interpolation adapters (ATTRIBUTES.md "Interpolation"), Rust side: values go
//! into the channels `tuplet_schema::interp` plans and come back; the channels are the ones
//! tests/ts `interp_adapter.test.ts` expects of the TypeScript adapters for the same values;
//! an `EntityFeed` of snapshot entities entering and leaving view allocates nothing in steady state
//! (a counting allocator, as in `alloc.rs`).

use tuplet::netcode::{
    ChannelLayout, Clock, EntityFeed, Interpolate, NetcodeSettings, SampleClock,
};
use tuplet_tests::counting::{self, Counting};
use village::horse::{Gait, HorseGaitShown};
use village::player::{MoveFlags, PlayerMoveRelayed};
use village::world::{EntityKind, NearbyEntity, WorldSnapshot};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn channels<T: Interpolate>(v: &T) -> Vec<f64> {
    let mut c = vec![-12345.0; T::LAYOUT.channels()];
    v.write(&mut c);
    c
}

fn relayed() -> PlayerMoveRelayed {
    PlayerMoveRelayed {
        s: "abcdefghi".into(),
        p: [1.5, -2.25, 30.0],
        r: -3.1,
        t: 123456,
        seq: Some(7),
        flags: Some(MoveFlags {
            running: true,
            mounted: true,
            carrying: true,
            ..MoveFlags::default()
        }),
    }
}

#[test]
fn relayed_move_has_the_typescript_adapters_channels_and_round_trips() {
    let m = relayed();
    assert_eq!(
        PlayerMoveRelayed::LAYOUT,
        ChannelLayout {
            linear: 3,
            angle: 1,
            hold: 1
        }
    );
    assert_eq!(PlayerMoveRelayed::CLOCK, Clock::Sent);
    assert_eq!(m.time_ms(), 123456.0);
    assert_eq!(m.key(), "abcdefghi");
    // The same vector as tests/ts interp_adapter.test.ts (f32 values exact in f64).
    let c = channels(&m);
    assert_eq!(c, [1.5, -2.25, 30.0, -3.1f32 as f64, (1 + 16 + 128) as f64]);
    let mut out = PlayerMoveRelayed {
        p: [0.0; 3],
        r: 0.0,
        flags: None,
        ..m.clone()
    };
    out.read(&c);
    assert_eq!(out, m);
    // An absent option is NaN and reads back absent.
    let still = PlayerMoveRelayed {
        flags: None,
        ..m.clone()
    };
    let c2 = channels(&still);
    assert!(c2[4].is_nan());
    let mut out = m.clone();
    out.read(&c2);
    assert_eq!(out.flags, None);
}

#[test]
fn gait_and_entity_channels_match_the_typescript_ones() {
    let h = HorseGaitShown {
        horse: 2,
        gait: Gait::Canter,
        stamina: 0.5,
    };
    assert_eq!(channels(&h), [0.5, 3.0]);
    assert_eq!(HorseGaitShown::CLOCK, Clock::Arrival);
    let e = NearbyEntity {
        id: 9,
        kind: EntityKind::Horse,
        pos: [1.0, 2.0, 3.0],
        heading: 0.5,
        speed: 3.0,
        anim: 4,
        owner: None,
        label: None,
    };
    let c = channels(&e);
    assert_eq!(c, [1.0, 2.0, 3.0, 3.0, 0.5, 5.0, 4.0]);
    let mut out = NearbyEntity {
        kind: EntityKind::Npc,
        pos: [0.0; 3],
        heading: 0.0,
        speed: 0.0,
        anim: 0,
        ..e.clone()
    };
    out.read(&c);
    assert_eq!(out, e);
    let s = WorldSnapshot {
        tick: 40,
        keyframe: false,
        entities: vec![],
        gone: vec![],
    };
    assert_eq!(s.time_ms(), 2000.0);
    assert_eq!(WorldSnapshot::CLOCK, Clock::Tick { rate: 20 });
}

fn entity(id: u32, x: f32) -> NearbyEntity {
    NearbyEntity {
        id,
        kind: EntityKind::Npc,
        pos: [x, 0.0, 0.0],
        heading: 0.0,
        speed: 1.0,
        anim: 0,
        owner: None,
        label: None,
    }
}

#[test]
fn entities_entering_and_leaving_view_allocate_nothing_in_steady_state() {
    let mut feed = EntityFeed::<NearbyEntity>::new(NetcodeSettings::default());
    // 40 entities in view; every tick 4 leave and 4 others enter (ids cycle over 60).
    let mut snapshot = WorldSnapshot {
        tick: 0,
        keyframe: false,
        entities: (0..40).map(|i| entity(i, 0.0)).collect(),
        gone: Vec::with_capacity(64),
    };
    let mut run = |ticks: u32, start: u32, snapshot: &mut WorldSnapshot| {
        for t in start..start + ticks {
            snapshot.tick = t;
            for (i, e) in snapshot.entities.iter_mut().enumerate() {
                e.id = (i as u32 + 4 * t) % 60;
                e.pos[0] = t as f32 * 0.1;
            }
            feed.update(&*snapshot, &snapshot.entities, t as f64 * 50.0 + 80.0);
            feed.set_mut().sample_all(t as f64 * 50.0 + 100.0);
        }
        feed.set().len()
    };
    let start = counting::allocations();
    assert_eq!(run(200, 0, &mut snapshot), 40, "warm-up");
    let before = counting::allocations();
    assert!(
        before > start,
        "the counter sees the warm-up's pool growing"
    );
    assert_eq!(run(500, 200, &mut snapshot), 40);
    let allocs = counting::allocations() - before;
    assert_eq!(
        allocs, 0,
        "500 ticks of 40 entities, 4 entering and 4 leaving each"
    );
}
