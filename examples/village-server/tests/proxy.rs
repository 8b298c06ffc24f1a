//! Clients behind trusted proxies (docs/room-server.md, "Behind a load balancer"), over
//! real sockets on loopback (any 127.x address is loopback on Linux, so a test has as many
//! peers as it needs): a trusted proxy's `X-Forwarded-For` or PROXY protocol header (v1 and
//! v2, built by the `ppp` crate, an implementation of its own) names the client every
//! per-address cap counts; an untrusted peer's header is ignored; a trusted proxy's
//! malformed or oversized header is answered 400 with why.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tuplet::{Dispatch, Encoding};
use village::dispatch::{ClientMessage, ServerMessage};
use village::session::SessionHello;
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

/// How the server answered.
#[derive(Debug, PartialEq)]
enum Answer {
    /// Upgraded and welcomed (the socket is kept open, holding its places).
    Welcome,
    /// Upgraded, then refused at the hello: the close frame's code and reason.
    Refused(u16, String),
    /// Answered HTTP: the status line and the body.
    Http(String, String),
    /// Closed without a word.
    Closed,
}

/// A TCP connection from `source`.
async fn connect_from(source: [u8; 4], to: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((source, 0))).unwrap();
    socket.connect(to).await.unwrap()
}

/// The upgrade request for `/village`, with `X-Forwarded-For: xff` when given.
fn head(xff: Option<&str>) -> Vec<u8> {
    let mut h = "GET /village HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        .to_string();
    if let Some(xff) = xff {
        h.push_str(&format!("X-Forwarded-For: {xff}\r\n"));
    }
    h.push_str("\r\n");
    h.into_bytes()
}

/// A client frame (masked with the zero key, which leaves the payload as is).
fn client_frame(payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut f = vec![0x82, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    f.extend_from_slice(payload);
    f
}

/// One server frame: its opcode and payload (server frames are unmasked).
async fn server_frame(t: &mut TcpStream) -> Option<(u8, Vec<u8>)> {
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

/// Sends `parts` (each its own write) from `source`, then a guest's hello if upgraded.
/// The socket is returned so a welcomed one keeps its places.
async fn try_join(s: &Server, source: [u8; 4], parts: &[Vec<u8>]) -> (Answer, TcpStream) {
    let mut t = connect_from(source, s.addr()).await;
    for p in parts {
        t.write_all(p).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let answer = tokio::time::timeout(Duration::from_secs(5), read_answer(&mut t))
        .await
        .expect("answered within 5 s");
    (answer, t)
}

async fn read_answer(t: &mut TcpStream) -> Answer {
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match t.read(&mut b).await {
            Ok(1) => head.push(b[0]),
            _ if head.is_empty() => return Answer::Closed,
            _ => panic!("a cut answer: {}", String::from_utf8_lossy(&head)),
        }
    }
    let head = String::from_utf8(head).unwrap();
    let status = head.lines().next().unwrap().to_string();
    if !status.starts_with("HTTP/1.1 101") {
        // The body, then the server's close.
        let mut body = String::new();
        t.read_to_string(&mut body).await.unwrap();
        return Answer::Http(status, body.trim_end().to_string());
    }
    let hello = ClientMessage::from(SessionHello {
        protocol: 2,
        build: "proxy".into(),
        token: None,
        locale: "en".into(),
        resume: None,
    });
    let hello = Dispatch::to_envelope(&hello, Encoding::Compact).unwrap();
    t.write_all(&client_frame(&hello)).await.unwrap();
    loop {
        let Some((op, payload)) = server_frame(t).await else {
            return Answer::Closed;
        };
        match op {
            0x2 => match ServerMessage::from_envelope(&payload).unwrap() {
                ServerMessage::SessionWelcome(_) => return Answer::Welcome,
                _ => continue,
            },
            0x8 => {
                let code = u16::from_be_bytes([payload[0], payload[1]]);
                let reason = String::from_utf8_lossy(&payload[2..]).to_string();
                return Answer::Refused(code, reason);
            }
            _ => continue,
        }
    }
}

fn xff(value: &str) -> Vec<Vec<u8>> {
    vec![head(Some(value))]
}

const PROXY: [u8; 4] = [127, 0, 0, 1];
const OTHER: [u8; 4] = [127, 0, 0, 2];

fn refused_per_ip() -> Answer {
    Answer::Refused(1013, "refused_per_ip".into())
}

/// Behind a trusted proxy, `X-Forwarded-For` names the client: one player per address
/// (`max_per_ip` 1) lets two forwarded clients in through the one proxy and refuses a
/// second from either; the budget before hello (1 per address) counts forwarded clients
/// too, and never the proxy itself.
#[tokio::test]
async fn a_trusted_proxys_forwarded_for_is_the_client_every_cap_counts() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.max_per_ip = 1;
        c.max_before_hello_per_ip = 1;
    })
    .await;
    let (a, _one) = try_join(&s, PROXY, &xff("203.0.113.1")).await;
    assert_eq!(a, Answer::Welcome);
    // The client's own entry on the left is not believed; the proxy's entry is.
    let (a, _two) = try_join(&s, PROXY, &xff("203.0.113.1, 203.0.113.2")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &xff("203.0.113.1")).await;
    assert_eq!(a, refused_per_ip());
    // A chain of trusted proxies: the rightmost untrusted entry, with a port.
    let (a, _) = try_join(&s, PROXY, &xff("203.0.113.2:4711, 127.0.0.1")).await;
    assert_eq!(a, refused_per_ip());
    assert_eq!(s.counter(Counter::RefusedPerIp), 2);
    // Before hello: an upgrade held without a hello holds 203.0.113.9's one place.
    let mut held = connect_from(PROXY, s.addr()).await;
    held.write_all(&head(Some("203.0.113.9"))).await.unwrap();
    let mut line = [0u8; 12];
    held.read_exact(&mut line).await.unwrap();
    assert_eq!(&line, b"HTTP/1.1 101");
    let (a, _) = try_join(&s, PROXY, &xff("203.0.113.9")).await;
    assert_eq!(
        a,
        Answer::Http(
            "HTTP/1.1 503 Service Unavailable".into(),
            "refused_before_hello".into()
        )
    );
    let (a, _three) = try_join(&s, PROXY, &xff("203.0.113.10")).await;
    assert_eq!(a, Answer::Welcome);
    assert_eq!(s.counter(Counter::RefusedBeforeHello), 1);
    assert_eq!(s.counter(Counter::ProxyRefused), 0);
}

