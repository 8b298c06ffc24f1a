//! The upgrade: the client's address (through a trusted proxy), a room that may open,
//! permessage-deflate within its budget, and the WebSocket library's bounds.

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpStream;
use yawc::{Role, WebSocket};

use crate::counters::Counter;
use crate::handshake::{self, Bad};
use crate::metered::Metered;
use crate::shared::{HelloSlot, NoRoom, Shared};

/// The socket read buffer's starting size. Client frames are small (a move is about 30
/// bytes; `frame_cap` 4 KiB).
pub(crate) const READ_BUFFER: usize = 4096;

/// Bytes the WebSocket library gathers before it writes to the socket (one tick of a
/// client's frames is 1 to 3 KB, so still one write per tick). Small, so a stalled
/// reader's backlog stays in the queue the room counts.
pub(crate) const WRITE_BUFFER: usize = 8 * 1024;

/// Frames a connection reads at most, before its hello as after, as a multiple of the rate
/// cap (sustained and burst: 400 a second, 800 at once by default), every fragment of a
/// message and every control frame counted. Up to it every message over the rate cap is
/// read, dropped and counted; past it the connection stops reading for as long as the
/// read bucket takes to refill, the kernel's receive window closes and the sender blocks.
/// A flooder on loopback wrote 720,000 frames a second, every one read: 96% of a core for
/// 4 of them (`scripts/bench hostile`).
pub(crate) const READS_PER_RATE: f64 = 10.0;

/// A fragmented message must be whole within this long of its first fragment, or the
/// connection ends with close 1002 (the village's messages are one frame each; 64 KiB in
/// 1-byte fragments at the read cap takes far longer).
pub(crate) const FRAGMENT_TIMEOUT: Duration = Duration::from_secs(2);

/// A client's WebSocket, read through the frame meter.
pub(super) type Ws = WebSocket<Metered>;

/// A connection's place among those compressing (`Config::max_deflate`); given back when
/// it ends.
pub(crate) struct DeflateSlot(Arc<AtomicUsize>);

impl DeflateSlot {
    fn take(count: &Arc<AtomicUsize>, max: usize) -> Option<DeflateSlot> {
        count
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| DeflateSlot(count.clone()))
    }
}

impl Drop for DeflateSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy, whose PROXY
/// header (when configured) and then `X-Forwarded-For` (while the address so far is still
/// a trusted proxy's) name it. `Err`: a trusted proxy's header that names no address.
pub(super) fn client_address(
    cfg: &crate::config::Config,
    peer: IpAddr,
    up: &handshake::Upgrade,
) -> Result<IpAddr, &'static str> {
    let mut ip = peer.to_canonical();
    if let Some(source) = up.proxied.and_then(|p| p.source) {
        ip = source;
    }
    if cfg.is_trusted_proxy(ip) {
        if let Some(client) =
            crate::proxy::forwarded_client(&up.forwarded_for, &cfg.trusted_proxies)?
        {
            ip = client;
        }
    }
    Ok(ip)
}

/// The library's settings: frames bounded by `hard_frame_cap` (compressed and inflated),
/// a fragmented message whole within [`FRAGMENT_TIMEOUT`], small buffers,
/// permessage-deflate when configured.
pub(crate) fn ws_options(cfg: &crate::config::Config) -> yawc::Options {
    let mut o = yawc::Options::default()
        .with_max_payload_read(cfg.hard_frame_cap)
        .with_max_read_buffer(cfg.hard_frame_cap)
        .with_read_buffer_capacity(READ_BUFFER)
        .with_write_buffer_capacity(WRITE_BUFFER)
        .with_backpressure_boundary(WRITE_BUFFER)
        .with_fragment_timeout(FRAGMENT_TIMEOUT);
    o.compression = cfg.deflate.as_ref().map(crate::deflate::options);
    o
}

