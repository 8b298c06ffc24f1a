//! permessage-deflate (RFC 7692): what the server agrees to, from what a client offers.
//!
//! The WebSocket library, `yawc`, compresses and inflates once both sides agree on the
//! parameters; the agreement is made here, in the server's own upgrade (`handshake.rs`), so
//! window bits and context takeover are the server's configuration ([`Deflate`]).

/// The server's permessage-deflate settings (`Config::deflate`; `None` turns it off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deflate {
    /// LZ77 window of what the server sends, bits (9 to 15): each connection's compressor
    /// holds `2^bits` bytes of history.
    pub server_max_window_bits: u8,
    /// The window asked of clients, bits (9 to 15); only when the client's offer allows
    /// it (`client_max_window_bits`, which browsers send).
    pub client_max_window_bits: u8,
    /// Reset the server's compressor after each message: less memory kept per connection
    /// between messages, larger frames (each starts without history).
    pub server_no_context_takeover: bool,
    /// Ask clients to reset theirs.
    pub client_no_context_takeover: bool,
}

impl Default for Deflate {
    /// Full windows with context takeover: what browsers offer, and the smallest frames.
    fn default() -> Deflate {
        Deflate {
            server_max_window_bits: 15,
            client_max_window_bits: 15,
            server_no_context_takeover: false,
            client_no_context_takeover: false,
        }
    }
}

/// One `permessage-deflate` offer's parameters.
#[derive(Debug, Default)]
struct Offer {
    server_no_context_takeover: bool,
    client_no_context_takeover: bool,
    server_max_window_bits: Option<u8>,
    /// `Some(None)`: offered without a value (any value may be answered).
    client_max_window_bits: Option<Option<u8>>,
}

/// Parses one offer (`permessage-deflate; client_max_window_bits`); `None` when the RFC
/// says to decline it (§7): not permessage-deflate, a parameter this server does not know,
/// one given twice, or a bad value. Window bits are a decimal 8 to 15 without leading
/// zeros or sign (§7.1.2.1); a value may be quoted (RFC 6455 §9.1).
fn parse(offer: &str) -> Option<Offer> {
    let mut parts = offer.split(';').map(str::trim);
    if !parts.next()?.eq_ignore_ascii_case("permessage-deflate") {
        return None;
    }
    let mut o = Offer::default();
    let mut seen: Vec<&str> = Vec::new();
    for p in parts.filter(|p| !p.is_empty()) {
        let (name, value) = match p.split_once('=') {
            Some((n, v)) => (n.trim(), Some(unquote(v.trim())?)),
            None => (p, None),
        };
        if name.is_empty() || seen.contains(&name) {
            return None;
        }
        seen.push(name);
        match (name, value) {
            ("server_no_context_takeover", None) => o.server_no_context_takeover = true,
            ("client_no_context_takeover", None) => o.client_no_context_takeover = true,
            ("server_max_window_bits", v) => o.server_max_window_bits = Some(bits(v?)?),
            ("client_max_window_bits", None) => o.client_max_window_bits = Some(None),
            ("client_max_window_bits", Some(v)) => o.client_max_window_bits = Some(Some(bits(v)?)),
            _ => return None,
        }
    }
    Some(o)
}

/// A parameter's value, its quotes taken off when it is a quoted string.
fn unquote(v: &str) -> Option<&str> {
    match v.strip_prefix('"') {
        Some(rest) => rest.strip_suffix('"'),
        None => Some(v),
    }
}

/// Window bits: `8` to `15`, digits only, no leading zero.
fn bits(v: &str) -> Option<u8> {
    let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && !v.starts_with('0');
    v.parse().ok().filter(|b| digits && (8..=15).contains(b))
}

/// The `Sec-WebSocket-Extensions` answer to a client's header values, or `None` to decline
/// compression. The first acceptable offer wins. The answer never names a larger window
/// than an offer does (RFC 7692 §7.1.2), and zlib compresses with 9 bits at the least: an
/// offer asking the server for `server_max_window_bits=8` is declined (a later offer, or
/// no compression, is chosen); a client offering `client_max_window_bits=8` gets an answer
/// without the parameter (the RFC lets the server ignore the value), and the server
/// inflates with a full window, which reads any smaller one.
pub(crate) fn agree(headers: &[&str], cfg: &Deflate) -> Option<String> {
    let mut offers = headers.iter().flat_map(|h| h.split(','));
    let offer = offers
        .find_map(|o| parse(o).filter(|o| o.server_max_window_bits.is_none_or(|b| b >= 9)))?;
    let server_bits = offer
        .server_max_window_bits
        .map_or(cfg.server_max_window_bits, |b| {
            b.min(cfg.server_max_window_bits)
        })
        .clamp(9, 15);
    let client_bits = match offer.client_max_window_bits {
        // The client did not say it can narrow its window: it uses 15, and an answer
        // may not name one.
        None => None,
        Some(Some(8)) => None,
        Some(Some(b)) => Some(b.min(cfg.client_max_window_bits).clamp(9, 15)),
        Some(None) => Some(cfg.client_max_window_bits.clamp(9, 15)),
    };
    let mut out = String::from("permessage-deflate");
    if offer.server_no_context_takeover || cfg.server_no_context_takeover {
        out.push_str("; server_no_context_takeover");
    }
    if offer.client_no_context_takeover || cfg.client_no_context_takeover {
        out.push_str("; client_no_context_takeover");
    }
    if server_bits < 15 || offer.server_max_window_bits.is_some() {
        out.push_str(&format!("; server_max_window_bits={server_bits}"));
    }
    if let Some(b) = client_bits {
        out.push_str(&format!("; client_max_window_bits={b}"));
    }
    Some(out)
}

