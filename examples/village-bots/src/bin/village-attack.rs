//! village-attack: one hostile client's attack on a running `village-server`, on loopback,
//! bounded in count and time, for `scripts/bench hostile` (which runs it beside a normal
//! 40-bot room and measures the server). At the end an admin reads the attack room's drop
//! counts and prints one `ATTACK` line of `key=value` pairs.
//!
//! ```sh
//! village-attack --url ws://127.0.0.1:7878 --room run-atk --attack floods --secs 15 --count 100000 [--from 127.0.0.2]
//! village-attack --room run-atk --target run-0 --attack idle   # idle sockets in the bots' room
//! ```
//!
//! Attacks (`--count` caps what each makes; `--secs` ends it):
//! - `rooms`: connect-and-close upgrades to new room names (half not allowed, half new
//!   `ROOM-N` names past `max_rooms`), 16 at a time;
//! - `idle`: 400 upgraded sockets in the room that never say hello, reopened when closed;
//! - `handshakes`: 400 sockets that send half an HTTP upgrade and wait, reopened when closed;
//! - `floods`: 4 clients in the room sending every frame kind as fast as they can (binary,
//!   oversized binary, text, ping, pong, a fragmented message), reconnecting when closed;
//! - `stalled`: 20 signed-in clients in the room with the bird stream on that never read,
//!   each dropped after 8 s and replaced; with `--hold`, never replaced: each holds (and
//!   heartbeats, so it is not idle) until the server closes it;
//! - `counters`: 8 clients in the room sending frames of new envelope ids and malformed
//!   payloads under the rate cap, to grow the drop counts;
//! - `tokens`: 6 clients saying `session:hello` with a forged (another key's), an expired
//!   or a malformed token, reconnecting when refused, and 2 guests in the room asking for
//!   the bird stream (`birds:subscribe`) 5 times a second.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::birds::BirdSubscribe;
use village::dispatch::ClientMessage;
use village::player::PlayerHeartbeat;
use village::session::SessionHello;
use village::world::WorldView;
use village_server::client::{Client, Identity};
use village_server::token::{self, Claims};

/// A TCP connection to `host` (`IP:PORT`) from the `--from` address, if given.
async fn connect(host: &str) -> std::io::Result<TcpStream> {
    let addr = tokio::net::lookup_host(host)
        .await?
        .next()
        .ok_or_else(|| std::io::Error::other("no address"))?;
    village_server::client::tcp_connect(addr).await
}

struct Args {
    url: String,
    room: String,
    target: Option<String>,
    attack: String,
    secs: f64,
    count: u64,
    key: Option<Vec<u8>>,
    /// `stalled`: clients hold until the server closes them.
    hold: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        url: "ws://127.0.0.1:7878".into(),
        room: "run-atk".into(),
        target: None,
        attack: String::new(),
        secs: 15.0,
        count: 100_000,
        key: std::env::var("VILLAGE_TOKEN_KEY")
            .ok()
            .map(String::into_bytes),
        hold: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--hold" {
            a.hold = true;
            continue;
        }
        let v = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--url" => a.url = v.trim_end_matches('/').to_string(),
            "--room" => a.room = v,
            "--target" => a.target = Some(v),
            "--attack" => a.attack = v,
            "--secs" => a.secs = v.parse().map_err(|e| format!("--secs {v}: {e}"))?,
            "--count" => a.count = v.parse().map_err(|e| format!("--count {v}: {e}"))?,
            "--token-key" => a.key = Some(v.into_bytes()),
            // Every socket from this address (any 127.x on Linux): the attacker's own.
            "--from" => village_server::client::bind_source(
                v.parse().map_err(|e| format!("--from {v}: {e}"))?,
            ),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    let known = [
        "rooms",
        "idle",
        "handshakes",
        "floods",
        "stalled",
        "counters",
        "tokens",
    ];
    if !known.contains(&a.attack.as_str()) {
        return Err(format!("--attack: one of {}", known.join(", ")));
    }
    if a.key.is_none() {
        return Err("a token key (--token-key or VILLAGE_TOKEN_KEY) for the admin".into());
    }
    Ok(a)
}

/// What the attack did, shared by its tasks.
#[derive(Default)]
struct Tally {
    /// Connections opened (or attempted).
    conns: AtomicU64,
    /// Frames or requests sent.
    sent: AtomicU64,
    /// Connections the server closed or refused.
    closed: AtomicU64,
}

impl Tally {
    fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }
}

