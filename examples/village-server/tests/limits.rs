//! The limits of docs/room-server.md, each tested as the docs state it, over real sockets
//! on loopback against a server of its own (bounded in count and time).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
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
