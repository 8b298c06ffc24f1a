//! One client's connection, over either transport, and the village handshake on it.

use tuplet::{Dispatch, Encoding, Message as _};
use village::dispatch::{ClientMessage, ServerMessage};
use village::player::PlayerJoin;
use village::session::SessionHello;
use village::world::WorldSnapshot;
use village_server::client::{Client, ClientError, Incoming};

use crate::wt::WtConn;

/// Which transport a run measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Transport {
    /// A WebSocket: every message on one TCP stream.
    #[serde(rename = "ws")]
    WebSocket,
    /// WebTransport: `unreliable` messages as datagrams, the rest on one QUIC stream.
    #[serde(rename = "wt")]
    WebTransport,
}

impl Transport {
    /// The name the command line and the table use.
    pub fn name(self) -> &'static str {
        match self {
            Transport::WebSocket => "ws",
            Transport::WebTransport => "wt",
        }
    }

    /// `ws` or `wt`.
    pub fn parse(s: &str) -> Option<Transport> {
        match s {
            "ws" => Some(Transport::WebSocket),
            "wt" => Some(Transport::WebTransport),
            _ => None,
        }
    }
}

/// A frame from the server and the channel it came on.
pub struct Frame {
    /// The envelope and its id.
    pub frame: Incoming,
    /// It came as a datagram (WebTransport only).
    pub datagram: bool,
}

/// A joined client.
pub enum Conn {
    /// Over a WebSocket, without permessage-deflate (QUIC compresses nothing either).
    Ws(Box<Client>),
    /// Over WebTransport.
    Wt(WtConn),
}

/// A joined client and its spawn point.
pub struct Joined {
    /// The connection.
    pub conn: Conn,
    /// Where the server placed the player.
    pub spawn: [f32; 3],
}

impl Conn {
    /// Opens `transport` to the server at `addr` (`HOST:PORT`), room `room`.
    pub async fn open(transport: Transport, addr: &str, room: &str) -> Result<Conn, ClientError> {
        match transport {
            Transport::WebSocket => {
                let url = format!("ws://{addr}/{room}");
                let c = Client::connect_with(&url, Encoding::Compact, false, None).await?;
                Ok(Conn::Ws(Box::new(c)))
            }
            Transport::WebTransport => Ok(Conn::Wt(WtConn::open(addr, room).await?)),
        }
    }

    /// Sends one message: an `unreliable` one as a datagram over WebTransport. Returns the
    /// envelope's size.
    pub async fn send(&mut self, msg: impl Into<ClientMessage>) -> Result<usize, ClientError> {
        let bytes = msg.into().to_envelope(Encoding::Compact)?;
        let n = bytes.len();
        match self {
            Conn::Ws(c) => c.send_raw(bytes).await?,
            Conn::Wt(c) => c.send(bytes).await?,
        }
        Ok(n)
    }

    /// Whether this connection carries datagrams (WebTransport): its snapshots are deltas
    /// against acknowledged baselines.
    pub fn datagrams(&self) -> bool {
        matches!(self, Conn::Wt(_))
    }

    /// The next frame; `None` once the connection closed.
    pub async fn next(&mut self) -> Option<Frame> {
        match self {
            Conn::Ws(c) => c.next().await.map(|frame| Frame {
                frame,
                datagram: false,
            }),
            Conn::Wt(c) => c
                .next()
                .await
                .map(|(frame, datagram)| Frame { frame, datagram }),
        }
    }

    /// Closes the connection.
    pub async fn close(self) {
        match self {
            Conn::Ws(c) => c.close().await,
            Conn::Wt(c) => c.close(),
        }
    }

    /// Says hello as guest `name`, waits for the welcome, joins, and waits for its own
    /// `player:joined`.
    pub async fn join(mut self, name: &str) -> Result<Joined, ClientError> {
        self.send(SessionHello {
            protocol: 2,
            build: "transport-lab".into(),
            token: None,
            locale: "en".into(),
            resume: None,
        })
        .await?;
        let session = loop {
            match self.next_message().await? {
                ServerMessage::SessionWelcome(w) => break w.s,
                ServerMessage::SessionFailed(f) => {
                    return Err(format!("session:error {:?}", f.error).into())
                }
                _ => {}
            }
        };
        self.send(PlayerJoin {
            name: name.into(),
            colour: 0x3366cc,
            outfit: None,
        })
        .await?;
        loop {
            if let ServerMessage::PlayerJoined(j) = self.next_message().await? {
                if j.s == session {
                    let spawn = [j.spawn.x, j.spawn.y, j.spawn.z];
                    return Ok(Joined { conn: self, spawn });
                }
            }
        }
    }

    /// The next message but a snapshot (a delta payload, which only a mirror reads).
    async fn next_message(&mut self) -> Result<ServerMessage, ClientError> {
        loop {
            let f = self.next().await.ok_or("connection closed")?;
            if f.frame.id != Some(WorldSnapshot::ID) {
                return Ok(ServerMessage::from_envelope(&f.frame.bytes)?);
            }
        }
    }
}
