//! The attacks of a hostile client, each over real sockets on loopback against a server of
//! its own, bounded in count and time (the long versions, with a 40-bot room beside them
//! and the server's RSS and CPU, are `scripts/bench hostile`). Each checks that the attack
//! is refused or bounded, that the counters name what was dropped, and that a normal
//! player beside it is served.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::birds::BirdSubscribe;
use village::chat::{Channel, ChatSay};
use village::common::WorldPos;
use village::diag::DiagBytesRequest;
use village::dispatch::ServerMessage;
use village::fishing::{FishingCast, FishingReel};
use village::player::{PlayerHeartbeat, PlayerMove};
use village::session::{SessionError, SessionHello};
use village_server::client::{Client, Identity, Incoming};
use village_server::counters::Counter;
use village_server::token::{self, Claims};
use village_server::{start, Config, Server};

const KEY: &[u8] = b"hostile tests' token key";

async fn server(tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        token_key: Some(KEY.to_vec()),
        ..Config::default()
    };
    tweak(&mut config);
    start(config).await.expect("server starts")
}

fn claims(account: u64, name: &str) -> Claims {
    Claims::player(account, name, 3600)
}

fn admin(account: u64, name: &str) -> Identity {
    let mut c = claims(account, name);
    c.admin = true;
    Identity::signed(KEY, &c)
}

async fn join_at(url: &str, who: &Identity) -> Client {
    tokio::time::timeout(Duration::from_secs(10), Client::join(url, who))
        .await
        .expect("joined within 10 s")
        .expect("joins")
}

async fn join(s: &Server, who: &Identity) -> Client {
    tokio::time::timeout(
        Duration::from_secs(10),
        Client::join(&s.url("village"), who),
    )
    .await
    .expect("joined within 10 s")
    .expect("joins")
}

fn named<'a>(frames: &'a [Incoming], name: &str) -> Vec<&'a Incoming> {
    frames.iter().filter(|f| f.name() == name).collect()
}

fn step(i: u32) -> PlayerMove {
    PlayerMove {
        p: [0.0, 0.0, i as f32 * 0.1],
        r: 0.5,
        t: u64::from(i) * 100,
        seq: Some(i),
        flags: None,
    }
}

