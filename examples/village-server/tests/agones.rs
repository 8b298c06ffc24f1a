//! The Agones lifecycle of `village-server --agones` against `dummy-agones`, a stand-in SDK
//! server from crates.io, on loopback (feature `agones-test`: `cargo test -p village-server
//! --features agones-test --test agones`). The stand-in runs in this process; its record of
//! the GameServer says which calls arrived, and its log (read through a tracing layer) the
//! health messages.
//!
//! dummy-agones 0.1.2 serves the `agones.dev.sdk.SDK` service only, not the alpha one: the
//! player-tracking calls (`SetPlayerCapacity`, `PlayerConnect`, `PlayerDisconnect`) get
//! `Unimplemented`, which the server reports once before keeping the count in the label
//! `players` alone. The test checks that report and the label.

use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dummy_agones::AgonesServer;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};
use village_server::client::{Client, Identity};

const KEY: &str = "agones test key";

/// Health messages the stand-in logged ("Got health message"), counted by a tracing layer.
static HEALTH: AtomicUsize = AtomicUsize::new(0);

struct CountHealth;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for CountHealth {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(bool);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                if f.name() == "message" && format!("{v:?}") == "Got health message" {
                    self.0 = true;
                }
            }
        }
        let mut m = Message(false);
        event.record(&mut m);
        if m.0 {
            HEALTH.fetch_add(1, Ordering::Relaxed);
        }
    }
}

fn count_health() {
    use tracing_subscriber::layer::SubscriberExt;
    let _ =
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(CountHealth));
}

/// The GameServer's state as the stand-in holds it.
fn state(sdk: &AgonesServer) -> String {
    sdk.game_server()
        .status
        .map(|s| s.state)
        .unwrap_or_default()
}

/// The label the server keeps its player count in.
fn players(sdk: &AgonesServer) -> Option<String> {
    sdk.game_server()
        .object_meta
        .and_then(|m| m.labels.get("players").cloned())
}

/// Waits up to 10 s for `what` to hold.
async fn until(what: &str, mut f: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !f() {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "waited 10 s for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The server binary with `--agones`, its SDK server at `port`; its room URL.
async fn spawn(port: u16) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_village-server"))
        .args(["--addr", "127.0.0.1:0", "--agones", "--drain-grace", "5"])
        .env("AGONES_SDK_GRPC_PORT", port.to_string())
        .env("VILLAGE_TOKEN_KEY", KEY)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next_line().await.unwrap().unwrap();
    let url = line.split("listening on ").nth(1).unwrap().to_string() + "village";
    (child, url)
}

/// Everything the server wrote to stderr, once it has exited.
async fn stderr_of(child: &mut Child) -> String {
    let mut err = String::new();
    let mut pipe = child.stderr.take().unwrap();
    read_all(&mut pipe, &mut err).await;
    err
}

async fn read_all(r: &mut (impl AsyncRead + Unpin), out: &mut String) {
    use tokio::io::AsyncReadExt;
    let _ = r.read_to_string(out).await;
}

/// The server's exit: its drain grace is 5 s; a loaded CI machine (load 8 on 2 cores) took
/// over 10 s, so the bound is 30 s.
async fn exits(child: &mut Child) -> std::process::ExitStatus {
    tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("exits within 30 s")
        .unwrap()
}

async fn player(url: &str, account: u64) -> Client {
    let who = Identity::player(KEY.as_bytes(), account, &format!("p{account}"));
    tokio::time::timeout(Duration::from_secs(10), Client::join(url, &who))
        .await
        .expect("joined within 10 s")
        .expect("joins")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ready_health_players_allocated_and_shutdown_after_the_session() {
    count_health();
    let sdk = AgonesServer::default();
    let port = sdk.start_with_port(0).await.unwrap().port();
    let (mut child, url) = spawn(port).await;
    until("Ready", || state(&sdk) == "Ready").await;
    until("players 0", || players(&sdk).as_deref() == Some("0")).await;
    // Health: one at once, then one every 2 s while the rooms tick.
    let h0 = HEALTH.load(Ordering::Relaxed);
    let mut a = player(&url, 1).await;
    let mut b = player(&url, 2).await;
    let mut c = player(&url, 3).await;
    until("players 3", || players(&sdk).as_deref() == Some("3")).await;
    until("two more health messages", || {
        HEALTH.load(Ordering::Relaxed) >= h0 + 2
    })
    .await;
    a.sync().await.unwrap();
    b.sync().await.unwrap();
    c.sync().await.unwrap();
    // Players leave on purpose (`session:leave`): a plain close is a drop, whose session
    // waits out the grace window before it counts as gone.
    a.leave().await;
    until("players 2", || players(&sdk).as_deref() == Some("2")).await;
    // Ready, not allocated: players leaving ends nothing.
    b.leave().await;
    until("players 1", || players(&sdk).as_deref() == Some("1")).await;
    // The allocator marks it Allocated; once the last player leaves the session is over:
    // drained, Shutdown, exit.
    let mut gs = sdk.game_server();
    gs.status.as_mut().unwrap().state = "Allocated".into();
    sdk.set_game_server(gs);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        child.try_wait().unwrap().is_none(),
        "still serving its player"
    );
    c.leave().await;
    let status = exits(&mut child).await;
    assert!(status.success(), "{status}");
    assert_eq!(state(&sdk), "Shutdown");
    assert_eq!(players(&sdk).as_deref(), Some("0"));
    let err = stderr_of(&mut child).await;
    assert!(err.contains("agones: allocated"), "{err}");
    assert!(err.contains("the allocated session is over"), "{err}");
    // The stand-in has no alpha service: reported once, with gRPC's code.
    assert_eq!(err.matches("player tracking refused").count(), 1, "{err}");
    assert!(err.contains("Unimplemented"), "{err}");

    // SIGTERM: drained (the player gets the restart notice and leaves), then Shutdown.
    let sdk = AgonesServer::default();
    let port = sdk.start_with_port(0).await.unwrap().port();
    let (mut child, url) = spawn(port).await;
    until("Ready", || state(&sdk) == "Ready").await;
    let mut p = player(&url, 4).await;
    until("players 1", || players(&sdk).as_deref() == Some("1")).await;
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    loop {
        let f = p
            .next_within(Duration::from_secs(5))
            .await
            .expect("a restart notice");
        if f.name() == "notice:show" {
            break;
        }
    }
    assert_eq!(state(&sdk), "Ready", "no Shutdown before the drain");
    p.close().await;
    let status = exits(&mut child).await;
    assert!(status.success(), "{status}");
    assert_eq!(state(&sdk), "Shutdown");
}
