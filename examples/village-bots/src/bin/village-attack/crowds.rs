//! Attacks by numbers of well-formed players: guests filling a room, guests holding a room
//! each (a few, or a thousand from two addresses), guests that join a room each and drop,
//! and a thousand clients that ask for permessage-deflate.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use village::player::{PlayerHeartbeat, PlayerJoin};
use village::session::SessionLeave;
use village_server::client::{Client, Identity};
use village_server::token::{self, Claims};

use crate::ctx::{envelope, frame, hello, upgrade_nth, Ctx, Tally};

/// How often a held client heartbeats (a real client: 2 Hz; every 2 s is within the idle
/// timeout many times over).
const BEAT: Duration = Duration::from_secs(2);

/// Keeps `c` in its room until the attack ends: reads what it is sent, heartbeats. True
/// when the server closed it first.
async fn hold(c: &mut Client, ctx: &Ctx) -> bool {
    let mut beat = Instant::now() + BEAT;
    while Instant::now() < ctx.until {
        let wait = beat
            .min(ctx.until)
            .saturating_duration_since(Instant::now());
        match tokio::time::timeout(wait, c.next()).await {
            Ok(Some(_)) => {}
            Ok(None) => return true,
            Err(_) if Instant::now() >= beat => {
                beat += BEAT;
                let hb = PlayerHeartbeat {
                    t: 0,
                    visible: true,
                    fps: None,
                };
                if c.send(hb).await.is_err() {
                    return true;
                }
                Tally::add(&ctx.tally.sent, 1);
            }
            Err(_) => {}
        }
    }
    false
}

/// Guests joined now, and the most at once.
#[derive(Default)]
struct Gauge {
    now: AtomicU64,
    max: AtomicU64,
}

