//! A minimal village client over a WebSocket: the handshake (hello, welcome, join), typed
//! sends in the shape the client announced, raw frames for tests, and a `sync` that
//! returns everything the server queued for this client before it answered a ping. Used
//! by the relay tests and by `village-bots`.

use std::error::Error;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tuplet::delta::Mirror;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding};
use village::diag::{DiagPing, ServerStats};
use village::dispatch::{ClientMessage, ServerMessage};
use village::player::PlayerJoin;
use village::session::SessionHello;
use village::world::WorldSnapshot;
use yawc::close::CloseCode;
use yawc::{Frame, OpCode, WebSocket};

/// The local address every client socket of this process binds, when set
/// ([`bind_source`]).
static SOURCE: std::sync::OnceLock<std::net::IpAddr> = std::sync::OnceLock::new();

/// Makes every client socket this process opens from now on bind `ip` (any `127.x.y.z` is
/// loopback on Linux): a loopback bench gives its attacker an address of its own, as on
/// the internet, so per-address caps tell it from the players. Set once.
pub fn bind_source(ip: std::net::IpAddr) {
    let _ = SOURCE.set(ip);
}

/// A TCP connection to `addr` from the address [`bind_source`] set, if any.
pub async fn tcp_connect(addr: std::net::SocketAddr) -> std::io::Result<TcpStream> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    if let Some(ip) = SOURCE.get() {
        socket.bind(std::net::SocketAddr::new(*ip, 0))?;
    }
    socket.connect(addr).await
}

/// Any client error.
pub type ClientError = Box<dyn Error + Send + Sync>;

/// How a scripted client presents itself.
#[derive(Debug, Clone)]
pub struct Identity {
    /// Display name asked for in `player:join` (1 to 24 bytes, or empty for a generated
    /// one); a signed-in player is called what its token says.
    pub name: String,
    /// The join token sent in `session:hello`; `None` is a guest (no bird stream).
    pub token: Option<String>,
    /// An old client announces protocol revision 1 and sends and receives the named shape.
    pub old_shape: bool,
}

impl Identity {
    /// A current client signed in with `claims`, signed with `key`.
    pub fn signed(key: &[u8], claims: &crate::token::Claims) -> Identity {
        Identity {
            name: claims.name.clone(),
            token: Some(crate::token::mint(key, claims)),
            old_shape: false,
        }
    }

    /// A plain player `name` (account `account`) signed with `key`, valid for an hour.
    pub fn player(key: &[u8], account: u64, name: &str) -> Identity {
        Identity::signed(key, &crate::token::Claims::player(account, name, 3600))
    }

    /// A guest asking to be called `name`.
    pub fn guest(name: &str) -> Identity {
        Identity {
            name: name.into(),
            token: None,
            old_shape: false,
        }
    }
}

/// One frame from the server: its envelope id and bytes.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// The envelope id (`None` if unreadable: never from this server).
    pub id: Option<u32>,
    /// The whole frame.
    pub bytes: Bytes,
}

impl Incoming {
    /// Decodes the frame (either shape).
    pub fn decode(&self) -> Result<ServerMessage, tuplet::Error> {
        ServerMessage::from_envelope(&self.bytes)
    }

    /// The message name, by envelope id.
    pub fn name(&self) -> &'static str {
        self.id
            .and_then(|id| ServerMessage::MESSAGES.iter().find(|m| m.1 == id))
            .map_or("(unknown)", |m| m.0)
    }

    /// The payload after the envelope id.
    pub fn payload(&self) -> &[u8] {
        let mut r = Reader::new(&self.bytes);
        let _ = r.read_u64(0, u64::MAX);
        &self.bytes[r.position()..]
    }

    /// Whether the payload is in the named (map) shape.
    pub fn is_named(&self) -> bool {
        let mut r = Reader::new(&self.bytes);
        let _ = r.read_u64(0, u64::MAX);
        let at = r.position();
        self.bytes
            .get(at)
            .is_some_and(|&m| (0x80..=0x8f).contains(&m) || m == 0xde || m == 0xdf)
    }
}

