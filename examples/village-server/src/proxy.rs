//! Who a client is behind a load balancer: the proxies trusted to say so
//! (`Config::trusted_proxies`), the PROXY protocol header they may open a connection with
//! (v1 text and v2 binary, HAProxy's specification), and the `X-Forwarded-For` header they
//! may add to the upgrade. Anyone else's word is never taken: an untrusted peer's
//! `X-Forwarded-For` is ignored, and a PROXY header from it is not HTTP, so refused.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// An address or a network (`10.0.0.7`, `10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Net {
    addr: IpAddr,
    bits: u8,
}

impl Net {
    /// Whether `ip` is in this network (an IPv4-mapped IPv6 address counts as its IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.bits)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.bits))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for Net {
    type Err = String;

    fn from_str(s: &str) -> Result<Net, String> {
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{s}: expected an address or ADDRESS/BITS (10.0.0.0/8)"))?;
        let addr = addr.to_canonical();
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => most,
            Some(b) => match b.parse::<u8>() {
                Ok(b) if b <= most => b,
                _ => return Err(format!("{s}: the prefix length is 0 to {most}")),
            },
        };
        Ok(Net { addr, bits })
    }
}

impl fmt::Display for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// Whether `ip` is one of the `trusted` proxies.
pub fn is_trusted(trusted: &[Net], ip: IpAddr) -> bool {
    trusted.iter().any(|n| n.contains(ip))
}

/// The address every per-address cap counts a client under: an IPv4 address itself; an
/// IPv6 address its /64 network, the share one subscriber gets (an attacker holding a /64
/// would otherwise be 2^64 clients); an IPv4-mapped IPv6 address its IPv4 one.
pub fn counted_as(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !(u128::MAX >> 64))),
        v4 => v4,
    }
}

/// The most bytes of `X-Forwarded-For` read (every line of it together): 1 KiB holds a
/// chain of 25 IPv6 proxies; a longer one is refused.
pub const MAX_FORWARDED: usize = 1024;

/// The client behind `trusted` proxies, from the `X-Forwarded-For` values (in header
/// order): the rightmost entry that is not a trusted proxy. Each proxy appends the address
/// it got the request from, so entries left of the first untrusted one are that client's
/// own word and are never read. When every entry is trusted, the leftmost. `Ok(None)`: no
/// such header. An entry read that is not an address (`1.2.3.4`, `[::1]:80` and `1.2.3.4:80`
/// are), or values over [`MAX_FORWARDED`] bytes, are refused with why.
pub fn forwarded_client(
    values: &[String],
    trusted: &[Net],
) -> Result<Option<IpAddr>, &'static str> {
    if values.iter().map(|v| v.len() + 1).sum::<usize>() > MAX_FORWARDED + 1 {
        return Err("X-Forwarded-For over 1 KiB");
    }
    let entries: Vec<&str> = values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = None;
    for e in entries.iter().rev() {
        let ip = parse_entry(e).ok_or("X-Forwarded-For: an entry that is not an address")?;
        client = Some(ip);
        if !is_trusted(trusted, ip) {
            break;
        }
    }
    Ok(client)
}

/// One `X-Forwarded-For` entry: an address, with a port or not.
fn parse_entry(e: &str) -> Option<IpAddr> {
    e.parse::<IpAddr>()
        .ok()
        .or_else(|| e.parse::<std::net::SocketAddr>().ok().map(|a| a.ip()))
        .map(|ip| ip.to_canonical())
}

/// The PROXY protocol v2 signature (HAProxy's specification, section 2.2).
pub const V2_SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";

/// A v1 header's most bytes, its CRLF included (the specification's 107).
pub const V1_MAX: usize = 107;

/// A v2 header's most bytes after its 16 fixed ones: addresses (36 at most) and TLVs. The
/// specification allows 65,535; what load balancers send (addresses, a connection id, TLS
/// details) fits in far less, and a larger one is refused.
pub const V2_MAX_PAYLOAD: usize = 512;

/// A PROXY header read from the start of a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proxied {
    /// Its bytes: the HTTP request starts after them.
    pub len: usize,
    /// The client's address; `None` for a connection the proxy made itself (v2 `LOCAL`,
    /// v1 `UNKNOWN`, or a family other than TCP/UDP over IP): the proxy's own.
    pub source: Option<IpAddr>,
}

/// Parses a PROXY header (v1 or v2) at the start of `buf`. `Ok(None)`: not all of it yet.
/// `Err`: why it is not one (the connection is refused, never read as HTTP).
pub fn parse_header(buf: &[u8]) -> Result<Option<Proxied>, &'static str> {
    let v2_prefix = buf.len().min(V2_SIGNATURE.len());
    if buf[..v2_prefix] == V2_SIGNATURE[..v2_prefix] && !buf.is_empty() {
        return parse_v2(buf);
    }
    let v1_prefix = buf.len().min(6);
    if buf[..v1_prefix] == b"PROXY "[..v1_prefix] {
        return parse_v1(buf);
    }
    Err("no PROXY protocol header (a trusted proxy must send one)")
}

