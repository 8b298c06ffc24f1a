//! What every attack shares: its context and tally, sockets from the attacker's
//! addresses, the HTTP upgrade, and raw WebSocket frames.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::dispatch::ClientMessage;
use village::session::SessionHello;

/// A TCP connection to `host` (`IP:PORT`) from the `--from` address, if given.
pub(crate) async fn connect(host: &str) -> std::io::Result<TcpStream> {
    let addr = tokio::net::lookup_host(host)
        .await?
        .next()
        .ok_or_else(|| std::io::Error::other("no address"))?;
    village_server::client::tcp_connect(addr).await
}

/// What the attack did, shared by its tasks.
#[derive(Default)]
pub(crate) struct Tally {
    /// Connections opened (or attempted).
    pub(crate) conns: AtomicU64,
    /// Frames or requests sent.
    pub(crate) sent: AtomicU64,
    /// Connections the server closed or refused.
    pub(crate) closed: AtomicU64,
}

impl Tally {
    /// Adds `n` to counter `c`.
    pub(crate) fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }
}

/// One attack's settings and shared state, for all its tasks.
pub(crate) struct Ctx {
    /// The server's `IP:PORT`.
    pub(crate) host: String,
    /// The admin's room; new room names of the `rooms` attack start with it.
    pub(crate) room: String,
    /// The room the attack's connections go to (`--target`, else `--room`).
    pub(crate) target: String,
    /// `target`'s URL.
    pub(crate) url: String,
    /// The server's token key.
    pub(crate) key: Vec<u8>,
    /// When the attack ends (`--secs`).
    pub(crate) until: Instant,
    /// At most this many sent (`--count`).
    pub(crate) count: u64,
    /// `--hold`.
    pub(crate) hold: bool,
    /// `--conns`.
    pub(crate) conns: Option<usize>,
    /// `--attack`.
    pub(crate) kind: String,
    /// Where raw sockets come from (`--from`, `--spread`); empty: the system's choice.
    pub(crate) sources: Vec<std::net::IpAddr>,
    /// `--via`: the trusted proxy's address the `proxy-heads` sockets come from.
    pub(crate) via: Option<std::net::Ipv4Addr>,
    /// What the attack did.
    pub(crate) tally: Tally,
    /// What the attack measured beyond the tally: `key=value` pairs for its `ATTACK` line.
    pub(crate) extra: std::sync::Mutex<Vec<(String, String)>>,
    /// Set when every task has ended.
    pub(crate) stop: AtomicBool,
}

impl Ctx {
    /// Adds `key=value` to the `ATTACK` line.
    pub(crate) fn report(&self, key: &str, value: impl std::fmt::Display) {
        let mut e = self.extra.lock().expect("extra");
        e.retain(|(k, _)| k != key);
        e.push((key.to_string(), value.to_string()));
    }

    /// Adds `key=value` to the `ATTACK` line, keeping the largest `value` reported.
    pub(crate) fn report_max(&self, key: &str, value: u64) {
        let mut e = self.extra.lock().expect("extra");
        match e.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.max(v.parse().unwrap_or(0)).to_string(),
            None => e.push((key.to_string(), value.to_string())),
        }
    }

    /// Adds one to `key` on the `ATTACK` line.
    pub(crate) fn count_up(&self, key: &str) {
        let mut e = self.extra.lock().expect("extra");
        match e.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = (v.parse::<u64>().unwrap_or(0) + 1).to_string(),
            None => e.push((key.to_string(), "1".to_string())),
        }
    }

    /// The URL of room `name`.
    pub(crate) fn room_url(&self, name: &str) -> String {
        format!("ws://{}/{name}", self.host)
    }

    /// A TCP connection from source address `i` (cycled) of `--from`/`--spread`.
    pub(crate) async fn connect_nth(&self, i: usize) -> std::io::Result<TcpStream> {
        if self.sources.len() <= 1 {
            return connect(&self.host).await;
        }
        let addr = tokio::net::lookup_host(&self.host)
            .await?
            .next()
            .ok_or_else(|| std::io::Error::other("no address"))?;
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(std::net::SocketAddr::new(
            self.sources[i % self.sources.len()],
            0,
        ))?;
        socket.connect(addr).await
    }

    /// Whether the attack goes on: not stopped, within its time and its count.
    pub(crate) fn going(&self) -> bool {
        !self.stop.load(Ordering::Relaxed)
            && Instant::now() < self.until
            && self.tally.sent.load(Ordering::Relaxed) < self.count
    }
}

/// The HTTP upgrade request for `path`, with `extra` header lines (each ending `\r\n`).
pub(crate) fn upgrade_request(path: &str, host: &str, extra: &str) -> String {
    format!(
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
    )
}

/// Opens a socket and upgrades it to `path`, no extension offered; the response's head.
pub(crate) async fn upgrade(ctx: &Ctx, path: &str) -> Option<(TcpStream, String)> {
    upgrade_nth(ctx, path, 0, "").await
}

/// [`upgrade`] from source address `i` of `--spread`, with `extra` header lines; the
/// response's head.
pub(crate) async fn upgrade_nth(
    ctx: &Ctx,
    path: &str,
    i: usize,
    extra: &str,
) -> Option<(TcpStream, String)> {
    Tally::add(&ctx.tally.conns, 1);
    let mut s = ctx.connect_nth(i).await.ok()?;
    s.write_all(upgrade_request(path, &ctx.host, extra).as_bytes())
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
    Some((s, String::from_utf8_lossy(&head).into_owned()))
}

/// A masked client frame (mask key zero, which is valid and leaves the payload as is).
pub(crate) fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
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

/// `msg` as an envelope in the compact shape.
pub(crate) fn envelope(msg: impl Into<ClientMessage>) -> Vec<u8> {
    msg.into().to_envelope(Encoding::Compact).expect("encodes")
}

/// A `session:hello` envelope with `token` (`None`: a guest).
pub(crate) fn hello(token: Option<String>) -> Vec<u8> {
    envelope(SessionHello {
        protocol: 2,
        build: "attack".into(),
        token,
        locale: "en".into(),
        resume: None,
    })
}

/// Reads and discards until the server closes.
pub(crate) async fn until_closed(s: &mut (impl AsyncReadExt + Unpin), ctx: &Ctx) {
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
