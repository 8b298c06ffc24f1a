//! `cargo run -p village-server [-- --addr 127.0.0.1:7878]`: serves village rooms on
//! loopback until stopped. `ws://ADDR/` is the room `village`; `ws://ADDR/NAME` the room
//! NAME (created on first use, up to 40 players each). Tests place players with `--spawn
//! X,Y,Z` (repeated: by join order) and shorten the keyframe cadence with
//! `--keyframe-every TICKS`; with port 0 the first line printed names the port chosen.
//! `--threads N` sets the runtime's worker threads (1: a single thread, 0: one per core,
//! the default); `--flush now` writes every frame as soon as it is handled instead of
//! gathering a client's frames for one write per tick (`Config::flush_per_tick`).
//!
//! Rooms: `--room NAME` allows a name (repeated; `village` is always allowed),
//! `--room-prefix P` every name starting with P; `--max-rooms N`, `--max-connections N`,
//! `--max-per-ip N` cap them. The token key is `VILLAGE_TOKEN_KEY` from the environment
//! (without it every token is refused and everyone else is a guest). On SIGTERM or SIGINT
//! the server drains: no new connections, a restart notice to every player, exit when
//! everyone has left or after `--drain-grace S` seconds (30).
//!
//! Sessions: `--store FILE` saves players in that SQLite file (in memory without it);
//! `--grace S` is the resume window after a dropped connection (30; 0 turns resume off).
//! `--guests on|off|N` allows guests, refuses them, or allows N per room (20);
//! `--per-ip-per-room N` caps one address in a room; `--max-before-hello N` caps
//! connections yet to say hello (256).
//!
//! Behind a load balancer: `--trusted-proxy ADDR[/BITS]` (repeated) names the proxies whose
//! `X-Forwarded-For` (or, with `--proxy-protocol`, PROXY protocol header) says who the
//! client is; every per-address cap then counts the client.
//!
//! `--agones` (built with the cargo feature `agones`) runs the Agones lifecycle: Ready once
//! listening, health while the rooms tick, player counts, and after an allocated session
//! ends or on SIGTERM a drain, then Shutdown (see `village_server::agones`).
//!
//! `village-server mint-token --account N --name NAME [--ttl S] [--admin] [--staff]
//! [--party N]` prints a join token signed with `VILLAGE_TOKEN_KEY`.

use std::net::SocketAddr;
use std::time::Duration;

use village_server::token::{self, Claims};

/// `--help`.
const HELP: &str = "\
village-server: village rooms over WebSockets, bounded against hostile clients.

Usage: village-server [OPTIONS]
       village-server mint-token --account N --name NAME [--ttl S] [--admin] [--staff] [--party N]

ws://ADDR/ is the room `village`; ws://ADDR/NAME the room NAME when allowed. The token key
is VILLAGE_TOKEN_KEY (without it every token is refused and everyone else is a guest).

Listening and running:
  --addr HOST:PORT         where to listen (127.0.0.1:7878; port 0 picks one, printed)
  --threads N              runtime worker threads (0: one per core, the default; 1: one)
  --flush tick|now         gather a client's frames for one write per tick (tick, default)
  --drain-grace S          on SIGTERM/SIGINT, drain for at most S seconds (30)
  --agones                 run the Agones lifecycle (built with the `agones` feature)
  --webtransport           also serve WebTransport over UDP on the same port (a 14-day
                           self-signed certificate; its hash at GET /webtransport)
Rooms:
  --room NAME              allow a room name (repeated; village is always allowed)
  --room-prefix P          allow every name starting with P
  --max-rooms N            rooms opened by prefix at most (64)
  --capacity N             players per room (40)
  --spawn X,Y,Z            spawn points by join order (repeated)
  --keyframe-every TICKS   a snapshot keyframe every TICKS ticks (100)
Caps:
  --max-connections N      players' connections (1000)
  --max-per-ip N           players' connections per address (500)
  --max-before-hello N     connections yet to say session:hello (256)
  --guests on|off|N        allow guests, refuse them, or allow N per room (20)
  --max-guests N           guests server-wide, at most half of --max-connections (250)
  --per-ip-per-room N      players from one address in a room (no cap)
  --max-deflate N          connections compressing at once; past it uncompressed (128)
Behind a load balancer:
  --trusted-proxy ADDR[/BITS]
                           a proxy trusted to name the client (repeated): its PROXY
                           header or last untrusted X-Forwarded-For entry is the client
                           every per-address cap counts; anyone else's header is ignored
  --proxy-protocol         trusted proxies open each connection with a PROXY protocol
                           header (v1 or v2), required from them
Sessions:
  --store FILE             save players in this SQLite file (in memory without it)
  --grace S                resume window after a dropped connection (30; 0: none)

