//! The minimal room over real WebSockets on loopback, driven by the reference server's
//! scripted client: hello and join, relay by interest tier, input playout and its ack,
//! the snapshot's keyframe and deltas, bad input dropped and counted, a full room.

use std::time::Duration;

use village::dispatch::ServerMessage;
use village::input::{InputBatch, InputFrame};
use village::player::PlayerMove;
use village::walk::Button;
use village_server::client::{Client, Identity};

/// A server on a free port; the URL of room `name`.
async fn room(name: &str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(room_minimal::serve(listener));
    format!("ws://{addr}/{name}")
}

async fn guest(url: &str, name: &str) -> Client {
    Client::join(url, &Identity::guest(name)).await.expect("joins")
}

fn step(p: [f32; 3], seq: u32) -> PlayerMove {
    PlayerMove { p, r: 0.0, t: u64::from(seq), seq: Some(seq), flags: None }
}

/// The relayed moves of `mover` among `frames`.
fn moves_of(frames: &[village_server::client::Incoming], mover: &str) -> usize {
    let relayed = |f: &village_server::client::Incoming| match f.decode() {
        Ok(ServerMessage::PlayerMoveRelayed(m)) => m.s == mover,
        _ => false,
    };
    frames.iter().filter(|f| relayed(f)).count()
}

#[tokio::test]
async fn moves_reach_near_viewers_every_time_and_far_ones_every_tenth() {
    let url = room("tiers").await;
    let mut mover = guest(&url, "mover").await;
    let mut near = guest(&url, "near").await;
    let mut far = guest(&url, "far").await;
    far.send(step([400.0, 0.0, 0.0], 1)).await.unwrap();
    far.sync().await.unwrap();
    near.sync().await.unwrap();
    for seq in 1..=30 {
        let x = mover.spawn[0] + seq as f32 * 0.1;
        mover.send(step([x, 0.0, mover.spawn[2]], seq)).await.unwrap();
    }
    mover.sync().await.unwrap();
    assert_eq!(moves_of(&near.sync().await.unwrap(), &mover.session), 30);
    // The first (it had no pose of the mover), then the 10th, 20th and 30th updates.
    assert_eq!(moves_of(&far.sync().await.unwrap(), &mover.session), 4);
}

#[tokio::test]
async fn input_frames_are_played_out_acked_and_relayed() {
    let url = room("inputs").await;
    let mut driver = guest(&url, "driver").await;
    let mut viewer = guest(&url, "viewer").await;
    let frame = InputFrame::pressed(&[Button::Forward]);
    // Frames 0..12, the second batch sent twice: applied once.
    for first in [0, 4, 4, 8] {
        let batch = InputBatch { first, frames: vec![frame.clone(); 4] };
        driver.send(batch).await.unwrap();
    }
    let (mut acked, mut body) = (Vec::new(), None);
    tokio::time::timeout(Duration::from_secs(10), async {
        while acked.last() != Some(&11) {
            let f = driver.next().await.expect("open");
            if let Ok(ServerMessage::InputAck(a)) = f.decode() {
                acked.push(a.applied);
                body = a.p;
            }
        }
    })
    .await
    .expect("every frame acknowledged within 10 s");
    // In order, at most three frames (one 20 Hz tick) apart: played out, not in bursts.
    assert!(acked.windows(2).all(|w| w[0] < w[1] && w[1] - w[0] <= 3), "{acked:?}");
    // The last ack carries the body after frame 11: 12 frames at 1.6 m/s along x.
    let acked_x = body.expect("the ack carries the body")[0] - driver.spawn[0];
    assert!((acked_x - 12.0 * 0.016 * 1.6).abs() < 0.01, "{acked_x}");
    let mut last_x = None;
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let f = viewer.next().await.expect("open");
            if let Ok(ServerMessage::PlayerMoveRelayed(m)) = f.decode() {
                if m.s == driver.session && m.seq == Some(11) {
                    break last_x = Some(m.p[0]);
                }
            }
        }
    })
    .await
    .expect("the driven pose relayed within 10 s");
    // 12 frames of 16 ms at 1.6 m/s along x (heading 0), to the centimetre.
    let walked = last_x.unwrap() - driver.spawn[0];
    assert!((walked - 12.0 * 0.016 * 1.6).abs() < 0.01, "{walked}");
}

#[tokio::test]
async fn the_snapshot_is_a_keyframe_then_deltas_of_the_villagers() {
    let url = room("snapshot").await;
    let mut c = guest(&url, "watcher").await;
    let mut seen = Vec::new();
    while seen.len() < 10 {
        let f = c.next_within(Duration::from_secs(5)).await.expect("a frame");
        if f.name() == "world:snapshot" {
            let bytes = f.payload().len();
            seen.push((c.apply_snapshot(&f).expect("applies"), bytes));
        }
    }
    assert!(seen[0].0.keyframe, "the first is a keyframe");
    // All twelve villagers, walking their circles around the square.
    assert_eq!(seen[9].0.entities.len(), 12);
    assert!(seen[1..].iter().all(|(s, _)| !s.keyframe));
    assert!(seen[9].1 < seen[0].1 / 2, "a delta is smaller: {seen:?}");
}

#[tokio::test]
async fn bad_input_is_dropped_counted_and_its_sender_stays() {
    let url = room("garbage").await;
    let mut c = guest(&url, "garbage").await;
    c.send_raw(vec![0xc1, 0x00]).await.unwrap(); // not msgpack
    c.send_raw(vec![0xcd, 0x27, 0x0f, 0xc0]).await.unwrap(); // no message has id 9999
                                                             // player:move [[900000, 0, 0], 0, 0]: x = 9000 m, outside the map.
    let out_of_range = [1, 0x93, 0x93, 0xce, 0, 0x0d, 0xbb, 0xa0, 0, 0, 0, 0];
    c.send_raw(out_of_range.to_vec()).await.unwrap();
    let stats = c.stats().await.expect("still connected");
    let dropped = stats.dropped.unwrap();
    let n = |k: &str| dropped.get(k).copied();
    assert_eq!(n("player:move out_of_range"), Some(1), "{dropped:?}");
    assert_eq!(n("(unknown) unknown_message"), Some(1), "{dropped:?}");
    assert_eq!(dropped.values().sum::<u32>(), 3, "{dropped:?}");
    // hello, join, and nothing else before this ping.
    assert_eq!(stats.accepted, Some(2));
}

#[tokio::test]
async fn a_first_frame_other_than_hello_is_closed_and_a_full_room_refused() {
    let url = room("full").await;
    let mut rude = Client::connect(&url, tuplet::Encoding::Compact).await.unwrap();
    rude.send(step([0.0; 3], 1)).await.unwrap();
    assert_eq!(rude.close_code(Duration::from_secs(5)).await, Some(1008));
    let mut players = Vec::new();
    for i in 0..40 {
        players.push(guest(&url, &format!("p{i}")).await);
    }
    let late = Client::join(&url, &Identity::guest("late")).await;
    let err = late.err().expect("refused").to_string();
    assert!(err.contains("RoomFull(40)"), "{err}");
}