/// A mover and a viewer beside the attack: every move the mover sends reaches the viewer.
async fn neighbours_still_served(s: &Server, from: u32) {
    let mut mover = join(s, &admin(900 + u64::from(from), "mover")).await;
    let mut viewer = join(s, &admin(950 + u64::from(from), "viewer")).await;
    for i in 1..=5 {
        mover.send(step(i)).await.unwrap();
    }
    mover.sync().await.unwrap();
    let seen: Vec<u32> = named(&viewer.sync().await.unwrap(), "player:move")
        .iter()
        .map(|f| match f.decode().unwrap() {
            ServerMessage::PlayerMoveRelayed(m) => m.seq.unwrap(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(seen, [1, 2, 3, 4, 5], "every valid move relayed");
}

/// The room's drop counts, read by an admin.
async fn dropped(c: &mut Client) -> std::collections::BTreeMap<String, u32> {
    c.stats().await.unwrap().dropped.unwrap()
}

fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

/// The process's open timerfds: one per room's tick clock.
fn timerfds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| {
                std::fs::read_link(e.path()).is_ok_and(|l| l.to_string_lossy().contains("timerfd"))
            })
            .count()
    })
}

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
    let after = (threads(), timerfds());
    assert!(
        after.0 <= before.0 && after.1 <= before.1,
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

/// A TCP connection from `source` (any 127.x address is loopback on Linux).
async fn connect_from(source: [u8; 4], to: std::net::SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::from((source, 0)))
        .unwrap();
    socket.connect(to).await.unwrap()
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

/// The close code of the next frame on a raw client socket, if it is a close frame.
async fn close_frame(t: &mut TcpStream) -> Option<u16> {
    let mut head = [0u8; 4];
    tokio::time::timeout(Duration::from_secs(2), t.read_exact(&mut head))
        .await
        .ok()?
        .ok()?;
    (head[0] == 0x88).then(|| u16::from_be_bytes([head[2], head[3]]))
}

/// A raw hello with `token`; the first answer, and the close code.
async fn hello_with(s: &Server, token: Option<String>) -> (ServerMessage, Option<u16>) {
    let mut c = Client::connect(&s.url("village"), Encoding::Compact)
        .await
        .unwrap();
    c.send(SessionHello {
        protocol: 2,
        build: "hostile".into(),
        token,
        locale: "en".into(),
        resume: None,
    })
    .await
    .unwrap();
    let first = c.next_message().await.unwrap();
    let code = match first {
        ServerMessage::SessionFailed(_) => c.close_code(Duration::from_secs(2)).await,
        _ => None,
    };
    (first, code)
}

#[tokio::test]
async fn forged_expired_and_missing_tokens() {
    let s = server(|_| {}).await;
    let forged = token::mint(b"not the server's key", &claims(1, "mallory"));
    let mut expired = claims(2, "late");
    expired.exp = token::now_s() - 1;
    let expired = token::mint(KEY, &expired);
    // The server's own token with its claims changed after signing (an admin claim added).
    let genuine = token::mint(KEY, &claims(3, "eve"));
    let (body, tag) = genuine.rsplit_once('.').unwrap();
    let mut raised = claims(3, "eve");
    raised.admin = true;
    let raised_body = token::mint(KEY, &raised);
    let raised_body = raised_body.rsplit_once('.').unwrap().0;
    assert_ne!(body, raised_body);
    let tampered = format!("{raised_body}.{tag}");
    let cases = [
        (Some(forged), "forged", SessionError::TokenInvalid),
        (Some(tampered), "tampered", SessionError::TokenInvalid),
        (Some(expired), "expired", SessionError::TokenExpired),
        (
            Some("bot-token-0123456789".into()),
            "any 16 characters",
            SessionError::TokenInvalid,
        ),
        (
            Some("v1.e30.not+base64url".into()),
            "a MAC that is not base64url",
            SessionError::TokenInvalid,
        ),
    ];
    for (tok, what, want) in cases {
        let (answer, code) = hello_with(&s, tok).await;
        let ServerMessage::SessionFailed(f) = answer else {
            panic!("{what}: {answer:?}");
        };
        assert!(f.fatal, "{what}");
        assert_eq!(f.error, want, "{what}");
        assert_eq!(code, Some(1008), "{what}");
    }
    // Each counted by what was wrong with it.
    let counted = [
        Counter::TokenForged,
        Counter::TokenExpired,
        Counter::TokenMalformed,
    ]
    .map(|c| s.counter(c));
    assert_eq!(counted, [2, 1, 2], "forged, expired, malformed");
    // No token: a guest, no account; a valid one: the token's account.
    let (guest, _) = hello_with(&s, None).await;
    assert!(matches!(guest, ServerMessage::SessionWelcome(w) if w.account.is_none()));
    let (member, _) = hello_with(&s, Some(token::mint(KEY, &claims(77, "ok")))).await;
    assert!(matches!(member, ServerMessage::SessionWelcome(w) if w.account == Some(77)));
}

#[tokio::test]
async fn guests_get_no_birds_and_non_admins_no_diagnostics() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut guest = join(&s, &Identity::guest("guest")).await;
    let mut player = join(&s, &Identity::signed(KEY, &claims(1, "player"))).await;
    let mut boss = join(&s, &admin(2, "boss")).await;
    for c in [&mut guest, &mut player] {
        c.send(BirdSubscribe { on: true }).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(named(&guest.sync().await.unwrap(), "birds:stream").is_empty());
    assert!(!named(&player.sync().await.unwrap(), "birds:stream").is_empty());
    // Without the admin claim: the pong has no stats, diag:bytes no answer.
    for c in [&mut guest, &mut player] {
        assert!(c.stats().await.is_err(), "no stats without admin");
        c.send(DiagBytesRequest { reset: true }).await.unwrap();
        assert!(named(&c.sync().await.unwrap(), "diag:bytes").is_empty());
    }
    let d = dropped(&mut boss).await;
    assert_eq!(
        d["birds:subscribe guest_birds"], 1,
        "the guest's subscribe refused"
    );
    assert_eq!(d["diag:ping not_admin"], 2);
    assert_eq!(d["diag:bytes not_admin"], 2);
    boss.send(DiagBytesRequest { reset: false }).await.unwrap();
    assert_eq!(named(&boss.sync().await.unwrap(), "diag:bytes").len(), 1);
}

#[tokio::test]
async fn chat_channels_reach_their_members_only() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 6]).await;
    let member = |account, name: &str, party, staff| {
        let mut c = claims(account, name);
        c.party = party;
        c.staff = staff;
        Identity::signed(KEY, &c)
    };
    let mut a = join(&s, &member(1, "a", Some(1), false)).await;
    let mut b = join(&s, &member(2, "b", Some(1), false)).await;
    let mut c = join(&s, &member(3, "c", Some(2), true)).await;
    let mut g = join(&s, &Identity::guest("g")).await;
    let mut boss = join(&s, &admin(5, "boss")).await;
    let say = |text: &str, channel| ChatSay {
        text: text.into(),
        channel,
        reply_to: None,
    };
    a.send(say("party one", Channel::Party)).await.unwrap();
    c.send(say("staff only", Channel::Staff)).await.unwrap();
    // Another party's line: its own members only (here c alone), never party 1.
    c.send(say("party two", Channel::Party)).await.unwrap();
    g.send(say("guest party", Channel::Party)).await.unwrap();
    g.send(say("guest staff", Channel::Staff)).await.unwrap();
    g.send(say("guest trade", Channel::Trade)).await.unwrap();
    b.send(say("fake staff", Channel::Staff)).await.unwrap();
    g.send(say("guest room", Channel::Room)).await.unwrap();
    // Each sender's sync: its lines are handled. Then each listener's: all it heard.
    let mut frames: Vec<Vec<Incoming>> = Vec::new();
    for x in [&mut a, &mut b, &mut c, &mut g] {
        frames.push(x.sync().await.unwrap());
    }
    for (x, f) in [&mut a, &mut b, &mut c, &mut g]
        .into_iter()
        .zip(&mut frames)
    {
        f.extend(x.sync().await.unwrap());
    }
    let heard: Vec<Vec<String>> = frames
        .iter()
        .map(|f| {
            let mut lines: Vec<String> = named(f, "chat:message")
                .iter()
                .map(|f| match f.decode().unwrap() {
                    ServerMessage::ChatLine(l) => l.text,
                    other => panic!("{other:?}"),
                })
                .collect();
            lines.sort();
            lines
        })
        .collect();
    assert_eq!(heard[0], ["guest room", "party one"], "a, party 1");
    assert_eq!(heard[1], ["guest room", "party one"], "b, party 1");
    assert_eq!(
        heard[2],
        ["guest room", "party two", "staff only"],
        "c, party 2, staff"
    );
    assert_eq!(heard[3], ["guest room"], "the guest");
    let d = dropped(&mut boss).await;
    assert_eq!(d["chat:message not_in_party"], 1, "{d:?}");
    assert_eq!(d["chat:message not_staff"], 2, "{d:?}");
    assert_eq!(d["chat:message guest_channel"], 1, "{d:?}");
}

