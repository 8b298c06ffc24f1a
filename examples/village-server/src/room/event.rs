//! What a connection and its room say to each other: the events a connection sends,
//! the frames and closes a room answers with, and the close codes.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::mpsc;
use village::session::SessionHello;

use crate::store::Saved;
use crate::token::{Claims, ResumeClaims};

/// What a connection tells its room.
pub(crate) enum Event {
    /// A connection said `session:hello` (its token, if any, already checked): it takes a
    /// slot now. Its outbound queue, and how many bytes are in that queue (the
    /// connection's writer counts them down).
    Open {
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        /// The token's claims; `None` for a guest.
        who: Option<Claims>,
        /// The hello frame's size, for the byte meter.
        len: usize,
        /// A signed-in player's claim on its account ([`Sessions::claim`]).
        ticket: u64,
        /// Where the store last saved a signed-in player.
        saved: Option<Saved>,
        /// The client's address (for `Config::per_ip_per_room`).
        ip: std::net::IpAddr,
        /// The connection carries datagrams (WebTransport): snapshots in the acknowledged
        /// mode.
        datagrams: bool,
    },
    /// A connection said `session:hello` with a resume token (its signature checked): it
    /// takes over the session the token names, if that session is still here and the
    /// token is the one issued last for it.
    Resume {
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        claims: ResumeClaims,
        len: usize,
        /// As [`Event::Open`]'s: the new connection's.
        datagrams: bool,
    },
    /// Another room took `account`'s session: end it here (saved), then say so on `done`.
    Evict {
        account: u64,
        done: tokio::sync::oneshot::Sender<()>,
    },
    /// The server is draining: tell every player, take nobody new.
    Drain {
        /// When the server stops at the latest, ms since the epoch.
        at_ms: u64,
    },
    /// One binary frame, within the size and rate caps (frames over them never reach the
    /// room: the connection counts them in [`FrameDrops`]).
    Input { conn: u64, bytes: Bytes },
    /// The connection ended.
    Close { conn: u64 },
}

/// What a room tells a connection.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send these frames (and their total size), in order, with one flush.
    Frames(Vec<Bytes>, usize),
    /// Close the connection with this WebSocket close code and reason.
    Close(u16, &'static str),
}

/// Close codes the server uses (RFC 6455 §7.4.1).
pub(crate) mod close {
    /// Going away: the server is draining.
    pub const GOING_AWAY: u16 = 1001;
    /// Policy violation: flooding, a refused token, too slow a reader.
    pub const POLICY: u16 = 1008;
    /// Normal closure: the player left, or a newer connection took over its session.
    pub const NORMAL: u16 = 1000;
    /// Try again later: the room is full.
    pub const TRY_LATER: u16 = 1013;
    /// Protocol error: a frame or fragment sequence RFC 6455 forbids.
    pub const PROTOCOL: u16 = 1002;
    /// Unsupported data: an opcode RFC 6455 does not define.
    pub const UNSUPPORTED: u16 = 1003;
    /// Invalid payload data: a text frame that is not UTF-8.
    pub const NOT_UTF8: u16 = 1007;
    /// Message too big: past `hard_frame_cap`.
    pub const TOO_BIG: u16 = 1009;
}
