//! Counters of what the server refused or dropped before a room saw it: a fixed set of
//! atomics, so counting costs no allocation and wakes nothing. An admin reads them on
//! `diag:ping` (with `want_stats`) as `"(server) <name>"` and `"(frame) <name>"` keys of
//! `ServerStats::dropped`, next to the room's own drops.

use std::sync::atomic::{AtomicU64, Ordering};

/// Server-wide counters, by what happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Connections closed at accept: the server was at `max_connections`.
    RefusedTotal,
    /// Connections closed at accept: their address was at `max_per_ip`.
    RefusedPerIp,
    /// `accept` failed (out of file descriptors, usually); the listener waits 50 ms.
    AcceptFailed,
    /// HTTP upgrades not complete within `handshake_timeout`.
    HandshakeTimeout,
    /// HTTP upgrades that were not valid WebSocket requests.
    HandshakeFailed,
    /// Upgrades for a room name the configuration does not allow (answered 404).
    RoomNotAllowed,
    /// Upgrades for a new room while `max_rooms` were open (answered 503).
    RoomsFull,
    /// Upgrades refused because the server is draining (answered 503).
    Draining,
    /// Connections that sent no `session:hello` within `hello_timeout`.
    HelloTimeout,
    /// Frames before `session:hello` that were something else.
    BeforeHello,
    /// `session:hello` refused for a token whose signature is not the server's key's
    /// (forged, tampered with, signed with another key; or the server has no key).
    TokenForged,
    /// `session:hello` refused for a token correctly signed but past its expiry.
    TokenExpired,
    /// `session:hello` refused for a token that is not one (not `v1.<claims>.<mac>`, not
    /// base64url, not the claims' JSON).
    TokenMalformed,
    /// Connections that sent nothing for `idle_timeout`.
    IdleTimeout,
    /// Connections closed for being over their rate cap `flood_close_s` seconds in a row.
    Flooding,
    /// Connections closed for a socket write blocked `write_timeout`.
    WriteTimeout,
    /// Connections closed by their room for a queue full `behind_close`.
    EvictedSlow,
    /// Rooms stopped after `room_idle` empty.
    RoomsStopped,
    /// Resume tokens refused: not signed by this server, tampered with or unreadable.
    ResumeForged,
    /// Resume tokens refused: already used (a resume token is single use).
    ResumeReplayed,
    /// Resume tokens refused: signed for another session, room or account than asked.
    ResumeMismatch,
    /// Resumes of a session that had already ended (its grace window passed, or it left):
    /// the client joins afresh.
    ResumeGone,
    /// Sessions resumed within their grace window.
    Resumed,
    /// Sessions ended because the same account joined again (saved first).
    Replaced,
    /// Dropped sessions whose grace window passed without a resume (saved).
    GraceExpired,
    /// Sessions ended, by any path (leave, drop, replacement, grace expiry, drain).
    SessionsEnded,
    /// Sessions ended whose state was handed to the store (every signed-in one).
    SessionsSaved,
    /// Player states written to the store.
    StoreWritten,
    /// Store writes that failed and were retried.
    StoreRetried,
    /// Player states the store could not write before it was closed (never in a healthy run).
    StoreLost,
    /// Connections closed at accept: `max_before_hello` (overall or for their address)
    /// were still to say hello.
    RefusedBeforeHello,
    /// Connections yet to say hello closed to make room for a newcomer: the budget was
    /// full and their address held the most places (its oldest connection goes).
    EvictedBeforeHello,
    /// Connections closed at accept: the budget before hello was full and their address
    /// took someone's place in the last second (an address evicts at most once a second).
    RefusedEvictedRecently,
    /// Upgrades refused for a trusted proxy's header: a PROXY protocol header missing or
    /// malformed, an `X-Forwarded-For` naming no address or over 1 KiB (answered 400).
    ProxyRefused,
    /// Connections ended for a protocol error (a frame or fragment sequence RFC 6455
    /// forbids, a message past `hard_frame_cap`), each with a close frame saying which.
    ProtocolError,
}