fn parse_v1(buf: &[u8]) -> Result<Option<Proxied>, &'static str> {
    let window = &buf[..buf.len().min(V1_MAX)];
    let Some(cr) = window.windows(2).position(|w| w == b"\r\n") else {
        return if buf.len() >= V1_MAX {
            Err("a PROXY v1 header over 107 bytes")
        } else {
            Ok(None)
        };
    };
    let line = std::str::from_utf8(&buf[6..cr]).map_err(|_| "a PROXY v1 header not ASCII")?;
    let fields: Vec<&str> = line.split(' ').collect();
    let source = match fields.as_slice() {
        ["UNKNOWN", ..] => None,
        [family @ ("TCP4" | "TCP6"), src, dst, sport, dport] => {
            let v4 = *family == "TCP4";
            let src = v1_addr(src, v4)?;
            v1_addr(dst, v4)?;
            for port in [sport, dport] {
                let ok = !port.is_empty()
                    && port.bytes().all(|b| b.is_ascii_digit())
                    && (port.len() == 1 || !port.starts_with('0'))
                    && port.parse::<u16>().is_ok();
                if !ok {
                    return Err("a PROXY v1 header with a bad port");
                }
            }
            Some(src)
        }
        _ => return Err("a PROXY v1 header not TCP4, TCP6 or UNKNOWN with 4 fields"),
    };
    Ok(Some(Proxied {
        len: cr + 2,
        source,
    }))
}

fn v1_addr(s: &str, v4: bool) -> Result<IpAddr, &'static str> {
    let ip = if v4 {
        s.parse::<Ipv4Addr>().map(IpAddr::V4).ok()
    } else {
        s.parse::<Ipv6Addr>().map(IpAddr::V6).ok()
    };
    ip.map(|ip| ip.to_canonical())
        .ok_or("a PROXY v1 header with a bad address")
}

