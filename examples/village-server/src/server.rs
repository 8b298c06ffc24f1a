//! The listener and the rooms: a room is created on the first connection to an allowed
//! name (`ws://host/` is the room `village`) and runs as its own task until it has been
//! empty for `Config::room_idle`. Connections are admitted under the total and per-address
//! caps; a drain stops new ones and tells the players.

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpSocket};
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::counters::Counter;
use crate::room::Event;
use crate::shared::Shared;

/// A running server.
pub struct Server {
    addr: SocketAddr,
    accept: JoinHandle<()>,
    shared: Arc<Shared>,
    webtransport: Option<crate::webtransport::Listener>,
}

impl Server {
    /// Where it listens (the real port when `Config::addr` asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The WebSocket URL of room `room`.
    pub fn url(&self, room: &str) -> String {
        format!("ws://{}/{room}", self.addr)
    }

    /// The WebTransport URL of room `room` (`https://host:port/room`), when
    /// `Config::webtransport` is on.
    pub fn webtransport_url(&self, room: &str) -> Option<String> {
        let wt = self.webtransport.as_ref()?;
        Some(format!("https://{}/{room}", wt.addr))
    }

    /// The WebTransport certificate's SHA-256 as lowercase hex, for a browser's
    /// `serverCertificateHashes` (also served at `GET /webtransport`), when
    /// `Config::webtransport` is on.
    pub fn cert_hash(&self) -> Option<&str> {
        Some(self.webtransport.as_ref()?.cert_hash.as_str())
    }

    /// Stops accepting connections (rooms end as their connections close).
    pub fn stop(&self) {
        self.accept.abort();
        if let Some(wt) = &self.webtransport {
            wt.task.abort();
        }
    }

    /// Rooms open now.
    pub fn rooms(&self) -> usize {
        self.shared.room_count()
    }

    /// Connections open now (upgrading, waiting for hello, or in a room).
    pub fn connections(&self) -> usize {
        self.shared.connections()
    }

    /// Players in rooms now (joined, not yet left), every room's together.
    pub fn players(&self) -> usize {
        self.shared.presence.count()
    }

    /// Guest sessions in rooms now, connected or in their grace window (at most
    /// [`Config::guest_cap`](crate::Config::guest_cap)).
    pub fn guests(&self) -> usize {
        self.shared.guests.held()
    }

    /// Room ticks so far, every room's together: it grows while any room runs.
    pub fn ticks(&self) -> u64 {
        self.shared.presence.ticks()
    }

    /// What the connections share, for the Agones lifecycle.
    #[cfg(feature = "agones")]
    pub(crate) fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// Whether the player store's last write failed (a full disk): players' states are
    /// held in memory and retried, the players are told, and the Agones health pings stop.
    pub fn store_failing(&self) -> bool {
        self.shared.sessions.store.failing()
    }

    /// Whether [`Server::drain`] has begun.
    pub fn draining(&self) -> bool {
        self.shared.draining.load(Ordering::Relaxed)
    }

    /// A server counter (see [`Counter`]).
    pub fn counter(&self, c: Counter) -> u64 {
        self.shared.counters.get(c)
    }

    /// Drains: stops accepting, refuses new rooms and players, tells every player with a
    /// `notice:show` restart notice (its `at` is when the grace ends), then waits until
    /// every connection has closed or `grace` has passed. Returns the connections still
    /// open (0 when everyone left in time).
    pub async fn drain(&self, grace: Duration) -> usize {
        self.shared.draining.store(true, Ordering::Relaxed);
        self.stop();
        let at_ms = crate::token::now_s() * 1000 + grace.as_millis() as u64;
        for room in self.shared.room_senders() {
            let _ = room.send(Event::Drain { at_ms }).await;
        }
        let until = Instant::now() + grace;
        // Everyone gone: every connection closed and every session ended (sessions in
        // their grace window end at the drain notice), and so saved.
        while (self.shared.connections() > 0 || self.shared.presence.count() > 0)
            && Instant::now() < until
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let store = self.shared.sessions.store.clone();
        let left = until
            .saturating_duration_since(Instant::now())
            .max(Duration::from_secs(1));
        let _ = tokio::task::spawn_blocking(move || store.close(left)).await;
        self.shared.connections()
    }

    /// Waits until every player state saved so far is written to the store (or `within`
    /// passed); true when all is written.
    pub async fn flush_store(&self, within: Duration) -> bool {
        let store = self.shared.sessions.store.clone();
        tokio::task::spawn_blocking(move || store.flush(within))
            .await
            .unwrap_or(false)
    }

    /// Runs until the listener fails.
    pub async fn wait(self) {
        let _ = self.accept.await;
    }
}

/// Connections the kernel completes and holds until the server accepts them (capped by
/// `net.core.somaxconn`, 4096 on Linux since 5.4). tokio's `TcpListener::bind` asks for
/// 128: sockets reconnecting the moment they are evicted from the budget before hello
/// (the idle-1000 bench row) fill that, and the kernel then drops a new player's SYN,
/// which its TCP sends again only a second later.
const BACKLOG: u32 = 4096;

/// A listener on `addr` with [`BACKLOG`] (and `SO_REUSEADDR` on Unix, as std binds).
fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Binds `config.addr` and starts accepting connections on the current tokio runtime.
pub async fn start(config: Config) -> io::Result<Server> {
    crate::fdlimit::check(&config)?;
    let listener = bind(config.addr)?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared::new(config)?);
    crate::trim::spawn(&shared);
    let next = Arc::new(AtomicU64::new(1));
    // WebTransport on the same address and port, over UDP.
    let webtransport = if shared.config.webtransport {
        let wt = crate::webtransport::listen(addr, shared.clone(), next.clone())?;
        shared.set_webtransport(wt.addr.port(), wt.cert_hash.clone());
        Some(wt)
    } else {
        None
    };
    let accepting = shared.clone();
    let accept = tokio::spawn(async move {
        let shared = accepting;
        let mut last_log = None::<Instant>;
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => match shared.admit(peer.ip()) {
                    Ok(slot) => {
                        let conn = next.fetch_add(1, Ordering::Relaxed);
                        let ip = peer.ip();
                        tokio::spawn(crate::conn::serve(stream, shared.clone(), conn, slot, ip));
                    }
                    // Closed at once: over a cap, it gets no task and no buffer, only a
                    // 503 written if the socket takes it now (never waited for).
                    Err(counter) => {
                        shared.counters.add(counter);
                        let _ = stream.try_write(crate::handshake::BUSY_AT_ACCEPT);
                    }
                },
                Err(e) => {
                    shared.counters.add(Counter::AcceptFailed);
                    // Logged at most once a second (out of file descriptors repeats).
                    if last_log.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                        eprintln!("village-server: accept failed: {e}");
                        last_log = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    });
    Ok(Server {
        addr,
        accept,
        shared,
        webtransport,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With tokio's backlog of 128, most of 400 connects to a listener that has not
    /// accepted yet waited a second for their SYN to be sent again.
    #[tokio::test]
    async fn four_hundred_connects_fit_the_backlog_without_a_resent_syn() {
        let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let connects = (0..400).map(|_| {
            tokio::time::timeout(
                Duration::from_millis(500),
                tokio::net::TcpStream::connect(addr),
            )
        });
        let done = futures_util::future::join_all(connects).await;
        let ok = done.iter().filter(|r| matches!(r, Ok(Ok(_)))).count();
        assert_eq!(ok, 400, "connected within 500 ms, nothing accepted yet");
        drop(listener);
    }
}
