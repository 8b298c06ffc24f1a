//! village-attack: one hostile client's attack on a running `village-server`, on loopback,
//! bounded in count and time, for `scripts/bench hostile` (which runs it beside a normal
//! 40-bot room and measures the server). At the end an admin reads the attack room's drop
//! counts and prints one `ATTACK` line of `key=value` pairs.
//!
//! ```sh
//! village-attack --url ws://127.0.0.1:7878 --room run-atk --attack floods --secs 15 --count 100000 [--from 127.0.0.2]
//! village-attack --room run-atk --target run-0 --attack idle   # idle sockets in the bots' room
//! village-attack --room village --attack probe --secs 15          # new players joining
//! ```
//!
//! The attacks are listed by `village-attack --help` (`ATTACKS` below); `--count` caps
//! what each makes and `--secs` ends it. `--attack probe` is not an attack: a new player
//! joining a room (the bench runs one beside every attack, from the players' address).

mod args;
mod batches;
mod crowds;
mod ctx;
mod prehello;
mod probe;
mod sessions;
mod sockets;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use village::player::PlayerHeartbeat;
use village_server::client::{Client, Identity};
use village_server::token::Claims;

use args::{sources, Args};
use ctx::{Ctx, Tally};

fn main() {
    let a = Args::parse();
    if let Some(ip) = a.from {
        // Every socket of this process (the admin's, the clients') from the attacker's
        // first address.
        village_server::client::bind_source(std::net::IpAddr::V4(ip));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let done = if a.attack == "probe" {
        rt.block_on(probe::run(a))
    } else {
        rt.block_on(run(a))
    };
    if let Err(e) = done {
        eprintln!("village-attack: {e}");
        std::process::exit(1);
    }
}

async fn run(a: Args) -> Result<(), String> {
    let url = a.url.trim_end_matches('/').to_string();
    let host = url.strip_prefix("ws://").ok_or("a ws:// URL")?.to_string();
    let ctx = Arc::new(Ctx {
        host,
        room: a.room.clone(),
        target: a.target.clone().unwrap_or_else(|| a.room.clone()),
        url: format!("{url}/{}", a.target.as_deref().unwrap_or(&a.room)),
        key: a.key.clone().into_bytes(),
        until: Instant::now() + Duration::from_secs_f64(a.secs),
        count: a.count,
        hold: a.hold,
        conns: a.conns,
        kind: a.attack.clone(),
        sources: sources(&a),
        via: a.via,
        tally: Tally::default(),
        extra: std::sync::Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
    });
    // The admin is in the room before the attack (so a room flood cannot keep it out) and
    // reads what it gets every 200 ms, so it is never a stalled reader itself.
    let mut boss = {
        let mut c = Claims::player(990_000 + u64::from(std::process::id()), "attack-admin", 600);
        c.admin = true;
        Client::join(
            &format!("{url}/{}", a.room),
            &Identity::signed(&ctx.key, &c),
        )
        .await
        .map_err(|e| format!("admin join: {e}"))?
    };
    let t0 = Instant::now();
    let attack = tokio::spawn(attack(ctx.clone(), a.attack.clone()));
    while !attack.is_finished() {
        let _ = tokio::time::timeout(Duration::from_millis(200), async {
            while boss.next().await.is_some() {}
        })
        .await;
        let _ = boss
            .send(PlayerHeartbeat {
                t: 0,
                visible: true,
                fps: None,
            })
            .await;
    }
    let secs = t0.elapsed().as_secs_f64();
    // What the attack's tasks still hold is closed with them.
    let _ = attack.await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stats = boss.stats().await.map_err(|e| format!("stats: {e}"))?;
    let dropped = stats.dropped.unwrap_or_default();
    let counters: Vec<String> = dropped
        .iter()
        .map(|(k, v)| format!("{}:{v}", k.replace(' ', "+")))
        .collect();
    let t = &ctx.tally;
    let extra: String = ctx
        .extra
        .lock()
        .expect("extra")
        .iter()
        .map(|(k, v)| format!(" {k}={v}"))
        .collect();
    println!(
        "ATTACK attack={} secs={secs:.1} conns={} sent={} closed={} stats_ok=1 dropped_keys={} counters={}{extra}",
        a.attack,
        t.conns.load(Ordering::Relaxed),
        t.sent.load(Ordering::Relaxed),
        t.closed.load(Ordering::Relaxed),
        dropped.len(),
        if counters.is_empty() {
            "-".to_string()
        } else {
            counters.join(",")
        }
    );
    boss.close().await;
    Ok(())
}

async fn attack(ctx: Arc<Ctx>, kind: String) {
    type Spawn = fn(Arc<Ctx>, usize) -> tokio::task::JoinHandle<()>;
    let (tasks, f): (usize, Spawn) = match kind.as_str() {
        "rooms" => (16, |c, i| tokio::spawn(sockets::rooms(c, i))),
        "idle" => (ctx.conns.unwrap_or(400), |c, i| {
            tokio::spawn(sockets::idle(c, i))
        }),
        "handshakes" => (ctx.conns.unwrap_or(400), |c, i| {
            tokio::spawn(sockets::handshake(c, i))
        }),
        "floods" => (4, |c, _| tokio::spawn(sockets::flood(c))),
        "stalled" => (20, |c, i| tokio::spawn(sockets::stalled(c, i))),
        "tokens" => (8, |c, i| tokio::spawn(sockets::tokens(c, i))),
        "counters" => (8, |c, i| tokio::spawn(sockets::counters(c, i))),
        "drip" => (1, |c, _| tokio::spawn(prehello::drip(c))),
        "proxy-heads" => (1, |c, _| tokio::spawn(prehello::proxy_heads(c))),
        "guest-flood" => (1, |c, _| tokio::spawn(crowds::guest_flood(c))),
        "ghosts" => (1, |c, _| tokio::spawn(crowds::ghosts(c))),
        "guests" => (1, |c, _| tokio::spawn(crowds::guests(c))),
        "squat" => (1, |c, _| tokio::spawn(crowds::squat(c))),
        "deflate" | "crowd" => (1, |c, _| tokio::spawn(crowds::deflate(c))),
        "resume" => (6, |c, i| tokio::spawn(sessions::resume(c, i))),
        "reload" => (1, |c, _| tokio::spawn(sessions::reload(c))),
        _ => (1, |c, _| tokio::spawn(batches::run(c))),
    };
    let handles: Vec<_> = (0..tasks).map(|i| f(ctx.clone(), i)).collect();
    for h in handles {
        let _ = h.await;
    }
    ctx.stop.store(true, Ordering::Relaxed);
}
