//! Every relay rule of the server, through real WebSocket connections on loopback.
//!
//! Each test starts its own server on port 0 with spawn points at chosen distances from the
//! mover (the first to join, at the origin). `Client::sync` makes the counts exact: the
//! room handles messages in order, so once the mover's ping is answered every relay of its
//! moves is queued, and each viewer's own ping then collects them.

use std::time::Duration;

use tuplet::Wire;

use village::diag::DiagBytesRequest;
use village::dispatch::ServerMessage;
use village::emote::{Emote, EmotePlay};
use village::player::{PlayerHeartbeat, PlayerMove, RejectReason};
use village::watergun::WatergunSpray;
use village::world::{NearbyEntity, WorldKeyframeRequest, WorldSnapshot};
use village_server::client::{Client, Identity, Incoming};
use village_server::token::Claims;
use village_server::world::World;
use village_server::{start, Config, Server};

/// The key these tests' servers check tokens with.
const KEY: &[u8] = b"relay tests' token key";

/// A signed-in player with the admin claim (these tests read the room's numbers; the
/// hostile-client tests check what a player without the claim gets).
fn player(name: &str) -> Identity {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let account = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut claims = Claims::player(account, name, 3600);
    claims.admin = true;
    Identity::signed(KEY, &claims)
}

const NEAR: [f32; 3] = [10.0, 0.0, 0.0];
const FAR: [f32; 3] = [100.0, 0.0, 0.0];
const VERY_FAR: [f32; 3] = [300.0, 0.0, 0.0];

/// A server whose players spawn at `spawns` in join order, the mover first at the origin.
async fn server(spawns: &[[f32; 3]]) -> Server {
    server_with(spawns, true).await
}

/// `server`, writing each client's frames once per tick or as soon as they are handled.
async fn server_with(spawns: &[[f32; 3]], flush_per_tick: bool) -> Server {
    let mut all = vec![[0.0, 0.0, 0.0]];
    all.extend_from_slice(spawns);
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        spawns: all,
        flush_per_tick,
        token_key: Some(KEY.to_vec()),
        ..Config::default()
    };
    start(config).await.expect("server starts")
}

async fn join(server: &Server, name: &str) -> Client {
    join_as(&server.url("village"), &player(name)).await
}

/// Joins as `who`; a server that never confirms the join fails the test within 10 s instead
/// of hanging it.
async fn join_as(url: &str, who: &Identity) -> Client {
    tokio::time::timeout(std::time::Duration::from_secs(10), Client::join(url, who))
        .await
        .unwrap_or_else(|_| panic!("{}: no player:joined of its own within 10 s", who.name))
        .expect("joins")
}

/// A walking step: `i` decimetres north of the origin.
fn step(i: u32) -> PlayerMove {
    PlayerMove {
        p: [0.0, 0.0, i as f32 * 0.1],
        r: 0.5,
        t: 1_764_000_000_000 + u64::from(i) * 100,
        seq: Some(i),
        flags: None,
    }
}

fn named<'a>(frames: &'a [Incoming], name: &str) -> Vec<&'a Incoming> {
    frames.iter().filter(|f| f.name() == name).collect()
}