docs/room-server.md describes every limit, counter and message.
";

/// The environment variable holding the token key.
const KEY_VAR: &str = "VILLAGE_TOKEN_KEY";

fn main() {
    let mut config = village_server::Config {
        token_key: std::env::var(KEY_VAR).ok().map(String::into_bytes),
        ..village_server::Config::default()
    };
    let mut threads = 0;
    let mut grace = Duration::from_secs(30);
    let mut agones = false;
    if std::env::args().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("mint-token") {
        return mint(std::env::args().skip(2));
    }
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--agones" {
            agones = true;
            continue;
        }
        if arg == "--webtransport" {
            config.webtransport = true;
            continue;
        }
        if arg == "--proxy-protocol" {
            config.proxy_protocol = true;
            continue;
        }
        match (arg.as_str(), args.next()) {
            ("--addr", Some(addr)) => match addr.parse::<SocketAddr>() {
                Ok(addr) => config.addr = addr,
                Err(e) => fail(&format!("--addr {addr}: {e}")),
            },
            ("--capacity", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => config.room_capacity = n,
                _ => fail(&format!("--capacity {n}: expected a positive number")),
            },
            ("--spawn", Some(xyz)) => {
                let v: Vec<f32> = xyz
                    .split(',')
                    .filter_map(|c| c.trim().parse().ok())
                    .collect();
                match v.as_slice() {
                    &[x, y, z] => config.spawns.push([x, y, z]),
                    _ => fail(&format!("--spawn {xyz}: expected X,Y,Z")),
                }
            }
            ("--keyframe-every", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => config.keyframe_every = n,
                _ => fail(&format!("--keyframe-every {n}: expected a positive number")),
            },
            ("--threads", Some(n)) => match n.parse() {
                Ok(n) => threads = n,
                _ => fail(&format!("--threads {n}: expected a number")),
            },
            ("--flush", Some(when)) => match when.as_str() {
                "tick" => config.flush_per_tick = true,
                "now" => config.flush_per_tick = false,
                _ => fail(&format!("--flush {when}: expected tick or now")),
            },
            ("--room", Some(name)) => config.room_names.push(name),
            ("--room-prefix", Some(p)) => config.room_prefixes.push(p),
            ("--max-rooms", Some(n)) => config.max_rooms = positive("--max-rooms", &n),
            ("--max-connections", Some(n)) => {
                config.max_connections = positive("--max-connections", &n)
            }
            ("--max-per-ip", Some(n)) => config.max_per_ip = positive("--max-per-ip", &n),
            ("--trusted-proxy", Some(net)) => match net.parse() {
                Ok(net) => config.trusted_proxies.push(net),
                Err(e) => fail(&format!("--trusted-proxy {e}")),
            },
            ("--store", Some(path)) => config.store = Some(path.into()),
            ("--max-deflate", Some(n)) => match n.parse() {
                Ok(n) => config.max_deflate = n,
                _ => fail(&format!("--max-deflate {n}: expected a number")),
            },
            ("--grace", Some(s)) => match s.parse::<u64>() {
                Ok(s) => config.grace = Duration::from_secs(s),
                _ => fail(&format!("--grace {s}: expected seconds (0: no resume)")),
            },
            ("--guests", Some(g)) => match g.as_str() {
                "on" => config.guests = true,
                "off" => config.guests = false,
                n => config.guests_per_room = positive("--guests", n),
            },
            ("--max-guests", Some(n)) => config.max_guests = positive("--max-guests", &n),
            ("--per-ip-per-room", Some(n)) => {
                config.per_ip_per_room = positive("--per-ip-per-room", &n)
            }
            ("--max-before-hello", Some(n)) => {
                config.max_before_hello = positive("--max-before-hello", &n)
            }
            ("--drain-grace", Some(s)) => {
                grace = Duration::from_secs(positive("--drain-grace", &s) as u64)
            }
            _ => fail(&format!("unknown argument {arg}")),
        }
    }
    if config.proxy_protocol && config.trusted_proxies.is_empty() {
        fail("--proxy-protocol: name the proxies that send it with --trusted-proxy ADDR[/BITS]");
    }
    let rt = runtime(threads);
    rt.block_on(async {
        match village_server::start(config).await {
            Ok(server) => {
                println!("village-server: listening on {}", server.url(""));
                if let (Some(url), Some(hash)) = (server.webtransport_url(""), server.cert_hash()) {
                    println!("village-server: webtransport on {url} certificate sha-256 {hash}");
                }
                let mut lifecycle = orchestrated(&server, agones).await;
                tokio::select! {
                    _ = stopped() => {}
                    _ = session_over(&mut lifecycle) => {
                        eprintln!("village-server: agones: the allocated session is over");
                    }
                }
                eprintln!("village-server: draining (at most {} s)", grace.as_secs());
                let left = server.drain(grace).await;
                eprintln!("village-server: stopped ({left} connections still open)");
                shut_down(lifecycle).await;
            }
            Err(e) => fail(&format!("cannot listen: {e}")),
        }
    });
}

