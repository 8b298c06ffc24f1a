//! The limits of docs/room-server.md, each tested as the docs state it, over real sockets
//! on loopback against a server of its own (bounded in count and time).

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use village_server::counters::Counter;
use village_server::{start, Config, Server};

async fn server(tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        ..Config::default()
    };
    tweak(&mut config);
    start(config).await.expect("server starts")
}

/// A valid upgrade request head of exactly `len` bytes (padded with a header).
fn head_of(len: usize) -> Vec<u8> {
    let start = "GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
                 X-Pad: ";
    let end = "\r\n\r\n";
    let pad = len - start.len() - end.len();
    format!("{start}{}{end}", "p".repeat(pad)).into_bytes()
}

/// What the server answers to `head` (its first line), or `None` when it closed without
/// an answer.
async fn answer(s: &Server, head: &[u8]) -> Option<String> {
    let mut t = TcpStream::connect(s.addr()).await.unwrap();
    t.write_all(head).await.unwrap();
    let mut buf = vec![0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(3), t.read(&mut buf))
        .await
        .expect("answered or closed within 3 s")
        .unwrap_or(0);
    (n > 0).then(|| {
        String::from_utf8_lossy(&buf[..n])
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    })
}

/// "at most 8 KiB of request head": 8,192 bytes are an upgrade, 8,193 are closed unanswered.
#[tokio::test]
async fn the_request_head_is_8_kib_at_most() {
    let s = server(|_| {}).await;
    assert_eq!(
        answer(&s, &head_of(8192)).await.as_deref(),
        Some("HTTP/1.1 101 Switching Protocols")
    );
    assert_eq!(answer(&s, &head_of(8193)).await, None);
    assert_eq!(s.counter(Counter::HandshakeFailed), 1);
}

/// The head's deadline is for the whole head, not per read: a head dripped a byte every
/// 50 ms is closed at `handshake_timeout` although every read arrives in time.
#[tokio::test]
async fn the_handshake_deadline_is_for_the_whole_head() {
    let s = server(|c| c.handshake_timeout = Duration::from_millis(600)).await;
    let mut t = TcpStream::connect(s.addr()).await.unwrap();
    t.set_nodelay(true).unwrap();
    let head = head_of(300);
    let t0 = std::time::Instant::now();
    for b in head.iter().take(100) {
        if t.write_all(&[*b]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        if s.counter(Counter::HandshakeTimeout) == 1 {
            break;
        }
    }
    assert_eq!(s.counter(Counter::HandshakeTimeout), 1);
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

/// Caps past the hard descriptor limit: the server refuses to start and says what to do.
#[tokio::test]
async fn caps_past_the_descriptor_limit_refuse_to_start() {
    let config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        max_connections: 100_000_000,
        ..Config::default()
    };
    let err = start(config).await.err().expect("refused");
    let msg = err.to_string();
    assert!(
        msg.contains("ulimit -n") && msg.contains("--max-connections"),
        "{msg}"
    );
}

/// The `Sec-WebSocket-Extensions` answer to a browser's offer, on a connection kept open.
async fn deflate_answer(s: &Server) -> (TcpStream, bool) {
    let head = "GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
                Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n";
    let mut t = TcpStream::connect(s.addr()).await.unwrap();
    t.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(3), t.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(answer.starts_with("HTTP/1.1 101"), "{answer}");
    (t, answer.contains("permessage-deflate"))
}

/// At most `max_deflate` connections compress; past it a client is served uncompressed,
/// and a place is given back when a compressing connection ends.
#[tokio::test]
async fn deflate_is_capped_in_connections() {
    let s = server(|c| c.max_deflate = 2).await;
    let (a, a_deflate) = deflate_answer(&s).await;
    let (_b, b_deflate) = deflate_answer(&s).await;
    let (_c, c_deflate) = deflate_answer(&s).await;
    assert_eq!((a_deflate, b_deflate, c_deflate), (true, true, false));
    drop(a);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(deflate_answer(&s).await.1, "a place given back");
}

/// A client frame: `first` is the first byte (FIN, RSV, opcode), masked with the zero key
/// (which leaves the payload as is) unless `unmasked`.
fn frame_with(first: u8, payload: &[u8], unmasked: bool) -> Vec<u8> {
    let mask = if unmasked { 0 } else { 0x80 };
    let mut f = vec![first];
    match payload.len() {
        n @ 0..=125 => f.push(mask | n as u8),
        n @ 126..=65535 => {
            f.push(mask | 126);
            f.extend((n as u16).to_be_bytes());
        }
        n => {
            f.push(mask | 127);
            f.extend((n as u64).to_be_bytes());
        }
    }
    if !unmasked {
        f.extend([0; 4]);
    }
    f.extend_from_slice(payload);
    f
}

fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    frame_with(first, payload, false)
}