/// An untrusted peer's `X-Forwarded-For` is ignored: its own address is the one capped,
/// and a header naming no address is no reason to refuse it.
#[tokio::test]
async fn an_untrusted_peers_forwarded_for_is_ignored() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.max_per_ip = 1;
    })
    .await;
    let (a, _one) = try_join(&s, OTHER, &xff("203.0.113.1")).await;
    assert_eq!(a, Answer::Welcome);
    // Another forwarded address from the same untrusted peer: still that peer.
    let (a, _) = try_join(&s, OTHER, &xff("203.0.113.2")).await;
    assert_eq!(a, refused_per_ip());
    // 203.0.113.1 was never counted: through the trusted proxy it joins.
    let (a, _two) = try_join(&s, PROXY, &xff("203.0.113.1")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _three) = try_join(&s, [127, 0, 0, 3], &xff("not an address")).await;
    assert_eq!(a, Answer::Welcome);
    assert_eq!(s.counter(Counter::RefusedPerIp), 1);
    assert_eq!(s.counter(Counter::ProxyRefused), 0);
}

fn v1(src: &str, dst: &str) -> Vec<u8> {
    let a = ppp::v1::Addresses::from((
        src.parse::<SocketAddr>().unwrap(),
        dst.parse::<SocketAddr>().unwrap(),
    ));
    a.to_string().into_bytes()
}

fn v2(command: ppp::v2::Command, src: &str, dst: &str) -> Vec<u8> {
    let a = ppp::v2::Addresses::from((
        src.parse::<SocketAddr>().unwrap(),
        dst.parse::<SocketAddr>().unwrap(),
    ));
    ppp::v2::Builder::with_addresses(
        ppp::v2::Version::Two | command,
        ppp::v2::Protocol::Stream,
        a,
    )
    .write_tlv(ppp::v2::Type::UniqueId, b"conn-1".as_slice())
    .unwrap()
    .build()
    .unwrap()
}