fn moves(frames: &[Incoming]) -> Vec<u32> {
    named(frames, "player:move")
        .iter()
        .map(|f| match f.decode().unwrap() {
            ServerMessage::PlayerMoveRelayed(m) => m.seq.unwrap(),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Joins the mover and viewers at NEAR, FAR and VERY_FAR.
async fn four() -> (Server, Client, [Client; 3]) {
    let s = server(&[NEAR, FAR, VERY_FAR]).await;
    let mover = join(&s, "mover").await;
    let viewers = [
        join(&s, "near").await,
        join(&s, "far").await,
        join(&s, "veryfar").await,
    ];
    (s, mover, viewers)
}

async fn collect(mover: &mut Client, viewers: &mut [Client]) -> Vec<Vec<Incoming>> {
    mover.sync().await.unwrap();
    let mut out = Vec::new();
    for v in viewers {
        out.push(v.sync().await.unwrap());
    }
    out
}

#[tokio::test]
async fn strides_near_every_far_every_third_very_far_every_tenth() {
    let (_s, mut mover, mut viewers) = four().await;
    for i in 1..=30 {
        mover.send(step(i)).await.unwrap();
    }
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(moves(&got[0]), (1..=30).collect::<Vec<_>>());
    // The first update reaches far viewers because they have never seen the mover.
    assert_eq!(moves(&got[1]), [1, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
    assert_eq!(moves(&got[2]), [1, 10, 20, 30]);
    assert!(
        moves(&mover.sync().await.unwrap()).is_empty(),
        "no echo to the mover"
    );
}

#[tokio::test]
async fn strides_hold_when_every_frame_is_written_at_once() {
    let s = server_with(&[NEAR, FAR], false).await;
    let mut mover = join(&s, "mover").await;
    let mut viewers = [join(&s, "near").await, join(&s, "far").await];
    for i in 1..=7 {
        mover.send(step(i)).await.unwrap();
    }
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(moves(&got[0]), (1..=7).collect::<Vec<_>>());
    assert_eq!(moves(&got[1]), [1, 3, 6]);
}

#[tokio::test]
async fn gathered_relays_go_out_with_the_tick_unasked() {
    let s = server(&[NEAR]).await;
    let mut mover = join(&s, "mover").await;
    let mut near = join(&s, "near").await;
    near.sync().await.unwrap();
    mover.send(step(1)).await.unwrap();
    // No ping from the viewer: the room's next tick (50 ms) writes what it gathered.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    loop {
        let frame = tokio::time::timeout_at(deadline, near.next())
            .await
            .expect("the relayed move within 2 s")
            .expect("connected");
        if frame.name() == "player:move" {
            assert_eq!(moves(&[frame]), [1]);
            break;
        }
    }
}

#[tokio::test]
async fn first_unchanged_report_goes_to_everyone_then_silence() {
    let (_s, mut mover, mut viewers) = four().await;
    for i in 1..=4 {
        mover.send(step(i)).await.unwrap();
    }
    // Unchanged after quantization: 0.4 m + 1 mm is the same centimetre.
    let mut same = step(5);
    same.p[2] = 0.401;
    mover.send(same.clone()).await.unwrap();
    same.seq = Some(6);
    mover.send(same).await.unwrap();
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(moves(&got[0]), [1, 2, 3, 4, 5]);
    assert_eq!(moves(&got[1]), [1, 3, 5], "5 is forced past the stride");
    assert_eq!(moves(&got[2]), [1, 5]);
}

/// Caught: a mover that stops without an unchanged report (its client just falls silent)
/// was drawn by far viewers at the last pose their tier let through, 10 to 40 cm short of
/// where it stood, for as long as it stood.
#[tokio::test]
async fn the_pose_that_ends_a_movement_reaches_viewers_their_tier_skipped() {
    let (_s, mut mover, mut viewers) = four().await;
    for i in 1..=4 {
        mover.send(step(i)).await.unwrap();
    }
    // Silent past `Config::stopped_after` (200 ms) and a tick.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(
        moves(&got[0]),
        [1, 2, 3, 4],
        "nothing twice for a viewer that got it"
    );
    assert_eq!(
        moves(&got[1]),
        [1, 3, 4],
        "the stop, though 4 is not due every 3rd"
    );
    assert_eq!(
        moves(&got[2]),
        [1, 4],
        "the stop, though 4 is not due every 10th"
    );
}

/// Caught: after a mover stood still, far viewers got its first steps only when their
/// stride came round (up to 10 moves, a second later), so they drew it setting off late
/// and then sliding to catch up.
#[tokio::test]
async fn the_first_pose_after_a_silence_reaches_every_viewer() {
    let (_s, mut mover, mut viewers) = four().await;
    for i in 1..=3 {
        mover.send(step(i)).await.unwrap();
    }
    // The stop: an unchanged report, forced to everyone.
    let mut same = step(4);
    same.p[2] = 0.301;
    mover.send(same).await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    collect(&mut mover, &mut viewers).await;
    // Update 5 of this mover: due for no far viewer.
    mover.send(step(5)).await.unwrap();
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(moves(&got[0]), [5]);
    assert_eq!(moves(&got[1]), [5], "the set-off, though not due every 3rd");
    assert_eq!(
        moves(&got[2]),
        [5],
        "the set-off, though not due every 10th"
    );
}

#[tokio::test]
async fn a_viewer_that_never_saw_the_mover_gets_the_next_update() {
    let s = server(&[NEAR, FAR]).await;
    let mut mover = join(&s, "mover").await;
    let near = join(&s, "near").await;
    for i in 1..=3 {
        mover.send(step(i)).await.unwrap();
    }
    mover.sync().await.unwrap();
    let late = join(&s, "late").await;
    for i in 4..=6 {
        mover.send(step(i)).await.unwrap();
    }
    let got = collect(&mut mover, &mut [near, late]).await;
    assert_eq!(moves(&got[0]), [1, 2, 3, 4, 5, 6]);
    assert_eq!(moves(&got[1]), [4, 6], "4 is not due at this distance");
}

#[tokio::test]
async fn one_off_events_reach_nearby_viewers_every_time_and_nobody_else() {
    let (_s, mut mover, mut viewers) = four().await;
    for i in 0..5 {
        mover
            .send(EmotePlay {
                emote: Emote::Wave,
                looping: i % 2 == 0,
            })
            .await
            .unwrap();
    }
    mover
        .send(WatergunSpray {
            from: [0.0, 1.0, 0.0],
            yaw: 0.2,
            pitch: 0.1,
            pressure: 0.8,
        })
        .await
        .unwrap();
    let got = collect(&mut mover, &mut viewers).await;
    assert_eq!(named(&got[0], "player:emote").len(), 5);
    assert_eq!(named(&got[0], "watergun:spray").len(), 1);
    for far in &got[1..] {
        assert!(named(far, "player:emote").is_empty());
        assert!(named(far, "watergun:spray").is_empty());
    }
}

#[tokio::test]
async fn heartbeat_costs_no_fan_out() {
    let (_s, mut mover, mut viewers) = four().await;
    collect(&mut mover, &mut viewers).await; // the joins
    for t in 0..10 {
        mover
            .send(PlayerHeartbeat {
                t,
                visible: true,
                fps: Some(60),
            })
            .await
            .unwrap();
    }
    let got = collect(&mut mover, &mut viewers).await;
    for frames in &got {
        assert!(
            frames.iter().all(|f| f.name() == "world:snapshot"),
            "{:?}",
            frames.iter().map(Incoming::name).collect::<Vec<_>>()
        );
    }
}

#[tokio::test]
async fn guests_get_no_bird_stream() {
    let s = server(&[[5.0, 0.0, 0.0], [6.0, 0.0, 0.0]]).await;
    let url = s.url("village");
    let mut member = join(&s, "member").await;
    let guest_id = Identity::guest("guest");
    let mut guest = join_as(&url, &guest_id).await;
    let mut unsubscribed = join(&s, "quiet").await;
    for c in [&mut member, &mut guest] {
        c.send(village::birds::BirdSubscribe { on: true })
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let birds = |frames: Vec<Incoming>| named(&frames, "birds:stream").len();
    assert!(birds(member.sync().await.unwrap()) >= 2);
    assert_eq!(birds(guest.sync().await.unwrap()), 0);
    assert_eq!(birds(unsubscribed.sync().await.unwrap()), 0);
}

#[tokio::test]
async fn old_shape_clients_get_the_named_shape_the_rest_the_tuple() {
    let s = server(&[NEAR, NEAR]).await;
    let url = s.url("village");
    let old = Identity {
        old_shape: true,
        ..player("old")
    };
    // The mover is an old client too: its named moves decode like tuples. (Two accounts:
    // one account has one session.)
    let mut mover = join_as(&url, &old).await;
    let old_viewer_id = Identity {
        old_shape: true,
        ..player("old viewer")
    };
    let mut old_viewer = join_as(&url, &old_viewer_id).await;
    let mut new_viewer = join(&s, "new").await;
    mover.send(step(1)).await.unwrap();
    mover.sync().await.unwrap();
    let a = old_viewer.sync().await.unwrap();
    let b = new_viewer.sync().await.unwrap();
    let (a, b) = (named(&a, "player:move"), named(&b, "player:move"));
    assert_eq!((a.len(), b.len()), (1, 1));
    assert!(a[0].is_named() && !b[0].is_named());
    assert_eq!(a[0].decode().unwrap(), b[0].decode().unwrap());
    assert!(a[0].bytes.len() > b[0].bytes.len());
}

#[tokio::test]
async fn rejected_moves_are_corrected_to_the_sender_alone() {
    let s = server(&[NEAR]).await;
    let mut mover = join(&s, "mover").await;
    let mut viewer = join(&s, "viewer").await;
    mover.send(step(1)).await.unwrap();
    let mut outside = step(2);
    outside.p = [3000.0, 0.0, 0.0]; // valid on the wire (±5000 m), outside the map
    mover.send(outside).await.unwrap();
    let mut teleport = step(3);
    teleport.p = [0.0, 0.0, 80.0];
    mover.send(teleport).await.unwrap();
    mover.send(step(4)).await.unwrap();
    let got = mover.sync().await.unwrap();
    let reasons: Vec<(RejectReason, u32, f32)> = named(&got, "player:correction")
        .iter()
        .map(|f| match f.decode().unwrap() {
            ServerMessage::PlayerCorrection(c) => (c.reason, c.accepted_seq, c.pos[2]),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        reasons,
        [
            (RejectReason::OutOfBounds, 1, 0.1),
            (RejectReason::TooFast, 1, 0.1)
        ]
    );
    let seen = viewer.sync().await.unwrap();
    assert_eq!(moves(&seen), [1, 4]);
    assert!(named(&seen, "player:correction").is_empty());
}

#[tokio::test]
async fn bad_input_and_caps_are_dropped_counted_and_the_sender_stays() {
    let s = server(&[NEAR]).await;
    let mut sender = join(&s, "sender").await;
    let mut viewer = join(&s, "viewer").await;
    sender.send_raw(vec![0xc1]).await.unwrap(); // not msgpack
    sender.send_raw(vec![0xcd, 0x27, 0x0f, 0xc0]).await.unwrap(); // id 9999
                                                                  // player:move with x = 9000 m: [[900000, 0, 0], 0, 0]
    let far_x = vec![
        0x01, 0x93, 0x93, 0xce, 0x00, 0x0d, 0xbb, 0xa0, 0x00, 0x00, 0x00, 0x00,
    ];
    sender.send_raw(far_x).await.unwrap();
    sender.send_text("{\"x\": 1}").await.unwrap();
    let mut huge = vec![0x05]; // player:heartbeat, then 5000 bytes
    huge.resize(5001, 0xc0);
    sender.send_raw(huge).await.unwrap();
    let heartbeat = PlayerHeartbeat {
        t: 1,
        visible: true,
        fps: None,
    };
    let beat = tuplet::Dispatch::to_envelope(
        &village::dispatch::ClientMessage::from(heartbeat),
        tuplet::Encoding::Compact,
    )
    .unwrap();
    for _ in 0..120 {
        sender.feed_raw(beat.clone()).await.unwrap();
    }
    sender.flush().await.unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await; // refill the rate cap a little
    let stats = sender.stats().await.unwrap();
    let dropped = stats.dropped.unwrap();
    for key in [
        "(envelope) reserved_marker",
        "(unknown id) unknown_message",
        "player:move out_of_range",
        "(frame) text_frame",
        "(frame) too_large",
    ] {
        assert_eq!(dropped.get(key), Some(&1), "{key} in {dropped:?}");
    }
    let limited = dropped["(frame) rate_limited"];
    assert!(
        (30..=45).contains(&limited),
        "{limited} of 120 over a burst of 80"
    );
    // Still connected, still relayed.
    sender.send(step(1)).await.unwrap();
    sender.sync().await.unwrap();
    assert_eq!(moves(&viewer.sync().await.unwrap()), [1]);
}

#[tokio::test]
async fn diagnostics_answer_the_asker_alone() {
    let s = server(&[NEAR]).await;
    let mut asker = join(&s, "asker").await;
    let mut other = join(&s, "other").await;
    asker.send(step(1)).await.unwrap();
    asker.send(step(2)).await.unwrap();
    let stats = asker.stats().await.unwrap();
    assert_eq!(stats.moves, Some(2));
    assert!(stats.move_cost_p95_ms.unwrap() > 0.0);
    assert!(stats.tick_late_max_ms.is_some());
    asker.send(DiagBytesRequest { reset: true }).await.unwrap();
    let frames = asker.sync().await.unwrap();
    let bytes = named(&frames, "diag:bytes");
    let ServerMessage::DiagBytes(b) = bytes[0].decode().unwrap() else {
        panic!()
    };
    assert!(b.out["player:move"] > 0 && b.inbound["player:move"] > 0);
    let seen = other.sync().await.unwrap();
    assert!(named(&seen, "diag:pong").is_empty() && named(&seen, "diag:bytes").is_empty());
    let after = asker.stats().await.unwrap();
    assert_eq!(after.moves, Some(2), "counts are since the room opened");
    assert_eq!(after.move_cost_p95_ms, Some(0.0), "percentiles are reset");
}

#[tokio::test]
async fn entity_snapshots_arrive_every_tick_keyframe_first() {
    let s = server(&[]).await;
    let mut c = join(&s, "watcher").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let frames = c.sync().await.unwrap();
    let snaps: Vec<_> = named(&frames, "world:snapshot")
        .iter()
        .map(|f| c.apply_snapshot(f).unwrap())
        .collect();
    assert!(
        snaps.len() >= 7,
        "{} snapshots in 500 ms at 20 Hz",
        snaps.len()
    );
    assert!(snaps[0].keyframe && !snaps[0].entities.is_empty());
    assert!(snaps[1..].iter().all(|s| !s.keyframe));
    assert!(snaps.windows(2).all(|w| w[1].tick > w[0].tick));
}

/// Reads frames until the next `world:snapshot`.
async fn next_snapshot(c: &mut Client) -> Incoming {
    loop {
        let f = c
            .next_within(Duration::from_secs(5))
            .await
            .expect("a snapshot every tick");
        if f.name() == "world:snapshot" {
            return f;
        }
    }
}

/// The next `world:snapshot`, applied to the client's mirror.
async fn next_applied(c: &mut Client) -> Result<WorldSnapshot, tuplet::Error> {
    let f = next_snapshot(c).await;
    c.apply_snapshot(&f)
}

/// A keyframe payload is `[seq, nil, ...]`, a delta `[seq, mask, ...]`.
fn is_keyframe(f: &Incoming) -> bool {
    f.payload()[2] == 0xc0
}

/// The client's mirror holds exactly what the server's world has in view at that tick.
fn assert_mirrors_world(got: &WorldSnapshot, world: &mut World, at: [f32; 3], radius: f32) {
    world.step(got.tick);
    let want: Vec<&NearbyEntity> = world.in_view(at, radius).collect();
    assert!(!want.is_empty(), "tick {}: NPCs in view", got.tick);
    assert_eq!(got.entities.len(), want.len(), "tick {}", got.tick);
    for (g, w) in got.entities.iter().zip(want) {
        assert!(g.wire_eq(w), "tick {}: {g:?} != {w:?}", got.tick);
    }
}

#[tokio::test]
async fn delta_snapshot_mirror_equals_the_world_across_keyframes_and_resyncs() {
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        spawns: vec![[0.0, 0.0, 0.0], [30.0, 0.0, 0.0]],
        keyframe_every: 8,
        token_key: Some(KEY.to_vec()),
        ..Config::default()
    };
    let (radius, npcs) = (config.view_radius, config.npcs);
    let s = start(config).await.expect("server starts");
    let mut c = join(&s, "watcher").await;
    let mut old = join_as(
        &s.url("village"),
        &Identity {
            old_shape: true,
            ..player("old")
        },
    )
    .await;
    let mut world = World::new(0, npcs);
    let (mut since_key, mut keyframes, mut deltas) = (None, vec![], vec![]);
    for _ in 0..20 {
        let f = next_snapshot(&mut c).await;
        let got = c.apply_snapshot(&f).expect("applies in order");
        assert_mirrors_world(&got, &mut world, c.spawn, radius);
        assert_eq!(
            got.keyframe,
            is_keyframe(&f),
            "the field says which form came"
        );
        if got.keyframe {
            assert!(since_key.is_none_or(|n| n == 8), "cadence: {since_key:?}");
            keyframes.push(f.bytes.len());
            since_key = Some(1);
        } else {
            deltas.push(f.bytes.len());
            since_key = since_key.map(|n| n + 1);
        }
    }
    assert!(keyframes.len() >= 2 && deltas.len() >= 14);
    let mean = |v: &[usize]| v.iter().sum::<usize>() / v.len();
    assert!(
        mean(&deltas) * 2 < mean(&keyframes),
        "deltas {deltas:?}, keyframes {keyframes:?}"
    );

    // Asked for: a keyframe within two ticks, off the cadence.
    c.send(WorldKeyframeRequest { last_tick: 0 }).await.unwrap();
    let mut waited = 0;
    loop {
        let got = next_applied(&mut c).await.unwrap();
        assert_mirrors_world(&got, &mut world, c.spawn, radius);
        waited += 1;
        if got.keyframe {
            break;
        }
        assert!(waited < 4, "keyframe on request");
    }

    // A missed delta: the mirror refuses the next ones (no_baseline) until the keyframe it
    // asks for arrives, then is exact again.
    loop {
        let f = next_snapshot(&mut c).await;
        if !is_keyframe(&f) {
            break; // dropped, as a tab asleep would
        }
        c.apply_snapshot(&f).unwrap();
    }
    let err = next_applied(&mut c).await.unwrap_err();
    assert_eq!(err.code().as_str(), "no_baseline");
    c.send(WorldKeyframeRequest { last_tick: 0 }).await.unwrap();
    let got = loop {
        if let Ok(got) = next_applied(&mut c).await {
            break got;
        }
    };
    assert!(got.keyframe);
    assert_mirrors_world(&got, &mut world, c.spawn, radius);
    let got = next_applied(&mut c).await.unwrap();
    assert_mirrors_world(&got, &mut world, c.spawn, radius);

    // An old-shape client gets the whole value, named, every tick.
    let f = next_snapshot(&mut old).await;
    assert!(f.is_named());
    let got = old.apply_snapshot(&f).unwrap();
    assert_mirrors_world(&got, &mut world, old.spawn, radius);
}
