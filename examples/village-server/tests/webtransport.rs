//! WebTransport sessions meet the limits a WebSocket meets (docs/webtransport.md, "The
//! server"), over real QUIC on loopback with the `wtransport` client, each against a server
//! of its own (bounded in count and time).

use std::time::Duration;

use tuplet::{Dispatch as _, Encoding};
use village::dispatch::{ClientMessage, ServerMessage};
use village::session::SessionHello;
use village_server::counters::Counter;
use village_server::webtransport::{BIDI_STREAMS, RECEIVE_WINDOW};
use village_server::{start, Config, Server};
use wtransport::error::{ConnectingError, ConnectionError};
use wtransport::Connection;

#[path = "support/wt_client.rs"]
mod wt_client;

async fn server(tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: ([127, 0, 0, 1], 0).into(),
        webtransport: true,
        ..Config::default()
    };
    tweak(&mut config);
    start(config).await.expect("server starts")
}

/// A session to room `room` of `s`, trusting its certificate by hash as a browser does.
async fn session(s: &Server, room: &str) -> Connection {
    try_session(s, room).await.expect("the session opens")
}

/// [`session`], or why it did not open.
async fn try_session(s: &Server, room: &str) -> Result<Connection, ConnectingError> {
    let url = s.webtransport_url(room).unwrap();
    let endpoint = wt_client::endpoint(s);
    tokio::time::timeout(Duration::from_secs(5), endpoint.connect(url))
        .await
        .expect("answered within 5 s")
}

/// How the server closed `c` (code, reason), waiting at most 5 s.
async fn closed(c: &Connection) -> (u64, String) {
    let why = tokio::time::timeout(Duration::from_secs(5), c.closed())
        .await
        .expect("closed within 5 s");
    match why {
        ConnectionError::ApplicationClosed(close) => (
            close.code().into_inner(),
            String::from_utf8_lossy(close.reason()).into_owned(),
        ),
        other => panic!("closed otherwise: {other}"),
    }
}

/// A frame as the stream carries it: its length as a QUIC variable-length integer, then it.
fn framed(bytes: &[u8]) -> Vec<u8> {
    let n = bytes.len();
    let mut out = match n {
        0..=63 => vec![n as u8],
        64..=16_383 => ((n as u16) | 0x4000).to_be_bytes().to_vec(),
        _ => ((n as u32) | 0x8000_0000).to_be_bytes().to_vec(),
    };
    out.extend_from_slice(bytes);
    out
}

/// "it must open its stream and say `session:hello` on it within `hello_timeout`".
#[tokio::test]
async fn a_session_that_never_says_hello_is_closed_at_hello_timeout() {
    let s = server(|c| c.hello_timeout = Duration::from_millis(300)).await;
    let c = session(&s, "village").await;
    let t0 = std::time::Instant::now();
    assert_eq!(closed(&c).await, (1008, "no session:hello".to_string()));
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    assert_eq!(s.counter(Counter::HelloTimeout), 1);
}

/// "A length prefix over `hard_frame_cap` ends the session before its bytes arrive."
#[tokio::test]
async fn a_length_prefix_over_the_hard_cap_ends_the_session() {
    let s = server(|_| {}).await;
    let cap = Config::default().hard_frame_cap;
    let c = session(&s, "village").await;
    let (mut send, _recv) = c.open_bi().await.unwrap().await.unwrap();
    // Only the prefix: the frame's bytes never come.
    let prefix = ((cap as u32 + 1) | 0x8000_0000).to_be_bytes();
    send.write_all(&prefix).await.unwrap();
    assert_eq!(
        closed(&c).await,
        (1009, "frame over the hard cap".to_string())
    );
    assert_eq!(s.counter(Counter::ProtocolError), 1);
}

/// A hello on the stream gets `session:welcome` back on it, as over a WebSocket.
#[tokio::test]
async fn a_hello_on_the_stream_is_welcomed_on_it() {
    let s = server(|_| {}).await;
    let c = session(&s, "village").await;
    let (mut send, mut recv) = c.open_bi().await.unwrap().await.unwrap();
    let hello = ClientMessage::from(SessionHello {
        protocol: 2,
        build: "wt-test".into(),
        locale: "en".into(),
        token: None,
        resume: None,
    });
    let bytes = hello.to_envelope(Encoding::Compact).unwrap();
    send.write_all(&framed(&bytes)).await.unwrap();
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    let first = loop {
        let n = tokio::time::timeout(Duration::from_secs(5), recv.read(&mut chunk))
            .await
            .expect("an answer within 5 s")
            .unwrap()
            .expect("the stream stays open");
        got.extend_from_slice(&chunk[..n]);
        // Frames of this test's size: a one- or two-byte prefix.
        let (len, at) = match got[0] >> 6 {
            0 => (usize::from(got[0]), 1),
            _ if got.len() >= 2 => (
                usize::from(u16::from_be_bytes([got[0], got[1]]) & 0x3fff),
                2,
            ),
            _ => continue,
        };
        if got.len() >= at + len {
            break got[at..at + len].to_vec();
        }
    };
    let msg = ServerMessage::from_envelope(&first).expect("a server message");
    assert!(
        matches!(msg, ServerMessage::SessionWelcome(_)),
        "first on the stream: {msg:?}"
    );
}

/// "A path no room may take is answered 404": the session never opens, and it is counted.
#[tokio::test]
async fn a_path_no_room_may_take_is_answered_404() {
    let s = server(|_| {}).await;
    let refused = try_session(&s, "not-a-room").await;
    assert!(
        matches!(refused, Err(ConnectingError::SessionRejected)),
        "{:?}",
        refused.err()
    );
    assert_eq!(s.counter(Counter::RoomNotAllowed), 1);
    // The same server takes its room.
    drop(session(&s, "village").await);
}

/// "every frame read still passes the rate cap" needs the unread ones bounded too: a client
/// gets [`BIDI_STREAMS`] streams at once (the session's request among them), and a stream the
/// session never reads takes no more than its window, however much the client writes.
#[tokio::test]
async fn a_client_cannot_open_more_streams_or_push_more_bytes_than_the_windows() {
    let s = server(|_| {}).await;
    let c = session(&s, "village").await;
    let mut open = Vec::new();
    for _ in 0..BIDI_STREAMS + 4 {
        let opening = async { c.open_bi().await.ok()?.await.ok() };
        match tokio::time::timeout(Duration::from_millis(300), opening).await {
            Ok(Some(stream)) => open.push(stream),
            _ => break,
        }
    }
    // The session's request holds one of them.
    assert_eq!(open.len() as u32, BIDI_STREAMS - 1);
    // The first stream is the session's, read as frames; the second is never read.
    let (send, _) = &mut open[1];
    let big = vec![0u8; 2 * RECEIVE_WINDOW as usize];
    let written = tokio::time::timeout(Duration::from_millis(500), send.write_all(&big)).await;
    assert!(written.is_err(), "2 windows' worth went through unread");
}