/// A connected client.
pub struct Client {
    ws: WebSocket<TcpStream>,
    /// The shape this client sends (and announced it reads).
    pub shape: Encoding,
    /// The session id the server gave it (empty before `session:welcome`).
    pub session: String,
    /// The resume token of the last `session:welcome` (single use: each welcome brings a
    /// new one).
    pub resume_token: Option<String>,
    /// Where the server spawned it (from its own `player:joined`).
    pub spawn: [f32; 3],
    /// The entity snapshot rebuilt from `world:snapshot` keyframes and deltas
    /// ([`Client::apply_snapshot`]).
    pub snapshots: Mirror<WorldSnapshot>,
    nonce: u32,
}

impl Client {
    /// Opens the WebSocket only, offering permessage-deflate.
    pub async fn connect(url: &str, shape: Encoding) -> Result<Client, ClientError> {
        Client::connect_with(url, shape, true, None).await
    }

    /// Opens the WebSocket only: offering permessage-deflate or not, over a socket whose
    /// kernel receive buffer is `recv_buffer` bytes when given.
    pub async fn connect_with(
        url: &str,
        shape: Encoding,
        deflate: bool,
        recv_buffer: Option<u32>,
    ) -> Result<Client, ClientError> {
        Client::connect_from(url, shape, deflate, recv_buffer, SOURCE.get().copied()).await
    }

    /// [`Client::connect_with`] from local address `from` (`None`: the system's choice).
    async fn connect_from(
        url: &str,
        shape: Encoding,
        deflate: bool,
        recv_buffer: Option<u32>,
        from: Option<std::net::IpAddr>,
    ) -> Result<Client, ClientError> {
        let parsed = url::Url::parse(url)?;
        let addr = (
            parsed.host_str().ok_or("a URL with a host")?,
            parsed.port().unwrap_or(80),
        );
        let addr = tokio::net::lookup_host(addr)
            .await?
            .next()
            .ok_or("the host has no address")?;
        let socket = tokio::net::TcpSocket::new_v4()?;
        if let Some(ip) = from {
            socket.bind(std::net::SocketAddr::new(ip, 0))?;
        }
        if let Some(n) = recv_buffer {
            socket.set_recv_buffer_size(n)?;
        }
        let stream = socket.connect(addr).await?;
        stream.set_nodelay(true)?;
        let mut options = yawc::Options::default()
            .with_read_buffer_capacity(crate::conn::READ_BUFFER)
            .with_backpressure_boundary(crate::conn::WRITE_BUFFER);
        if deflate {
            options.compression =
                Some(crate::deflate::options(&crate::deflate::Deflate::default()));
        }
        let ws = WebSocket::handshake(parsed, stream, options).await?;
        Ok(Client {
            ws,
            shape,
            session: String::new(),
            resume_token: None,
            spawn: [0.0; 3],
            snapshots: Mirror::new(),
            nonce: 0,
        })
    }

    /// Joins as `who` over a socket whose kernel receive buffer is `recv_buffer` bytes (a
    /// reader that stops reading fills it fast).
    pub async fn join_small(
        url: &str,
        who: &Identity,
        recv_buffer: u32,
    ) -> Result<Client, ClientError> {
        let c = Client::connect_with(url, Encoding::Compact, true, Some(recv_buffer)).await?;
        c.hello_and_join(who).await
    }

    /// Connects, says hello, waits for the welcome, joins and waits for its own
    /// `player:joined`.
    pub async fn join(url: &str, who: &Identity) -> Result<Client, ClientError> {
        Client::join_with(url, who, true).await
    }

    /// [`Client::join`] from local address `from` (any `127.x.y.z` on Linux), whatever
    /// [`bind_source`] set: one process playing players from many addresses.
    pub async fn join_from(
        url: &str,
        who: &Identity,
        from: std::net::IpAddr,
    ) -> Result<Client, ClientError> {
        let c = Client::connect_from(url, Encoding::Compact, true, None, Some(from)).await?;
        c.hello_and_join(who).await
    }

    /// [`Client::join`], offering permessage-deflate or not.
    pub async fn join_with(
        url: &str,
        who: &Identity,
        deflate: bool,
    ) -> Result<Client, ClientError> {
        let shape = if who.old_shape {
            Encoding::Named
        } else {
            Encoding::Compact
        };
        let mut c = Client::connect_with(url, shape, deflate, None).await?;
        c.shape = shape;
        c.hello_and_join(who).await
    }

