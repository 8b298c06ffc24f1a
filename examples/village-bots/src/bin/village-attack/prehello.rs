//! Attacks before `session:hello`: a request head dripped a byte per packet.

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
        .map(|i| tokio::spawn(drip_one(ctx.clone(), i)))
        .collect();
    for t in tasks {
        let _ = t.await;
    }
}

async fn drip_one(ctx: Arc<Ctx>, i: usize) {
    // Start spread over one drip period, not all in the same millisecond.
    tokio::time::sleep(DRIP_EVERY.mul_f64(i as f64 / 200.0)).await;
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        let Ok(mut s) = ctx.connect_nth(i).await else {
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
        let mut every = tokio::time::interval(DRIP_EVERY);
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
