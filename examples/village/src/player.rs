//! Players: joining with a name and colour, leaving, the 10 Hz move stream and its relay,
//! corrections to the sender, the 2 Hz heartbeat, profiles. Ids 1–29.

use crate::common::{Medium, WorldPos};

/// Movement state bits, sent with a move only while any is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8", reserved = [6])]
pub struct MoveFlags {
    /// Sprinting (shift held).
    #[tuplet(bit = 0)]
    pub running: bool,
    /// In the air after a jump.
    #[tuplet(bit = 1)]
    pub jumping: bool,
    /// Crouched; hide-and-seek hiders use it.
    #[tuplet(bit = 2)]
    pub crouching: bool,
    /// Swimming at the surface or diving.
    #[tuplet(bit = 3)]
    pub swimming: bool,
    /// Driving or riding; the position is the seat's.
    #[tuplet(bit = 4)]
    pub mounted: bool,
    /// Seated on a bench or chair.
    #[tuplet(bit = 5)]
    pub sitting: bool,
    /// Carrying a held item in both hands (fish, parcel).
    #[tuplet(bit = 7)]
    pub carrying: bool,
}

/// The client's own pose, sent 10 times a second while its player moves (never while it
/// stands still; the heartbeat covers that).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s", budget = 40, unreliable)]
pub struct PlayerMove {
    /// Position, metres; on the wire whole centimetres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub p: [f32; 3],
    /// Heading, radians; on the wire milliradians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub r: f32,
    /// Sender's own sample time, ms; receivers interpolate on it, not on arrival time.
    pub t: u64,
    /// Monotonic per-session move counter; corrections name the last one accepted.
    pub seq: Option<u32>,
    /// Movement state, only while any bit is set.
    pub flags: Option<MoveFlags>,
}

/// Another player's move, relayed by the server to interested viewers: every move to
/// nearby viewers, every 3rd or 10th to far ones. An unchanged pose is not relayed, except
/// the first one after movement, which goes to every viewer.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c", budget = 48, unreliable)]
#[tuplet(interp(key = "s", sent = "t"))]
pub struct PlayerMoveRelayed {
    /// Session id of the mover.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    /// Position, metres; on the wire whole centimetres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    #[tuplet(draw = "linear")]
    pub p: [f32; 3],
    /// Heading, radians; on the wire milliradians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    #[tuplet(draw = "angle")]
    pub r: f32,
    /// The mover's own sample time, ms, passed through untouched.
    pub t: u64,
    /// The mover's sequence number, passed through.
    pub seq: Option<u32>,
    /// Movement state, only while any bit is set.
    #[tuplet(draw = "hold")]
    pub flags: Option<MoveFlags>,
}

/// Sent once by a client after `session:welcome`: who it wants to appear as.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:join", id = 2, dir = "c2s")]
pub struct PlayerJoin {
    /// Requested display name; empty asks the server for a generated one (GoldenFox).
    #[tuplet(len(max = 24))]
    pub name: String,
    /// Body colour, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: u32,
    /// Outfit preset from the wardrobe; absent means the default outfit.
    pub outfit: Option<u16>,
}

/// Broadcast once when a player enters the room; the only time name and colour travel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:joined", id = 2, dir = "s2c")]
pub struct PlayerJoined {
    /// Session id of the newcomer.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    /// Final display name (after de-duplication and any generated suffix).
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// Body colour, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: u32,
    /// Spawn point: the saved position, or the village square for a first visit.
    pub spawn: WorldPos,
    /// Heading at spawn, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub heading: f32,
    /// True for guests (no account, no bird stream, no saves).
    pub guest: bool,
    /// Outfit preset.
    pub outfit: Option<u16>,
}

/// Why a player left the room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [4])]
pub enum LeaveReason {
    /// Closed the tab or navigated away.
    Closed = 0,
    /// Missed the 30 s reconnection grace window.
    TimedOut = 1,
    /// Kicked or banned by a moderator.
    Removed = 2,
    /// A newer session of the same account took over (fast refresh, second tab).
    Replaced = 3,
    /// Server restart or deploy.
    Shutdown = 5,
}

/// Broadcast when a player's session ends (after any reconnection grace).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:left", id = 3, dir = "s2c")]
pub struct PlayerLeft {
    /// Session id of the leaver.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    /// Why they left.
    pub reason: LeaveReason,
}