/// With `proxy_protocol`, a trusted proxy's PROXY header (v1 or v2, IPv4 or IPv6, in the
/// same write as the request or its own) names the client; v2 `LOCAL` (the proxy's own
/// health check) counts as the proxy. An untrusted peer needs none; one that sends one is
/// not speaking HTTP and is closed, its address never used.
#[tokio::test]
async fn proxy_protocol_v1_and_v2_name_the_client() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.proxy_protocol = true;
        c.max_per_ip = 1;
    })
    .await;
    let dst = "127.0.0.1:7878";
    let together = [v1("203.0.113.1:5000", dst), head(None)].concat();
    let (a, _one) = try_join(&s, PROXY, &[together]).await;
    assert_eq!(a, Answer::Welcome);
    use ppp::v2::Command::{Local, Proxy};
    let (a, _two) = try_join(&s, PROXY, &[v2(Proxy, "203.0.113.2:5000", dst), head(None)]).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &[v2(Proxy, "203.0.113.1:6000", dst), head(None)]).await;
    assert_eq!(a, refused_per_ip());
    let (a, _) = try_join(&s, PROXY, &[v1("203.0.113.2:6000", dst), head(None)]).await;
    assert_eq!(a, refused_per_ip());
    let v6 = v2(Proxy, "[2001:db8::1]:5000", "[2001:db8::2]:443");
    let (a, _three) = try_join(&s, PROXY, &[v6, head(None)]).await;
    assert_eq!(a, Answer::Welcome);
    // A header dripped in two writes, then the request.
    let h = v2(Proxy, "198.51.100.4:5000", dst);
    let (a, _four) = try_join(&s, PROXY, &[h[..10].to_vec(), h[10..].to_vec(), head(None)]).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _five) = try_join(&s, PROXY, &[v2(Local, "10.9.9.9:1", dst), head(None)]).await;
    assert_eq!(
        a,
        Answer::Welcome,
        "LOCAL: the proxy's own, its first place"
    );
    let (a, _) = try_join(&s, PROXY, &[v2(Local, "10.9.9.8:1", dst), head(None)]).await;
    assert_eq!(
        a,
        refused_per_ip(),
        "LOCAL again: the proxy's address, capped"
    );
    // Untrusted: plain HTTP joins; a PROXY header is not HTTP.
    let (a, _six) = try_join(&s, OTHER, &[head(None)]).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, [127, 0, 0, 3], &[v1("203.0.113.7:1", dst), head(None)]).await;
    assert_eq!(a, Answer::Closed);
    assert_eq!(s.counter(Counter::RefusedPerIp), 3);
    assert_eq!(s.counter(Counter::ProxyRefused), 0);
}

