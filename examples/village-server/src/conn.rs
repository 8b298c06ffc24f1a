//! One WebSocket connection, from the upgrade to the close handshake:
//!
//! 1. The upgrade, within `handshake_timeout`: the path must name an allowed room (404
//!    otherwise, 503 past `max_rooms` or while draining).
//! 2. `session:hello`, within `hello_timeout`, checked here: its token verified (a bad or
//!    expired one is answered `session:error` and closed, code 1008); only then does the
//!    connection take a room slot.
//! 3. The session: every frame kind (binary, text, ping, pong) counts against the rate cap;
//!    a frame over a cap is counted in the room's [`FrameDrops`] here and never reaches the
//!    room; a client over its cap `flood_close_s` seconds in a row, silent `idle_timeout`,
//!    or with a write blocked `write_timeout` is closed. A connection reads at most
//!    [`READS_PER_RATE`] times its rate cap in frames (each fragment of a message counted,
//!    `metered.rs`): past that it stops reading until it may again, and TCP makes the
//!    sender wait, so a flood costs the server what it reads, not what the sender can
//!    write.
//!
//! Every close the server makes is a WebSocket close handshake with a code, a protocol
//! error's too (1002, 1003, 1007 or 1009, with the library's reason).

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message as _, Wire};
use village::dispatch::ServerMessage;
use village::session::{SessionError, SessionFailed, SessionHello};
use yawc::close::CloseCode;
use yawc::{Frame, OpCode, Role, WebSocket, WebSocketError};

use crate::counters::{Counter, FrameDrops};
use crate::handshake::{self, Bad};
use crate::join::{self, Joined, Refused, Said, Who};
use crate::limits::{Flood, RateCap};
use crate::metered::Metered;
use crate::room::{close, Event, Out};
use crate::shared::{HelloSlot, NoRoom, Shared};

/// Frames written per flush at most (more when one batch is bigger), so one busy client
/// cannot starve its own reads.
const BATCH: usize = 256;

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

type Ws = WebSocket<Metered>;

/// Serves one accepted connection from peer `peer`; `slot` is its place in the budget of
/// connections yet to say hello, traded for a player's place at its hello. Behind a
/// trusted proxy the client's address is the one the proxy names, and every per-address
/// cap counts that one.
pub(crate) async fn serve(
    stream: TcpStream,
    shared: Arc<Shared>,
    conn: u64,
    mut slot: HelloSlot,
    peer: IpAddr,
) {
    let cfg = shared.config.clone();
    let _ = stream.set_nodelay(true);
    // What the kernel may hold for a reader that stopped reading.
    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(cfg.send_buffer);
    // A newcomer may take this connection's place until it says hello (the budget before
    // hello was full and this address held the most): then it ends here, counted
    // `evicted_before_hello` when the place was taken.
    let evicted = slot.evicted();
    let upgraded = tokio::select! {
        up = upgrade(stream, &shared, peer, &mut slot) => up,
        () = evicted.notified() => None,
    };
    let Some((mut ws, path, _deflate, ip)) = upgraded else {
        return;
    };
    let mut cap = RateCap::new(cfg.rate_per_s, cfg.rate_burst);
    let mut flood = Flood::default();
    let drops = shared.pre_hello_drops.clone();
    let greeted = tokio::select! {
        said = hello(&mut ws, &shared, &drops, &path, &mut cap) => Ok(said),
        () = evicted.notified() => Err(()),
    };
    let Some((hello, who, len)) = (match greeted {
        Ok(said) => said,
        Err(()) => return close_now(&mut ws, close::TRY_LATER, "evicted before hello").await,
    }) else {
        return;
    };
    // Said hello: a player's connection slot, then the room (opened now if it is not).
    let said = Said { hello, len, who };
    let joined = join::join(&shared, slot, &path, conn, ip, said).await;
    let Joined {
        room,
        mut rx,
        queued,
        _slot,
    } = match joined {
        Ok(joined) => joined,
        Err(refused) => return answer(&mut ws, refused).await,
    };
    let idle = tokio::time::sleep(cfg.idle_timeout);
    tokio::pin!(idle);
    loop {
        tokio::select! {
            out = rx.recv() => {
                let write = write_batch(&mut ws, out, &mut rx, &queued);
                match tokio::time::timeout(cfg.write_timeout, write).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some((code, reason)))) => {
                        close_with(&mut ws, code, reason).await;
                        break;
                    }
                    Ok(Err(())) => break,
                    Err(_) => {
                        // Blocked on a reader that does not read: drop it, no handshake.
                        shared.counters.add(Counter::WriteTimeout);
                        break;
                    }
                }
            }
            _ = &mut idle => {
                shared.counters.add(Counter::IdleTimeout);
                close_with(&mut ws, close::GOING_AWAY, "idle").await;
                break;
            }
            incoming = ws.next_frame() => {
                idle.as_mut().reset(tokio::time::Instant::now() + cfg.idle_timeout);
                let bytes = match incoming {
                    // The library has queued its answer to the close frame: write it.
                    Ok(f) if f.opcode() == OpCode::Close => {
                        finish_close(&mut ws).await;
                        break;
                    }
                    Ok(frame) if frame.opcode() == OpCode::Ping && !answer_ping(&mut ws, &cfg).await => {
                        shared.counters.add(Counter::WriteTimeout);
                        break;
                    }
                    Ok(frame) => match admit(&frame, &cfg, &room.drops, &mut cap) {
                        Some(bytes) => bytes,
                        None => {
                            if flood.on_drop(Instant::now(), cfg.flood_close_s) {
                                shared.counters.add(Counter::Flooding);
                                close_with(&mut ws, close::POLICY, "over the rate cap").await;
                                break;
                            }
                            continue;
                        }
                    },
                    Err(e) => {
                        close_on_error(&mut ws, &shared, e).await;
                        break;
                    }
                };
                if room.tx.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(Event::Close { conn }).await;
}

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

