//! A room's state: each player's, the room's own, and how a room starts.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc;
use tuplet::relay::{Cadence, Update};
use tuplet::silence::Silence;
use tuplet::{Encoding, Meter};
use village::dispatch::{ClientMessage, ServerMessage};
use village::player::PlayerMove;

use crate::config::Config;
use crate::counters::{Counters, FrameDrops};
use crate::presence::Presence;
use crate::sessions::Sessions;
use crate::snapshot::SnapshotStream;
use crate::stats::RoomStats;
use crate::store::Saved;
use crate::token::Claims;
use crate::world::World;

use super::event::{Event, Out};

/// The state a room keeps per player.
pub(super) struct Player {
    pub(super) tx: mpsc::Sender<Out>,
    /// Bytes in `tx` not yet written (shared with the connection's writer).
    pub(super) queued: Arc<AtomicUsize>,
    /// Frames gathered for the next flush (`Config::flush_per_tick`), and their bytes.
    pub(super) pending: Vec<Bytes>,
    pub(super) pending_bytes: usize,
    /// Since when this client's queue has been full (frames dropped for it).
    pub(super) behind_since: Option<Instant>,
    /// Changes every time a slot is reused, so `seen` marks of a leaver never apply to the
    /// newcomer in its slot.
    pub(super) gen: u32,
    pub(super) session: String,
    /// The client's address.
    pub(super) ip: std::net::IpAddr,
    /// The signed-in account (`None` for a guest) and its claim's ticket.
    pub(super) account: Option<u64>,
    pub(super) ticket: u64,
    /// The nonce of the one resume token that may resume this session now.
    pub(super) nonce: u64,
    /// Since when its connection is gone (the grace window runs); `None` while connected.
    pub(super) detached_at: Option<Instant>,
    /// Where this session starts when it joins: the replaced session's or the saved state.
    pub(super) start: Option<Saved>,
    /// Where it was last saved, and when.
    pub(super) saved_pos: [f32; 3],
    pub(super) joined: bool,
    pub(super) guest: bool,
    /// A guest's place in the server-wide count, held until the session ends.
    pub(super) _guest_place: Option<crate::guests::GuestPlace>,
    /// The token's claims (`None` for a guest).
    pub(super) who: Option<Claims>,
    /// A line is in the water (`fishing:cast`), so a `fishing:reel` may land a catch.
    pub(super) cast: bool,
    pub(super) shape: Encoding,
    pub(super) name: String,
    pub(super) pos: [f32; 3],
    pub(super) heading: f32,
    pub(super) seq: u32,
    /// Metres this player may still move before a move counts as too fast.
    pub(super) bank: f32,
    pub(super) last_move: Instant,
    pub(super) cadence: Cadence,
    pub(super) silence: Silence<PlayerMove>,
    /// Its last relayed move and that move's update number, while some viewer's tier skipped
    /// it: relayed to those viewers when the mover falls quiet (`Room::relay_stops`).
    pub(super) owed: Option<(PlayerMove, Update)>,
    /// By slot: the `gen` of the player there when this viewer last got its pose.
    pub(super) seen: Vec<u32>,
    pub(super) birds: bool,
    pub(super) view_radius: f32,
    pub(super) snapshot: SnapshotStream,
}

/// One room's state.
pub(crate) struct Room {
    pub(super) config: Arc<Config>,
    /// The room's name, for resume tokens.
    pub(super) name: String,
    /// Frames dropped before a hello, server-wide: reported with the room's own.
    pub(super) pre_hello: Arc<FrameDrops>,
    pub(super) sessions: Arc<Sessions<Event>>,
    /// Guests server-wide, and whether a new room is wanted.
    pub(super) guests: Arc<crate::guests::Guests>,
    /// Sessions in their grace window (joined, no connection).
    pub(super) detached: usize,
    pub(super) started: Instant,
    pub(super) slots: Vec<Option<Player>>,
    /// By slot: the connection number there, `FREE` when empty. A short array scanned
    /// for each input: a handful of cache lines, no hashing.
    pub(super) conns: Vec<u64>,
    /// Connections in the room.
    pub(super) open: usize,
    /// The slots of joined players, in slot order: fan-out walks these, not every slot.
    pub(super) joined: Vec<usize>,
    /// Fan-out's list of recipients, kept for its capacity.
    pub(super) recipients: Vec<usize>,
    pub(super) next_gen: u32,
    pub(super) joins: usize,
    pub(super) tick: u32,
    pub(super) world: World,
    pub(super) stats: RoomStats,
    pub(super) meter_in: Meter<ClientMessage>,
    pub(super) meter_out: Meter<ServerMessage>,
    pub(super) meters_since: u64,
    pub(super) chat_id: u32,
    /// An empty `world:snapshot`: what the byte meter counts snapshot frames as (they are
    /// encoded by each client's tracker, not from a `ServerMessage`).
    pub(super) snapshot_kind: ServerMessage,
    /// What this room's connections dropped before decoding.
    pub(super) frame_drops: Arc<FrameDrops>,
    /// The server's counters (evictions are counted here).
    pub(super) counters: Arc<Counters>,
    /// Who is playing server-wide, and the tick count (joins, leaves and ticks go here).
    pub(super) presence: Arc<Presence>,
    /// Set on `Event::Drain`: new players are refused.
    pub(super) draining: bool,
    /// Since when the room has been empty.
    pub(super) empty_since: Instant,
    /// Whether the players were last told saving fails (`saving.rs`).
    pub(super) told_saving_fails: bool,
    /// Bodies the room steps from `input:batch` (input_playout.rs).
    pub(super) inputs: crate::input_playout::InputPlayouts,
}

/// `Room::conns` of an empty slot (connection numbers start at 1).
pub(super) const FREE: u64 = 0;

/// Who a room is and what it shares with the rest of the server.
pub(crate) struct RoomCtx {
    pub name: String,
    pub sessions: Arc<Sessions<Event>>,
    /// Frames connections dropped before their hello, when they had no room yet.
    pub pre_hello: Arc<FrameDrops>,
    /// Guests server-wide, and whether a new room is wanted.
    pub guests: Arc<crate::guests::Guests>,
}

impl Room {
    /// A room with no one in it yet.
    pub fn new(
        config: Arc<Config>,
        started: Instant,
        frame_drops: Arc<FrameDrops>,
        counters: Arc<Counters>,
        presence: Arc<Presence>,
        ctx: RoomCtx,
    ) -> Room {
        Room {
            name: ctx.name,
            pre_hello: ctx.pre_hello,
            sessions: ctx.sessions,
            guests: ctx.guests,
            detached: 0,
            slots: (0..config.room_capacity).map(|_| None).collect(),
            conns: vec![FREE; config.room_capacity],
            open: 0,
            joined: Vec::with_capacity(config.room_capacity),
            recipients: Vec::with_capacity(config.room_capacity),
            world: World::new(config.birds, config.npcs),
            config,
            started,
            next_gen: 0,
            joins: 0,
            tick: 0,
            stats: RoomStats::new(),
            meter_in: Meter::new(),
            meter_out: Meter::new(),
            meters_since: now_ms(),
            chat_id: 0,
            snapshot_kind: ServerMessage::from(SnapshotStream::empty()),
            frame_drops,
            counters,
            presence,
            draining: false,
            empty_since: Instant::now(),
            told_saving_fails: false,
            inputs: Default::default(),
        }
    }
}

/// Now, in milliseconds since the epoch (the protocol's wall-clock stamps).
pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