/// A guest's chat line carries the guest mark to every listener, on every channel a guest
/// may use, and a signed-in player's never does: a guest cannot pass for a signed-in
/// player in chat, even under a name that looks like one.
#[tokio::test]
async fn a_guests_chat_lines_are_marked() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut fay = join(&s, &Identity::signed(KEY, &claims(1, "Fay"))).await;
    let mut g = join(&s, &Identity::guest("Fay Official")).await;
    // An old client (the named shape) hears the mark too.
    let mut old = join(
        &s,
        &Identity {
            old_shape: true,
            ..Identity::guest("listener")
        },
    )
    .await;
    let say = |text: &str, channel| ChatSay {
        text: text.into(),
        channel,
        reply_to: None,
    };
    g.send(say("guest room", Channel::Room)).await.unwrap();
    g.send(say("guest local", Channel::Local)).await.unwrap();
    fay.send(say("fay room", Channel::Room)).await.unwrap();
    fay.send(say("fay local", Channel::Local)).await.unwrap();
    // Each sender's sync: its lines are handled. Then each listener's: all it heard.
    let mut heard = vec![
        g.sync().await.unwrap(),
        fay.sync().await.unwrap(),
        Vec::new(),
    ];
    for (x, frames) in [&mut g, &mut fay, &mut old].into_iter().zip(&mut heard) {
        frames.extend(x.sync().await.unwrap());
    }
    for (who, frames) in ["guest", "fay", "old"].into_iter().zip(&heard) {
        let mut lines: Vec<(String, Option<bool>)> = named(frames, "chat:message")
            .iter()
            .map(|f| match f.decode().unwrap() {
                ServerMessage::ChatLine(l) => (l.text, l.guest),
                other => panic!("{other:?}"),
            })
            .collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                ("fay local".to_string(), None),
                ("fay room".to_string(), None),
                ("guest local".to_string(), Some(true)),
                ("guest room".to_string(), Some(true)),
            ],
            "{who} hears"
        );
    }
}