/// The upgrade, bounded in time: the client's address (behind a trusted proxy, the one
/// it names; `hello_slot` is counted under it from then on), a path naming a room that may open
/// (none is opened here), permessage-deflate agreed when configured and offered.
async fn upgrade(
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

/// The client's address: the peer's, unless the peer is a trusted proxy, whose PROXY
/// header (when configured) and then `X-Forwarded-For` (while the address so far is still
/// a trusted proxy's) name it. `Err`: a trusted proxy's header that names no address.
fn client_address(
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

/// Waits for `session:hello` (within `hello_timeout`) and checks its token. `None`: the
/// connection was closed (no hello, or a refused token).
async fn hello(
    ws: &mut Ws,
    shared: &Shared,
    drops: &FrameDrops,
    path: &str,
    cap: &mut RateCap,
) -> Option<(SessionHello, Who, usize)> {
    let cfg = &shared.config;
    let deadline = tokio::time::Instant::now() + cfg.hello_timeout;
    let (hello, len) = loop {
        // The read cap holds before the hello too: the socket is metered from the upgrade.
        let msg = match tokio::time::timeout_at(deadline, ws.next_frame()).await {
            Err(_) => {
                shared.counters.add(Counter::HelloTimeout);
                close_with(ws, close::POLICY, "no session:hello").await;
                return None;
            }
            Ok(Ok(f)) if f.opcode() == OpCode::Close => {
                finish_close(ws).await;
                return None;
            }
            Ok(Ok(f)) if f.opcode() == OpCode::Ping && !answer_ping(ws, cfg).await => {
                shared.counters.add(Counter::WriteTimeout);
                return None;
            }
            Ok(Ok(f)) => f,
            Ok(Err(e)) => {
                close_on_error(ws, shared, e).await;
                return None;
            }
        };
        let Some(bytes) = admit(&msg, cfg, drops, cap) else {
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
            Ok(h) => break (h, bytes.len()),
            Err(_) => shared.counters.add(Counter::BeforeHello),
        }
    };
    match join::judge(shared, path, &hello) {
        Ok(who) => Some((hello, who, len)),
        Err(refused) => {
            answer(ws, refused).await;
            None
        }
    }
}

/// Answers a refused hello: `session:error` (when there is one to tell), then the close.
async fn answer(ws: &mut Ws, refused: Refused) {
    match refused.error {
        Some(error) => refuse_with(ws, error, refused.code, refused.reason).await,
        None => close_with(ws, refused.code, refused.reason).await,
    }
}

/// Answers a refused hello with `session:error` and closes with `code`.
async fn refuse_with(ws: &mut Ws, error: SessionError, code: u16, reason: &str) {
    let refused = ServerMessage::from(SessionFailed { error, fatal: true });
    if let Ok(bytes) = refused.to_envelope(Encoding::Compact) {
        let _ = ws.send(Frame::binary(bytes)).await;
    }
    close_with(ws, code, reason).await;
}

/// Writes the pong the library queued for a ping (within `write_timeout`; false: the
/// socket failed or stayed blocked). yawc keeps the pongs it owes in memory until the next
/// write, and a connection that gets no frames from its room writes nothing: without this a
/// ping flood held one queued pong per ping (660 MB for 4 flooders in 15 s, measured by
/// `scripts/bench hostile`). Now at most one is queued.
async fn answer_ping(ws: &mut Ws, cfg: &crate::config::Config) -> bool {
    matches!(
        tokio::time::timeout(cfg.write_timeout, ws.flush()).await,
        Ok(Ok(()))
    )
}

/// A frame within the caps: its bytes for the room. Any frame over a cap, and every text,
/// ping and pong frame, is counted in `drops` and goes no further (the library answers
/// pings itself; a ping still takes a token, so a ping flood is a flood). The library
/// joins a fragmented message before it gets here: it counts once, and its size is bounded
/// by `hard_frame_cap`.
fn admit(
    msg: &Frame,
    cfg: &crate::config::Config,
    drops: &FrameDrops,
    cap: &mut RateCap,
) -> Option<Bytes> {
    if !cap.take(Instant::now()) {
        FrameDrops::add(&drops.rate_limited);
        return None;
    }
    match msg.opcode() {
        OpCode::Binary if msg.payload().len() <= cfg.frame_cap => Some(msg.payload().clone()),
        OpCode::Binary => {
            FrameDrops::add(&drops.too_large);
            None
        }
        OpCode::Text => {
            FrameDrops::add(&drops.text_frame);
            None
        }
        _ => None,
    }
}

/// Writes one batch the room queued, and whatever else is queued up to [`BATCH`] frames,
/// with one flush. `Ok(Some(code))`: the room asked to close. `Err`: the socket failed.
async fn write_batch(
    ws: &mut Ws,
    first: Option<Out>,
    rx: &mut mpsc::Receiver<Out>,
    queued: &AtomicUsize,
) -> Result<Option<(u16, &'static str)>, ()> {
    let mut next = first;
    let mut fed = 0;
    let mut close = None;
    loop {
        match next {
            Some(Out::Frames(frames, bytes)) => {
                let n = frames.len();
                for frame in frames {
                    ws.feed(Frame::binary(frame)).await.map_err(|_| ())?;
                }
                queued.fetch_sub(bytes, Ordering::Relaxed);
                fed += n;
            }
            Some(Out::Close(code, reason)) => close = Some((code, reason)),
            None => close = Some((close::GOING_AWAY, "room closed")),
        }
        if close.is_some() || fed >= BATCH {
            break;
        }
        match rx.try_recv() {
            Ok(out) => next = Some(out),
            Err(_) => break,
        }
    }
    ws.flush().await.map_err(|_| ())?;
    Ok(close)
}

/// The most frames a close reads while it waits for the peer's answer. A peer that floods
/// through the close (pings above all: the library queues a pong for each) is dropped after
/// these rather than read for the close's whole second.
const CLOSE_READ_FRAMES: usize = 64;

/// The server's close handshake: a close frame with `code`, then the peer's answer read
/// (bounded to a second and to [`CLOSE_READ_FRAMES`] frames), so the TCP close is clean
/// rather than a reset.
async fn close_with(ws: &mut Ws, code: u16, reason: &str) {
    let frame = Frame::close(CloseCode::from(code), reason);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        if ws.send(frame).await.is_ok() {
            let mut read = 0;
            while let Some(f) = ws.next().await {
                read += 1;
                if f.opcode() == OpCode::Close || read >= CLOSE_READ_FRAMES {
                    break;
                }
            }
        }
    })
    .await;
}

