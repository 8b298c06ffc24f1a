//! The server's side of the WebSocket upgrade (RFC 6455 §4.2), bounded: at most
//! [`MAX_REQUEST`] bytes of request head, read within the caller's timeout, parsed by
//! `httparse`. The caller answers 101 (with the agreed extensions), 404 or 503.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha1::{Digest, Sha1};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The largest request head read; a browser's is under 2 KiB.
pub(crate) const MAX_REQUEST: usize = 8 * 1024;

/// A valid upgrade request.
#[derive(Debug)]
pub(crate) struct Upgrade {
    /// The request path (`/village`).
    pub path: String,
    /// `Sec-WebSocket-Key`.
    key: String,
    /// Every `Sec-WebSocket-Extensions` value.
    pub extensions: Vec<String>,
    /// Every `X-Forwarded-For` value, in order (believed only from a trusted proxy).
    pub forwarded_for: Vec<String>,
    /// The PROXY protocol header the connection opened with, when one was expected.
    pub proxied: Option<crate::proxy::Proxied>,
}

/// Why a request is not an upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bad {
    /// The peer closed or the socket failed.
    Io,
    /// Over [`MAX_REQUEST`] bytes, or not HTTP.
    Malformed,
    /// HTTP, but not a WebSocket upgrade (answered 400).
    NotUpgrade,
    /// `GET /webtransport`: where WebTransport listens and its certificate's hash.
    WebTransportInfo,
    /// A PROXY protocol header missing or malformed from a trusted proxy (answered 400
    /// with why).
    Proxy(&'static str),
}

/// Reads one request head (at most [`MAX_REQUEST`] bytes, its end included) and checks
/// it is a WebSocket upgrade; with `proxy`, first a PROXY protocol header (v1 or v2, not
/// counted in the head's bytes). Bytes after the head are refused: a client sends nothing
/// before the server's answer (RFC 6455 §4.1). Each read looks for the head's end in the
/// new bytes only (and the 3 before them), so a head dripped a byte at a time costs
/// linear work, not quadratic; from the third read on, the socket is read on the drip
/// grid of `drip.rs`, not woken per packet. The caller bounds the whole head's time (the
/// PROXY header's with it).
pub(crate) async fn read(stream: &mut TcpStream, proxy: bool) -> Result<Upgrade, Bad> {
    let mut buf = [0u8; MAX_REQUEST];
    let mut len = 0;
    let mut proxied = None;
    // Bytes of the head already scanned for its end.
    let mut scanned: usize = 0;
    let mut reads = 0u32;
    loop {
        reads += 1;
        // (A PROXY header is refused long before this: 107 or 528 bytes at most.)
        if len == MAX_REQUEST {
            return Err(Bad::Malformed);
        }
        let n = if reads > 2 {
            if reads == 3 {
                // The kernel reports the socket readable only once a whole head's
                // bytes wait, so in practice never: the grid reads it.
                crate::drip::set_low_water(stream, MAX_REQUEST);
            }
            crate::drip::read_on_grid(stream, &mut buf[len..]).await
        } else {
            stream.read(&mut buf[len..]).await
        };
        let n = n.map_err(|_| Bad::Io)?;
        if n == 0 {
            return Err(Bad::Io);
        }
        len += n;
        if proxy && proxied.is_none() {
            match crate::proxy::parse_header(&buf[..len]).map_err(Bad::Proxy)? {
                None => continue,
                Some(p) => {
                    // The HTTP head starts after it, with all of the buffer for itself.
                    buf.copy_within(p.len..len, 0);
                    len -= p.len;
                    proxied = Some(p);
                    if len == 0 {
                        continue;
                    }
                }
            }
        }
        let from = scanned.saturating_sub(3);
        scanned = len;
        if let Some(end) = find_end(&buf[from..len]).map(|e| e + from) {
            if end != len {
                return Err(Bad::Malformed);
            }
            if reads > 2 {
                // The WebSocket's frames are read through tokio's readiness again.
                crate::drip::set_low_water(stream, 1);
            }
            return parse(&buf[..len]).map(|up| Upgrade { proxied, ..up });
        }
    }
}

fn find_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