#[cfg(feature = "agones")]
type Lifecycle = Option<village_server::agones::Agones>;
#[cfg(not(feature = "agones"))]
type Lifecycle = ();

/// With `--agones`: connected to the Agones SDK server, Ready sent.
#[cfg(feature = "agones")]
async fn orchestrated(server: &village_server::Server, on: bool) -> Lifecycle {
    if !on {
        return None;
    }
    let opts = village_server::agones::Options::default();
    match village_server::agones::Agones::connect(server, opts).await {
        Ok(a) => {
            eprintln!("village-server: agones: ready");
            Some(a)
        }
        Err(e) => fail(&format!("agones: no SDK server: {e}")),
    }
}

#[cfg(not(feature = "agones"))]
async fn orchestrated(_: &village_server::Server, on: bool) -> Lifecycle {
    if on {
        fail("--agones: this binary was built without the `agones` feature (cargo build --release -p village-server --features agones)");
    }
}

/// Resolves when an allocated Agones session is over (never without `--agones`).
#[cfg(feature = "agones")]
async fn session_over(lifecycle: &mut Lifecycle) {
    match lifecycle {
        Some(a) => a.session_over().await,
        None => std::future::pending().await,
    }
}

#[cfg(not(feature = "agones"))]
async fn session_over(_: &mut Lifecycle) {
    std::future::pending().await
}

/// After the drain: Agones' Shutdown.
#[cfg(feature = "agones")]
async fn shut_down(lifecycle: Lifecycle) {
    if let Some(a) = lifecycle {
        match a.shutdown().await {
            Ok(()) => eprintln!("village-server: agones: shutdown"),
            Err(e) => eprintln!("village-server: agones: Shutdown failed: {e}"),
        }
    }
}

#[cfg(not(feature = "agones"))]
async fn shut_down(_: Lifecycle) {}

/// `threads` 1: one thread for everything (no cross-thread wake-ups); 0: a worker thread
/// per core; otherwise that many worker threads.
fn runtime(threads: usize) -> tokio::runtime::Runtime {
    let mut b = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        if threads > 1 {
            b.worker_threads(threads);
        }
        b
    };
    b.enable_all().build().expect("tokio runtime")
}

/// Resolves on SIGTERM or SIGINT.
async fn stopped() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        _ => std::future::pending().await,
    }
}

fn positive(flag: &str, n: &str) -> usize {
    match n.parse() {
        Ok(n) if n > 0 => n,
        _ => fail(&format!("{flag} {n}: expected a positive number")),
    }
}

/// `mint-token`: prints a token signed with `VILLAGE_TOKEN_KEY`.
fn mint(mut args: impl Iterator<Item = String>) {
    let Ok(key) = std::env::var(KEY_VAR) else {
        fail(&format!(
            "mint-token: set {KEY_VAR} to the key the server uses"
        ));
    };
    let mut claims = Claims::player(0, "", 3600);
    let mut ttl = 3600;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--admin" => claims.admin = true,
            "--staff" => claims.staff = true,
            flag => {
                let Some(v) = args.next() else {
                    fail(&format!("mint-token: {flag} needs a value"));
                };
                match flag {
                    "--account" => claims.account = positive(flag, &v) as u64,
                    "--name" => claims.name = v,
                    "--ttl" => ttl = positive(flag, &v) as u64,
                    "--party" => claims.party = Some(positive(flag, &v) as u32),
                    _ => fail(&format!("mint-token: unknown argument {flag}")),
                }
            }
        }
    }
    if claims.name.is_empty() || claims.name.len() > 24 || claims.account == 0 {
        fail("mint-token: --account N (positive) and --name NAME (1 to 24 bytes) are required");
    }
    claims.exp = token::now_s() + ttl;
    println!("{}", token::mint(key.as_bytes(), &claims));
}

fn fail(msg: &str) -> ! {
    eprintln!("village-server: {msg}\nusage: village-server [--addr IP:PORT] [--capacity N] [--spawn X,Y,Z]... [--keyframe-every TICKS] [--threads N] [--flush tick|now] [--room NAME]... [--room-prefix P]... [--max-rooms N] [--max-connections N] [--max-per-ip N] [--trusted-proxy ADDR[/BITS]]... [--proxy-protocol] [--drain-grace S] [--agones]\n       village-server mint-token --account N --name NAME [--ttl S] [--admin] [--staff] [--party N]");
    std::process::exit(2);
}