/// Sends a close frame (within a second) and ends the connection without waiting for the
/// peer's reply: for a connection that holds nothing the server owes a wait.
async fn close_now(ws: &mut Ws, code: u16, reason: &str) {
    let frame = Frame::close(CloseCode::from(code), reason);
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.send(frame)).await;
}

/// After a read error. The peer closing or the socket failing ends the connection there.
/// A protocol error (a frame the library refused) is answered with a close frame: its
/// RFC 6455 code (1009 too big, 1007 text not UTF-8, 1003 an unknown opcode, 1002 the
/// rest) and the library's reason, counted `protocol_error`. The library queues that close
/// itself for an error in one frame and writes it at the next read, which then ends at
/// once; for an error in assembling a fragmented message it queues none, and the server
/// sends it.
async fn close_on_error(ws: &mut Ws, shared: &Shared, err: WebSocketError) {
    let code = match err {
        WebSocketError::ConnectionClosed | WebSocketError::IoError(_) => return,
        WebSocketError::FrameTooLarge => close::TOO_BIG,
        WebSocketError::InvalidUTF8 => close::NOT_UTF8,
        WebSocketError::InvalidOpCode(_) => close::UNSUPPORTED,
        _ => close::PROTOCOL,
    };
    shared.counters.add(Counter::ProtocolError);
    let next = tokio::time::timeout(Duration::from_millis(100), ws.next_frame()).await;
    if !matches!(next, Ok(Err(WebSocketError::ConnectionClosed))) {
        close_with(ws, code, &err.to_string()).await;
    }
}

/// After the peer's close frame: the library queued its answer; flush it and read until the
/// peer closes (bounded to a second and to [`CLOSE_READ_FRAMES`] frames).
async fn finish_close(ws: &mut Ws) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = ws.flush().await;
        let mut read = 0;
        while read < CLOSE_READ_FRAMES && ws.next().await.is_some() {
            read += 1;
        }
    })
    .await;
}