#[tokio::test]
async fn names_are_unique_and_a_reel_needs_a_cast() {
    let s = server(|c| c.spawns = vec![[0.0; 3]; 4]).await;
    let mut boss = join(&s, &admin(3, "boss")).await;
    let mut ana = join(&s, &Identity::signed(KEY, &claims(1, "Ana"))).await;
    let mut other = join(&s, &Identity::signed(KEY, &claims(2, "Ana"))).await;
    let _fake = join(&s, &Identity::guest("ana")).await;
    let names: Vec<String> = named(&boss.sync().await.unwrap(), "player:joined")
        .iter()
        .map(|f| match f.decode().unwrap() {
            ServerMessage::PlayerJoined(j) => j.name,
            other => panic!("{other:?}"),
        })
        .collect();
    // Signed-in names are reserved: the guest asking for "ana" gets a generated name.
    assert_eq!(names.len(), 3);
    assert_eq!(names[..2], ["Ana", "Ana 2"]);
    assert!(names[2].starts_with("Villager"), "{names:?}");
    // A reel with no line in the water lands nothing.
    let reel = FishingReel {
        tension: 0.5,
        line: 0.0,
    };
    other.send(reel.clone()).await.unwrap();
    assert!(named(&other.sync().await.unwrap(), "fishing:catch").is_empty());
    let cast = FishingCast {
        bobber: WorldPos {
            x: 1.0,
            y: 0.0,
            z: 1.0,
        },
        power: 0.5,
        bait: None,
    };
    ana.send(cast).await.unwrap();
    ana.send(reel.clone()).await.unwrap();
    ana.send(reel).await.unwrap();
    assert_eq!(named(&ana.sync().await.unwrap(), "fishing:catch").len(), 1);
    let d = dropped(&mut boss).await;
    assert_eq!(d["fishing:reel no_cast"], 2, "{d:?}");
}

#[tokio::test]
async fn many_kinds_of_bad_input_never_break_the_diagnostics() {
    let s = server(|c| {
        c.rate_per_s = 10_000.0;
        c.rate_burst = 10_000.0;
    })
    .await;
    let mut attacker = join(&s, &Identity::guest("x")).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    // A bad payload under 200 different message ids, plus a few bad frames.
    let ids: Vec<u32> = village::dispatch::ClientMessage::MESSAGES
        .iter()
        .map(|m| m.1)
        .take(200)
        .collect();
    assert!(ids.len() >= 100);
    for &id in &ids {
        let mut frame = Vec::new();
        tuplet::wire::write::uint(&mut frame, u64::from(id));
        frame.push(0xc1);
        attacker.feed_raw(frame).await.unwrap();
    }
    attacker.feed_raw(vec![0xc1]).await.unwrap();
    attacker.flush().await.unwrap();
    attacker.send_text("{}").await.unwrap();
    attacker.sync().await.unwrap();
    let d = dropped(&mut boss).await;
    assert!(d.len() <= 64, "{} keys", d.len());
    assert!(
        d["(other)"] > 0,
        "the pairs past the cap are counted together"
    );
    assert_eq!(d["(frame) text_frame"], 1);
    let counted: u32 = d
        .iter()
        .filter(|(k, _)| !k.starts_with("(frame)") && !k.starts_with("(server)"))
        .map(|(_, v)| v)
        .sum();
    assert_eq!(counted as usize, ids.len() + 1, "{d:?}");
}