    async fn hello_and_join(mut self, who: &Identity) -> Result<Client, ClientError> {
        let c = &mut self;
        if who.old_shape {
            c.shape = Encoding::Named;
        }
        c.send(SessionHello {
            protocol: if who.old_shape { 1 } else { 2 },
            build: "bots".into(),
            token: who.token.clone(),
            locale: "en".into(),
            resume: None,
        })
        .await?;
        loop {
            match c.next_message().await? {
                ServerMessage::SessionWelcome(w) => {
                    c.session = w.s;
                    c.resume_token = w.resume_token;
                    break;
                }
                ServerMessage::SessionFailed(f) => {
                    return Err(format!("session:error {:?}", f.error).into())
                }
                _ => {}
            }
        }
        c.send(PlayerJoin {
            name: who.name.clone(),
            colour: 0x3366cc,
            outfit: None,
        })
        .await?;
        loop {
            if let ServerMessage::PlayerJoined(j) = c.next_message().await? {
                if j.s == c.session {
                    c.spawn = [j.spawn.x, j.spawn.y, j.spawn.z];
                    return Ok(self);
                }
            }
        }
    }

    /// Opens a new connection and resumes session `session` with `token` (a resume token
    /// from that session's last welcome): `Ok` once the server welcomed it back
    /// (`resumed: true`), with the welcome's new resume token kept. The client's
    /// [`Client::snapshots`] mirror starts empty: the server sends a keyframe.
    pub async fn resume(url: &str, session: &str, token: &str) -> Result<Client, ClientError> {
        let mut c = Client::connect(url, Encoding::Compact).await?;
        c.send(SessionHello {
            protocol: 2,
            build: "bots".into(),
            token: Some(token.into()),
            locale: "en".into(),
            resume: Some(session.into()),
        })
        .await?;
        loop {
            match c.next_message().await? {
                ServerMessage::SessionWelcome(w) if w.resumed => {
                    c.session = w.s;
                    c.resume_token = w.resume_token;
                    return Ok(c);
                }
                ServerMessage::SessionWelcome(_) => return Err("welcomed, not resumed".into()),
                ServerMessage::SessionFailed(f) => {
                    return Err(format!("session:error {:?}", f.error).into())
                }
                _ => {}
            }
        }
    }

    /// Leaves on purpose (`session:leave`: saved at once, no grace window), then closes.
    pub async fn leave(mut self) {
        let _ = self
            .send(village::session::SessionLeave { navigating: false })
            .await;
        self.close().await;
    }

    /// Ends the TCP connection without a WebSocket close: to the server, a dropped
    /// connection (its session waits out the grace window).
    pub fn drop_connection(self) {
        drop(self);
    }

    /// Applies one `world:snapshot` frame to [`Client::snapshots`] and returns the full
    /// value: a keyframe or a delta for a tuple-shape client, the whole value for an
    /// old-shape one. On an error the mirror is dropped: send `world:keyframe`.
    pub fn apply_snapshot(&mut self, frame: &Incoming) -> Result<WorldSnapshot, tuplet::Error> {
        if self.shape == Encoding::Named {
            return match frame.decode()? {
                ServerMessage::WorldSnapshot(s) => Ok(s),
                other => Err(tuplet::Error::new(
                    tuplet::Code::WrongType,
                    format!("expected world:snapshot, found {}", other.name()),
                )),
            };
        }
        self.snapshots.apply(frame.payload()).cloned()
    }

    /// Sends a message in this client's shape.
    pub async fn send(&mut self, msg: impl Into<ClientMessage>) -> Result<(), ClientError> {
        let bytes = msg.into().to_envelope(self.shape)?;
        self.send_raw(bytes).await
    }

    /// Queues a message in this client's shape without writing it (`flush` writes
    /// everything queued with one socket write).
    pub async fn feed(&mut self, msg: impl Into<ClientMessage>) -> Result<(), ClientError> {
        let bytes = msg.into().to_envelope(self.shape)?;
        self.feed_raw(bytes).await
    }

    /// Sends raw bytes as one binary frame.
    pub async fn send_raw(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        Ok(self.ws.send(Frame::binary(bytes)).await?)
    }

    /// Queues raw bytes without flushing (call `flush` after a batch).
    pub async fn feed_raw(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        Ok(self.ws.feed(Frame::binary(bytes)).await?)
    }

