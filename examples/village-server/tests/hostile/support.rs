//! What the hostile tests share: a server of their own, players, admins and raw sockets.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::birds::BirdSubscribe;
use village::dispatch::ServerMessage;
use village::player::PlayerMove;
use village::session::SessionHello;
use village_server::client::{Client, Identity, Incoming};
use village_server::token::Claims;
use village_server::{start, Config, Server};

pub(crate) const KEY: &[u8] = b"hostile tests' token key";

pub(crate) async fn server(tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        token_key: Some(KEY.to_vec()),
        ..Config::default()
    };
    tweak(&mut config);
    start(config).await.expect("server starts")
}

pub(crate) fn claims(account: u64, name: &str) -> Claims {
    Claims::player(account, name, 3600)
}

pub(crate) fn admin(account: u64, name: &str) -> Identity {
    let mut c = claims(account, name);
    c.admin = true;
    Identity::signed(KEY, &c)
}

pub(crate) async fn join_at(url: &str, who: &Identity) -> Client {
    tokio::time::timeout(Duration::from_secs(10), Client::join(url, who))
        .await
        .expect("joined within 10 s")
        .expect("joins")
}

pub(crate) async fn join(s: &Server, who: &Identity) -> Client {
    tokio::time::timeout(
        Duration::from_secs(10),
        Client::join(&s.url("village"), who),
    )
    .await
    .expect("joined within 10 s")
    .expect("joins")
}

pub(crate) fn named<'a>(frames: &'a [Incoming], name: &str) -> Vec<&'a Incoming> {
    frames.iter().filter(|f| f.name() == name).collect()
}

pub(crate) fn step(i: u32) -> PlayerMove {
    PlayerMove {
        p: [0.0, 0.0, i as f32 * 0.1],
        r: 0.5,
        t: u64::from(i) * 100,
        seq: Some(i),
        flags: None,
    }
}

/// A mover and a viewer beside the attack: every move the mover sends reaches the viewer.
pub(crate) async fn neighbours_still_served(s: &Server, from: u32) {
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
pub(crate) async fn dropped(c: &mut Client) -> std::collections::BTreeMap<String, u32> {
    c.stats().await.unwrap().dropped.unwrap()
}

pub(crate) fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

/// The process's open timerfds: one per room's tick clock.
pub(crate) fn timerfds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| {
                std::fs::read_link(e.path()).is_ok_and(|l| l.to_string_lossy().contains("timerfd"))
            })
            .count()
    })
}

/// A TCP connection from `source` (any 127.x address is loopback on Linux).
pub(crate) async fn connect_from(source: [u8; 4], to: std::net::SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::from((source, 0)))
        .unwrap();
    socket.connect(to).await.unwrap()
}

/// The close code of the next frame on a raw client socket, if it is a close frame.
pub(crate) async fn close_frame(t: &mut TcpStream) -> Option<u16> {
    let mut head = [0u8; 4];
    tokio::time::timeout(Duration::from_secs(2), t.read_exact(&mut head))
        .await
        .ok()?
        .ok()?;
    (head[0] == 0x88).then(|| u16::from_be_bytes([head[2], head[3]]))
}

/// A raw hello with `token`; the first answer, and the close code.
pub(crate) async fn hello_with(s: &Server, token: Option<String>) -> (ServerMessage, Option<u16>) {
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

/// A client frame (masked with the zero key, which leaves the payload as is).
pub(crate) fn raw_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut f = vec![0x80 | opcode, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    f.extend_from_slice(payload);
    f
}

/// A raw socket upgraded to room `village`, its hello (a guest's) sent: raw, as `Client`
/// (a WebSocket library) stops sending at the server's close frame, where this peer goes on.
pub(crate) async fn raw_guest(s: &Server) -> TcpStream {
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
pub(crate) async fn raw_upgrade(s: &Server) -> TcpStream {
    raw_upgrade_from([127, 0, 0, 1], s).await
}

/// A raw socket from `source` upgraded to room `village`, nothing more.
pub(crate) async fn raw_upgrade_from(source: [u8; 4], s: &Server) -> TcpStream {
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

/// A signed-in bird subscriber over a 4 KiB receive buffer that never reads.
pub(crate) async fn stall(s: &Server) -> Client {
    let who = Identity::signed(KEY, &claims(1, "stall"));
    let mut c = Client::join_small(&s.url("village"), &who, 4096)
        .await
        .unwrap();
    // Birds (about 12 KB/s to a subscriber) and snapshots, never read.
    c.send(BirdSubscribe { on: true }).await.unwrap();
    c
}

/// Reads until a `notice:show` restart notice.
pub(crate) async fn restart_notice(c: &mut Client) {
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