#[tokio::test]
async fn floods_of_every_frame_kind_stop_at_the_connection_and_the_flooder_is_closed() {
    let s = server(|c| c.flood_close_s = 2).await;
    let mut flooder = join(&s, &Identity::guest("flood")).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    let accepted_before = boss.stats().await.unwrap().accepted.unwrap();
    let beat = Dispatch::to_envelope(
        &village::dispatch::ClientMessage::from(PlayerHeartbeat {
            t: 1,
            visible: true,
            fps: None,
        }),
        Encoding::Compact,
    )
    .unwrap();
    let mut sent = 0u32;
    let until = tokio::time::Instant::now() + Duration::from_secs(4);
    let mut closed = false;
    while tokio::time::Instant::now() < until {
        let ok = match sent % 3 {
            0 => flooder.feed_raw(beat.clone()).await.is_ok(),
            1 => flooder.send_text("x").await.is_ok(),
            _ => flooder.send_ping().await.is_ok(),
        } && flooder.flush().await.is_ok();
        if !ok {
            closed = true;
            break;
        }
        sent += 1;
        if sent.is_multiple_of(300) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let code = flooder.close_code(Duration::from_secs(3)).await;
    assert!(
        closed || code == Some(1008),
        "closed: {closed}, code {code:?}"
    );
    assert_eq!(s.counter(Counter::Flooding), 1);
    let stats = boss.stats().await.unwrap();
    let d = stats.dropped.unwrap();
    let limited = d["(frame) rate_limited"];
    assert!(limited > 100, "{limited} of {sent} rate-limited");
    // What reached the room: at most the burst plus the rate over the flood (plus the
    // boss's own pings), not the flood.
    let reached = stats.accepted.unwrap() - accepted_before;
    assert!(
        reached < 80 + 40 * 5 + 10,
        "{reached} of {sent} frames reached the room"
    );
    neighbours_still_served(&s, 1).await;
}

/// A flood past ten times the rate cap is not read: the connection stops reading and the
/// sender blocks, so what a flood costs the server is bounded by the cap, not by how fast
/// the sender writes.
#[tokio::test]
async fn a_flood_is_read_at_ten_times_the_rate_at_most() {
    let s = server(|_| {}).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    flood_is_capped(&mut boss, raw_guest(&s).await).await;
    neighbours_still_served(&s, 6).await;
    // Before its hello too (the upgrade alone, then the flood), on a server of its own: the
    // first flooder's connection is still reading what the kernel holds for it.
    let s = server(|_| {}).await;
    let mut boss = join(&s, &admin(1, "boss")).await;
    flood_is_capped(&mut boss, raw_upgrade(&s).await).await;
}

/// Floods text frames from `raw` for up to 1.5 s: the server reads at most what the read
/// cap lets through (the room's frame drops, read by `boss` before and after).
async fn flood_is_capped(boss: &mut Client, mut raw: TcpStream) {
    let before = dropped(boss).await;
    let count = |d: &std::collections::BTreeMap<String, u32>| {
        d.get("(frame) rate_limited").copied().unwrap_or(0)
            + d.get("(frame) text_frame").copied().unwrap_or(0)
    };
    let t0 = tokio::time::Instant::now();
    let frames: Vec<u8> = (0..1000).flat_map(|_| raw_frame(0x1, b"x")).collect();
    let mut written = 0u32;
    while t0.elapsed() < Duration::from_millis(1500) {
        match tokio::time::timeout(Duration::from_millis(200), raw.write_all(&frames)).await {
            Ok(Ok(())) => written += 1000,
            // Blocked: the server is not reading (the kernel's buffers are full).
            _ => break,
        }
    }
    let d = dropped(boss).await;
    let secs = t0.elapsed().as_secs_f64();
    let read = count(&d) - count(&before);
    // The read bucket: 800 at once, 400 a second (10 times the default 80 and 40).
    let most = 800.0 + 400.0 * secs + 50.0;
    assert!(f64::from(read) <= most, "{read} frames read in {secs:.2} s");
    assert!(written > 4 * read, "{written} written, {read} read");
}

/// A client frame (masked with the zero key, which leaves the payload as is).
fn raw_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut f = vec![0x80 | opcode, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    f.extend_from_slice(payload);
    f
}

/// A raw socket upgraded to room `village`, its hello (a guest's) sent: raw, as `Client`
/// (a WebSocket library) stops sending at the server's close frame, where this peer goes on.
async fn raw_guest(s: &Server) -> TcpStream {
    let mut t = raw_upgrade(s).await;
    let hello = village::dispatch::ClientMessage::from(SessionHello {
        protocol: 2,
        build: "hostile".into(),
        token: None,
        locale: "en".into(),
        resume: None,
    });
    let hello = Dispatch::to_envelope(&hello, Encoding::Compact).unwrap();
    t.write_all(&raw_frame(0x2, &hello)).await.unwrap();
    t
}

/// A raw socket upgraded to room `village`, nothing more.
async fn raw_upgrade(s: &Server) -> TcpStream {
    raw_upgrade_from([127, 0, 0, 1], s).await
}

/// A raw socket from `source` upgraded to room `village`, nothing more.
async fn raw_upgrade_from(source: [u8; 4], s: &Server) -> TcpStream {
    let mut t = connect_from(source, s.addr()).await;
    t.write_all(
        b"GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .await
    .unwrap();
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(t.read(&mut b).await.unwrap(), 1, "the upgrade is answered");
        head.push(b[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"));
    t
}

#[tokio::test]
async fn a_peer_pinging_through_the_close_is_let_go_at_once() {
    // Closed at its first frame over the rate: the 81st ping.
    let s = server(|c| c.flood_close_s = 1).await;
    let (mut r, mut w) = raw_guest(&s).await.into_split();
    let t0 = tokio::time::Instant::now();
    // It reads everything (pongs, the close frame) until the server lets it go.
    let reader = tokio::spawn(async move {
        let mut b = vec![0u8; 64 * 1024];
        while matches!(r.read(&mut b).await, Ok(n) if n > 0) {}
        t0.elapsed()
    });
    // And pings flat out, through the close, for up to 3 s.
    let pings: Vec<u8> = (0..256).flat_map(|_| raw_frame(0x9, b"ping")).collect();
    while t0.elapsed() < Duration::from_secs(3) && !reader.is_finished() {
        if w.write_all(&pings).await.is_err() {
            break;
        }
    }
    let ended = reader.await.unwrap();
    assert_eq!(s.counter(Counter::Flooding), 1);
    // Read for a second it would have been (each ping a queued pong); now the server reads
    // 64 frames of the close and drops the connection.
    assert!(
        ended < Duration::from_millis(500),
        "let go {ended:?} after the flood began"
    );
    drop(w);
    neighbours_still_served(&s, 4).await;
}

/// A signed-in bird subscriber over a 4 KiB receive buffer that never reads.
async fn stall(s: &Server) -> Client {
    let who = Identity::signed(KEY, &claims(1, "stall"));
    let mut c = Client::join_small(&s.url("village"), &who, 4096)
        .await
        .unwrap();
    // Birds (about 12 KB/s to a subscriber) and snapshots, never read.
    c.send(BirdSubscribe { on: true }).await.unwrap();
    c
}

#[tokio::test]
async fn a_reader_blocked_past_the_write_timeout_is_dropped() {
    let s = server(|c| {
        c.write_timeout = Duration::from_millis(1000);
        c.send_buffer = 4096;
    })
    .await;
    let stalled = stall(&s).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while s.counter(Counter::WriteTimeout) == 0 || s.connections() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not dropped in 20 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(stalled);
    neighbours_still_served(&s, 3).await;
}

#[tokio::test]
async fn a_stalled_reader_is_evicted_and_its_neighbours_lose_nothing() {
    let s = server(|c| {
        c.queue_bytes = 16 * 1024;
        c.behind_close = Duration::from_millis(500);
        c.write_timeout = Duration::from_secs(60);
        c.send_buffer = 4096;
        c.spawns = vec![[0.0; 3]; 4];
    })
    .await;
    let stalled = stall(&s).await;
    let mut boss = join(&s, &admin(2, "boss")).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while s.counter(Counter::EvictedSlow) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not evicted in 20 s"
        );
        boss.sync().await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let stats = boss.stats().await.unwrap();
    assert!(stats.unsent.unwrap() > 0);
    assert_eq!(stats.dropped.unwrap()["(server) evicted_slow"], 1);
    // Its slot is free at once (its writer, blocked, ends at the write timeout: the test
    // above).
    let (before, stats_after) = (stats.accepted, boss.stats().await.unwrap());
    assert!(stats_after.accepted > before);
    // Once it reads again, what was queued comes out, then the close: 1008.
    let mut stalled = stalled;
    assert_eq!(stalled.close_code(Duration::from_secs(5)).await, Some(1008));
    neighbours_still_served(&s, 2).await;
}

#[tokio::test]
async fn closes_are_handshakes_both_ways() {
    let s = server(|c| c.idle_timeout = Duration::from_millis(500)).await;
    let c = join(&s, &Identity::guest("polite")).await;
    assert!(c.close_answered().await, "the server answers a close frame");
    let mut idle = join(&s, &Identity::guest("idle")).await;
    assert_eq!(idle.close_code(Duration::from_secs(3)).await, Some(1001));
    assert_eq!(s.counter(Counter::IdleTimeout), 1);
}

/// Reads until a `notice:show` restart notice.
async fn restart_notice(c: &mut Client) {
    loop {
        let f = c
            .next_within(Duration::from_secs(5))
            .await
            .expect("a notice");
        if let Ok(ServerMessage::NoticeShow(n)) = f.decode() {
            assert!(matches!(
                n.body,
                village::notices::NoticeBody::Restart { .. }
            ));
            return;
        }
    }
}

#[tokio::test]
async fn drain_tells_players_refuses_newcomers_and_ends_when_they_leave() {
    let s = server(|_| {}).await;
    let mut a = join(&s, &Identity::guest("a")).await;
    let mut b = join(&s, &Identity::guest("b")).await;
    let players = async {
        restart_notice(&mut a).await;
        restart_notice(&mut b).await;
        assert!(Client::connect(&s.url("village"), Encoding::Compact)
            .await
            .is_err());
        a.close().await;
        b.close().await;
    };
    let t0 = std::time::Instant::now();
    let (left, ()) = tokio::join!(s.drain(Duration::from_secs(20)), players);
    assert_eq!(left, 0);
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "ended when they left"
    );

    // One who stays: the drain ends at the grace.
    let s = server(|_| {}).await;
    let mut stays = join(&s, &Identity::guest("stays")).await;
    let t0 = std::time::Instant::now();
    let (left, ()) = tokio::join!(
        s.drain(Duration::from_millis(800)),
        restart_notice(&mut stays)
    );
    assert_eq!(left, 1);
    assert!(t0.elapsed() >= Duration::from_millis(800));
}

/// The binary drains on SIGTERM and exits.
#[tokio::test]
async fn sigterm_drains_and_exits() {
    use std::process::Stdio;
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_village-server"))
        .args(["--addr", "127.0.0.1:0", "--drain-grace", "10"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next_line().await.unwrap().unwrap();
    let url = line.split("listening on ").nth(1).unwrap().to_string() + "village";
    let mut c = Client::join(&url, &Identity::guest("p")).await.unwrap();
    let pid = child.id().unwrap();
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    restart_notice(&mut c).await;
    c.close().await;
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait())
        .await
        .expect("exits once the player left")
        .unwrap();
    assert!(status.success());
}

/// Guests filling a room: at most `guests_per_room` get in, and a signed-in player still
/// finds its place; with `guests` off none does; `per_ip_per_room` caps one address.
#[tokio::test]
async fn guests_cannot_fill_a_room_and_can_be_refused() {
    let s = server(|c| {
        c.room_capacity = 10;
        c.guests_per_room = 4;
    })
    .await;
    let mut guests = Vec::new();
    let mut refused = 0;
    for i in 0..10 {
        match Client::join(&s.url("village"), &Identity::guest(&format!("g{i}"))).await {
            Ok(c) => guests.push(c),
            Err(e) => {
                assert!(e.to_string().contains("RoomFull"), "{e}");
                refused += 1;
            }
        }
    }
    assert_eq!((guests.len(), refused), (4, 6));
    let mut member = join(&s, &admin(1, "member")).await;
    assert_eq!(dropped(&mut member).await["session:hello guests_full"], 6);

    let s = server(|c| c.guests = false).await;
    let err = Client::join(&s.url("village"), &Identity::guest("g")).await;
    assert!(err
        .err()
        .is_some_and(|e| e.to_string().contains("RoomFull")));
    let mut member = join(&s, &admin(1, "member")).await;
    assert_eq!(
        dropped(&mut member).await["session:hello guests_refused"],
        1
    );

    let s = server(|c| c.per_ip_per_room = 2).await;
    let _a = join(&s, &admin(1, "a")).await;
    let mut b = join(&s, &admin(2, "b")).await;
    let err = Client::join(&s.url("village"), &admin(3, "c")).await;
    assert!(err
        .err()
        .is_some_and(|e| e.to_string().contains("RoomFull")));
    assert_eq!(dropped(&mut b).await["session:hello ip_full"], 1);
}

/// Identity: a guest cannot take a signed-in player's name, nor a look-alike of it; names
/// hiding characters (blank braille, stacked combining marks) or mixing scripts are refused; either way the guest still joins, under a generated name.
#[tokio::test]
async fn guests_cannot_take_or_mimic_a_signed_in_name() {
    let s = server(|_| {}).await;
    let mut fay = join(&s, &admin(1, "Fay")).await;
    let names = |frames: &[Incoming]| -> Vec<String> {
        frames
            .iter()
            .filter_map(|f| match f.decode() {
                Ok(ServerMessage::PlayerJoined(j)) => Some(j.name),
                _ => None,
            })
            .collect()
    };
    for (ask, code) in [
        ("Fay", "name_reserved"),
        ("fay", "name_reserved"),
        ("F\u{430}y", "name_confusable"),
        ("\u{2800}", "name_hidden"),
        ("Fa\u{301}\u{302}\u{303}y", "name_hidden"),
        ("Ｆａｙ", "name_reserved"),
        ("Fa\u{200B}y", "name_hidden"),
        ("Fay\u{202E}", "name_hidden"),
        ("Ana\nAdmin", "name_hidden"),
    ] {
        let _g = join(&s, &Identity::guest(ask)).await;
        let seen = names(&fay.sync().await.unwrap());
        assert_eq!(seen.len(), 1, "{ask:?}");
        assert!(
            seen[0].starts_with("Villager"),
            "{ask:?} joined as {:?}",
            seen[0]
        );
        assert!(dropped(&mut fay).await[&format!("player:join {code}")] >= 1);
    }
    // A plain name is kept, normalized.
    let _g = join(&s, &Identity::guest("  Gus   Lee ")).await;
    assert_eq!(names(&fay.sync().await.unwrap()), ["Gus Lee"]);
    // A second signed-in Fay (another account) gets a suffix, never the guest's way.
    let _f2 = join(&s, &admin(2, "Fay")).await;
    assert_eq!(names(&fay.sync().await.unwrap()), ["Fay 2"]);
}
