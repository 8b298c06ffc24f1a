//! Session and auth: the hello/welcome handshake, token refresh inside the room, errors,
//! kicks and the reconnection grace. Ids 50–69.

/// First message of every connection: who the client is and what it runs.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:hello", id = 50, dir = "c2s")]
pub struct SessionHello {
    /// Protocol revision the client was built against.
    pub protocol: u16,
    /// Client build id (git short hash and date).
    #[tuplet(len(min = 1, max = 32))]
    pub build: String,
    /// Access token; absent for guests.
    #[tuplet(len(min = 16, max = 2048))]
    pub token: Option<String>,
    /// BCP 47 locale (`en`, `pt-BR`).
    #[tuplet(len(min = 2, max = 12))]
    pub locale: String,
    /// Session id to resume within the 30 s grace window.
    #[tuplet(len = 9)]
    pub resume: Option<String>,
}

/// The server's answer to a valid hello.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:welcome", id = 50, dir = "s2c")]
pub struct SessionWelcome {
    /// This client's session id.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    /// Account id; absent for guests.
    #[tuplet(bigint)]
    pub account: Option<u64>,
    /// Server clock, ms.
    pub server_time: u64,
    /// Players in the room, this one included.
    #[tuplet(range(1, 40))]
    pub occupancy: u8,
    /// Whether this was a resume of an earlier session.
    pub resumed: bool,
    /// Message of the day.
    #[tuplet(len(max = 200))]
    pub motd: Option<String>,
    /// A signed, single-use token that resumes this session after a dropped connection,
    /// within the server's grace window: sent back as `session:hello`'s `token` with the
    /// session id in `resume`. Every welcome carries a new one; absent from servers that
    /// keep no grace window. Appended last and optional, so clients built before it skip it.
    #[tuplet(len(min = 16, max = 1024))]
    pub resume_token: Option<String>,
}

/// Why a token was revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum RevokeReason {
    /// The player logged out on another device.
    LoggedOut = 1,
    /// Password reset.
    PasswordReset = 2,
    /// Logged in elsewhere.
    Elsewhere = 3,
    /// Banned.
    Banned = 4,
}

/// Session and auth failures. Open: a newer server may add kinds, which an older client
/// shows as a generic error.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
#[tuplet(open, reserved = [6])]
pub enum SessionError {
    /// The access token expired; refresh and retry.
    #[tuplet(tag = 1)]
    TokenExpired,
    /// The token was revoked for good.
    #[tuplet(tag = 2)]
    TokenRevoked {
        /// Why.
        reason: RevokeReason,
    },
    /// The account is banned.
    #[tuplet(tag = 3)]
    Banned {
        /// End of the ban, ms; absent for permanent.
        until: Option<u64>,
        /// Reason shown to the player.
        #[tuplet(len(max = 200))]
        reason: String,
    },
    /// The room is at capacity.
    #[tuplet(tag = 4)]
    RoomFull(u8),
    /// The client is too old.
    #[tuplet(tag = 5)]
    Outdated {
        /// Oldest accepted protocol revision.
        min_protocol: u16,
    },
    /// Too many attempts; retry after this many ms.
    #[tuplet(tag = 7)]
    RateLimited(u32),
    /// The token is not one the game issued: forged, malformed, or signed with another
    /// key. Sign in again for a new one (unlike `TokenRevoked`, nothing happened to the
    /// account).
    #[tuplet(
        tag = 8,
        accept(
            rule = "variant-name-unknown",
            was = "",
            now = "TokenInvalid = 8",
            reason = "the village writes session:error compact (`to_vec`), where the unknown catch-all keeps tag 8; no peer writes it in the legacy named shape"
        )
    )]
    TokenInvalid,
    /// Any error a newer server knows and this client does not.
    #[tuplet(unknown)]
    Unknown(u32),
}

/// Sent when a hello, resume or token refresh fails; the client shows it and may retry.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:error", id = 51, dir = "s2c")]
pub struct SessionFailed {
    /// What went wrong.
    pub error: SessionError,
    /// Whether the server will close the connection after this.
    pub fatal: bool,
}

/// Sent by the client's single-flight refresher when it obtains a new access token mid-game.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:token", id = 52, dir = "c2s")]
pub struct SessionToken {
    /// The new access token.
    #[tuplet(len(min = 16, max = 2048))]
    pub token: String,
}

/// Sent just before the server closes a session for moderation or a duplicate login.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:kicked", id = 53, dir = "s2c")]
pub struct SessionKicked {
    /// Reason key for the client to translate.
    #[tuplet(len(min = 1, max = 48))]
    pub reason: String,
    /// Whether reconnecting straight away is pointless.
    pub permanent: bool,
}

/// Sent by a client that is about to close on purpose, so the server saves at once and
/// skips the grace window.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:leave", id = 54, dir = "c2s")]
pub struct SessionLeave {
    /// True when the page is navigating to another part of the site (not closing).
    pub navigating: bool,
}

/// Sent to a resumed client: what it missed while disconnected.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:resumed", id = 55, dir = "s2c")]
pub struct SessionResumed {
    /// How long the gap was, ms.
    pub gap_ms: u32,
    /// Messages that were dropped for it (it should request a keyframe if any).
    pub dropped: u16,
    /// Milliseconds of grace left before the next drop would end the session.
    pub grace_ms: u32,
}