/// The library's settings for `cfg` (the fastest level: frames are small and every
/// microsecond is per client per tick).
pub(crate) fn options(cfg: &Deflate) -> yawc::DeflateOptions {
    let mut o = yawc::DeflateOptions::low_latency();
    o.server_max_window_bits = Some(cfg.server_max_window_bits);
    o.client_max_window_bits = Some(cfg.client_max_window_bits);
    o.server_no_context_takeover = cfg.server_no_context_takeover;
    o.client_no_context_takeover = cfg.client_no_context_takeover;
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agreed(offer: &str, cfg: Deflate) -> Option<String> {
        agree(&[offer], &cfg)
    }

    #[test]
    fn browsers_offer_is_agreed_with_the_configured_windows() {
        // Chromium's and Firefox's offer.
        let chrome = "permessage-deflate; client_max_window_bits";
        assert_eq!(
            agreed(chrome, Deflate::default()).as_deref(),
            Some("permessage-deflate; client_max_window_bits=15")
        );
        let small = Deflate {
            server_max_window_bits: 10,
            client_max_window_bits: 11,
            server_no_context_takeover: true,
            ..Deflate::default()
        };
        assert_eq!(
            agreed(chrome, small).as_deref(),
            Some(
                "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; \
                 client_max_window_bits=11"
            )
        );
    }

    #[test]
    fn what_a_client_asks_for_is_honoured_and_bad_offers_declined() {
        let d = Deflate::default();
        assert_eq!(
            agreed(
                "permessage-deflate; server_max_window_bits=12; client_no_context_takeover",
                d
            )
            .as_deref(),
            Some("permessage-deflate; client_no_context_takeover; server_max_window_bits=12")
        );
        // No client_max_window_bits in the offer: the answer may not name one.
        assert_eq!(
            agreed(
                "permessage-deflate",
                Deflate {
                    client_max_window_bits: 10,
                    ..d
                }
            )
            .as_deref(),
            Some("permessage-deflate")
        );
        for bad in [
            "x-webkit-deflate-frame",
            "permessage-deflate; server_max_window_bits=16",
            "permessage-deflate; server_max_window_bits",
            "permessage-deflate; unknown_param",
        ] {
            assert_eq!(agreed(bad, d), None, "{bad}");
        }
        // 8-bit windows: declined, never answered with 9 (RFC 7692 §7.1.2.1).
        assert_eq!(
            agreed("permessage-deflate; server_max_window_bits=8", d),
            None
        );
        assert_eq!(
            agreed("permessage-deflate; client_max_window_bits=8", d).as_deref(),
            Some("permessage-deflate")
        );
        assert_eq!(
            agreed(
                "permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=10",
                d
            )
            .as_deref(),
            Some("permessage-deflate; server_max_window_bits=10")
        );
        // Declined as the RFC says (§7): a parameter twice, a value with a sign, a leading
        // zero, out of range, or on a parameter that takes none.
        for bad in [
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; client_max_window_bits; client_max_window_bits=10",
            "permessage-deflate; server_max_window_bits=10; server_max_window_bits=11",
            "permessage-deflate; server_max_window_bits=+10",
            "permessage-deflate; server_max_window_bits=010",
            "permessage-deflate; client_max_window_bits=7",
            "permessage-deflate; client_max_window_bits=",
            "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; server_max_window_bits=\"10",
        ] {
            assert_eq!(agreed(bad, d), None, "{bad}");
        }
        // A quoted value is its token (RFC 6455 §9.1); parameter order is free.
        assert_eq!(
            agreed(
                "permessage-deflate; client_max_window_bits=\"10\"; server_no_context_takeover",
                d
            )
            .as_deref(),
            Some("permessage-deflate; server_no_context_takeover; client_max_window_bits=10")
        );
        // The answer's client window is at most the offer's.
        assert_eq!(
            agreed("permessage-deflate; client_max_window_bits=9", d).as_deref(),
            Some("permessage-deflate; client_max_window_bits=9")
        );
        // A declined first offer, an acceptable second.
        assert_eq!(
            agreed("permessage-deflate; foo, permessage-deflate", d).as_deref(),
            Some("permessage-deflate")
        );
    }
}
