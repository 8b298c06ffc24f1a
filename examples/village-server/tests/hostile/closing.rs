//! Closing: close handshakes both ways, the drain and SIGTERM.

use std::time::Duration;

use tuplet::Encoding;
use village_server::client::{Client, Identity};
use village_server::counters::Counter;

use crate::support::*;

#[tokio::test]
async fn closes_are_handshakes_both_ways() {
    let s = server(|c| c.idle_timeout = Duration::from_millis(500)).await;
    let c = join(&s, &Identity::guest("polite")).await;
    assert!(c.close_answered().await, "the server answers a close frame");
    let mut idle = join(&s, &Identity::guest("idle")).await;
    assert_eq!(idle.close_code(Duration::from_secs(3)).await, Some(1001));
    assert_eq!(s.counter(Counter::IdleTimeout), 1);
}

#[tokio::test]
async fn drain_tells_players_refuses_newcomers_and_ends_when_they_leave() {
    let s = server(|_| {}).await;
    let mut a = join(&s, &Identity::guest("a")).await;
    let mut b = join(&s, &Identity::guest("b")).await;
    let players = async {
        restart_notice(&mut a).await;
        restart_notice(&mut b).await;
        assert!(Client::connect(&s.url("village"), Encoding::Compact)
            .await
            .is_err());
        a.close().await;
        b.close().await;
    };
    let t0 = std::time::Instant::now();
    let (left, ()) = tokio::join!(s.drain(Duration::from_secs(20)), players);
    assert_eq!(left, 0);
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "ended when they left"
    );

    // One who stays: the drain ends at the grace.
    let s = server(|_| {}).await;
    let mut stays = join(&s, &Identity::guest("stays")).await;
    let t0 = std::time::Instant::now();
    let (left, ()) = tokio::join!(
        s.drain(Duration::from_millis(800)),
        restart_notice(&mut stays)
    );
    assert_eq!(left, 1);
    assert!(t0.elapsed() >= Duration::from_millis(800));
}

/// The binary drains on SIGTERM and exits.
#[tokio::test]
async fn sigterm_drains_and_exits() {
    use std::process::Stdio;
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_village-server"))
        .args(["--addr", "127.0.0.1:0", "--drain-grace", "10"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next_line().await.unwrap().unwrap();
    let url = line.split("listening on ").nth(1).unwrap().to_string() + "village";
    let mut c = Client::join(&url, &Identity::guest("p")).await.unwrap();
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    restart_notice(&mut c).await;
    c.close().await;
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait())
        .await
        .expect("exits once the player left")
        .unwrap();
    assert!(status.success());
}
