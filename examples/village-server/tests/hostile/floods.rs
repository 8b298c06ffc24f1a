//! Floods: every frame kind stopped at the connection, reads capped at ten times the rate,
//! and a peer pinging through the close let go.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::player::PlayerHeartbeat;
use village_server::client::{Client, Identity};
use village_server::counters::Counter;

use crate::support::*;

#[tokio::test]
async fn floods_of_every_frame_kind_stop_at_the_connection_and_the_flooder_is_closed() {
    let s = server(|c| c.flood_close_s = 2).await;
    let mut flooder = join(&s, &Identity::guest("flood")).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    let accepted_before = boss.stats().await.unwrap().accepted.unwrap();
    let beat = Dispatch::to_envelope(
        &village::dispatch::ClientMessage::from(PlayerHeartbeat {
            t: 1,
            visible: true,
            fps: None,
        }),
        Encoding::Compact,
    )
    .unwrap();
    let mut sent = 0u32;
    let until = tokio::time::Instant::now() + Duration::from_secs(4);
    let mut closed = false;
    while tokio::time::Instant::now() < until {
        let ok = match sent % 3 {
            0 => flooder.feed_raw(beat.clone()).await.is_ok(),
            1 => flooder.send_text("x").await.is_ok(),
            _ => flooder.send_ping().await.is_ok(),
        } && flooder.flush().await.is_ok();
        if !ok {
            closed = true;
            break;
        }
        sent += 1;
        if sent.is_multiple_of(300) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let code = flooder.close_code(Duration::from_secs(3)).await;
    assert!(
        closed || code == Some(1008),
        "closed: {closed}, code {code:?}"
    );
    assert_eq!(s.counter(Counter::Flooding), 1);
    let stats = boss.stats().await.unwrap();
    let d = stats.dropped.unwrap();
    let limited = d["(frame) rate_limited"];
    assert!(limited > 100, "{limited} of {sent} rate-limited");
    // What reached the room: at most the burst plus the rate over the flood (plus the
    // boss's own pings), not the flood.
    let reached = stats.accepted.unwrap() - accepted_before;
    assert!(
        reached < 80 + 40 * 5 + 10,
        "{reached} of {sent} frames reached the room"
    );
    neighbours_still_served(&s, 1).await;
}

/// A flood past ten times the rate cap is not read: the connection stops reading and the
/// sender blocks, so what a flood costs the server is bounded by the cap, not by how fast
/// the sender writes.
#[tokio::test]
async fn a_flood_is_read_at_ten_times_the_rate_at_most() {
    let s = server(|_| {}).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    flood_is_capped(&mut boss, raw_guest(&s).await).await;
    neighbours_still_served(&s, 6).await;
    // Before its hello too (the upgrade alone, then the flood), on a server of its own: the
    // first flooder's connection is still reading what the kernel holds for it.
    let s = server(|_| {}).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    flood_is_capped(&mut boss, raw_upgrade(&s).await).await;
}

/// Floods text frames from `raw` for up to 1.5 s: the server reads at most what the read
/// cap lets through (the room's frame drops, read by `boss` before and after).
async fn flood_is_capped(boss: &mut Client, mut raw: TcpStream) {
    let before = dropped(boss).await;
    let count = |d: &std::collections::BTreeMap<String, u32>| {
        d.get("(frame) rate_limited").copied().unwrap_or(0)
            + d.get("(frame) text_frame").copied().unwrap_or(0)
    };
    let t0 = tokio::time::Instant::now();
    let frames: Vec<u8> = (0..1000).flat_map(|_| raw_frame(0x1, b"x")).collect();
    let mut written = 0u32;
    while t0.elapsed() < Duration::from_millis(1500) {
        match tokio::time::timeout(Duration::from_millis(200), raw.write_all(&frames)).await {
            Ok(Ok(())) => written += 1000,
            // Blocked: the server is not reading (the kernel's buffers are full).
            _ => break,
        }
    }
    let d = dropped(boss).await;
    let secs = t0.elapsed().as_secs_f64();
    let read = count(&d) - count(&before);
    // The read bucket: 800 at once, 400 a second (10 times the default 80 and 40).
    let most = 800.0 + 400.0 * secs + 50.0;
    assert!(f64::from(read) <= most, "{read} frames read in {secs:.2} s");
    assert!(written > 4 * read, "{written} written, {read} read");
}

#[tokio::test]
async fn a_peer_pinging_through_the_close_is_let_go_at_once() {
    // Closed at its first frame over the rate: the 81st ping.
    let s = server(|c| c.flood_close_s = 1).await;
    let (mut r, mut w) = raw_guest(&s).await.into_split();
    let t0 = tokio::time::Instant::now();
    // It reads everything (pongs, the close frame) until the server lets it go.
    let reader = tokio::spawn(async move {
        let mut b = vec![0u8; 64 * 1024];
        while matches!(r.read(&mut b).await, Ok(n) if n > 0) {}
        t0.elapsed()
    });
    // And pings flat out, through the close, for up to 3 s.
    let pings: Vec<u8> = (0..256).flat_map(|_| raw_frame(0x9, b"ping")).collect();
    while t0.elapsed() < Duration::from_secs(3) && !reader.is_finished() {
        if w.write_all(&pings).await.is_err() {
            break;
        }
    }
    let ended = reader.await.unwrap();
    assert_eq!(s.counter(Counter::Flooding), 1);
    // Read for a second it would have been (each ping a queued pong); now the server reads
    // 64 frames of the close and drops the connection.
    assert!(
        ended < Duration::from_millis(500),
        "let go {ended:?} after the flood began"
    );
    drop(w);
    neighbours_still_served(&s, 4).await;
}
