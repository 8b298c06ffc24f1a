//! The server-authoritative input path (`input:batch`, src/input_playout.rs) through real
//! WebSocket connections on loopback: the room steps the sender's body from its frames at
//! its tick, acknowledges the last frame applied to the sender, and relays the pose to a
//! nearby viewer; a repeated batch is applied once. Each ack carries the body the frames
//! left, which a client replaying the same frames through `village::walk::step` matches.

use std::time::Duration;

use village::dispatch::ServerMessage;
use village::input::{InputAck, InputBatch, InputFrame};
use village::walk::{self, Body, Button};
use village_server::client::{Client, Identity};
use village_server::token::Claims;
use village_server::{start, Config};

const KEY: &[u8] = b"input playout tests' token key";

fn player(name: &str, account: u64) -> Identity {
    Identity::signed(KEY, &Claims::player(account, name, 3600))
}

fn batch(first: u32) -> InputBatch {
    let f = InputFrame::pressed(&[Button::Forward]);
    InputBatch {
        first,
        frames: vec![f; 4],
    }
}

#[tokio::test]
async fn input_batches_are_played_out_acked_and_relayed() {
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        spawns: vec![[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]],
        token_key: Some(KEY.to_vec()),
        ..Config::default()
    };
    let server = start(config).await.expect("server starts");
    let url = server.url("village");
    let mut driver = Client::join(&url, &player("driver", 1))
        .await
        .expect("joins");
    let mut viewer = Client::join(&url, &player("viewer", 2))
        .await
        .expect("joins");
    // Frames 0..12, with the second batch sent twice.
    for first in [0, 4, 4, 8] {
        driver.send(batch(first)).await.unwrap();
    }
    let mut acked = Vec::new();
    let mut acks: Vec<InputAck> = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while acked.last() != Some(&11) {
            let f = driver.next().await.expect("open");
            if let Ok(ServerMessage::InputAck(a)) = f.decode() {
                acked.push(a.applied);
                acks.push(a);
            }
        }
    })
    .await
    .expect("every frame acknowledged within 10 s");
    assert!(
        acked.windows(2).all(|w| w[0] < w[1]),
        "acks in order: {acked:?}"
    );
    // At most three frames (one 20 Hz tick) between acks: played out, not applied in bursts.
    assert!(acked.windows(2).all(|w| w[1] - w[0] <= 3), "{acked:?}");
    // The client's own replay of frames 0..=applied from its spawn agrees with each ack's
    // body to the wire's quantization (half a centimetre, half a milliradian).
    for a in &acks {
        let mut me = Body::default();
        for _ in 0..=a.applied {
            walk::step(&mut me, &batch(0).frames[0]);
        }
        let (p, r) = (a.p.expect("ack carries p"), a.r.expect("ack carries r"));
        assert!(
            p.iter()
                .zip(me.pos)
                .all(|(s, c)| (s - c).abs() <= 0.005 + 1e-6),
            "{a:?}"
        );
        assert!((r - me.heading).abs() <= 0.0005 + 1e-6, "{a:?}");
    }
    let mut relayed = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while relayed.last().map(|r: &(u32, f32)| r.0) != Some(11) {
            let f = viewer.next().await.expect("open");
            if let Ok(ServerMessage::PlayerMoveRelayed(m)) = f.decode() {
                relayed.push((m.seq.unwrap(), m.p[0]));
            }
        }
    })
    .await
    .expect("the driven pose relayed to the viewer within 10 s");
    let (_, x) = *relayed.last().unwrap();
    // 12 frames of 16 ms at 1.6 m/s along x (heading 0), to the centimetre.
    assert!((x - 12.0 * 0.016 * 1.6).abs() < 0.01, "{relayed:?}");
}