fn parse(buf: &[u8]) -> Result<Upgrade, Bad> {
    let mut headers = [httparse::EMPTY_HEADER; 48];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(_)) => {}
        _ => return Err(Bad::Malformed),
    }
    let header = |name: &'static str| {
        req.headers
            .iter()
            .filter(move |h| h.name.eq_ignore_ascii_case(name))
            .filter_map(|h| std::str::from_utf8(h.value).ok())
    };
    let has_token = |name: &'static str, token: &str| {
        header(name).any(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    };
    let upgrade = req.method == Some("GET")
        && has_token("upgrade", "websocket")
        && has_token("connection", "upgrade")
        && header("sec-websocket-version").any(|v| v.trim() == "13");
    let key = header("sec-websocket-key").next().map(str::trim);
    match (upgrade, key, req.path) {
        (true, Some(key), Some(path)) if !key.is_empty() => Ok(Upgrade {
            path: path.split('?').next().unwrap_or("").to_string(),
            key: key.to_string(),
            extensions: header("sec-websocket-extensions")
                .map(String::from)
                .collect(),
            forwarded_for: header("x-forwarded-for").map(String::from).collect(),
            proxied: None,
        }),
        (false, _, Some("/webtransport")) if req.method == Some("GET") => {
            Err(Bad::WebTransportInfo)
        }
        _ => Err(Bad::NotUpgrade),
    }
}

/// Answers `GET /webtransport` with `json` (any origin may read it: a page served from
/// elsewhere fetches it), or 404 when WebTransport is off.
pub(crate) async fn webtransport_info(stream: &mut TcpStream, json: Option<String>) {
    let Some(body) = json else {
        return refuse(stream, "404 Not Found", "WebTransport is off").await;
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\n\
         Cache-Control: no-store\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// `Sec-WebSocket-Accept` for a key (RFC 6455 §4.2.2).
fn accept(key: &str) -> String {
    let mut sha = Sha1::new();
    sha.update(key.as_bytes());
    sha.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    STANDARD.encode(sha.finalize())
}

/// Answers 101 Switching Protocols, with `extensions` when agreed.
pub(crate) async fn switch(
    stream: &mut TcpStream,
    up: &Upgrade,
    extensions: Option<&str>,
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {}\r\n",
        accept(&up.key)
    );
    if let Some(ext) = extensions {
        head.push_str(&format!("Sec-WebSocket-Extensions: {ext}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await
}

/// Seconds a client refused as busy is asked to wait (`Retry-After`).
pub(crate) const RETRY_AFTER_S: u32 = 2;

/// The answer to a connection refused at accept, over a cap: written once, if the socket
/// takes it at once, before the socket closes.
pub(crate) const BUSY_AT_ACCEPT: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
    Retry-After: 2\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\
    Connection: close\r\n\r\nbusy\n";

/// Answers an error status and closes; a 503 asks the client to retry after
/// [`RETRY_AFTER_S`].
pub(crate) async fn refuse(stream: &mut TcpStream, status: &str, why: &str) {
    let body = format!("{why}\n");
    let retry = if status.starts_with("503") {
        format!("Retry-After: {RETRY_AFTER_S}\r\n")
    } else {
        String::new()
    };
    let head = format!(
        "HTTP/1.1 {status}\r\n{retry}Content-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6455 §1.3's own example.
    #[test]
    fn accept_key_is_the_rfcs() {
        assert_eq!(
            accept("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn the_answer_at_accept_is_a_whole_503_with_retry_after() {
        let mut headers = [httparse::EMPTY_HEADER; 8];
        let mut res = httparse::Response::new(&mut headers);
        let httparse::Status::Complete(head) = res.parse(BUSY_AT_ACCEPT).unwrap() else {
            panic!("a partial head");
        };
        assert_eq!(res.code, Some(503));
        let header = |n: &str| res.headers.iter().find(|h| h.name == n).map(|h| h.value);
        assert_eq!(
            header("Retry-After"),
            Some(RETRY_AFTER_S.to_string().as_bytes())
        );
        let len: usize = std::str::from_utf8(header("Content-Length").unwrap())
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(BUSY_AT_ACCEPT.len() - head, len);
    }

    #[test]
    fn upgrades_parse_and_others_do_not() {
        let ok = b"GET /village?x=1 HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\
                   Connection: keep-alive, Upgrade\r\nSec-WebSocket-Key: k==\r\n\
                   Sec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n";
        let up = parse(ok).unwrap();
        assert_eq!(up.path, "/village");
        assert_eq!(
            up.extensions,
            ["permessage-deflate; client_max_window_bits"]
        );
        let plain = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(parse(plain).unwrap_err(), Bad::NotUpgrade);
        assert_eq!(
            parse(b"\x16\x03\x01garbage\r\n\r\n").unwrap_err(),
            Bad::Malformed
        );
    }
}