impl Gauge {
    fn up(&self) {
        let n = self.now.fetch_add(1, Ordering::Relaxed) + 1;
        self.max.fetch_max(n, Ordering::Relaxed);
    }
    fn down(&self) {
        self.now.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Joins as guest `name` in `url` (from `from`, else the process's address) and holds
/// until the end, again after a refusal (1 s later) or a close.
async fn guest(ctx: Arc<Ctx>, url: String, name: String, gauge: Arc<Gauge>, from: Option<IpAddr>) {
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        Tally::add(&ctx.tally.sent, 1);
        let who = Identity::guest(&name);
        let joined = match from {
            Some(ip) => Client::join_from(&url, &who, ip).await,
            None => Client::join(&url, &who).await,
        };
        match joined {
            Ok(mut c) => {
                gauge.up();
                let closed = hold(&mut c, &ctx).await;
                gauge.down();
                if !closed {
                    c.leave().await;
                    return;
                }
                Tally::add(&ctx.tally.closed, 1);
            }
            Err(_) => {
                Tally::add(&ctx.tally.closed, 1);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// `guests`: `--conns` (40) guests join the target room (a room of 40) and hold it,
/// retrying every second when refused. Reports the most in the room at once (`guests_in`).
pub async fn guests(ctx: Arc<Ctx>) {
    let gauge = Arc::new(Gauge::default());
    let n = ctx.conns.unwrap_or(40);
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let name = format!("Guest {i}");
            tokio::spawn(guest(
                ctx.clone(),
                ctx.url.clone(),
                name,
                gauge.clone(),
                None,
            ))
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("guests_in", gauge.max.load(Ordering::Relaxed));
}

/// `squat`: `--conns` (80) guests, each joining a room of its own (`ROOM-sN`, past the
/// server's `max_rooms`) and holding it. Reports the most rooms held at once.
pub async fn squat(ctx: Arc<Ctx>) {
    let gauge = Arc::new(Gauge::default());
    let n = ctx.conns.unwrap_or(80);
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let url = ctx.room_url(&format!("{}-s{i}", ctx.room));
            tokio::spawn(guest(
                ctx.clone(),
                url,
                format!("Squat {i}"),
                gauge.clone(),
                None,
            ))
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("rooms_held", gauge.max.load(Ordering::Relaxed));
}

/// `guest-flood`: `--conns` (1,000) guests spread over `--spread` addresses, each joining
/// a room of its own (`ROOM-gN`) and holding it, retrying every second when refused,
/// joins started 2 ms apart. Reports the most guests in at once (`guests_in`).
pub async fn guest_flood(ctx: Arc<Ctx>) {
    let gauge = Arc::new(Gauge::default());
    let n = ctx.conns.unwrap_or(1000);
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let url = ctx.room_url(&format!("{}-g{i}", ctx.room));
            let from = ctx.sources.get(i % ctx.sources.len().max(1)).copied();
            let (ctx, gauge) = (ctx.clone(), gauge.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(2 * i as u64)).await;
                guest(ctx, url, format!("Flood {i}"), gauge, from).await;
            })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("guests_in", gauge.max.load(Ordering::Relaxed));
}

/// How often a ghost comes back to its room.
const GHOST_EVERY: Duration = Duration::from_secs(2);

/// `ghosts`: `--conns` (64) guests, each joining a room of its own (`ROOM-hN`) and
/// dropping its socket at once, without `session:leave` (its session waits in its grace
/// window), again every 2 s: rooms kept by nobody. Reports the joins that got in
/// (`ghost_joins`).
pub async fn ghosts(ctx: Arc<Ctx>) {
    let n = ctx.conns.unwrap_or(64);
    let joins = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let url = ctx.room_url(&format!("{}-h{i}", ctx.room));
            let (ctx, joins) = (ctx.clone(), joins.clone());
            tokio::spawn(async move {
                while ctx.going() {
                    Tally::add(&ctx.tally.conns, 1);
                    Tally::add(&ctx.tally.sent, 1);
                    match Client::join(&url, &Identity::guest(&format!("Ghost {i}"))).await {
                        Ok(c) => {
                            joins.fetch_add(1, Ordering::Relaxed);
                            c.drop_connection();
                        }
                        Err(_) => Tally::add(&ctx.tally.closed, 1),
                    }
                    tokio::time::sleep(GHOST_EVERY).await;
                }
            })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("ghost_joins", joins.load(Ordering::Relaxed));
}

/// Players per room of the `deflate` attack (a full room).
const PER_ROOM: usize = 40;

/// `deflate`: `--conns` (1,000) signed-in players over raw sockets spread over
/// `--spread` addresses, `PER_ROOM` to a room (`ROOM-dN`), each offering
/// permessage-deflate as a browser does, joining (hello and `player:join`), then reading
/// everything and heartbeating until the attack ends, when each says `session:leave` and
/// closes. Joins start 3 ms apart (inside the server's budget before hello). Reports how
/// many were agreed compression (`deflate_agreed`), how many were in at once
/// (`players_in`) and how many the server closed early (`closed`).
pub async fn deflate(ctx: Arc<Ctx>) {
    let gauge = Arc::new(Gauge::default());
    let agreed = Arc::new(AtomicU64::new(0));
    let n = ctx.conns.unwrap_or(1000);
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (ctx, gauge, agreed) = (ctx.clone(), gauge.clone(), agreed.clone());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(3 * i as u64)).await;
                deflate_one(&ctx, i, &gauge, &agreed).await;
            })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("deflate_agreed", agreed.load(Ordering::Relaxed));
    ctx.report("players_in", gauge.max.load(Ordering::Relaxed));
}

async fn deflate_one(ctx: &Ctx, i: usize, gauge: &Gauge, agreed: &AtomicU64) {
    let room = format!("{}-d{}", ctx.room, i / PER_ROOM);
    // `crowd`: the same players, not offering it (what deflate itself costs is the difference).
    let offer = match ctx.kind.as_str() {
        "crowd" => "",
        _ => "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n",
    };
    Tally::add(&ctx.tally.sent, 1);
    let Some((s, head)) = upgrade_nth(ctx, &room, i, offer).await else {
        Tally::add(&ctx.tally.closed, 1);
        ctx.count_up("no_upgrade");
        return;
    };
    if !head.contains(" 101 ") {
        Tally::add(&ctx.tally.closed, 1);
        ctx.count_up("refused_upgrade");
        return;
    }
    if head.to_ascii_lowercase().contains("permessage-deflate") {
        agreed.fetch_add(1, Ordering::Relaxed);
    }
    let account = 600_000 + i as u64;
    let claims = Claims::player(account, &format!("Deflate {i}"), 600);
    let join = envelope(PlayerJoin {
        name: String::new(),
        colour: 0x3366cc,
        outfit: None,
    });
    let (mut r, mut w) = s.into_split();
    let mut first = frame(true, 0x2, &hello(Some(token::mint(&ctx.key, &claims))));
    first.extend(frame(true, 0x2, &join));
    if w.write_all(&first).await.is_err() {
        Tally::add(&ctx.tally.closed, 1);
        return;
    }
    // Uncompressed frames (RSV1 clear) are valid on a compressing connection; the server's
    // frames are read and thrown away, never inflated (the attacker's own memory stays
    // small; the server's does not depend on it).
    let reader = async {
        let mut b = vec![0u8; 16 * 1024];
        let mut got = 0u64;
        loop {
            match r.read(&mut b).await {
                Ok(0) | Err(_) => return got,
                Ok(n) => got += n as u64,
            }
        }
    };
    let beats = async {
        let beat = frame(
            true,
            0x2,
            &envelope(PlayerHeartbeat {
                t: 0,
                visible: true,
                fps: None,
            }),
        );
        while Instant::now() < ctx.until {
            let left = ctx.until.saturating_duration_since(Instant::now());
            tokio::time::sleep(left.min(BEAT)).await;
            if w.write_all(&beat).await.is_err() {
                return false;
            }
        }
        true
    };
    gauge.up();
    tokio::pin!(reader);
    let held = tokio::select! {
        _ = &mut reader => false,
        held = beats => held,
    };
    gauge.down();
    if !held {
        Tally::add(&ctx.tally.closed, 1);
        ctx.count_up("dropped");
        return;
    }
    // Leave as a closing tab does: `session:leave` (no grace window), then a close frame.
    let mut bye = frame(true, 0x2, &envelope(SessionLeave { navigating: false }));
    bye.extend(frame(true, 0x8, &1000u16.to_be_bytes()));
    let _ = w.write_all(&bye).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), reader).await;
}