impl Counter {
    /// Every counter, in report order.
    pub const ALL: [Counter; 35] = [
        Counter::RefusedTotal,
        Counter::RefusedPerIp,
        Counter::AcceptFailed,
        Counter::HandshakeTimeout,
        Counter::HandshakeFailed,
        Counter::RoomNotAllowed,
        Counter::RoomsFull,
        Counter::Draining,
        Counter::HelloTimeout,
        Counter::BeforeHello,
        Counter::TokenForged,
        Counter::TokenExpired,
        Counter::TokenMalformed,
        Counter::IdleTimeout,
        Counter::Flooding,
        Counter::WriteTimeout,
        Counter::EvictedSlow,
        Counter::RoomsStopped,
        Counter::ResumeForged,
        Counter::ResumeReplayed,
        Counter::ResumeMismatch,
        Counter::ResumeGone,
        Counter::Resumed,
        Counter::Replaced,
        Counter::GraceExpired,
        Counter::SessionsEnded,
        Counter::SessionsSaved,
        Counter::StoreWritten,
        Counter::StoreRetried,
        Counter::StoreLost,
        Counter::RefusedBeforeHello,
        Counter::EvictedBeforeHello,
        Counter::RefusedEvictedRecently,
        Counter::ProxyRefused,
        Counter::ProtocolError,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Counter::RefusedTotal => "refused_total",
            Counter::RefusedPerIp => "refused_per_ip",
            Counter::AcceptFailed => "accept_failed",
            Counter::HandshakeTimeout => "handshake_timeout",
            Counter::HandshakeFailed => "handshake_failed",
            Counter::RoomNotAllowed => "room_not_allowed",
            Counter::RoomsFull => "rooms_full",
            Counter::Draining => "draining",
            Counter::HelloTimeout => "hello_timeout",
            Counter::BeforeHello => "before_hello",
            Counter::TokenForged => "token_forged",
            Counter::TokenExpired => "token_expired",
            Counter::TokenMalformed => "token_malformed",
            Counter::IdleTimeout => "idle_timeout",
            Counter::Flooding => "flooding",
            Counter::WriteTimeout => "write_timeout",
            Counter::EvictedSlow => "evicted_slow",
            Counter::RoomsStopped => "rooms_stopped",
            Counter::ResumeForged => "resume_forged",
            Counter::ResumeReplayed => "resume_replayed",
            Counter::ResumeMismatch => "resume_mismatch",
            Counter::ResumeGone => "resume_gone",
            Counter::Resumed => "resumed",
            Counter::Replaced => "replaced",
            Counter::GraceExpired => "grace_expired",
            Counter::SessionsEnded => "sessions_ended",
            Counter::SessionsSaved => "sessions_saved",
            Counter::StoreWritten => "store_written",
            Counter::StoreRetried => "store_retried",
            Counter::StoreLost => "store_lost",
            Counter::RefusedBeforeHello => "refused_before_hello",
            Counter::EvictedBeforeHello => "evicted_before_hello",
            Counter::RefusedEvictedRecently => "refused_evicted_recently",
            Counter::ProxyRefused => "proxy_refused",
            Counter::ProtocolError => "protocol_error",
        }
    }
}

/// The server-wide counters.
#[derive(Debug)]
pub struct Counters([AtomicU64; Counter::ALL.len()]);

impl Default for Counters {
    fn default() -> Self {
        Counters(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

impl Counters {
    /// Counts one.
    pub fn add(&self, c: Counter) {
        self.0[c as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The count so far.
    pub fn get(&self, c: Counter) -> u64 {
        self.0[c as usize].load(Ordering::Relaxed)
    }
}

/// Frames a connection dropped before decoding, by why: counted per room by the
/// connections, read by the room only when an admin asks.
#[derive(Debug, Default)]
pub struct FrameDrops {
    /// Binary frames over `frame_cap`.
    pub too_large: AtomicU64,
    /// Frames of any kind (binary, text, ping, pong) over the rate cap.
    pub rate_limited: AtomicU64,
    /// Text frames (the protocol is binary).
    pub text_frame: AtomicU64,
}

impl FrameDrops {
    /// How many kinds [`FrameDrops::report`] gives.
    pub const KINDS: usize = 3;

    /// `(name, count)` of each kind.
    pub fn report(&self) -> [(&'static str, u64); Self::KINDS] {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        [
            ("too_large", get(&self.too_large)),
            ("rate_limited", get(&self.rate_limited)),
            ("text_frame", get(&self.text_frame)),
        ]
    }

    /// Counts one.
    pub fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}