/// A trusted proxy's header that names no client is refused with a 400 saying what is
/// wrong, and counted: never read as HTTP, never taken as the proxy's own connection.
#[tokio::test]
async fn malformed_and_oversized_proxy_headers_are_refused_with_why() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.proxy_protocol = true;
    })
    .await;
    let bad = |why: &str| Answer::Http("HTTP/1.1 400 Bad Request".into(), why.into());
    let mut v2_version = v2(ppp::v2::Command::Proxy, "203.0.113.1:1", "127.0.0.1:2");
    v2_version[12] = 0x31;
    let mut v2_huge = ppp::v2::PROTOCOL_PREFIX.to_vec();
    v2_huge.extend([0x21, 0x11, 0x02, 0x01]);
    let cases: [(Vec<u8>, &str); 6] = [
        (
            head(None),
            "no PROXY protocol header (a trusted proxy must send one)",
        ),
        (
            b"PROXY TCP4 203.0.113 127.0.0.1 1 2\r\n".to_vec(),
            "a PROXY v1 header with a bad address",
        ),
        (
            b"PROXY TCP4 203.0.113.1 127.0.0.1 1 99999\r\n".to_vec(),
            "a PROXY v1 header with a bad port",
        ),
        (
            [b"PROXY TCP4 ".as_slice(), &[b'9'; 100], b"\r\n"].concat(),
            "a PROXY v1 header over 107 bytes",
        ),
        (
            v2_version,
            "a PROXY v2 header with a bad version or command",
        ),
        (
            v2_huge,
            "a PROXY v2 header over 512 bytes of addresses and TLVs",
        ),
    ];
    for (bytes, why) in &cases {
        let (a, _) = try_join(&s, PROXY, &[bytes.clone(), head(None)]).await;
        assert_eq!(a, bad(why));
    }
    assert_eq!(s.counter(Counter::ProxyRefused), cases.len() as u64);

    let s = server(|c| c.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap()]).await;
    let (a, _) = try_join(&s, PROXY, &xff("203.0.113.1, nonsense")).await;
    assert_eq!(a, bad("X-Forwarded-For: an entry that is not an address"));
    let long = vec!["203.0.113.1"; 90].join(", ");
    let (a, _) = try_join(&s, PROXY, &xff(&long)).await;
    assert_eq!(a, bad("X-Forwarded-For over 1 KiB"));
    assert_eq!(s.counter(Counter::ProxyRefused), 2);
    // Just under the bound is read.
    let fits = vec!["203.0.113.1"; 78].join(", ");
    assert!(fits.len() <= village_server::proxy::MAX_FORWARDED);
    let (a, _one) = try_join(&s, PROXY, &xff(&fits)).await;
    assert_eq!(a, Answer::Welcome);
}

/// "The header is not counted in the request head's 8 KiB": behind a PROXY header a head of
/// 8,192 bytes is an upgrade and 8,193 are closed unanswered, as without one.
#[tokio::test]
async fn the_proxy_header_is_outside_the_heads_8_kib() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.proxy_protocol = true;
    })
    .await;
    let head_of = |len: usize| {
        let h = head(Some("203.0.113.1"));
        let pad = len - h.len() - "X-Pad: \r\n".len();
        let mut h = String::from_utf8(h).unwrap();
        h.truncate(h.len() - 2);
        h.push_str(&format!("X-Pad: {}\r\n\r\n", "p".repeat(pad)));
        assert_eq!(h.len(), len);
        h.into_bytes()
    };
    let v2 = v2(ppp::v2::Command::Proxy, "203.0.113.1:1", "127.0.0.1:2");
    let (a, _one) = try_join(&s, PROXY, &[[v2.clone(), head_of(8192)].concat()]).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &[[v2, head_of(8193)].concat()]).await;
    assert_eq!(a, Answer::Closed);
}

/// `per_ip_per_room` counts the forwarded client too: through one proxy, one player per
/// client address in the room.
#[tokio::test]
async fn per_ip_per_room_counts_the_forwarded_client() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.per_ip_per_room = 1;
    })
    .await;
    let (a, _one) = try_join(&s, PROXY, &xff("203.0.113.1")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _two) = try_join(&s, PROXY, &xff("203.0.113.2")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &xff("203.0.113.1")).await;
    assert_eq!(a, Answer::Refused(1013, "room full".into()));
}

/// Every per-address cap counts an IPv6 client by its /64: two addresses of one /64 are
/// one client (`max_per_ip` 1 refuses the second, `per_ip_per_room` too), an address of the
/// next /64 another.
#[tokio::test]
async fn ipv6_clients_are_counted_by_their_64() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.max_per_ip = 1;
    })
    .await;
    let (a, _one) = try_join(&s, PROXY, &xff("[2001:db8:1:2::1]:4711")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &xff("2001:db8:1:2:ffff:1:2:3")).await;
    assert_eq!(a, refused_per_ip());
    let (a, _two) = try_join(&s, PROXY, &xff("2001:db8:1:3::1")).await;
    assert_eq!(a, Answer::Welcome);
    assert_eq!(s.counter(Counter::RefusedPerIp), 1);

    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.per_ip_per_room = 1;
    })
    .await;
    let (a, _one) = try_join(&s, PROXY, &xff("2001:db8:1:2::1")).await;
    assert_eq!(a, Answer::Welcome);
    let (a, _) = try_join(&s, PROXY, &xff("2001:db8:1:2::2")).await;
    assert_eq!(a, Answer::Refused(1013, "room full".into()));
}