/// A frame's header alone, for a payload of `len` bytes (the server refuses it at the
/// header: sending the payload would leave it unread, and the close a reset).
fn header_only(first: u8, len: usize) -> Vec<u8> {
    let f = frame(first, &vec![0; len]);
    f[..f.len() - len].to_vec()
}

/// A socket upgraded to room `village`, nothing more.
async fn upgraded(s: &Server) -> TcpStream {
    let mut t = TcpStream::connect(s.addr()).await.unwrap();
    t.write_all(&head_of(200)).await.unwrap();
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(t.read(&mut b).await.unwrap(), 1, "the upgrade is answered");
        head.push(b[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"));
    t
}

/// One server frame: its opcode and payload (server frames are unmasked).
async fn server_frame(t: &mut (impl AsyncRead + Unpin)) -> Option<(u8, Vec<u8>)> {
    let mut h = [0u8; 2];
    t.read_exact(&mut h).await.ok()?;
    let len = match h[1] & 0x7f {
        126 => {
            let mut b = [0u8; 2];
            t.read_exact(&mut b).await.ok()?;
            usize::from(u16::from_be_bytes(b))
        }
        127 => {
            let mut b = [0u8; 8];
            t.read_exact(&mut b).await.ok()?;
            u64::from_be_bytes(b) as usize
        }
        n => usize::from(n),
    };
    let mut payload = vec![0u8; len];
    t.read_exact(&mut payload).await.ok()?;
    Some((h[0] & 0x0f, payload))
}

/// The server's close frame (its code and reason), skipping anything before it; `None`
/// when the connection ended without one within 4 s.
async fn close_frame(t: &mut (impl AsyncRead + Unpin)) -> Option<(u16, String)> {
    let read = async {
        loop {
            let (op, payload) = server_frame(t).await?;
            if op == 0x8 {
                let code = u16::from_be_bytes([payload[0], payload[1]]);
                return Some((code, String::from_utf8_lossy(&payload[2..]).to_string()));
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(4), read)
        .await
        .ok()
        .flatten()
}

/// "Every close the server makes is a WebSocket close handshake with a code", a protocol
/// error's too: each frame RFC 6455 forbids is answered with a close frame carrying the
/// RFC's code for it and a reason, before the hello and after, and counted.
#[tokio::test]
async fn protocol_errors_are_answered_with_a_close_frame_and_its_code() {
    let s = server(|_| {}).await;
    let big = vec![1u8; 40_000];
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("unmasked", frame_with(0x82, b"x", true), 1002),
        ("reserved bit", frame(0x80 | 0x20 | 0x2, b"x"), 1002),
        (
            "compressed, none agreed",
            frame(0x80 | 0x40 | 0x2, b"x"),
            1002,
        ),
        ("undefined opcode", frame(0x83, b"x"), 1003),
        ("fragmented ping", frame(0x09, b"x"), 1002),
        ("ping over 125 bytes", header_only(0x89, 126), 1002),
        ("continuation first", frame(0x80, b"x"), 1002),
        (
            "a close reason not UTF-8",
            frame(0x88, &[0x03, 0xe8, 0xff]),
            1007,
        ),
        ("a close code not allowed", frame(0x88, &[0x03, 0xed]), 1002),
        (
            "a message begun inside another",
            [frame(0x02, b"x"), frame(0x82, b"y")].concat(),
            1002,
        ),
        (
            "one frame over 64 KiB",
            header_only(0x82, 64 * 1024 + 1),
            1009,
        ),
        (
            "fragments over 64 KiB",
            [frame(0x02, &big), frame(0x80, &big)].concat(),
            1009,
        ),
    ];
    for (what, bytes, code) in &cases {
        let mut t = upgraded(&s).await;
        t.write_all(bytes).await.unwrap();
        let close = close_frame(&mut t).await;
        let (got, reason) = close.unwrap_or_else(|| panic!("{what}: no close frame"));
        assert_eq!(got, *code, "{what}: {reason}");
        assert!(!reason.is_empty(), "{what}: a reason");
    }
    assert_eq!(s.counter(Counter::ProtocolError), cases.len() as u64);
    // After the hello too.
    let mut t = upgraded(&s).await;
    t.write_all(&frame(0x82, &hello())).await.unwrap();
    let (op, _) = server_frame(&mut t).await.unwrap();
    assert_eq!(op, 0x2, "welcomed");
    t.write_all(&frame(0x80, b"x")).await.unwrap();
    assert_eq!(close_frame(&mut t).await.map(|c| c.0), Some(1002));
    assert_eq!(s.counter(Counter::ProtocolError), cases.len() as u64 + 1);
}

/// A guest's `session:hello`, enveloped.
fn hello() -> Vec<u8> {
    use tuplet::{Dispatch, Encoding};
    let hello = village::dispatch::ClientMessage::from(village::session::SessionHello {
        protocol: 2,
        build: "limits".into(),
        token: None,
        locale: "en".into(),
        resume: None,
    });
    Dispatch::to_envelope(&hello, Encoding::Compact).unwrap()
}

/// "reads ... 400 frames/s, burst 800", every fragment counted: a hello sent in 1,200
/// fragments (1,199 of them empty) is read at the cap, so it is answered no sooner than
/// the 400 frames past the burst take (1 s); counted as one message, it was answered at
/// once.
#[tokio::test]
async fn the_read_cap_counts_every_fragment() {
    let s = server(|_| {}).await;
    let mut t = upgraded(&s).await;
    let hello = hello();
    let mut bytes = frame(0x02, &hello[..1]);
    for _ in 0..1198 {
        bytes.extend(frame(0x00, b""));
    }
    bytes.extend(frame(0x80, &hello[1..]));
    let t0 = std::time::Instant::now();
    t.write_all(&bytes).await.unwrap();
    let (op, _) = tokio::time::timeout(Duration::from_secs(3), server_frame(&mut t))
        .await
        .expect("answered within the fragment timeout")
        .unwrap();
    let took = t0.elapsed();
    assert_eq!(op, 0x2, "welcomed");
    assert!(took >= Duration::from_millis(900), "answered in {took:?}");
}

/// A fragmented message never finished (a fragment a while, for ever) is closed 1002 once
/// it is 2 s old, rather than read until the idle timeout.
#[tokio::test]
async fn a_message_never_finished_is_closed_at_the_fragment_timeout() {
    let s = server(|_| {}).await;
    let mut t = upgraded(&s).await;
    t.write_all(&frame(0x02, b"x")).await.unwrap();
    let t0 = std::time::Instant::now();
    let (mut r, mut w) = t.split();
    let drip = async {
        while w.write_all(&frame(0x00, b"x")).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        std::future::pending::<()>().await;
    };
    let (code, reason) = tokio::select! {
        close = close_frame(&mut r) => close.expect("a close frame"),
        () = drip => unreachable!(),
    };
    let took = t0.elapsed();
    assert_eq!(code, 1002, "{reason}");
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(3),
        "closed after {took:?}"
    );
    assert_eq!(s.counter(Counter::ProtocolError), 1);
}

/// The upgrade's `Sec-WebSocket-Extensions` answer to `offer` (`None`: compression
/// declined), on a socket kept open.
async fn deflate_offer(s: &Server, offer: &str) -> (TcpStream, Option<String>) {
    let head = format!(
        "GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Extensions: {offer}\r\n\r\n"
    );
    let mut t = TcpStream::connect(s.addr()).await.unwrap();
    t.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut b = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        assert_eq!(t.read(&mut b).await.unwrap(), 1, "the upgrade is answered");
        answer.push(b[0]);
    }
    let answer = String::from_utf8(answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 101"), "{answer}");
    let ext = answer
        .lines()
        .find_map(|l| l.strip_prefix("Sec-WebSocket-Extensions: "))
        .map(str::to_string);
    (t, ext)
}

/// permessage-deflate is answered as RFC 7692 says, through the real upgrade: the answer
/// never names a window larger than offered (an 8-bit server window, which zlib cannot
/// compress with, is declined; an 8-bit client window is answered without the
/// parameter), names `client_max_window_bits` only when offered, keeps
/// `server_no_context_takeover` when asked, and an offer with a parameter twice or a value
/// outside 8 to 15 is declined in favour of the next one.
#[tokio::test]
async fn deflate_offers_are_answered_as_rfc_7692_says() {
    let s = server(|_| {}).await;
    let cases: [(&str, Option<&str>); 8] = [
        (
            "permessage-deflate; client_max_window_bits",
            Some("permessage-deflate; client_max_window_bits=15"),
        ),
        ("permessage-deflate", Some("permessage-deflate")),
        ("permessage-deflate; server_max_window_bits=8", None),
        (
            "permessage-deflate; client_max_window_bits=8",
            Some("permessage-deflate"),
        ),
        (
            "permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=10",
            Some("permessage-deflate; server_max_window_bits=10"),
        ),
        (
            "permessage-deflate; server_no_context_takeover; client_max_window_bits=9",
            Some("permessage-deflate; server_no_context_takeover; client_max_window_bits=9"),
        ),
        (
            "permessage-deflate; client_max_window_bits; client_max_window_bits, permessage-deflate",
            Some("permessage-deflate"),
        ),
        ("permessage-deflate; server_max_window_bits=016", None),
    ];
    for (offer, want) in cases {
        let (_t, got) = deflate_offer(&s, offer).await;
        assert_eq!(got.as_deref(), want, "{offer}");
    }
}

/// "message size 4 KiB; 64 KiB": a 4,096-byte message reaches the room and a 4,097-byte one
/// is dropped (`(frame) too_large`); one of 65,535 bytes is dropped with the connection
/// kept, and one of 64 KiB ends it with close 1009. Fragments count together.
#[tokio::test]
async fn message_sizes_are_capped_as_stated() {
    use village_server::client::{Client, Identity};
    const KEY: &[u8] = b"limits tests' key";
    let s = server(|c| c.token_key = Some(KEY.to_vec())).await;
    let mut claims = village_server::token::Claims::player(1, "boss", 3600);
    claims.admin = true;
    let mut boss = Client::join(&s.url("village"), &Identity::signed(KEY, &claims))
        .await
        .unwrap();
    let mut t = upgraded(&s).await;
    t.write_all(&frame(0x82, &hello())).await.unwrap();
    assert_eq!(server_frame(&mut t).await.unwrap().0, 0x2, "welcomed");
    t.write_all(&frame(0x82, &[0; 4096])).await.unwrap();
    t.write_all(&frame(0x82, &[0; 4097])).await.unwrap();
    // Fragments together: 2,049 + 2,048.
    t.write_all(&[frame(0x02, &[0; 2049]), frame(0x80, &[0; 2048])].concat())
        .await
        .unwrap();
    t.write_all(&frame(0x82, &vec![0; 65_535])).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let d = boss.stats().await.unwrap().dropped.unwrap();
    assert_eq!(d.get("(frame) too_large").copied(), Some(3), "{d:?}");
    // Still connected: a ping is answered.
    t.write_all(&frame(0x89, b"hi")).await.unwrap();
    let pong = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            let (op, payload) = server_frame(&mut t).await.expect("open");
            if op == 0xA {
                return payload;
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(pong, b"hi");
    t.write_all(&frame(0x82, &vec![0; 65_536])).await.unwrap();
    assert_eq!(close_frame(&mut t).await.map(|c| c.0), Some(1009));
    assert_eq!(s.counter(Counter::ProtocolError), 1);
}

/// "players' connections (`max_connections`): taken at the hello; past it
/// `session:error RoomFull(0)`, close 1013", and the place is given back when one leaves.
#[tokio::test]
async fn players_connections_are_capped_at_the_hello() {
    let s = server(|c| {
        c.max_connections = 2;
        // Guests (these hellos carry no token) may hold every connection here.
        c.guest_share_pct = 100;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut t = upgraded(&s).await;
        t.write_all(&frame(0x82, &hello())).await.unwrap();
        assert_eq!(server_frame(&mut t).await.unwrap().0, 0x2, "welcomed");
        held.push(t);
    }
    // Upgrades are outside the cap (the budget before hello is apart): the third is
    // answered 101 and refused at its hello.
    let mut t = upgraded(&s).await;
    t.write_all(&frame(0x82, &hello())).await.unwrap();
    let (op, payload) = server_frame(&mut t).await.unwrap();
    assert_eq!(op, 0x2);
    let refused =
        <village::dispatch::ServerMessage as tuplet::Dispatch>::from_envelope(&payload).unwrap();
    assert!(
        matches!(
            &refused,
            village::dispatch::ServerMessage::SessionFailed(f)
                if f.error == village::session::SessionError::RoomFull(0)
        ),
        "{refused:?}"
    );
    assert_eq!(
        close_frame(&mut t).await,
        Some((1013, "refused_total".to_string()))
    );
    assert_eq!(s.counter(Counter::RefusedTotal), 1);
    // One leaves: its place is given back.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut t = upgraded(&s).await;
    t.write_all(&frame(0x82, &hello())).await.unwrap();
    let (_, payload) = server_frame(&mut t).await.unwrap();
    let welcome =
        <village::dispatch::ServerMessage as tuplet::Dispatch>::from_envelope(&payload).unwrap();
    assert!(
        matches!(welcome, village::dispatch::ServerMessage::SessionWelcome(_)),
        "{welcome:?}"
    );
}

/// "room size (`room_capacity`): `session:error RoomFull`, close 1013".
#[tokio::test]
async fn a_full_room_answers_room_full_and_closes_1013() {
    use village::dispatch::ServerMessage;
    let s = server(|c| c.room_capacity = 1).await;
    let mut first = upgraded(&s).await;
    first.write_all(&frame(0x82, &hello())).await.unwrap();
    let (_, payload) = server_frame(&mut first).await.unwrap();
    let welcome = <ServerMessage as tuplet::Dispatch>::from_envelope(&payload).unwrap();
    assert!(
        matches!(welcome, ServerMessage::SessionWelcome(_)),
        "{welcome:?}"
    );
    let mut second = upgraded(&s).await;
    second.write_all(&frame(0x82, &hello())).await.unwrap();
    let (_, payload) = server_frame(&mut second).await.unwrap();
    let refused = <ServerMessage as tuplet::Dispatch>::from_envelope(&payload).unwrap();
    assert!(
        matches!(
            &refused,
            ServerMessage::SessionFailed(f) if f.error == village::session::SessionError::RoomFull(1)
        ),
        "{refused:?}"
    );
    assert_eq!(
        close_frame(&mut second).await,
        Some((1013, "room full".to_string()))
    );
}
