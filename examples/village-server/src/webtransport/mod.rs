//! WebTransport sessions (HTTP/3 over QUIC, the `wtransport` crate), beside the WebSockets
//! and into the same rooms under the same caps:
//!
//! 1. The QUIC handshake and the session request, within `handshake_timeout`, each
//!    counted against the budget before hello from the first packet; the path must name a
//!    room that may open (404 otherwise, 429 past `max_rooms` or while draining).
//! 2. The client opens one bidirectional stream: the reliable, ordered channel. Frames on
//!    it go after their length (`frames.rs`). `session:hello` comes first, within
//!    `hello_timeout`, and is judged as over a WebSocket (`join.rs`).
//! 3. The session: frames from the stream and datagrams alike pass the rate and size caps
//!    and go to the room. The room's frames go out as datagrams when their message is
//!    `#[tuplet(unreliable)]` ([`Dispatch::unreliable_id`]) and they fit the connection's
//!    datagram size, else on the stream. Snapshots (`world:snapshot`) among them: the
//!    room's tracker for a WebTransport session deltas against the snapshot the client
//!    acknowledged (`world:ack`), so a lost datagram costs bytes, never a wrong value.
//!
//! A session ends with a QUIC close whose code is the WebSocket close code the same end
//! would have had (1000, 1001, 1008, 1013...), its reason the same words.

mod frames;
mod run;
mod session;
mod stream;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use wtransport::config::QuicTransportConfig;
use wtransport::endpoint::endpoint_side;
use wtransport::quinn::VarInt;
use wtransport::{Endpoint, Identity, ServerConfig};

use crate::config::Config;
use crate::shared::Shared;

/// How long the development certificate is valid: Chrome takes a certificate through
/// `serverCertificateHashes` only when it is valid for at most 14 days.
pub const CERT_DAYS: u32 = 14;

/// A running WebTransport endpoint.
pub(crate) struct Listener {
    /// Its accept loop.
    pub task: JoinHandle<()>,
    /// The UDP address it listens on.
    pub addr: SocketAddr,
    /// The certificate's SHA-256, lowercase hex: what a browser passes as
    /// `serverCertificateHashes`.
    pub cert_hash: String,
}

/// A self-signed ECDSA P-256 certificate for loopback, valid from now for [`CERT_DAYS`].
fn identity() -> std::io::Result<Identity> {
    Identity::self_signed_builder()
        .subject_alt_names(["localhost", "127.0.0.1", "::1"])
        .from_now_utc()
        .validity_days(CERT_DAYS)
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// Bidirectional streams a client may have open at once: the session's request and its
/// one stream, and two spare.
pub const BIDI_STREAMS: u32 = 4;

/// Unidirectional streams a client may have open at once: HTTP/3's control stream and
/// QPACK's two, and one spare. The session reads none of its own.
pub const UNI_STREAMS: u32 = 4;

/// Bytes a client may have sent on one connection that the server has not read yet, all
/// streams together: what one connection can make the server hold, beside
/// [`DATAGRAM_BUFFER`].
pub const RECEIVE_WINDOW: u32 = 512 * 1024;

/// Bytes of datagrams received and not yet read, per connection; older ones are dropped.
pub const DATAGRAM_BUFFER: usize = 64 * 1024;

/// QUIC's flow control set so a client cannot make the server buffer more than
/// [`RECEIVE_WINDOW`] plus [`DATAGRAM_BUFFER`]: few streams, each up to twice the hard
/// frame cap unread.
fn transport(cfg: &Config) -> QuicTransportConfig {
    let stream = u32::try_from(2 * cfg.hard_frame_cap).unwrap_or(u32::MAX);
    let mut t = QuicTransportConfig::default();
    t.max_concurrent_bidi_streams(VarInt::from_u32(BIDI_STREAMS))
        .max_concurrent_uni_streams(VarInt::from_u32(UNI_STREAMS))
        .stream_receive_window(VarInt::from_u32(stream.min(RECEIVE_WINDOW)))
        .receive_window(VarInt::from_u32(RECEIVE_WINDOW))
        .datagram_receive_buffer_size(Some(DATAGRAM_BUFFER));
    t
}

/// Binds `addr` (UDP) and accepts sessions into `shared`'s rooms, numbering connections
/// from `next` (shared with the WebSocket listener).
pub(crate) fn listen(
    addr: SocketAddr,
    shared: Arc<Shared>,
    next: Arc<AtomicU64>,
) -> std::io::Result<Listener> {
    let identity = identity()?;
    let cert_hash = hex(identity.certificate_chain().as_slice()[0].hash().as_ref());
    let config = ServerConfig::builder()
        .with_bind_address(addr)
        .with_custom_transport(identity, transport(&shared.config))
        .keep_alive_interval(Some(Duration::from_secs(3)))
        .max_idle_timeout(Some(shared.config.idle_timeout))
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .build();
    let endpoint = Endpoint::server(config)?;
    let addr = endpoint.local_addr()?;
    let task = tokio::spawn(accept(endpoint, shared, next));
    Ok(Listener {
        task,
        addr,
        cert_hash,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn accept(
    endpoint: Endpoint<endpoint_side::Server>,
    shared: Arc<Shared>,
    next: Arc<AtomicU64>,
) {
    loop {
        let incoming = endpoint.accept().await;
        let ip = incoming.remote_address().ip();
        match shared.admit(ip) {
            Ok(slot) => {
                let conn = next.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(session::session(incoming, shared.clone(), conn, slot, ip));
            }
            Err(counter) => {
                shared.counters.add(counter);
                incoming.refuse();
            }
        }
    }
}