struct Ctx {
    host: String,
    /// The admin's room; new room names of the `rooms` attack start with it.
    room: String,
    /// The room the attack's connections go to (`--target`, else `--room`).
    target: String,
    /// `target`'s URL.
    url: String,
    key: Vec<u8>,
    until: Instant,
    count: u64,
    /// `--hold`.
    hold: bool,
    tally: Tally,
    stop: AtomicBool,
}

impl Ctx {
    fn going(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
            && Instant::now() < self.until
            && self.tally.sent.load(Ordering::Relaxed) < self.count
    }
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "village-attack: {e}\nusage: village-attack --attack rooms|idle|handshakes|floods|stalled|counters|tokens [--url ws://HOST:PORT] [--room NAME] [--target ROOM] [--secs S] [--count N] [--token-key KEY] [--hold]"
            );
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Err(e) = rt.block_on(run(a)) {
        eprintln!("village-attack: {e}");
        std::process::exit(1);
    }
}

async fn run(a: Args) -> Result<(), String> {
    let host = a
        .url
        .strip_prefix("ws://")
        .ok_or("a ws:// URL")?
        .to_string();
    let ctx = Arc::new(Ctx {
        host,
        room: a.room.clone(),
        target: a.target.clone().unwrap_or_else(|| a.room.clone()),
        url: format!("{}/{}", a.url, a.target.as_deref().unwrap_or(&a.room)),
        key: a.key.clone().unwrap_or_default(),
        until: Instant::now() + Duration::from_secs_f64(a.secs),
        count: a.count,
        hold: a.hold,
        tally: Tally::default(),
        stop: AtomicBool::new(false),
    });
    // The admin is in the room before the attack (so a room flood cannot keep it out) and
    // reads what it gets every 200 ms, so it is never a stalled reader itself.
    let mut boss = {
        let mut c = Claims::player(990_000 + u64::from(std::process::id()), "attack-admin", 600);
        c.admin = true;
        Client::join(
            &format!("{}/{}", a.url, a.room),
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
    println!(
        "ATTACK attack={} secs={secs:.1} conns={} sent={} closed={} stats_ok=1 dropped_keys={} counters={}",
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
        "rooms" => (16, |c, i| tokio::spawn(rooms(c, i))),
        "idle" => (400, |c, _| tokio::spawn(idle(c))),
        "handshakes" => (400, |c, _| tokio::spawn(handshake(c))),
        "floods" => (4, |c, _| tokio::spawn(flood(c))),
        "stalled" => (20, |c, i| tokio::spawn(stalled(c, i))),
        "tokens" => (8, |c, i| tokio::spawn(tokens(c, i))),
        _ => (8, |c, i| tokio::spawn(counters(c, i))),
    };
    let handles: Vec<_> = (0..tasks).map(|i| f(ctx.clone(), i)).collect();
    for h in handles {
        let _ = h.await;
    }
    ctx.stop.store(true, Ordering::Relaxed);
}

/// The HTTP upgrade request for `path`, no extension offered.
fn upgrade_request(path: &str, host: &str) -> String {
    format!(
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
}

/// Opens a socket and upgrades it to `path`; the response's status line.
async fn upgrade(ctx: &Ctx, path: &str) -> Option<(TcpStream, String)> {
    Tally::add(&ctx.tally.conns, 1);
    let mut s = connect(&ctx.host).await.ok()?;
    s.write_all(upgrade_request(path, &ctx.host).as_bytes())
        .await
        .ok()?;
    let mut head = Vec::new();
    let mut b = [0u8; 512];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
        let n = s.read(&mut b).await.ok()?;
        if n == 0 {
            return None;
        }
        head.extend_from_slice(&b[..n]);
    }
    let status = String::from_utf8_lossy(&head)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    Some((s, status))
}

/// A masked client frame (mask key zero, which is valid and leaves the payload as is).
fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![if fin { 0x80 } else { 0 } | opcode];
    let n = payload.len();
    if n < 126 {
        f.push(0x80 | n as u8);
    } else if n < 65536 {
        f.push(0x80 | 126);
        f.extend((n as u16).to_be_bytes());
    } else {
        f.push(0x80 | 127);
        f.extend((n as u64).to_be_bytes());
    }
    f.extend([0, 0, 0, 0]);
    f.extend_from_slice(payload);
    f
}

fn envelope(msg: impl Into<ClientMessage>) -> Vec<u8> {
    msg.into().to_envelope(Encoding::Compact).expect("encodes")
}

fn hello(token: Option<String>) -> Vec<u8> {
    envelope(SessionHello {
        protocol: 2,
        build: "attack".into(),
        token,
        locale: "en".into(),
        resume: None,
    })
}

async fn rooms(ctx: Arc<Ctx>, task: usize) {
    let mut i = 0u64;
    while ctx.going() {
        i += 1;
        let path = if i.is_multiple_of(2) {
            format!("x{task}-{i}")
        } else {
            format!("{}-{task}-{i}", ctx.room)
        };
        Tally::add(&ctx.tally.sent, 1);
        if let Some((_, status)) = upgrade(&ctx, &path).await {
            if !status.contains(" 101 ") {
                Tally::add(&ctx.tally.closed, 1);
            }
        } else {
            Tally::add(&ctx.tally.closed, 1);
        }
    }
}

/// Reads and discards until the server closes.
async fn until_closed(s: &mut (impl AsyncReadExt + Unpin), ctx: &Ctx) {
    let mut b = vec![0u8; 4096];
    loop {
        let left = ctx.until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut b)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                Tally::add(&ctx.tally.closed, 1);
                return;
            }
            Ok(Ok(_)) => {}
            Err(_) => return,
        }
    }
}

