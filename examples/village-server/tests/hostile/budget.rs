//! Rooms opened only by allowed paths, and the budget of connections yet to say hello:
//! silent sockets, half-sent upgrades and a full budget giving way to a newcomer.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tuplet::{Dispatch, Encoding};
use village::session::SessionHello;
use village_server::client::{Client, Identity};
use village_server::counters::Counter;

use crate::support::*;

#[tokio::test]
async fn paths_open_only_allowed_rooms_at_hello_capped_and_freed_when_empty() {
    let s = server(|c| {
        c.room_prefixes = vec!["r".into()];
        c.max_rooms = 4;
        c.room_idle = Duration::from_millis(300);
    })
    .await;
    let before = (threads(), timerfds());
    // 200 paths no configuration allows: answered 404, nothing opened.
    for i in 0..200 {
        let url = format!("ws://{}/x{i}", s.addr());
        assert!(Client::connect(&url, Encoding::Compact).await.is_err());
    }
    assert_eq!(s.counter(Counter::RoomNotAllowed), 200);
    assert_eq!(s.rooms(), 0);
    // Upgrades that never say hello open no room.
    let mut silent = Vec::new();
    for i in 0..8 {
        silent.push(
            Client::connect(&format!("ws://{}/r{i}", s.addr()), Encoding::Compact)
                .await
                .expect("an allowed name"),
        );
    }
    assert_eq!(s.rooms(), 0);
    drop(silent);
    // Allowed names open at a hello: up to max_rooms, then 503.
    let mut open = Vec::new();
    for i in 0..4 {
        open.push(join_at(&format!("ws://{}/r{i}", s.addr()), &Identity::guest("g")).await);
    }
    assert!(
        Client::connect(&format!("ws://{}/r9", s.addr()), Encoding::Compact)
            .await
            .is_err()
    );
    assert_eq!((s.rooms(), s.counter(Counter::RoomsFull)), (4, 1));
    // The configured names are outside max_rooms: /village still opens.
    let v = join(&s, &Identity::guest("v")).await;
    assert_eq!(s.rooms(), 5);
    v.leave().await;
    // One tick clock per room: a timerfd, no thread.
    assert!(timerfds() >= before.1 + 4, "{} timerfds", timerfds());
    // Left on purpose: no grace window holds them.
    for c in open {
        c.leave().await;
    }
    // Empty for room_idle: stopped, their tasks and tick clocks (timerfds) gone.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(s.rooms(), 0);
    assert_eq!(s.counter(Counter::RoomsStopped), 5);
    // Threads and timerfds are the process's: the tests beside this one open rooms of
    // their own, whose clocks end when those tests do. This server's would not.
    let freed = |(t, f): (usize, usize)| t <= before.0 && f <= before.1;
    let mut after = (threads(), timerfds());
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while !freed(after) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = (threads(), timerfds());
    }
    assert!(
        freed(after),
        "(threads, timerfds) {after:?}, {before:?} before"
    );
    // And the name opens again.
    neighbours_still_served(&s, 0).await;
}

#[tokio::test]
async fn silent_sockets_hold_no_slot_and_are_closed() {
    let s = server(|c| {
        c.room_capacity = 3;
        c.hello_timeout = Duration::from_millis(400);
    })
    .await;
    let mut silent = Vec::new();
    for _ in 0..10 {
        silent.push(
            Client::connect(&s.url("village"), Encoding::Compact)
                .await
                .unwrap(),
        );
    }
    // Ten upgraded sockets that never said hello: the three slots are still free.
    let mut a = join(&s, &admin(1, "a")).await;
    let _b = join(&s, &admin(2, "b")).await;
    for c in &mut silent {
        assert_eq!(c.close_code(Duration::from_secs(2)).await, Some(1008));
    }
    assert_eq!(s.counter(Counter::HelloTimeout), 10);
    assert_eq!(dropped(&mut a).await["(server) hello_timeout"], 10);
    // A full room answers session:error RoomFull and closes with 1013.
    let _c = join(&s, &admin(3, "c")).await;
    let err = Client::join(&s.url("village"), &admin(4, "d")).await;
    assert!(
        err.as_ref()
            .err()
            .is_some_and(|e| e.to_string().contains("RoomFull")),
        "{:?}",
        err.err()
    );
}