fn parse_v2(buf: &[u8]) -> Result<Option<Proxied>, &'static str> {
    if buf.len() < 16 {
        return Ok(None);
    }
    let version = buf[12] >> 4;
    let command = buf[12] & 0x0f;
    if version != 2 || command > 1 {
        return Err("a PROXY v2 header with a bad version or command");
    }
    let payload = usize::from(u16::from_be_bytes([buf[14], buf[15]]));
    if payload > V2_MAX_PAYLOAD {
        return Err("a PROXY v2 header over 512 bytes of addresses and TLVs");
    }
    if buf.len() < 16 + payload {
        return Ok(None);
    }
    let body = &buf[16..16 + payload];
    let family = buf[13] >> 4;
    let transport = buf[13] & 0x0f;
    if family > 3 || transport > 2 {
        return Err("a PROXY v2 header with a bad address family");
    }
    let source = match (command, family) {
        // LOCAL: the proxy's own connection (a health check); its addresses are ignored.
        (0, _) | (1, 0) | (1, 3) => None,
        (1, 1) => {
            let a: [u8; 4] = body
                .get(..4)
                .and_then(|s| s.try_into().ok())
                .filter(|_| body.len() >= 12)
                .ok_or("a PROXY v2 header too short for its IPv4 addresses")?;
            Some(IpAddr::V4(Ipv4Addr::from(a)))
        }
        _ => {
            let a: [u8; 16] = body
                .get(..16)
                .and_then(|s| s.try_into().ok())
                .filter(|_| body.len() >= 36)
                .ok_or("a PROXY v2 header too short for its IPv6 addresses")?;
            Some(IpAddr::V6(Ipv6Addr::from(a)).to_canonical())
        }
    };
    Ok(Some(Proxied {
        len: 16 + payload,
        source,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_by_their_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:1:2:3".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(counted_as(a), counted_as(b));
        assert_eq!(counted_as(a), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
        assert_ne!(counted_as(a), counted_as(c));
        let v4: IpAddr = "10.1.2.3".parse().unwrap();
        assert_eq!(counted_as(v4), v4);
        assert_eq!(counted_as("::ffff:10.1.2.3".parse().unwrap()), v4);
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn networks_contain_their_addresses() {
        let n: Net = "10.0.0.0/8".parse().unwrap();
        assert!(n.contains(ip("10.255.0.1")));
        assert!(!n.contains(ip("11.0.0.1")));
        assert!(n.contains(ip("::ffff:10.1.2.3")), "IPv4-mapped");
        let one: Net = "10.0.0.7".parse().unwrap();
        assert!(one.contains(ip("10.0.0.7")) && !one.contains(ip("10.0.0.8")));
        let all: Net = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")) && !all.contains(ip("::1")));
        let v6: Net = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        for bad in ["10.0.0.0/33", "fd00::/129", "ten", "10.0.0.0/x", ""] {
            assert!(bad.parse::<Net>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_client_is_the_rightmost_untrusted_forwarded_address() {
        let t: Vec<Net> = vec!["10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap()];
        let v = |s: &str| vec![s.to_string()];
        assert_eq!(
            forwarded_client(&v("203.0.113.9"), &t),
            Ok(Some(ip("203.0.113.9")))
        );
        // A client's own entries left of the first untrusted one are never read.
        assert_eq!(
            forwarded_client(&v("garbage, 1.2.3.4, 203.0.113.9, 10.0.0.2"), &t),
            Ok(Some(ip("203.0.113.9")))
        );
        // Two header lines are one list.
        let two = vec![
            "1.2.3.4".to_string(),
            "203.0.113.9:4711, 10.0.0.1".to_string(),
        ];
        assert_eq!(forwarded_client(&two, &t), Ok(Some(ip("203.0.113.9"))));
        assert_eq!(
            forwarded_client(&v("[2001:db8::1]:80"), &t),
            Ok(Some(ip("2001:db8::1")))
        );
        // Only proxies: the leftmost.
        assert_eq!(
            forwarded_client(&v("10.0.0.2, 10.0.0.1"), &t),
            Ok(Some(ip("10.0.0.2")))
        );
        assert_eq!(forwarded_client(&[], &t), Ok(None));
        assert!(forwarded_client(&v("1.2.3.4, unknown"), &t).is_err());
        assert!(forwarded_client(&v(""), &t).is_err());
        let long = vec!["1.2.3.4,".repeat(130)];
        assert_eq!(
            forwarded_client(&long, &t),
            Err("X-Forwarded-For over 1 KiB")
        );
    }

    #[test]
    fn proxy_v1_headers_parse_and_bad_ones_are_refused() {
        let h = b"PROXY TCP4 203.0.113.9 10.0.0.1 56324 443\r\nGET /";
        assert_eq!(
            parse_header(h),
            Ok(Some(Proxied {
                len: 43,
                source: Some(ip("203.0.113.9"))
            }))
        );
        let h6 = b"PROXY TCP6 2001:db8::1 2001:db8::2 1 2\r\n";
        assert_eq!(
            parse_header(h6).unwrap().unwrap().source,
            Some(ip("2001:db8::1"))
        );
        assert_eq!(
            parse_header(b"PROXY UNKNOWN\r\n").unwrap().unwrap().source,
            None
        );
        // Partial: more to read.
        assert_eq!(parse_header(b"PROX"), Ok(None));
        assert_eq!(parse_header(b"PROXY TCP4 1.2.3.4"), Ok(None));
        for bad in [
            &b"PROXY TCP4 1.2.3 10.0.0.1 1 2\r\n"[..],
            b"PROXY TCP4 2001:db8::1 10.0.0.1 1 2\r\n",
            b"PROXY TCP4 1.2.3.4 10.0.0.1 65536 2\r\n",
            b"PROXY TCP4 1.2.3.4 10.0.0.1 01 2\r\n",
            b"PROXY TCP4 1.2.3.4 10.0.0.1 1\r\n",
            b"PROXY UDP4 1.2.3.4 10.0.0.1 1 2\r\n",
            b"GET / HTTP/1.1\r\n\r\n",
        ] {
            assert!(
                parse_header(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        let long = [b"PROXY TCP4 ".as_slice(), &[b'1'; 120]].concat();
        assert_eq!(parse_header(&long), Err("a PROXY v1 header over 107 bytes"));
    }

    #[test]
    fn proxy_v2_headers_parse_and_bad_ones_are_refused() {
        let mut h = V2_SIGNATURE.to_vec();
        h.extend([
            0x21, 0x11, 0, 12, 203, 0, 113, 9, 10, 0, 0, 1, 0xdc, 0x04, 0x01, 0xbb,
        ]);
        assert_eq!(parse_header(&h[..15]), Ok(None));
        assert_eq!(parse_header(&h[..20]), Ok(None));
        assert_eq!(
            parse_header(&h),
            Ok(Some(Proxied {
                len: 28,
                source: Some(ip("203.0.113.9"))
            }))
        );
        // LOCAL: the proxy's own connection.
        let mut local = h.clone();
        local[12] = 0x20;
        assert_eq!(parse_header(&local).unwrap().unwrap().source, None);
        let mut v1 = h.clone();
        v1[12] = 0x11;
        assert!(parse_header(&v1).is_err());
        let mut short = h.clone();
        short[15] = 4;
        assert!(parse_header(&short).is_err());
        let mut huge = V2_SIGNATURE.to_vec();
        huge.extend([0x21, 0x11, 0x02, 0x01]);
        assert!(
            parse_header(&huge).is_err(),
            "refused before its payload arrives"
        );
    }
}
