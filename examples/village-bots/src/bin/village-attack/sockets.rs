//! The first attacks: room names, sockets that never say hello or never finish their
//! upgrade, frame floods, stalled readers, counter growth and refused tokens.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use village::birds::BirdSubscribe;
use village::player::PlayerHeartbeat;
use village::world::WorldView;
use village_server::client::{Client, Identity};
use village_server::token::{self, Claims};

use crate::ctx::{envelope, frame, hello, until_closed, upgrade, upgrade_nth, Ctx, Tally};

/// `rooms`: upgrades to ever-new room names, half not allowed and half new `ROOM-*` names.
pub(crate) async fn rooms(ctx: Arc<Ctx>, task: usize) {
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

/// `idle`: an upgraded socket that never says hello, reopened when closed (50 ms later
/// when refused at accept, as `handshakes` does, so the attack lasts its time instead of
/// spending its count in a tight loop).
pub(crate) async fn idle(ctx: Arc<Ctx>, i: usize) {
    while ctx.going() {
        Tally::add(&ctx.tally.sent, 1);
        match upgrade_nth(&ctx, &ctx.target, i, "").await {
            Some((mut s, status)) if status.contains(" 101 ") => until_closed(&mut s, &ctx).await,
            Some(_) => {
                Tally::add(&ctx.tally.closed, 1);
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            None => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// `handshakes`: a socket that sends half an HTTP upgrade, reopened when closed.
pub(crate) async fn handshake(ctx: Arc<Ctx>, i: usize) {
    while ctx.going() {
        Tally::add(&ctx.tally.conns, 1);
        Tally::add(&ctx.tally.sent, 1);
        let Ok(mut s) = ctx.connect_nth(i).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let half = format!("GET /{} HTTP/1.1\r\nHost: {}\r\n", ctx.target, ctx.host);
        let opened = Instant::now();
        if s.write_all(half.as_bytes()).await.is_ok() {
            until_closed(&mut s, &ctx).await;
        }
        // Refused at accept (closed at once): again 50 ms later, as `idle` does, so the
        // attack lasts its time instead of spending its count in a tight loop.
        if opened.elapsed() < Duration::from_millis(50) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// `floods`: every frame kind as fast as the socket takes them, reconnecting when closed.
pub(crate) async fn flood(ctx: Arc<Ctx>) {
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

/// `stalled`: a signed-in client with birds on and a wide view that never reads.
pub(crate) async fn stalled(ctx: Arc<Ctx>, i: usize) {
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

/// `counters`: new envelope ids and malformed payloads under the rate cap.
pub(crate) async fn counters(ctx: Arc<Ctx>, i: usize) {
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
pub(crate) async fn tokens(ctx: Arc<Ctx>, task: usize) {
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