/// Half-sent upgrades from two addresses take places in the small budget of connections
/// yet to say hello (per address and overall), never players' places: a player from a
/// third address joins beside them. They are closed at the handshake timeout.
#[tokio::test]
async fn partial_handshakes_time_out_and_connections_are_capped() {
    let s = server(|c| {
        c.handshake_timeout = Duration::from_millis(500);
        c.max_before_hello = 48;
        c.max_before_hello_per_ip = 20;
        c.max_connections = 40;
    })
    .await;
    let mut held = Vec::new();
    for i in 0..50 {
        let from = if i % 2 == 0 {
            [127, 0, 0, 2]
        } else {
            [127, 0, 0, 3]
        };
        let mut t = connect_from(from, s.addr()).await;
        t.write_all(b"GET /village HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        held.push(t);
    }
    // Past the budget of their addresses (20 each), closed at once.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.counter(Counter::RefusedBeforeHello), 10);
    assert_eq!(s.connections(), 40);
    // The players' places are untouched: a player joins (from 127.0.0.1, its own budget).
    let player = tokio::time::timeout(
        Duration::from_secs(10),
        Client::join(&s.url("village"), &admin(1, "p")),
    )
    .await
    .expect("in time")
    .expect("a player joins beside the half-open upgrades");
    // The rest: closed at the handshake timeout. (The 10 refused at accept read a 503
    // first.)
    let mut closed = 0;
    let mut busy = 0;
    for t in &mut held {
        let mut got = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(2), t.read_to_end(&mut got)).await;
        closed += usize::from(read.is_ok());
        busy += usize::from(got.starts_with(b"HTTP/1.1 503 "));
    }
    assert_eq!(closed, 50);
    assert_eq!(busy, 10);
    assert_eq!(s.counter(Counter::HandshakeTimeout), 40);
    assert_eq!(s.connections(), 1);
    drop(player);
    neighbours_still_served(&s, 0).await;
}

/// Upgraded sockets that never say hello fill the overall budget from several addresses.
/// A newcomer takes the oldest place, whoever holds it (closed 1013), so a player still
/// joins, and so does a newcomer from an address already holding places.
#[tokio::test]
async fn a_full_budget_before_hello_gives_way_to_a_newcomer() {
    let s = server(|c| {
        c.max_before_hello = 16;
        c.max_before_hello_per_ip = 8;
        c.hello_timeout = Duration::from_secs(30);
    })
    .await;
    // Four addresses hold four places each, in turn: the oldest is 127.0.0.2's first.
    let mut idle = Vec::new();
    for _ in 0..4 {
        for n in 2..=5 {
            idle.push(raw_upgrade_from([127, 0, 0, n], &s).await);
        }
    }
    assert_eq!(s.connections(), 16);
    // A newcomer from a fifth address is let in: the oldest socket is closed.
    let _newcomer = raw_upgrade_from([127, 0, 0, 6], &s).await;
    assert_eq!(close_frame(&mut idle[0]).await, Some(1013));
    // From an address that holds places, too: the next oldest goes (127.0.0.3's first).
    let _again = raw_upgrade_from([127, 0, 0, 2], &s).await;
    assert_eq!(close_frame(&mut idle[1]).await, Some(1013));
    // A player: 127.0.0.4's first goes.
    let player = join(&s, &admin(1, "p")).await;
    assert_eq!(close_frame(&mut idle[2]).await, Some(1013));
    assert_eq!(s.counter(Counter::EvictedBeforeHello), 3);
    assert_eq!(s.counter(Counter::RefusedBeforeHello), 0);
    // Nobody else was closed: 13 idle and the two newcomers, and the player (no longer in
    // the budget before hello).
    let mut buf = [0u8; 16];
    for t in &mut idle[3..] {
        let read = tokio::time::timeout(Duration::from_millis(20), t.read(&mut buf)).await;
        assert!(read.is_err(), "still open and silent: {read:?}");
    }
    assert_eq!(s.connections(), 16);
    drop(player);
}

/// A head dripped a byte per packet is read on the server's drip clock, not per packet
/// (the kernel holds the bytes until a read); once whole it is answered, and the
/// WebSocket's first frame is read at once: the socket is woken per packet again.
#[tokio::test]
async fn a_dripped_head_upgrades_and_its_first_frame_is_read_at_once() {
    let s = server(|_| {}).await;
    let mut t = connect_from([127, 0, 0, 1], s.addr()).await;
    t.set_nodelay(true).unwrap();
    let head = b"GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    for b in head {
        t.write_all(&[*b]).await.unwrap();
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let mut answer = Vec::new();
    let mut b = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(Duration::from_secs(2), t.read(&mut b))
            .await
            .expect("the head is answered within a drip pause or so")
            .unwrap();
        assert_eq!(n, 1, "the upgrade is answered");
        answer.push(b[0]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 101"), "{answer:?}");
    let hello = village::dispatch::ClientMessage::from(SessionHello {
        protocol: 2,
        build: "hostile".into(),
        token: None,
        locale: "en".into(),
        resume: None,
    });
    let hello = Dispatch::to_envelope(&hello, Encoding::Compact).unwrap();
    let t0 = std::time::Instant::now();
    t.write_all(&raw_frame(0x2, &hello)).await.unwrap();
    // The welcome: a binary frame, long before the hello timeout (5 s).
    let mut first = [0u8; 2];
    tokio::time::timeout(Duration::from_secs(1), t.read_exact(&mut first))
        .await
        .expect("the hello is read at once, not at a low-water mark")
        .unwrap();
    assert_eq!(first[0], 0x82, "a binary frame (the welcome)");
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    assert_eq!(s.counter(Counter::HandshakeFailed), 0);
}