/// Why the server rejected a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum RejectReason {
    /// Outside the world bounds.
    OutOfBounds = 1,
    /// In the wrong medium (walking on the ocean).
    WrongMedium = 2,
    /// Faster than any mode of travel allows.
    TooFast = 3,
    /// Inside a building the player may not enter.
    NoEntry = 4,
}

/// Sent to the sender only when the server rejects one of its moves: the last accepted
/// pose, which the client eases toward after collision. Rare in normal play.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:correction", id = 4, dir = "s2c")]
pub struct PlayerCorrection {
    /// Last accepted position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "y", "z"])]
    pub pos: [f32; 3],
    /// Last accepted heading, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotationY")]
    pub heading: f32,
    /// Sequence number of the last accepted move (0 before any).
    pub accepted_seq: u32,
    /// Why the move after it was rejected.
    pub reason: RejectReason,
    /// The medium the server believes the player is in.
    pub medium: Medium,
}

/// Sent by the client twice a second whatever it is doing; keeps the coin sweep and the
/// idle timer fed. Never fanned out.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:heartbeat", id = 5, dir = "c2s", budget = 24)]
pub struct PlayerHeartbeat {
    /// Client time, ms.
    pub t: u64,
    /// Whether the tab is visible; hidden tabs get a longer idle allowance.
    pub visible: bool,
    /// Rendered frames in the last second, when measured.
    pub fps: Option<u8>,
}

/// Sent to every viewer once a mover stops: its final resting pose, bypassing the far
/// throttle so nobody keeps a stale position.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:rest", id = 6, dir = "s2c")]
pub struct PlayerRest {
    /// Session id of the player who stopped.
    #[tuplet(len = 9)]
    pub s: String,
    /// Resting position.
    pub at: WorldPos,
    /// Resting heading, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub heading: f32,
}

/// Sent by a client when it opens another player's profile card.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:profile", id = 7, dir = "c2s")]
pub struct ProfileRequest {
    /// Whose card.
    #[tuplet(len = 9)]
    pub s: String,
}

/// The server's answer to `player:profile`: public account facts.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:profile", id = 7, dir = "s2c")]
pub struct ProfileCard {
    /// Whose card.
    #[tuplet(len = 9)]
    pub s: String,
    /// Account id; absent for guests.
    #[tuplet(bigint)]
    pub account: Option<u64>,
    /// Account creation time, ms.
    pub member_since: Option<u64>,
    /// Self-written bio.
    #[tuplet(len(max = 160))]
    pub bio: String,
    /// Up to six showcased achievement keys.
    #[tuplet(len(max = 6), item_len(min = 1, max = 32))]
    pub showcase: Vec<String>,
    /// Total distance walked, metres, in 2 m steps.
    #[tuplet(scale = 0.5)]
    pub walked_m: f64,
    /// Hours played, rounded.
    pub hours: u32,
}

/// Sent to a newcomer after `player:joined`: everyone already in the room, once.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:roster", id = 8, dir = "s2c")]
pub struct PlayerRoster {
    /// The other players (the room holds 40 at most).
    #[tuplet(len(max = 39))]
    pub players: Vec<RosterEntry>,
}

/// One player in the roster.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct RosterEntry {
    /// Session id.
    #[tuplet(len = 9)]
    pub s: String,
    /// Display name.
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// Body colour, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: u32,
    /// Current position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: [f32; 3],
    /// Vehicle currently occupied, if any.
    pub vehicle: Option<u32>,
    /// Guest or not.
    pub guest: bool,
}

/// Sent by a client when it changes its display name from the settings page.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:rename", id = 9, dir = "c2s")]
pub struct PlayerRename {
    /// New display name.
    #[tuplet(len(min = 3, max = 24))]
    pub name: String,
}

/// Broadcast when a player's name or colour changes mid-session.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:identity", id = 10, dir = "s2c")]
pub struct PlayerIdentity {
    /// Whose identity changed.
    #[tuplet(len = 9)]
    pub s: String,
    /// New name, when it changed.
    #[tuplet(len(min = 1, max = 24))]
    pub name: Option<String>,
    /// New colour, when it changed.
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: Option<u32>,
}
