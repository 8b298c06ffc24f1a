//! The reload soak: signed-in bots walking and reloading at random (a resume inside the
//! grace window, a join before the old tab's close, a leave and a fresh join) against a
//! server saving to SQLite, then a restart on the same file. Every rejoin and every
//! player after the restart must be exactly where it last was; every ended session must
//! have been saved.
//!
//! The long run is a bench row (`scripts/bench reload-soak`: 200 bots, 60 s,
//! `SOAK_BOTS`/`SOAK_SECS`), outside the test command; `cargo test` runs a short one.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use village::player::PlayerMove;
use village_server::client::{Client, Identity};
use village_server::counters::Counter;
use village_server::{start, Config, Server};

const KEY: &[u8] = b"soak token key";
const ROOM: usize = 40;

/// What a soak saw.
#[derive(Debug, Default)]
struct Soak {
    reloads: usize,
    lost: usize,
    after_restart_lost: usize,
    ended: u64,
    saved: u64,
    retried: u64,
    store_lost: u64,
}

async fn server(db: &std::path::Path) -> Server {
    start(Config {
        addr: ([127, 0, 0, 1], 0).into(),
        token_key: Some(KEY.to_vec()),
        room_prefixes: vec!["soak".into()],
        max_before_hello_per_ip: 256,
        store: Some(db.to_path_buf()),
        spawns: vec![[0.0; 3]],
        ..Config::default()
    })
    .await
    .expect("server starts")
}

fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

async fn join(url: &str, who: &Identity) -> Client {
    for _ in 0..20 {
        match tokio::time::timeout(Duration::from_secs(10), Client::join(url, who)).await {
            Ok(Ok(c)) => return c,
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("{} could not join", who.name);
}

/// Walks from `at` by small steps (within the speed limit), returns where it ends.
async fn walk(c: &mut Client, mut at: [f32; 3], next: &mut impl FnMut() -> u64) -> [f32; 3] {
    for _ in 0..(1 + next() % 4) {
        at = [
            (at[0] + ((next() % 5) as f32 - 2.0) * 0.4).clamp(-100.0, 100.0),
            0.0,
            (at[2] + ((next() % 5) as f32 - 2.0) * 0.4).clamp(-100.0, 100.0),
        ];
        c.send(PlayerMove {
            p: at,
            r: 0.0,
            t: 0,
            seq: None,
            flags: None,
        })
        .await
        .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A move the server refused (too fast) is answered with where it has the bot: that is
    // where the bot is.
    for f in c.sync().await.unwrap() {
        if let Ok(village::dispatch::ServerMessage::PlayerCorrection(k)) = f.decode() {
            at = k.pos;
        }
    }
    at
}

async fn soak(bots: u64, secs: u64, db: PathBuf) -> Soak {
    let s = server(&db).await;
    let until = Instant::now() + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for bot in 0..bots {
        let url = s.url(&format!("soak{}", bot as usize / ROOM));
        tasks.push(tokio::spawn(async move {
            let who = Identity::player(KEY, 1000 + bot, &format!("bot{bot}"));
            let mut next = rng(bot + 1);
            let mut c = join(&url, &who).await;
            let mut at = c.spawn;
            let (mut reloads, mut lost) = (0, 0);
            while Instant::now() < until {
                at = walk(&mut c, at, &mut next).await;
                reloads += 1;
                c = match next() % 3 {
                    0 => {
                        let (s, t) = (c.session.clone(), c.resume_token.clone().unwrap());
                        c.drop_connection();
                        match Client::resume(&url, &s, &t).await {
                            Ok(back) => back,
                            Err(_) => {
                                let fresh = join(&url, &who).await;
                                lost += usize::from(!same(fresh.spawn, at));
                                fresh
                            }
                        }
                    }
                    1 => {
                        let fresh = join(&url, &who).await;
                        lost += usize::from(!same(fresh.spawn, at));
                        drop(c);
                        fresh
                    }
                    _ => {
                        c.leave().await;
                        let fresh = join(&url, &who).await;
                        lost += usize::from(!same(fresh.spawn, at));
                        fresh
                    }
                };
            }
            c.leave().await;
            (who, at, reloads, lost)
        }));
    }
    let mut out = Soak::default();
    let mut last = Vec::new();
    for t in tasks {
        let (who, at, reloads, lost) = t.await.unwrap();
        out.reloads += reloads;
        out.lost += lost;
        last.push((who, at));
    }
    while s.players() > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        s.flush_store(Duration::from_secs(10)).await,
        "store flushed"
    );
    out.ended = s.counter(Counter::SessionsEnded);
    out.saved = s.counter(Counter::SessionsSaved);
    out.retried = s.counter(Counter::StoreRetried);
    out.store_lost = s.counter(Counter::StoreLost);
    s.drain(Duration::from_secs(2)).await;
    drop(s);
    // A restart on the same file: everyone where they left.
    let again = server(&db).await;
    for (i, (who, at)) in last.iter().enumerate() {
        let url = again.url(&format!("soak{}", i / ROOM));
        let c = join(&url, who).await;
        out.after_restart_lost += usize::from(!same(c.spawn, *at));
        c.leave().await;
    }
    out
}

/// The same place on the wire: positions travel in centimetres (`quant = "cm"`), so a
/// place is kept when it is within half a centimetre; a lost one is a step (40 cm) or more
/// away.
fn same(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() <= 0.006)
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("village-soak-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("players.db")
}

fn check(s: &Soak) {
    assert_eq!(s.lost, 0, "positions lost on rejoin: {s:?}");
    assert_eq!(
        s.after_restart_lost, 0,
        "positions lost across the restart: {s:?}"
    );
    assert_eq!(s.saved, s.ended, "skipped saves: {s:?}");
    assert_eq!(s.store_lost, 0, "{s:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_reload_soak_loses_nothing() {
    let s = soak(20, 3, temp_db("short")).await;
    assert!(s.reloads >= 20, "{s:?}");
    check(&s);
}

/// The bench row: `SOAK_BOTS` (200) bots for `SOAK_SECS` (60) s; prints the table row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a bench: scripts/bench reload-soak"]
async fn reload_soak() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (bots, secs) = (env("SOAK_BOTS", 200), env("SOAK_SECS", 60));
    let t0 = Instant::now();
    let s = soak(bots, secs, temp_db("bench")).await;
    println!("| bots | seconds | reloads | positions lost | lost after restart | sessions ended | saved | skipped saves | store retries |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {bots} | {:.0} | {} | {} | {} | {} | {} | {} | {} |",
        t0.elapsed().as_secs_f64(),
        s.reloads,
        s.lost,
        s.after_restart_lost,
        s.ended,
        s.saved,
        s.ended - s.saved,
        s.retried
    );
    check(&s);
}