/// The upgrade, bounded in time: the client's address (behind a trusted proxy, the one
/// it names; `hello_slot` is counted under it from then on), a path naming a room that may open
/// (none is opened here), permessage-deflate agreed when configured and offered.
pub(super) async fn upgrade(
    mut stream: TcpStream,
    shared: &Shared,
    peer: IpAddr,
    hello_slot: &mut HelloSlot,
) -> Option<(Ws, String, Option<DeflateSlot>, IpAddr)> {
    let cfg = &shared.config;
    let proxied = cfg.proxy_protocol && cfg.is_trusted_proxy(peer);
    let read = handshake::read(&mut stream, proxied);
    let up = match tokio::time::timeout(cfg.handshake_timeout, read).await {
        Ok(Ok(up)) => up,
        Ok(Err(bad)) => {
            if bad != Bad::WebTransportInfo {
                shared.counters.add(Counter::HandshakeFailed);
            }
            match bad {
                Bad::NotUpgrade => {
                    handshake::refuse(&mut stream, "400 Bad Request", "a WebSocket upgrade").await
                }
                Bad::WebTransportInfo => {
                    handshake::webtransport_info(&mut stream, shared.webtransport_info()).await
                }
                Bad::Proxy(why) => {
                    shared.counters.add(Counter::ProxyRefused);
                    handshake::refuse(&mut stream, "400 Bad Request", why).await
                }
                Bad::Io | Bad::Malformed => {}
            }
            return None;
        }
        Err(_) => {
            shared.counters.add(Counter::HandshakeTimeout);
            return None;
        }
    };
    let ip = match client_address(cfg, peer, &up) {
        Ok(ip) => ip,
        Err(why) => {
            shared.counters.add(Counter::HandshakeFailed);
            shared.counters.add(Counter::ProxyRefused);
            handshake::refuse(&mut stream, "400 Bad Request", why).await;
            return None;
        }
    };
    if let Err(counter) = hello_slot.rekey(ip) {
        shared.counters.add(counter);
        handshake::refuse(&mut stream, "503 Service Unavailable", counter.name()).await;
        return None;
    }
    match shared.may_open(&up.path) {
        Ok(()) => {}
        Err(why) => {
            let (counter, status) = match why {
                NoRoom::NotAllowed => (Counter::RoomNotAllowed, "404 Not Found"),
                NoRoom::Full => (Counter::RoomsFull, "503 Service Unavailable"),
                NoRoom::Draining => (Counter::Draining, "503 Service Unavailable"),
            };
            shared.counters.add(counter);
            handshake::refuse(&mut stream, status, counter.name()).await;
            return None;
        }
    };
    let offers: Vec<&str> = up.extensions.iter().map(String::as_str).collect();
    // Past `max_deflate` compressing connections, a client is served uncompressed: each
    // compressor holds about 340 KB, and this bounds them all.
    let slot = (cfg.deflate.is_some() && !offers.is_empty())
        .then(|| DeflateSlot::take(&shared.deflating, cfg.max_deflate))
        .flatten();
    let agreed = cfg
        .deflate
        .as_ref()
        .filter(|_| slot.is_some())
        .and_then(|d| crate::deflate::agree(&offers, d));
    let slot = slot.filter(|_| agreed.is_some());
    let switched = tokio::time::timeout(
        cfg.handshake_timeout,
        handshake::switch(&mut stream, &up, agreed.as_deref()),
    )
    .await;
    if !matches!(switched, Ok(Ok(()))) {
        shared.counters.add(Counter::HandshakeFailed);
        return None;
    }
    let stream = Metered::new(
        stream,
        cfg.rate_per_s * READS_PER_RATE,
        cfg.rate_burst * READS_PER_RATE,
    );
    let ws = WebSocket::from_stream_with_extensions(
        stream,
        Role::Server,
        agreed.as_deref(),
        ws_options(cfg),
    )
    .ok()?;
    Some((ws, up.path, slot, ip))
}