    /// Flushes queued frames.
    pub async fn flush(&mut self) -> Result<(), ClientError> {
        Ok(self.ws.flush().await?)
    }

    /// Sends a text frame (the village protocol is binary: the server drops it).
    pub async fn send_text(&mut self, text: &str) -> Result<(), ClientError> {
        Ok(self.ws.send(Frame::text(text.to_string())).await?)
    }

    /// The next binary frame; `None` when the connection closed.
    pub async fn next(&mut self) -> Option<Incoming> {
        loop {
            let frame = self.ws.next().await?;
            match frame.opcode() {
                OpCode::Binary => {
                    let bytes = frame.into_payload();
                    let id = Reader::new(&bytes)
                        .read_u64(0, u64::from(u32::MAX))
                        .ok()
                        .map(|id| id as u32);
                    return Some(Incoming { id, bytes });
                }
                OpCode::Close => return None,
                _ => continue,
            }
        }
    }

    /// The next frame, decoded.
    pub async fn next_message(&mut self) -> Result<ServerMessage, ClientError> {
        let frame = self.next().await.ok_or("connection closed")?;
        Ok(frame.decode()?)
    }

    /// The next frame within `wait`, if any.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Incoming> {
        tokio::time::timeout(wait, self.next()).await.ok().flatten()
    }

    /// Sends a `diag:ping` and returns every frame that arrived before its pong, and the
    /// pong's stats when `want_stats`. The room handles messages in order, so everything
    /// it queued for this client before handling the ping is in the list.
    pub async fn sync_with(
        &mut self,
        want_stats: bool,
    ) -> Result<(Vec<Incoming>, Option<ServerStats>), ClientError> {
        self.nonce += 1;
        let nonce = self.nonce;
        self.send(DiagPing {
            nonce,
            sent: 0,
            want_stats,
        })
        .await?;
        let mut before = Vec::new();
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.next())
                .await?
                .ok_or("connection closed")?;
            if frame.name() == "diag:pong" {
                if let ServerMessage::DiagPong(p) = frame.decode()? {
                    if p.nonce == nonce {
                        return Ok((before, p.stats));
                    }
                }
            }
            before.push(frame);
        }
    }

    /// Every frame queued for this client before the server answered a ping.
    pub async fn sync(&mut self) -> Result<Vec<Incoming>, ClientError> {
        Ok(self.sync_with(false).await?.0)
    }

    /// The room's numbers, from the answer to `diag:ping` with `want_stats`.
    pub async fn stats(&mut self) -> Result<ServerStats, ClientError> {
        let (_, stats) = self.sync_with(true).await?;
        stats.ok_or_else(|| "no stats on the pong".into())
    }

    /// Reads until the server closes; the close frame's code (`None`: the connection
    /// ended without a close handshake, or not within `wait`).
    pub async fn close_code(&mut self, wait: Duration) -> Option<u16> {
        let read = async {
            loop {
                let frame = self.ws.next().await?;
                if frame.opcode() == OpCode::Close {
                    return frame.close_code().map(u16::from);
                }
            }
        };
        tokio::time::timeout(wait, read).await.ok().flatten()
    }

    /// Sends a ping frame (a control frame: the server answers it and counts it).
    pub async fn send_ping(&mut self) -> Result<(), ClientError> {
        Ok(self.ws.send(Frame::ping(Bytes::new())).await?)
    }

    /// Closes with a close frame and says whether the server answered with its own (a
    /// clean close handshake) within a second.
    pub async fn close_answered(mut self) -> bool {
        if self
            .ws
            .send(Frame::close(CloseCode::Normal, ""))
            .await
            .is_err()
        {
            return false;
        }
        let answer = async {
            while let Some(frame) = self.ws.next().await {
                if frame.opcode() == OpCode::Close {
                    return true;
                }
            }
            false
        };
        tokio::time::timeout(Duration::from_secs(1), answer)
            .await
            .unwrap_or(false)
    }

    /// Closes the connection with a close handshake.
    pub async fn close(mut self) {
        let _ = self.ws.send(Frame::close(CloseCode::Normal, "")).await;
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while let Some(frame) = self.ws.next().await {
                if frame.opcode() == OpCode::Close {
                    break;
                }
            }
        })
        .await;
    }
}
