//! WebTransport sessions (HTTP/3 over QUIC, the `wtransport` crate), beside the WebSockets
//! and into the same rooms under the same caps:
//!
//! 1. The QUIC handshake and the session request, within `handshake_timeout`, each
//!    counted against the budget before hello from the first packet; the path must name a
//!    room that may open (404 otherwise, 429 past `max_rooms` or while draining).
//! 2. The client opens one bidirectional stream: the reliable, ordered channel. Frames on
//!    it go after their length (`wt_frames.rs`). `session:hello` comes first, within
//!    `hello_timeout`, and is judged as over a WebSocket (`join.rs`).
//! 3. The session: frames from the stream and datagrams alike pass the rate and size caps
//!    and go to the room. The room's frames go out as datagrams when their message is
//!    `#[tuplet(unreliable)]` ([`Dispatch::unreliable_id`]) and they fit the connection's
//!    datagram size, else on the stream. Snapshots (`world:snapshot`) stay on the stream:
//!    the room tracks each player's baseline as delivered, which only a reliable channel
//!    keeps true.
//!
//! A session ends with a QUIC close whose code is the WebSocket close code the same end
//! would have had (1000, 1001, 1008, 1013...), its reason the same words.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::task::JoinHandle;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message as _, Wire};
use village::dispatch::ServerMessage;
use village::session::{SessionFailed, SessionHello};
use village::world::WorldSnapshot;
use wtransport::endpoint::{endpoint_side, IncomingSession};
use wtransport::{Connection, Endpoint, Identity, RecvStream, SendStream, ServerConfig, VarInt};

use crate::counters::{Counter, FrameDrops};
use crate::join::{self, Joined, Refused, Said};
use crate::limits::{Flood, RateCap};
use crate::room::{close, Event, Out};
use crate::shared::{HelloSlot, NoRoom, Shared};
use crate::wt_frames::{self, FrameReader};

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
        .with_identity(identity)
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
                tokio::spawn(session(incoming, shared.clone(), conn, slot, ip));
            }
            Err(counter) => {
                shared.counters.add(counter);
                incoming.refuse();
            }
        }
    }
}

/// The reliable stream of a session.
struct Stream {
    send: SendStream,
    recv: RecvStream,
    frames: FrameReader,
}

/// Serves one session from its first packet to its close.
async fn session(
    incoming: IncomingSession,
    shared: Arc<Shared>,
    conn: u64,
    slot: HelloSlot,
    ip: IpAddr,
) {
    let evicted = slot.evicted();
    let opened = tokio::select! {
        opened = open(incoming, &shared) => opened,
        () = evicted.notified() => None,
    };
    let Some((connection, path)) = opened else {
        return;
    };
    let mut cap = RateCap::new(shared.config.rate_per_s, shared.config.rate_burst);
    let drops = shared.pre_hello_drops.clone();
    let greeted = tokio::select! {
        said = hello(&connection, &shared, &drops, &path, &mut cap) => said,
        () = evicted.notified() => {
            end(&connection, close::TRY_LATER, "evicted before hello");
            return;
        }
    };
    let Some((mut stream, said)) = greeted else {
        return;
    };
    let joined = match join::join(&shared, slot, &path, conn, ip, said).await {
        Ok(joined) => joined,
        Err(refused) => return answer(&connection, &mut stream, refused).await,
    };
    run(&connection, stream, &shared, conn, joined, cap).await;
}

/// The QUIC handshake and the session request, bounded in time; the room's path.
async fn open(incoming: IncomingSession, shared: &Shared) -> Option<(Connection, String)> {
    let cfg = &shared.config;
    let request = match tokio::time::timeout(cfg.handshake_timeout, incoming).await {
        Ok(Ok(request)) => request,
        Ok(Err(_)) => {
            shared.counters.add(Counter::HandshakeFailed);
            return None;
        }
        Err(_) => {
            shared.counters.add(Counter::HandshakeTimeout);
            return None;
        }
    };
    let path = request.path().split('?').next().unwrap_or("").to_string();
    if let Err(why) = shared.may_open(&path) {
        let counter = match why {
            NoRoom::NotAllowed => Counter::RoomNotAllowed,
            NoRoom::Full => Counter::RoomsFull,
            NoRoom::Draining => Counter::Draining,
        };
        shared.counters.add(counter);
        match why {
            NoRoom::NotAllowed => request.not_found().await,
            NoRoom::Full | NoRoom::Draining => request.too_many_requests().await,
        }
        return None;
    }
    match tokio::time::timeout(cfg.handshake_timeout, request.accept()).await {
        Ok(Ok(connection)) => Some((connection, path)),
        _ => {
            shared.counters.add(Counter::HandshakeFailed);
            None
        }
    }
}

