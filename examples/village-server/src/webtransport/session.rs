//! One session from its first packet to its room: the QUIC handshake and the session
//! request, then `session:hello` on the stream, judged and joined as over a WebSocket.

use std::net::IpAddr;
use std::sync::Arc;

use tuplet::wire::Reader;
use tuplet::{Message as _, Wire};
use village::session::SessionHello;
use wtransport::endpoint::IncomingSession;
use wtransport::Connection;

use crate::counters::{Counter, FrameDrops};
use crate::join::{self, Said};
use crate::limits::RateCap;
use crate::room::close;
use crate::shared::{HelloSlot, NoRoom, Shared};

use super::run::run;
use super::stream::{admit, answer, end, next, Incoming, Stream};

/// Serves one session from its first packet to its close.
pub(super) async fn session(
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
        Ok(who) => Some((
            stream,
            Said {
                hello,
                len,
                who,
                datagrams: true,
            },
        )),
        Err(refused) => {
            answer(connection, &mut stream, refused).await;
            None
        }
    }
}
