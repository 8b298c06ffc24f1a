//! Abusive `input:batch` senders (the room's input playout, `input_playout.rs`): batches far
//! ahead of the sequence, far behind it, one batch repeated, and batches at ten times a
//! client's rate.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use village::dispatch::ServerMessage;
use village::input::{InputBatch, InputFrame};
use village::walk::Button;
use village_server::client::{Client, Identity};

use crate::ctx::{Ctx, Tally};

/// Clients per kind.
const CLIENTS: usize = 8;
/// Frames per batch: the most `input:batch` carries.
const FRAMES: u32 = 8;
/// A client's own rate: a batch every ~66 ms.
const CLIENT_RATE: u32 = 15;

/// What the attackers saw in their `input:ack`s.
#[derive(Default)]
struct Seen {
    acks: AtomicU64,
    /// The most frames an ack said were queued for its sender.
    held_max: AtomicU64,
}

/// Batch `k`'s first sequence number for `kind`, and the batches a second it is sent at.
fn plan(kind: &str, k: u32) -> u32 {
    match kind {
        // Each batch a million frames past the last: always beyond the ring.
        "batch-ahead" => k.wrapping_mul(1_000_000),
        // One good batch at 1,000,000, then always 100,000 and more behind it.
        "batch-behind" if k == 0 => 1_000_000,
        "batch-behind" => 900_000 - (k % 1000) * FRAMES,
        // The same batch over and over.
        "batch-repeat" => 0,
        // Consecutive batches, ten times too many.
        _ => k.wrapping_mul(FRAMES),
    }
}

fn rate(kind: &str) -> u32 {
    match kind {
        "batch-fast" => 10 * CLIENT_RATE,
        // Just under the room's rate cap (40 a second): every batch reaches the playout.
        _ => 35,
    }
}

/// `batch-ahead`, `batch-behind`, `batch-repeat`, `batch-fast`: `CLIENTS` signed-in players
/// in the target room send `input:batch` of 8 walking frames as the kind says, reading
/// their `input:ack`s; one that is closed (the flood close, for `batch-fast`) rejoins.
/// Reports the acks seen and the most frames an ack said were queued (`held_max`; the
/// playout holds at most 32).
pub async fn run(ctx: Arc<Ctx>) {
    let seen = Arc::new(Seen::default());
    let base = 300_000 + u64::from(std::process::id() % 1000) * 100;
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let (ctx, seen) = (ctx.clone(), seen.clone());
            tokio::spawn(async move { sender(&ctx, base + i as u64, &seen).await })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    ctx.report("acks", seen.acks.load(Ordering::Relaxed));
    ctx.report("held_max", seen.held_max.load(Ordering::Relaxed));
    ctx.report("rate_per_s", rate(&ctx.kind));
}

async fn sender(ctx: &Ctx, account: u64, seen: &Seen) {
    let walk = InputFrame::pressed(&[Button::Forward]).yaw(0.01);
    let every = Duration::from_secs_f64(1.0 / f64::from(rate(&ctx.kind)));
    let mut k = 0u32;
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        let who = Identity::player(&ctx.key, account, &format!("Batch {account}"));
        let Ok(mut c) = Client::join(&ctx.url, &who).await else {
            Tally::add(&ctx.tally.closed, 1);
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let mut next = Instant::now();
        'open: while ctx.going() {
            let batch = InputBatch {
                first: plan(&ctx.kind, k),
                frames: vec![walk.clone(); FRAMES as usize],
            };
            k += 1;
            if c.send(batch).await.is_err() {
                Tally::add(&ctx.tally.closed, 1);
                break;
            }
            Tally::add(&ctx.tally.sent, 1);
            next += every;
            // Read until the next batch is due.
            loop {
                let wait = next.saturating_duration_since(Instant::now());
                if wait.is_zero() {
                    break;
                }
                match tokio::time::timeout(wait, c.next()).await {
                    Ok(Some(m)) if m.name() == "input:ack" => {
                        if let Ok(ServerMessage::InputAck(a)) = m.decode() {
                            seen.acks.fetch_add(1, Ordering::Relaxed);
                            seen.held_max
                                .fetch_max(u64::from(a.queued), Ordering::Relaxed);
                        }
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        Tally::add(&ctx.tally.closed, 1);
                        break 'open;
                    }
                    Err(_) => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuplet::netcode::playout::Playout;

    /// What each kind's first 1,000 batches leave in a real playout that steps three
    /// frames between batches (as the room does at 20 Hz): never more than its ring.
    fn held_after(kind: &str) -> (u32, u32) {
        let mut p = Playout::<u8>::new();
        let cap = p.settings().capacity;
        let mut most = 0;
        for k in 0..1000 {
            p.push(plan(kind, k), &[0u8; FRAMES as usize]);
            most = most.max(p.held());
            for _ in 0..3 {
                p.step(|_, _| {});
            }
        }
        (most, cap)
    }

    #[test]
    fn every_kind_is_what_it_says() {
        // Ahead: each batch past the ring from the last.
        for k in 1..100 {
            let gap = plan("batch-ahead", k).wrapping_sub(plan("batch-ahead", k - 1));
            assert!(gap > 32 && gap < u32::MAX / 2, "{k}: {gap}");
        }
        // Behind: after the first, every batch ends before the first began.
        let first = plan("batch-behind", 0);
        for k in 1..5000 {
            assert!(plan("batch-behind", k) + FRAMES <= first - 90_000, "{k}");
        }
        // Repeat: one batch; fast: consecutive.
        assert!((0..100).all(|k| plan("batch-repeat", k) == 0));
        assert!((0..100).all(|k| plan("batch-fast", k) == k * FRAMES));
        assert_eq!(rate("batch-fast"), 10 * CLIENT_RATE);
    }

    #[test]
    fn no_kind_holds_more_than_the_ring() {
        for kind in ["batch-ahead", "batch-behind", "batch-repeat", "batch-fast"] {
            let (most, cap) = held_after(kind);
            assert!(most <= cap, "{kind}: {most} > {cap}");
        }
        // Too fast fills the ring (the cap is reached, so the bound is what holds it).
        assert_eq!(held_after("batch-fast").0, 32);
    }
}
