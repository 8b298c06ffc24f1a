//! One room: a single task that owns every player's state, handles their messages in
//! arrival order and runs the 20 Hz tick. No locks: connections talk to it through a
//! channel, and it answers through each player's bounded outbound queue.

mod diag;
mod event;
mod input;
mod join;
mod moves;
mod saving;
mod send;
mod session_end;
mod session_open;
mod tick;

pub(crate) use event::{close, Event, Out};
pub(crate) use session_end::End;

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc;
use tuplet::relay::Cadence;
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

/// The state a room keeps per player.
struct Player {
    tx: mpsc::Sender<Out>,
    /// Bytes in `tx` not yet written (shared with the connection's writer).
    queued: Arc<AtomicUsize>,
    /// Frames gathered for the next flush (`Config::flush_per_tick`), and their bytes.
    pending: Vec<Bytes>,
    pending_bytes: usize,
    /// Since when this client's queue has been full (frames dropped for it).
    behind_since: Option<Instant>,
    /// Changes every time a slot is reused, so `seen` marks of a leaver never apply to the
    /// newcomer in its slot.
    gen: u32,
    session: String,
    /// The client's address.
    ip: std::net::IpAddr,
    /// The signed-in account (`None` for a guest) and its claim's ticket.
    account: Option<u64>,
    ticket: u64,
    /// The nonce of the one resume token that may resume this session now.
    nonce: u64,
    /// Since when its connection is gone (the grace window runs); `None` while connected.
    detached_at: Option<Instant>,
    /// Where this session starts when it joins: the replaced session's or the saved state.
    start: Option<Saved>,
    /// Where it was last saved, and when.
    saved_pos: [f32; 3],
    joined: bool,
    guest: bool,
    /// A guest's place in the server-wide count, held until the session ends.
    _guest_place: Option<crate::guests::GuestPlace>,
    /// The token's claims (`None` for a guest).
    who: Option<Claims>,
    /// A line is in the water (`fishing:cast`), so a `fishing:reel` may land a catch.
    cast: bool,
    shape: Encoding,
    name: String,
    pos: [f32; 3],
    heading: f32,
    seq: u32,
    /// Metres this player may still move before a move counts as too fast.
    bank: f32,
    last_move: Instant,
    cadence: Cadence,
    silence: Silence<PlayerMove>,
    /// By slot: the `gen` of the player there when this viewer last got its pose.
    seen: Vec<u32>,
    birds: bool,
    view_radius: f32,
    snapshot: SnapshotStream,
}

/// One room's state.
pub(crate) struct Room {
    config: Arc<Config>,
    /// The room's name, for resume tokens.
    name: String,
    /// Frames dropped before a hello, server-wide: reported with the room's own.
    pre_hello: Arc<FrameDrops>,
    sessions: Arc<Sessions<Event>>,
    /// Guests server-wide, and whether a new room is wanted.
    guests: Arc<crate::guests::Guests>,
    /// Sessions in their grace window (joined, no connection).
    detached: usize,
    started: Instant,
    slots: Vec<Option<Player>>,
    /// By slot: the connection number there, `FREE` when empty. A short array scanned
    /// for each input: a handful of cache lines, no hashing.
    conns: Vec<u64>,
    /// Connections in the room.
    open: usize,
    /// The slots of joined players, in slot order: fan-out walks these, not every slot.
    joined: Vec<usize>,
    /// Fan-out's list of recipients, kept for its capacity.
    recipients: Vec<usize>,
    next_gen: u32,
    joins: usize,
    tick: u32,
    world: World,
    stats: RoomStats,
    meter_in: Meter<ClientMessage>,
    meter_out: Meter<ServerMessage>,
    meters_since: u64,
    chat_id: u32,
    /// An empty `world:snapshot`: what the byte meter counts snapshot frames as (they are
    /// encoded by each client's tracker, not from a `ServerMessage`).
    snapshot_kind: ServerMessage,
    /// What this room's connections dropped before decoding.
    frame_drops: Arc<FrameDrops>,
    /// The server's counters (evictions are counted here).
    counters: Arc<Counters>,
    /// Who is playing server-wide, and the tick count (joins, leaves and ticks go here).
    presence: Arc<Presence>,
    /// Set on `Event::Drain`: new players are refused.
    draining: bool,
    /// Since when the room has been empty.
    empty_since: Instant,
    /// Whether the players were last told saving fails (`saving.rs`).
    told_saving_fails: bool,
    /// Bodies the room steps from `input:batch` (input_playout.rs).
    inputs: crate::input_playout::InputPlayouts,
}

/// `Room::conns` of an empty slot (connection numbers start at 1).
const FREE: u64 = 0;

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

    /// Runs the room until it has been empty for `Config::room_idle` and `stop_if_idle`
    /// agrees (it removes the room from the registry and closes `rx` when no event is
    /// waiting; its tick clock is closed with it), or every sender of its channel is gone.
    pub async fn run(
        mut self,
        mut rx: mpsc::Receiver<Event>,
        mut stop_if_idle: impl FnMut(&mut mpsc::Receiver<Event>) -> bool,
    ) {
        let mut ticks = crate::ticker::start(self.config.tick());
        loop {
            tokio::select! {
                biased;
                Some(at) = ticks.recv() => {
                    self.on_tick(at);
                    // With a new room wanted, an empty room stops now.
                    if self.open == 0
                        && self.detached == 0
                        && (self.empty_since.elapsed() >= self.config.room_idle
                            || self.guests.room_wanted())
                        && stop_if_idle(&mut rx)
                    {
                        break;
                    }
                }
                ev = rx.recv() => match ev {
                    Some(ev) => self.on_event(ev),
                    None => break,
                },
            }
        }
        // Connections that raced the stop: tell them to go (they ask for the room again).
        while let Some(ev) = rx.recv().await {
            match ev {
                Event::Open { tx, .. } | Event::Resume { tx, .. } => {
                    let _ = tx.try_send(Out::Close(close::TRY_LATER, "room stopped"));
                }
                Event::Evict { done, .. } => {
                    let _ = done.send(());
                }
                _ => {}
            }
        }
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Open {
                conn,
                tx,
                queued,
                hello,
                who,
                len,
                ticket,
                saved,
                ip,
            } => self.on_open(conn, tx, queued, hello, who, len, ticket, saved, ip),
            Event::Resume {
                conn,
                tx,
                queued,
                hello,
                claims,
                len,
            } => self.on_resume(conn, tx, queued, hello, claims, len),
            Event::Evict { account, done } => {
                if let Some(idx) = self.slot_of_account(account) {
                    self.end_session(idx, End::Replaced);
                }
                let _ = done.send(());
            }
            Event::Drain { at_ms } => self.on_drain(at_ms),
            Event::Input { conn, bytes } => self.on_input(conn, &bytes),
            Event::Close { conn } => self.on_close(conn),
        }
    }
}

pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