async fn idle(ctx: Arc<Ctx>) {
    while ctx.going() {
        Tally::add(&ctx.tally.sent, 1);
        match upgrade(&ctx, &ctx.target).await {
            Some((mut s, _)) => until_closed(&mut s, &ctx).await,
            None => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

async fn handshake(ctx: Arc<Ctx>) {
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        Tally::add(&ctx.tally.sent, 1);
        let Ok(mut s) = connect(&ctx.host).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let half = format!("GET /{} HTTP/1.1\r\nHost: {}\r\n", ctx.target, ctx.host);
        if s.write_all(half.as_bytes()).await.is_ok() {
            until_closed(&mut s, &ctx).await;
        }
    }
}

async fn flood(ctx: Arc<Ctx>) {
    // One burst: every frame kind, 64 frames.
    let mut burst = Vec::new();
    let beat = envelope(PlayerHeartbeat {
        t: 1,
        visible: true,
        fps: None,
    });
    for i in 0..8u8 {
        burst.extend(frame(true, 0x2, &beat));
        burst.extend(frame(true, 0x2, &[0xce, 0, 1, 0, i, 0x90]));
        burst.extend(frame(true, 0x2, &vec![0x01; 5000]));
        burst.extend(frame(true, 0x1, b"{\"type\":\"move\"}"));
        burst.extend(frame(true, 0x9, b"ping"));
        burst.extend(frame(true, 0xA, b"pong"));
        burst.extend(frame(false, 0x2, &beat[..1]));
        burst.extend(frame(true, 0x0, &beat[1..]));
    }
    while ctx.going() {
        let Some((s, _)) = upgrade(&ctx, &ctx.target).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let (mut r, mut w) = s.into_split();
        if w.write_all(&frame(true, 0x2, &hello(None))).await.is_err() {
            continue;
        }
        let reader = tokio::spawn(async move {
            let mut b = vec![0u8; 16 * 1024];
            while matches!(r.read(&mut b).await, Ok(n) if n > 0) {}
        });
        while ctx.going() {
            if w.write_all(&burst).await.is_err() {
                Tally::add(&ctx.tally.closed, 1);
                break;
            }
            Tally::add(&ctx.tally.sent, 64);
        }
        reader.abort();
    }
}

async fn stalled(ctx: Arc<Ctx>, i: usize) {
    let mut n = 0u64;
    while ctx.going() {
        n += 1;
        let account = 800_000 + (i as u64) * 10_000 + n;
        let who = Identity::player(&ctx.key, account, &format!("stall{i}-{n}"));
        Tally::add(&ctx.tally.conns, 1);
        let Ok(mut c) = Client::join_small(&ctx.url, &who, 4096).await else {
            Tally::add(&ctx.tally.closed, 1);
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = c.send(BirdSubscribe { on: true }).await;
        let _ = c.send(WorldView { radius: 400.0 }).await;
        Tally::add(&ctx.tally.sent, 2);
        // Never reads: its queue fills, it falls behind and is evicted.
        if ctx.hold {
            // Until the server closes it: a heartbeat every 500 ms (a real client's timer
            // still runs when its reader is stuck) keeps it from being idle, and fails once
            // the server has let go of the socket.
            while Instant::now() < ctx.until {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let beat = PlayerHeartbeat {
                    t: 0,
                    visible: true,
                    fps: None,
                };
                if c.send(beat).await.is_err() {
                    Tally::add(&ctx.tally.closed, 1);
                    return;
                }
                Tally::add(&ctx.tally.sent, 1);
            }
            return;
        }
        let left = ctx.until.saturating_duration_since(Instant::now());
        tokio::time::sleep(left.min(Duration::from_secs(8))).await;
        drop(c);
    }
}

async fn counters(ctx: Arc<Ctx>, i: usize) {
    let mut id = 10_000 + i as u32 * 100_000;
    while ctx.going() {
        let Some((s, _)) = upgrade(&ctx, &ctx.target).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let (mut r, mut w) = s.into_split();
        let reader = tokio::spawn(async move {
            let mut b = vec![0u8; 16 * 1024];
            while matches!(r.read(&mut b).await, Ok(n) if n > 0) {}
        });
        if w.write_all(&frame(true, 0x2, &hello(None))).await.is_err() {
            reader.abort();
            continue;
        }
        // 35 frames a second, under the cap of 40: a new envelope id, a known id with a
        // bad payload, a frame that is not msgpack, in turn.
        let mut every = tokio::time::interval(Duration::from_millis(1000 / 35));
        let mut k = 0u32;
        while ctx.going() {
            every.tick().await;
            k += 1;
            let payload = match k % 3 {
                0 => {
                    id += 1;
                    let mut p = vec![0xce];
                    p.extend(id.to_be_bytes());
                    p.push(0x90);
                    p
                }
                1 => vec![k as u8 % 120, 0xc1, 0xc1],
                _ => vec![0xff; 7],
            };
            if w.write_all(&frame(true, 0x2, &payload)).await.is_err() {
                Tally::add(&ctx.tally.closed, 1);
                break;
            }
            Tally::add(&ctx.tally.sent, 1);
        }
        reader.abort();
    }
}

/// Two clients of each kind: forged, expired and malformed tokens (`task % 4` 0, 1, 2), and
/// guests asking for birds (3).
async fn tokens(ctx: Arc<Ctx>, task: usize) {
    if task % 4 == 3 {
        return guest_birds(ctx, task).await;
    }
    let mut n = 0u64;
    while ctx.going() {
        n += 1;
        let account = 700_000 + task as u64 * 100_000 + n;
        let token = match task % 4 {
            // Well-formed, signed with a key that is not the server's.
            0 => token::mint(
                b"not the server's key",
                &Claims::player(account, "forged", 600),
            ),
            // The server's key, past its expiry.
            1 => {
                let mut c = Claims::player(account, "expired", 600);
                c.exp = token::now_s() - 1;
                token::mint(&ctx.key, &c)
            }
            // Not a token (16 bytes at least, as the protocol asks): no MAC, a MAC that is
            // not base64url, another version, a MAC of an impossible length.
            _ => [
                "bot-token-0123456789",
                "v1.e30.not+base64url",
                "v2.e30.AAAAAAAAAAAA",
                "v1.e30.AAAAAAAAAAAAA",
            ][n as usize % 4]
                .to_string(),
        };
        let Some((mut s, status)) = upgrade(&ctx, &ctx.target).await else {
            Tally::add(&ctx.tally.closed, 1);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if !status.contains(" 101 ") {
            Tally::add(&ctx.tally.closed, 1);
            continue;
        }
        if s.write_all(&frame(true, 0x2, &hello(Some(token))))
            .await
            .is_err()
        {
            continue;
        }
        Tally::add(&ctx.tally.sent, 1);
        // The refusal (and the server's close frame), then our close frame, as a client
        // would answer: the server lets go at once instead of waiting for it.
        let mut b = [0u8; 512];
        if !matches!(s.read(&mut b).await, Ok(n) if n > 0) {
            Tally::add(&ctx.tally.closed, 1);
            continue;
        }
        let _ = s.write_all(&frame(true, 0x8, &1000u16.to_be_bytes())).await;
        until_closed(&mut s, &ctx).await;
    }
}

/// A guest that joins and asks for the bird stream 5 times a second (reading what it gets).
async fn guest_birds(ctx: Arc<Ctx>, task: usize) {
    let mut n = 0u64;
    while ctx.going() {
        n += 1;
        Tally::add(&ctx.tally.conns, 1);
        let Ok(mut c) = Client::join(&ctx.url, &Identity::guest(&format!("guest{task}-{n}"))).await
        else {
            Tally::add(&ctx.tally.closed, 1);
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        while ctx.going() {
            if c.send(BirdSubscribe { on: true }).await.is_err() {
                Tally::add(&ctx.tally.closed, 1);
                break;
            }
            Tally::add(&ctx.tally.sent, 1);
            let _ = tokio::time::timeout(Duration::from_millis(200), async {
                while c.next().await.is_some() {}
            })
            .await;
        }
    }
}