/// One frame from either channel: the stream's next, or a datagram.
enum Incoming {
    Frame(Bytes),
    /// The stream or the session ended (`Some`: as a protocol error, with its reason).
    Ended(Option<&'static str>),
}

/// The next frame from the stream (waiting for the client to open it) or a datagram.
async fn next(connection: &Connection, stream: &mut Option<Stream>, cap: usize) -> Incoming {
    if let Some(s) = stream.as_mut() {
        match s.frames.next_frame() {
            Ok(Some(frame)) => return Incoming::Frame(frame),
            Ok(None) => {}
            Err(_) => return Incoming::Ended(Some("frame over the hard cap")),
        }
    }
    let mut chunk = [0u8; 4096];
    loop {
        match stream.as_mut() {
            None => tokio::select! {
                bi = connection.accept_bi() => match bi {
                    Ok((send, recv)) => {
                        *stream = Some(Stream { send, recv, frames: FrameReader::new(cap) });
                    }
                    Err(_) => return Incoming::Ended(None),
                },
                d = connection.receive_datagram() => return match d {
                    Ok(d) => Incoming::Frame(d.payload()),
                    Err(_) => Incoming::Ended(None),
                },
            },
            Some(s) => tokio::select! {
                n = s.recv.read(&mut chunk) => match n {
                    Ok(Some(n)) => {
                        s.frames.extend(&chunk[..n]);
                        match s.frames.next_frame() {
                            Ok(Some(frame)) => return Incoming::Frame(frame),
                            Ok(None) => {}
                            Err(_) => return Incoming::Ended(Some("frame over the hard cap")),
                        }
                    }
                    _ => return Incoming::Ended(None),
                },
                d = connection.receive_datagram() => return match d {
                    Ok(d) => Incoming::Frame(d.payload()),
                    Err(_) => Incoming::Ended(None),
                },
            },
        }
    }
}

/// A frame within the caps: its bytes for the room; any other is counted in `drops`.
fn admit(
    frame: Bytes,
    cfg: &crate::config::Config,
    drops: &FrameDrops,
    cap: &mut RateCap,
) -> Option<Bytes> {
    if !cap.take(Instant::now()) {
        FrameDrops::add(&drops.rate_limited);
        return None;
    }
    if frame.len() > cfg.frame_cap {
        FrameDrops::add(&drops.too_large);
        return None;
    }
    Some(frame)
}

/// Waits for the stream and `session:hello` on it (within `hello_timeout`) and judges it.
async fn hello(
    connection: &Connection,
    shared: &Shared,
    drops: &FrameDrops,
    path: &str,
    cap: &mut RateCap,
) -> Option<(Stream, Said)> {
    let cfg = &shared.config;
    let deadline = tokio::time::Instant::now() + cfg.hello_timeout;
    let mut stream = None;
    let (hello, len) = loop {
        let frame = match tokio::time::timeout_at(
            deadline,
            next(connection, &mut stream, cfg.hard_frame_cap),
        )
        .await
        {
            Err(_) => {
                shared.counters.add(Counter::HelloTimeout);
                end(connection, close::POLICY, "no session:hello");
                return None;
            }
            Ok(Incoming::Ended(why)) => {
                if let Some(why) = why {
                    shared.counters.add(Counter::ProtocolError);
                    end(connection, close::TOO_BIG, why);
                }
                return None;
            }
            Ok(Incoming::Frame(frame)) => frame,
        };
        let Some(bytes) = admit(frame, cfg, drops, cap) else {
            continue;
        };
        let mut r = Reader::new(&bytes);
        let hello = match r.read_u64(0, u64::from(u32::MAX)) {
            Ok(id) if id == u64::from(SessionHello::ID) => {
                SessionHello::decode(&mut r).and_then(|h| r.finish().map(|()| h))
            }
            _ => {
                shared.counters.add(Counter::BeforeHello);
                continue;
            }
        };
        match hello {
            // The hello must come on the stream: the answer goes there.
            Ok(h) if stream.is_some() => break (h, bytes.len()),
            _ => shared.counters.add(Counter::BeforeHello),
        }
    };
    let mut stream = stream.expect("the hello came on the stream");
    match join::judge(shared, path, &hello) {
        Ok(who) => Some((stream, Said { hello, len, who })),
        Err(refused) => {
            answer(connection, &mut stream, refused).await;
            None
        }
    }
}

/// Answers a refused hello: `session:error` on the stream (when there is one to tell),
/// then the close.
async fn answer(connection: &Connection, stream: &mut Stream, refused: Refused) {
    if let Some(error) = refused.error {
        let refusal = ServerMessage::from(SessionFailed { error, fatal: true });
        if let Ok(bytes) = refusal.to_envelope(Encoding::Compact) {
            let mut out = Vec::with_capacity(bytes.len() + 4);
            wt_frames::put(&mut out, &bytes);
            let write = stream.send.write_all(&out);
            let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
        }
    }
    end(connection, refused.code, refused.reason);
}

/// Closes the session with a WebSocket close code and reason.
fn end(connection: &Connection, code: u16, reason: &str) {
    connection.close(VarInt::from_u32(u32::from(code)), reason.as_bytes());
}

/// Whether a frame of the room's may go as a datagram: its message is `unreliable`, and
/// not a snapshot (tracked as delivered: the stream's).
fn datagram_ok(frame: &[u8]) -> bool {
    let mut r = Reader::new(frame);
    match r.read_u64(0, u64::from(u32::MAX)) {
        Ok(id) => {
            let id = id as u32;
            id != WorldSnapshot::ID && ServerMessage::unreliable_id(id)
        }
        Err(_) => false,
    }
}

/// The session in its room: frames both ways until either side ends it.
async fn run(
    connection: &Connection,
    stream: Stream,
    shared: &Shared,
    conn: u64,
    joined: Joined,
    mut cap: RateCap,
) {
    let cfg = &shared.config;
    let Joined {
        room,
        mut rx,
        queued,
        _slot,
    } = joined;
    let mut flood = Flood::default();
    let mut taken = Some(stream);
    let idle = tokio::time::sleep(cfg.idle_timeout);
    tokio::pin!(idle);
    let mut out = Vec::new();
    loop {
        tokio::select! {
            batch = rx.recv() => {
                let Some(batch) = batch else {
                    end(connection, close::GOING_AWAY, "room closed");
                    break;
                };
                let s = taken.as_mut().expect("the stream");
                let write = write_batch(connection, &mut s.send, batch, &mut rx, &queued, &mut out);
                match tokio::time::timeout(cfg.write_timeout, write).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some((code, reason)))) => {
                        end(connection, code, reason);
                        break;
                    }
                    Ok(Err(())) => break,
                    Err(_) => {
                        shared.counters.add(Counter::WriteTimeout);
                        end(connection, close::POLICY, "write timeout");
                        break;
                    }
                }
            }
            _ = &mut idle => {
                shared.counters.add(Counter::IdleTimeout);
                end(connection, close::GOING_AWAY, "idle");
                break;
            }
            incoming = next(connection, &mut taken, cfg.hard_frame_cap) => {
                idle.as_mut().reset(tokio::time::Instant::now() + cfg.idle_timeout);
                let frame = match incoming {
                    Incoming::Frame(frame) => frame,
                    Incoming::Ended(why) => {
                        if let Some(why) = why {
                            shared.counters.add(Counter::ProtocolError);
                            end(connection, close::TOO_BIG, why);
                        }
                        break;
                    }
                };
                let Some(bytes) = admit(frame, cfg, &room.drops, &mut cap) else {
                    if flood.on_drop(Instant::now(), cfg.flood_close_s) {
                        shared.counters.add(Counter::Flooding);
                        end(connection, close::POLICY, "over the rate cap");
                        break;
                    }
                    continue;
                };
                if room.tx.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(Event::Close { conn }).await;
}

/// Frames written per batch at most (more when one batch of the room's is bigger), so one
/// busy session cannot starve its own reads.
const BATCH: usize = 256;

/// Sends one batch the room queued, and whatever else is queued up to [`BATCH`] frames:
/// datagrams at once, the stream's frames in one write. `Ok(Some(code))`: the room asked
/// to close. `Err`: the stream failed.
async fn write_batch(
    connection: &Connection,
    send: &mut SendStream,
    first: Out,
    rx: &mut tokio::sync::mpsc::Receiver<Out>,
    queued: &std::sync::atomic::AtomicUsize,
    out: &mut Vec<u8>,
) -> Result<Option<(u16, &'static str)>, ()> {
    out.clear();
    let max = connection.max_datagram_size().unwrap_or(0);
    let mut next = Some(first);
    let mut fed = 0;
    let mut close = None;
    while let Some(batch) = next.take() {
        match batch {
            Out::Frames(frames, bytes) => {
                fed += frames.len();
                for frame in frames {
                    let sent = frame.len() <= max
                        && datagram_ok(&frame)
                        && connection.send_datagram(&frame).is_ok();
                    if !sent {
                        wt_frames::put(out, &frame);
                    }
                }
                queued.fetch_sub(bytes, Ordering::Relaxed);
            }
            Out::Close(code, reason) => close = Some((code, reason)),
        }
        if close.is_some() || fed >= BATCH {
            break;
        }
        next = rx.try_recv().ok();
    }
    if !out.is_empty() {
        send.write_all(out).await.map_err(|_| ())?;
    }
    Ok(close)
}
