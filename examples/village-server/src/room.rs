//! One room: a single task that owns every player's state, handles their messages in
//! arrival order and runs the 20 Hz tick. No locks: connections talk to it through a
//! channel, and it answers through each player's bounded outbound queue.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc;
use tuplet::relay::{dist2_xz, Cadence};
use tuplet::silence::Silence;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message, Meter, Wire};
use village::birds::BirdStream;
use village::chat::{Channel, ChatLine};
use village::common::{Medium, PlayerRef, WorldPos};
use village::diag::{DiagBytes, DiagPong, ServerStats};
use village::dispatch::{ClientMessage, ServerMessage};
use village::emote::EmoteShown;
use village::fishing::{FishingCastShown, FishingCatch, Water};
use village::notices::{Level, NoticeBody, NoticeShow};
use village::player::{
    LeaveReason, PlayerCorrection, PlayerJoined, PlayerLeft, PlayerMove, PlayerMoveRelayed,
    PlayerRoster, RejectReason, RosterEntry,
};
use village::session::{
    SessionError, SessionFailed, SessionHello, SessionKicked, SessionResumed, SessionWelcome,
};
use village::watergun::WatergunSprayShown;
use village::world::{NearbyEntity, WorldClock};

use crate::config::Config;
use crate::counters::{Counter, Counters, FrameDrops};
use crate::fanout::Frames;
use crate::presence::Presence;
use crate::sessions::Sessions;
use crate::snapshot::SnapshotStream;
use crate::stats::{rss, Drops, RoomStats};
use crate::store::Saved;
use crate::token::{Claims, ResumeClaims};
use crate::world::World;

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
    /// Bodies the room steps from `input:batch` (input_playout.rs).
    inputs: crate::input_playout::InputPlayouts,
}

/// `Room::conns` of an empty slot (connection numbers start at 1).
/// The most keys `Room::dropped_report` can give: the room's pairs and `(other)`, the
/// frame drops, the server's counters. `diag:pong` holds at most 64 (`ServerStats::dropped`).
const DROPPED_KEYS_MAX: usize = Drops::KEYS + 1 + FrameDrops::KINDS + Counter::ALL.len();
const _: () = assert!(DROPPED_KEYS_MAX <= 64, "the drop report must fit diag:pong");

const FREE: u64 = 0;

/// Why a valid message was still not handled (counted with the drops).
type Refused = &'static str;

/// Why a session ended (every path goes through [`Room::end_session`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// `session:leave`, or a connection that closed before it joined.
    Left,
    /// Its connection dropped and no grace applies (draining, or `grace` is zero).
    Dropped,
    /// The same account joined again.
    Replaced,
    /// Its grace window passed without a resume.
    GraceExpired,
    /// The server is draining.
    Drained,
    /// Closed by the room: a reader too slow.
    Evicted,
}

/// Who a room is and what it shares with the rest of the server.
pub(crate) struct RoomCtx {
    pub name: String,
    pub sessions: Arc<Sessions<Event>>,
    /// Frames connections dropped before their hello, when they had no room yet.
    pub pre_hello: Arc<FrameDrops>,
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
                    if self.open == 0
                        && self.detached == 0
                        && self.empty_since.elapsed() >= self.config.room_idle
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

    #[allow(clippy::too_many_arguments)]
    fn on_open(
        &mut self,
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        who: Option<Claims>,
        len: usize,
        ticket: u64,
        saved: Option<Saved>,
        ip: std::net::IpAddr,
    ) {
        self.meter_in
            .record_in(&ClientMessage::from(hello.clone()), len);
        let account = who.as_ref().map(|c| c.account);
        // The connection loaded the saved state before this event; a session of this
        // account that ended meanwhile (its leave handled just before this) saved a newer
        // one, which the store keeps in memory.
        let mut start = account
            .and_then(|a| self.sessions.store.cached(a))
            .or(saved);
        if let Some(account) = account {
            if !self.sessions.holds(account, ticket) {
                // A later hello of the same account claimed it meanwhile: that one wins.
                self.counters.add(Counter::Replaced);
                kick(&tx);
                return;
            }
            // Two of everything: the older session of this account (a tab not yet
            // closed, a reload inside the grace window) ends here, saved, and this one
            // starts where it was.
            if let Some(old) = self.slot_of_account(account) {
                if let Some(state) = self.end_session(old, End::Replaced) {
                    start = Some(state);
                }
            }
        }
        let free = self.slots.iter().position(Option::is_none);
        let cfg = &self.config;
        let count =
            |f: &dyn Fn(&Player) -> bool| self.slots.iter().flatten().filter(|p| f(p)).count();
        // Guests: refused when the configuration says so, and at most `guests_per_room`,
        // so signed-in players always find the rest of the room; and at most
        // `per_ip_per_room` players from one address.
        let refused = if account.is_none() && !cfg.guests {
            Some("guests_refused")
        } else if account.is_none() && count(&|p| p.guest) >= cfg.guests_per_room {
            Some("guests_full")
        } else if cfg.per_ip_per_room > 0 && count(&|p| p.ip == ip) >= cfg.per_ip_per_room {
            Some("ip_full")
        } else {
            None
        };
        let (Some(idx), false, None) = (free, self.draining, refused) else {
            let error = if self.draining {
                SessionError::RateLimited(30_000)
            } else if refused.is_some() {
                SessionError::RoomFull(0)
            } else {
                SessionError::RoomFull(self.config.room_capacity.min(255) as u8)
            };
            let full = ServerMessage::from(SessionFailed { error, fatal: true });
            if let Ok(bytes) = full.to_envelope(Encoding::Compact) {
                let n = bytes.len();
                let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
            }
            let _ = tx.try_send(Out::Close(close::TRY_LATER, "room full"));
            self.stats
                .record_drop(SessionHello::NAME, refused.unwrap_or("room_full"));
            if let Some(account) = account {
                self.sessions.release(account, ticket);
            }
            return;
        };
        self.next_gen += 1;
        // Protocol revision 1 clients predate the tuple shapes: they get maps.
        let shape = if hello.protocol < 2 {
            Encoding::Named
        } else {
            Encoding::Compact
        };
        self.slots[idx] = Some(Player {
            tx,
            queued,
            pending: Vec::new(),
            pending_bytes: 0,
            behind_since: None,
            gen: self.next_gen,
            session: session_id(),
            ip,
            account,
            ticket,
            nonce: 0,
            detached_at: None,
            start,
            saved_pos: [f32::NAN; 3],
            joined: false,
            guest: who.is_none(),
            cast: false,
            shape,
            name: String::new(),
            pos: [0.0; 3],
            heading: 0.0,
            seq: 0,
            bank: self.config.max_speed * self.config.speed_bank_s,
            last_move: Instant::now(),
            cadence: Cadence::default(),
            silence: Silence::new(),
            seen: vec![0; self.slots.len()],
            birds: false,
            view_radius: self.config.view_radius,
            snapshot: SnapshotStream::new(self.config.keyframe_every),
            who,
        });
        self.conns[idx] = conn;
        self.open += 1;
        self.stats.accepted += 1;
        self.welcome(idx, false);
    }

    /// `session:welcome` to slot `idx`, with a new single-use resume token.
    fn welcome(&mut self, idx: usize, resumed: bool) {
        let occupancy = (self.open + self.detached).clamp(1, 40) as u8;
        let grace = !self.config.grace.is_zero();
        let p = self.slots[idx].as_mut().expect("a player to welcome");
        p.nonce = crate::sessions::random_u64();
        let resume_token = grace.then(|| {
            crate::token::mint_resume(
                &self.sessions.resume_key,
                &ResumeClaims {
                    s: p.session.clone(),
                    room: self.name.clone(),
                    n: p.nonce,
                    who: p.who.clone(),
                },
            )
        });
        let welcome = ServerMessage::from(SessionWelcome {
            s: p.session.clone(),
            account: p.account,
            server_time: now_ms(),
            occupancy,
            resumed,
            motd: None,
            resume_token,
        });
        self.send_to(idx, &welcome);
    }

    /// The slot of `account`'s session in this room, if any.
    fn slot_of_account(&self, account: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.account == Some(account)))
    }

    /// A resume: the session the token names takes the new connection, if it is here and
    /// the token is the last one issued for it. Its state, sequence numbers and place in
    /// the room are kept; its delta mirror is healed by a keyframe.
    fn on_resume(
        &mut self,
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        claims: ResumeClaims,
        len: usize,
    ) {
        self.meter_in
            .record_in(&ClientMessage::from(hello.clone()), len);
        let found = self
            .slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.session == claims.s));
        let refused = match found.and_then(|i| self.slots[i].as_ref()) {
            None => Some((Counter::ResumeGone, SessionError::TokenExpired)),
            Some(p) if p.account != claims.who.as_ref().map(|c| c.account) => {
                Some((Counter::ResumeMismatch, SessionError::TokenInvalid))
            }
            Some(p) if p.nonce != claims.n => {
                Some((Counter::ResumeReplayed, SessionError::TokenInvalid))
            }
            Some(_) if self.draining => {
                Some((Counter::Draining, SessionError::RateLimited(30_000)))
            }
            Some(_) => None,
        };
        if let Some((counter, error)) = refused {
            self.counters.add(counter);
            let failed = ServerMessage::from(SessionFailed { error, fatal: true });
            if let Ok(bytes) = failed.to_envelope(Encoding::Compact) {
                let n = bytes.len();
                let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
            }
            let _ = tx.try_send(Out::Close(close::POLICY, counter.name()));
            return;
        }
        let idx = found.expect("checked");
        let p = self.slots[idx].as_mut().expect("checked");
        let gap = p.detached_at.map_or(Duration::ZERO, |t| t.elapsed());
        if p.detached_at.take().is_some() {
            self.detached -= 1;
            self.open += 1;
        } else {
            // The older connection is still open (the new page's hello beat the old
            // socket's close): it is told and closed; its close finds no slot.
            kick(&p.tx);
        }
        p.tx = tx;
        p.queued = queued;
        p.pending.clear();
        p.pending_bytes = 0;
        p.behind_since = None;
        p.shape = if hello.protocol < 2 {
            Encoding::Named
        } else {
            Encoding::Compact
        };
        p.snapshot.want_keyframe();
        self.conns[idx] = conn;
        self.counters.add(Counter::Resumed);
        self.welcome(idx, true);
        let grace_ms = self.config.grace.as_millis().min(u128::from(u32::MAX)) as u32;
        let resumed = ServerMessage::from(SessionResumed {
            gap_ms: gap.as_millis().min(u128::from(u32::MAX)) as u32,
            dropped: 0,
            grace_ms,
        });
        self.send_to(idx, &resumed);
        if self.slots[idx].as_ref().is_some_and(|p| p.joined) {
            let roster = self.roster(idx);
            let clock = self.clock();
            self.send_to(idx, &roster);
            self.send_to(idx, &clock);
        }
    }

    /// The one way a session ends, whatever ended it: its state handed to the store (a
    /// signed-in player that joined), its claim released, its leave told to the room, its
    /// connection (if still open) told why and closed. Returns its last state.
    fn end_session(&mut self, idx: usize, why: End) -> Option<Saved> {
        let mut p = self.slots[idx].take()?;
        if self.conns[idx] != FREE {
            self.conns[idx] = FREE;
            self.open -= 1;
        }
        if p.detached_at.is_some() {
            self.detached -= 1;
        }
        if self.open == 0 && self.detached == 0 {
            self.empty_since = Instant::now();
        }
        self.counters.add(Counter::SessionsEnded);
        match why {
            End::Replaced => self.counters.add(Counter::Replaced),
            End::GraceExpired => self.counters.add(Counter::GraceExpired),
            _ => {}
        }
        let state = if p.joined {
            Some(Saved {
                pos: p.pos,
                heading: p.heading,
            })
        } else {
            p.start
        };
        if let (Some(account), Some(state)) = (p.account, state) {
            self.sessions.store.save(account, state);
            p.saved_pos = state.pos;
            self.counters.add(Counter::SessionsSaved);
        }
        if let Some(account) = p.account {
            self.sessions.release(account, p.ticket);
        }
        if p.detached_at.is_none() {
            match why {
                End::Replaced => kick(&p.tx),
                End::Left => {
                    let _ = p.tx.try_send(Out::Close(close::NORMAL, "left"));
                }
                _ => {}
            }
        }
        if p.joined {
            self.presence.left(&p.session);
            self.joined.retain(|&i| i != idx);
            let reason = match why {
                End::Left | End::Dropped | End::Evicted => LeaveReason::Closed,
                End::Replaced => LeaveReason::Replaced,
                End::GraceExpired => LeaveReason::TimedOut,
                End::Drained => LeaveReason::Shutdown,
            };
            let left = || {
                ServerMessage::from(PlayerLeft {
                    s: p.session,
                    reason,
                })
            };
            self.fan_out(left, p.pos, None, None, |_, _| true);
        }
        state
    }

    /// Hands a signed-in player's state to the store (not an end: on the timer, after a
    /// long move, when its connection drops).
    fn save(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else {
            return;
        };
        if let Some(account) = p.account {
            self.sessions.store.save(
                account,
                Saved {
                    pos: p.pos,
                    heading: p.heading,
                },
            );
            p.saved_pos = p.pos;
        }
    }

    /// Tells every player the server stops by `at_ms` and refuses newcomers from now on.
    fn on_drain(&mut self, at_ms: u64) {
        self.draining = true;
        // Sessions in their grace window have no connection to come back on: they end
        // now, saved.
        for idx in 0..self.slots.len() {
            if self.slots[idx]
                .as_ref()
                .is_some_and(|p| p.detached_at.is_some())
            {
                self.end_session(idx, End::Drained);
            }
        }
        let notice = ServerMessage::from(NoticeShow {
            id: 1,
            level: Level::Banner,
            body: NoticeBody::Restart {
                at: at_ms,
                downtime_s: 0,
            },
            ttl_s: None,
        });
        for idx in 0..self.slots.len() {
            self.send_to(idx, &notice);
        }
    }

    /// The slot of connection `conn`, if it is in the room.
    fn slot_of(&self, conn: u64) -> Option<usize> {
        self.conns.iter().position(|&c| c == conn)
    }

    /// A connection ended. A joined player's session outlives it for `Config::grace`
    /// (saved now, in case it is not resumed); otherwise the session ends.
    fn on_close(&mut self, conn: u64) {
        let Some(idx) = self.slot_of(conn) else {
            return;
        };
        let joined = self.slots[idx].as_ref().is_some_and(|p| p.joined);
        if !joined {
            self.end_session(idx, End::Left);
            return;
        }
        if self.draining || self.config.grace.is_zero() {
            self.end_session(idx, End::Dropped);
            return;
        }
        self.save(idx);
        self.conns[idx] = FREE;
        self.open -= 1;
        self.detached += 1;
        if let Some(p) = self.slots[idx].as_mut() {
            p.detached_at = Some(Instant::now());
            p.pending.clear();
            p.pending_bytes = 0;
        }
    }

    fn on_input(&mut self, conn: u64, bytes: &[u8]) {
        let t0 = Instant::now();
        let Some(idx) = self.slot_of(conn) else {
            return;
        };
        let mut r = Reader::new(bytes);
        let id = match r.read_u64(0, u64::from(u32::MAX)) {
            Ok(id) => id as u32,
            Err(e) => return self.drop_input("(envelope)", e.code().as_str(), bytes.len()),
        };
        if id == PlayerMove::ID {
            return self.on_move_input(idx, &mut r, bytes.len(), t0);
        }
        let msg = ClientMessage::decode_by_id(id, &mut r).and_then(|m| r.finish().map(|()| m));
        let msg = match msg {
            Ok(msg) => msg,
            Err(e) => return self.drop_input(name_of(id), e.code().as_str(), bytes.len()),
        };
        self.meter_in.record_in(&msg, bytes.len());
        let is_move = matches!(msg, ClientMessage::PlayerMove(_));
        match self.handle(idx, msg, t0) {
            Ok(()) => {
                self.stats.accepted += 1;
                if is_move {
                    self.stats.record_move(t0.elapsed());
                }
            }
            Err(code) => self.stats.record_drop(name_of(id), code),
        }
    }

    /// `player:move`, the hot message, straight to its handler: the same derived decode and
    /// checks as through [`Dispatch::decode_by_id`] and [`Room::handle`], without their
    /// matches over every message type (cold code, at one move every 100 ms).
    fn on_move_input(&mut self, idx: usize, r: &mut Reader<'_>, len: usize, t0: Instant) {
        let m = match PlayerMove::decode(r).and_then(|m| r.finish().map(|()| m)) {
            Ok(m) => m,
            Err(e) => return self.drop_input(PlayerMove::NAME, e.code().as_str(), len),
        };
        let msg = ClientMessage::from(m);
        self.meter_in.record_in(&msg, len);
        let ClientMessage::PlayerMove(m) = msg else {
            return;
        };
        if !self.slots[idx].as_ref().is_some_and(|p| p.joined) {
            return self.stats.record_drop(PlayerMove::NAME, "not_joined");
        }
        self.on_move(idx, m, t0);
        self.stats.accepted += 1;
        self.stats.record_move(t0.elapsed());
    }

    fn drop_input(&mut self, kind: &'static str, code: &'static str, len: usize) {
        self.meter_in.record_dropped(len);
        self.stats.record_drop(kind, code);
    }

    fn handle(&mut self, idx: usize, msg: ClientMessage, now: Instant) -> Result<(), Refused> {
        let p = self.slots[idx].as_mut().ok_or("gone")?;
        // Rights end with the token: past its expiry a player keeps its session and its
        // name, not its admin, staff or party rights.
        let now_s = crate::token::now_s();
        if p.who.as_ref().is_some_and(|c| c.exp <= now_s) {
            for c in p.who.iter_mut() {
                c.admin = false;
                c.staff = false;
                c.party = None;
            }
        }
        match msg {
            // Leaving on purpose: saved at once, no grace window.
            ClientMessage::SessionLeave(_) => {
                self.end_session(idx, End::Left);
            }
            // The connection handled the first hello; another is refused.
            ClientMessage::SessionHello(_) => return Err("repeated"),
            ClientMessage::PlayerJoin(j) => {
                if p.joined {
                    return Err("repeated");
                }
                self.join(idx, j);
            }
            ClientMessage::DiagPing(ping) => {
                // The round trip is everyone's; the room's numbers are the admins'.
                let admin = p.who.as_ref().is_some_and(|c| c.admin);
                let pong = ServerMessage::from(DiagPong {
                    nonce: ping.nonce,
                    sent: ping.sent,
                    server_time: now_ms(),
                    stats: (ping.want_stats && admin).then(|| self.server_stats()),
                });
                self.send_to(idx, &pong);
                if ping.want_stats && !admin {
                    return Err("not_admin");
                }
            }
            ClientMessage::DiagBytesRequest(_) if !p.who.as_ref().is_some_and(|c| c.admin) => {
                return Err("not_admin")
            }
            ClientMessage::DiagBytesRequest(req) => {
                let bytes = ServerMessage::from(self.diag_bytes());
                self.send_to(idx, &bytes);
                if req.reset {
                    self.meter_in.reset();
                    self.meter_out.reset();
                    self.meters_since = now_ms();
                    self.stats.reset();
                }
            }
            _ if !p.joined => return Err("not_joined"),
            ClientMessage::PlayerMove(m) => self.on_move(idx, m, now),
            ClientMessage::InputBatch(b) => {
                let (pos, heading) = (p.pos, p.heading);
                self.inputs.push(idx, pos, heading, &b);
            }
            // The heartbeat feeds idle timers; it is never fanned out.
            ClientMessage::PlayerHeartbeat(_) => {}
            // Guests never get the bird stream (their client does not draw birds): a
            // guest's subscribe is refused, and counted.
            ClientMessage::BirdSubscribe(b) if b.on && p.guest => return Err("guest_birds"),
            ClientMessage::BirdSubscribe(b) => p.birds = b.on,
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.want_keyframe(),
            ClientMessage::WorldView(v) => p.view_radius = v.radius,
            ClientMessage::ChatSay(c) => {
                let channel = c.channel;
                let (party, staff) = chat_rights(p.who.as_ref());
                match channel {
                    Channel::Local | Channel::Room => {}
                    Channel::Trade if p.guest => return Err("guest_channel"),
                    Channel::Trade => {}
                    Channel::Party if party.is_none() => return Err("not_in_party"),
                    Channel::Party => {}
                    Channel::Staff if !staff => return Err("not_staff"),
                    Channel::Staff => {}
                }
                self.chat_id += 1;
                let at = p.pos;
                let line = ServerMessage::from(ChatLine {
                    id: self.chat_id,
                    from: p.session.clone(),
                    name: p.name.clone(),
                    text: c.text,
                    channel: c.channel,
                    at: now_ms(),
                    reply_to: c.reply_to,
                    // Marked, so a guest cannot pass for a signed-in player.
                    guest: p.guest.then_some(true),
                });
                let config = Arc::clone(&self.config);
                // Who hears it: by distance for local chat, by membership for party and staff.
                let hears: Vec<bool> = self
                    .slots
                    .iter()
                    .map(|s| {
                        let (their_party, their_staff) =
                            chat_rights(s.as_ref().and_then(|o| o.who.as_ref()));
                        match channel {
                            Channel::Party => their_party.is_some() && their_party == party,
                            Channel::Staff => their_staff,
                            _ => true,
                        }
                    })
                    .collect();
                self.fan_out_to(
                    || line,
                    at,
                    |i| hears[i],
                    |d2, _| channel != Channel::Local || config.tiers.is_near(d2),
                );
            }
            ClientMessage::EmotePlay(e) => {
                let shown = ServerMessage::from(EmoteShown {
                    s: p.session.clone(),
                    emote: e.emote,
                    looping: e.looping,
                    at: now_ms(),
                });
                self.event_to_nearby(idx, shown);
            }
            ClientMessage::WatergunSpray(w) => {
                let shown = ServerMessage::from(WatergunSprayShown {
                    s: p.session.clone(),
                    aim: [w.yaw, w.pitch.clamp(-1.57, 1.57)],
                    reach: w.pressure * 12.0,
                });
                self.event_to_nearby(idx, shown);
            }
            ClientMessage::FishingCast(c) => {
                p.cast = true;
                let shown = ServerMessage::from(FishingCastShown {
                    s: p.session.clone(),
                    bobber: c.bobber,
                    water: Water::Pond,
                });
                self.event_to_nearby(idx, shown);
            }
            // The server owns the rules: a catch needs a line in the water.
            ClientMessage::FishingReel(_) if !p.cast => return Err("no_cast"),
            ClientMessage::FishingReel(r) if r.line == 0.0 => {
                p.cast = false;
                let catch = ServerMessage::from(FishingCatch {
                    angler: PlayerRef {
                        s: p.session.clone(),
                        name: p.name.clone(),
                    },
                    fish: "fish.trout".into(),
                    kg: 1.25,
                    length_cm: 38,
                    best: false,
                });
                self.send_to(idx, &catch);
                self.event_to_nearby(idx, catch);
            }
            // Everything else of the protocol is valid input this example does not act on.
            _ => {}
        }
        Ok(())
    }

    fn join(&mut self, idx: usize, j: village::player::PlayerJoin) {
        self.inputs.leave(idx);
        let spawn = match self.config.spawns.as_slice() {
            [] => {
                let a = self.joins as f32 * 2.399_963; // golden angle: an even ring
                let r = 5.0 + (self.joins % 8) as f32 * 3.0;
                [r * a.cos(), 0.0, r * a.sin()]
            }
            spawns => spawns[self.joins % spawns.len()],
        };
        self.joins += 1;
        let p = self.slots[idx].as_mut().expect("joining player");
        p.joined = true;
        if let Err(at) = self.joined.binary_search(&idx) {
            self.joined.insert(at, idx);
        }
        // A returning player starts where it was.
        let (spawn, heading) = p.start.take().map_or((spawn, 0.0), |s| (s.pos, s.heading));
        p.pos = spawn;
        p.heading = heading;
        p.saved_pos = spawn;
        // A signed-in player is called what its token says (its name reserved from now
        // on); a guest what it asks for, unless that hides characters or looks like a
        // signed-in player's name: then it gets a generated one (a join never fails on
        // a name).
        let generated = format!("Villager{}", p.gen);
        let wanted = match &p.who {
            Some(c) => {
                let name = crate::names::clean(&c.name).unwrap_or(format!("Player{}", c.account));
                self.sessions.reserve(crate::names::key(&name), c.account);
                name
            }
            None if j.name.is_empty() => generated,
            None => match crate::names::clean(&j.name) {
                Ok(name) if self.sessions.is_reserved(&crate::names::key(&name)) => {
                    self.stats
                        .record_drop(village::player::PlayerJoin::NAME, "name_reserved");
                    generated
                }
                Ok(name) => name,
                Err(e) => {
                    self.stats.record_drop(
                        village::player::PlayerJoin::NAME,
                        match e {
                            crate::names::NameError::Hidden => "name_hidden",
                            crate::names::NameError::Length => "name_length",
                        },
                    );
                    generated
                }
            },
        };
        let taken: Vec<&str> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().filter(|o| o.joined && i != idx))
            .map(|o| o.name.as_str())
            .collect();
        let name = unique_name(&wanted, &taken);
        let p = self.slots[idx].as_mut().expect("joining player");
        p.name = name;
        p.snapshot.want_keyframe();
        self.presence.joined(&p.session);
        let joined = ServerMessage::from(PlayerJoined {
            s: p.session.clone(),
            name: p.name.clone(),
            colour: j.colour,
            spawn: WorldPos {
                x: spawn[0],
                y: spawn[1],
                z: spawn[2],
            },
            heading,
            guest: p.guest,
            outfit: j.outfit,
        });
        let roster = self.roster(idx);
        let clock = self.clock();
        self.send_to(idx, &roster);
        self.send_to(idx, &clock);
        self.fan_out(|| joined, spawn, None, None, |_, _| true);
    }

    /// Everyone joined but `idx`.
    fn roster(&self, idx: usize) -> ServerMessage {
        ServerMessage::from(PlayerRoster {
            players: self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.as_ref().filter(|o| o.joined && i != idx))
                .take(39)
                .map(|o| RosterEntry {
                    s: o.session.clone(),
                    name: o.name.clone(),
                    colour: 0x88aa66,
                    p: o.pos,
                    vehicle: None,
                    guest: o.guest,
                })
                .collect(),
        })
    }

    fn clock(&self) -> ServerMessage {
        ServerMessage::from(WorldClock {
            tick: self.tick,
            at: now_ms(),
            rate: self.config.tick_hz.clamp(1, 60) as u8,
        })
    }

    /// Validates a move against the map and the speed limit: a rejected one is answered
    /// with a correction to its sender alone and goes nowhere else. An accepted one is
    /// relayed by distance tier, unless its pose did not change.
    fn on_move(&mut self, idx: usize, m: PlayerMove, now: Instant) {
        let cfg = &self.config;
        let p = self.slots[idx].as_mut().expect("moving player");
        let out_of_map = (0..3).any(|i| m.p[i] < cfg.map_min[i] || m.p[i] > cfg.map_max[i]);
        let dt = now.saturating_duration_since(p.last_move).as_secs_f32();
        p.last_move = now;
        p.bank = (p.bank + dt * cfg.max_speed).min(cfg.max_speed * cfg.speed_bank_s);
        let step = dist(p.pos, m.p);
        let reason = if out_of_map {
            Some(RejectReason::OutOfBounds)
        } else if step > p.bank {
            Some(RejectReason::TooFast)
        } else {
            None
        };
        if let Some(reason) = reason {
            let correction = ServerMessage::from(PlayerCorrection {
                pos: p.pos,
                heading: p.heading,
                accepted_seq: p.seq,
                reason,
                medium: Medium::Land,
            });
            return self.send_to(idx, &correction);
        }
        p.bank -= step;
        p.pos = m.p;
        p.heading = m.r;
        if let Some(seq) = m.seq {
            p.seq = seq;
        }
        // After meaningful movement, not every move.
        if p.account.is_some() && dist(p.saved_pos, p.pos) >= cfg.save_after_m {
            self.save(idx);
        }
        let p = self.slots[idx].as_mut().expect("moving player");
        // What viewers draw: the sample time and sequence number change on every report.
        let pose = PlayerMove {
            t: 0,
            seq: None,
            ..m.clone()
        };
        let report = p.silence.observe(&pose);
        if !report.relay() {
            return;
        }
        let update = p.cadence.advance();
        let mover = (idx, p.gen);
        let at = m.p;
        // Built only when someone gets it (the session id is a heap string); the id is
        // lent to it for the fan-out, which needs the room.
        let session = std::mem::take(&mut p.session);
        let relayed = || {
            ServerMessage::from(PlayerMoveRelayed {
                s: session.clone(),
                p: m.p,
                r: m.r,
                t: m.t,
                seq: m.seq,
                flags: m.flags,
            })
        };
        // The room's config, shared: cloning the tiers would allocate on every move.
        let config = Arc::clone(&self.config);
        let forced = report.forced();
        self.fan_out(relayed, at, Some(idx), Some(mover), |d2, seen| {
            config.tiers.should_send(update, d2, seen, forced)
        });
        if let Some(p) = self.slots[idx].as_mut() {
            p.session = session;
        }
    }

    /// A one-off event: to every nearby viewer, every time, and to nobody else.
    fn event_to_nearby(&mut self, idx: usize, msg: ServerMessage) {
        let Some(at) = self.slots[idx].as_ref().map(|p| p.pos) else {
            return;
        };
        let config = Arc::clone(&self.config);
        self.fan_out(
            || msg,
            at,
            Some(idx),
            None,
            |d2, _| config.tiers.is_near(d2),
        );
    }

    /// Sends the message `make` builds to every joined player but `skip` that
    /// `want(d2, seen)` accepts, where `d2` is its squared ground distance to `origin` and
    /// `seen` whether it already got a pose of `mover` (slot, gen), which this marks. The
    /// message is built only when someone gets it, and encoded once per shape in use.
    fn fan_out(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        skip: Option<usize>,
        mover: Option<(usize, u32)>,
        want: impl Fn(f32, bool) -> bool,
    ) {
        self.fan_out_core(make, origin, |i| Some(i) != skip, mover, want);
    }

    /// [`Room::fan_out`] to the joined players whose slot `to` accepts, sender included.
    fn fan_out_to(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        to: impl Fn(usize) -> bool,
        want: impl Fn(f32, bool) -> bool,
    ) {
        self.fan_out_core(make, origin, to, None, want);
    }

    fn fan_out_core(
        &mut self,
        make: impl FnOnce() -> ServerMessage,
        origin: [f32; 3],
        to_slot: impl Fn(usize) -> bool,
        mover: Option<(usize, u32)>,
        want: impl Fn(f32, bool) -> bool,
    ) {
        let mut to = std::mem::take(&mut self.recipients);
        to.clear();
        for &i in &self.joined {
            let Some(v) = self.slots[i]
                .as_mut()
                .filter(|v| v.detached_at.is_none() && to_slot(i))
            else {
                continue;
            };
            let seen = mover.is_some_and(|(m, gen)| v.seen[m] == gen);
            if !want(dist2_xz(v.pos, origin), seen) {
                continue;
            }
            if let Some((m, gen)) = mover {
                v.seen[m] = gen;
            }
            to.push(i);
        }
        if !to.is_empty() {
            let msg = make();
            let mut frames = Frames::new(&msg);
            for &i in &to {
                let Some(v) = self.slots[i].as_mut() else {
                    continue;
                };
                if let Some(bytes) = frames.get(v.shape) {
                    push(
                        v,
                        bytes,
                        &msg,
                        &self.config,
                        &self.meter_out,
                        &mut self.stats,
                    );
                    if !self.config.flush_per_tick {
                        flush(v, &mut self.stats);
                    }
                }
            }
        }
        self.recipients = to;
    }

    /// A direct answer: queued after what was gathered for `idx`, and written at once.
    fn send_to(&mut self, idx: usize, msg: &ServerMessage) {
        if let Some(p) = self.slots[idx].as_mut() {
            if let Some(bytes) = Frames::new(msg).get(p.shape) {
                push(
                    p,
                    bytes,
                    msg,
                    &self.config,
                    &self.meter_out,
                    &mut self.stats,
                );
            }
            flush(p, &mut self.stats);
        }
    }

    /// The bodies stepped from `input:batch` (input_playout.rs): an ack to each sender, the
    /// new pose relayed like a move.
    fn drive_inputs(&mut self) {
        let steps = crate::input_playout::steps_per_tick(self.config.tick_hz);
        for s in self.inputs.tick(self.tick, steps) {
            let (t, seq) = (now_ms(), Some(s.ack.applied));
            self.send_to(s.idx, &ServerMessage::from(s.ack));
            let m = PlayerMove {
                p: s.pos,
                r: s.heading,
                t,
                seq,
                flags: None,
            };
            self.on_move(s.idx, m, Instant::now());
        }
    }

    fn on_tick(&mut self, scheduled: Instant) {
        self.stats
            .record_tick(Instant::now().saturating_duration_since(scheduled));
        self.tick = self.tick.wrapping_add(1);
        self.presence.tick();
        if self.tick.is_multiple_of(self.config.tick_hz.max(1)) {
            self.stats.moves_last_s = std::mem::take(&mut self.stats.moves_this_s);
        }
        if self.detached > 0 {
            for idx in 0..self.slots.len() {
                let expired = self.slots[idx].as_ref().is_some_and(|p| {
                    p.detached_at
                        .is_some_and(|t| t.elapsed() >= self.config.grace)
                });
                if expired {
                    self.end_session(idx, End::GraceExpired);
                }
            }
        }
        let save_ticks =
            (self.config.save_every.as_secs_f64() * f64::from(self.config.tick_hz)).max(1.0) as u32;
        if self.tick.is_multiple_of(save_ticks) {
            for idx in 0..self.slots.len() {
                let moved = self.slots[idx]
                    .as_ref()
                    .is_some_and(|p| p.joined && p.account.is_some() && p.pos != p.saved_pos);
                if moved {
                    self.save(idx);
                }
            }
        }
        if self.open == 0 {
            return;
        }
        self.world.step(self.tick);
        self.drive_inputs();
        let birds_due = self.tick.is_multiple_of(self.config.birds_every.max(1));
        let bird_r2 = self.config.bird_radius * self.config.bird_radius;
        let Room {
            config,
            slots,
            world,
            meter_out,
            stats,
            tick,
            snapshot_kind,
            ..
        } = self;
        let mut in_view: Vec<&NearbyEntity> = Vec::with_capacity(world.npcs.len());
        let mut evict = Vec::new();
        for (idx, p) in slots.iter_mut().enumerate() {
            let Some(p) = p.as_mut().filter(|p| p.joined && p.detached_at.is_none()) else {
                continue;
            };
            if behind(p, config) {
                // Behind: skip the snapshot it would miss anyway; a keyframe goes out once
                // it has caught up. Behind for too long: closed.
                p.snapshot.want_keyframe();
                if p.behind_since
                    .is_some_and(|t| t.elapsed() >= config.behind_close)
                {
                    evict.push(idx);
                }
                continue;
            }
            in_view.clear();
            in_view.extend(world.in_view(p.pos, p.view_radius));
            if let Some((bytes, _)) = p.snapshot.next(*tick, &in_view, p.shape) {
                push(p, bytes, snapshot_kind, config, meter_out, stats);
            }
            // Guests never get the bird stream: their client does not draw birds.
            if birds_due && p.birds && !p.guest {
                let b = world
                    .birds
                    .iter()
                    .filter(|b| dist2_xz([b.x, b.y, b.z], p.pos) <= bird_r2)
                    .take(80)
                    .cloned()
                    .collect();
                let msg = ServerMessage::from(BirdStream { b });
                if let Some(bytes) = Frames::new(&msg).get(p.shape) {
                    push(p, bytes, &msg, config, meter_out, stats);
                }
            }
            flush(p, stats);
        }
        for idx in evict {
            self.counters.add(Counter::EvictedSlow);
            self.evict(idx, close::POLICY, "too slow a reader");
        }
    }

    /// Closes slot `idx`'s connection with `code` and frees the slot at once (its writer
    /// may still be blocked on the socket; `Config::write_timeout` ends it).
    fn evict(&mut self, idx: usize, code: u16, reason: &'static str) {
        if let Some(p) = self.slots[idx].as_ref() {
            let _ = p.tx.try_send(Out::Close(code, reason));
            self.end_session(idx, End::Evicted);
        }
    }

    fn server_stats(&self) -> ServerStats {
        let ms = |d: Duration| (d.as_secs_f64() * 1e3) as f32;
        let s = &self.stats;
        ServerStats {
            loop_lag_ms: s.last_tick_late_ms,
            move_cost_ms: s.move_cost_ewma_ms as f32,
            move_cost_peak_ms: s.move_cost_peak_ms as f32,
            rss: rss(),
            heap_used: 0,
            moves_per_s: s.moves_last_s.min(u32::from(u16::MAX)) as u16,
            uptime_s: self.started.elapsed().as_secs().min(u64::from(u32::MAX)) as u32,
            tick_late_p95_ms: Some(ms(s.tick_late.quantile(0.95))),
            tick_late_max_ms: Some(ms(s.tick_late.max())),
            move_cost_p50_ms: Some(ms(s.move_cost.quantile(0.5))),
            move_cost_p95_ms: Some(ms(s.move_cost.quantile(0.95))),
            moves: Some(s.moves),
            accepted: Some(s.accepted),
            dropped: Some(self.dropped_report()),
            unsent: Some(s.unsent),
        }
    }

    /// The room's drops, its connections' frame drops and the server's counters, each
    /// only when non-zero: at most `Drops::KEYS + 1 + 3 + 33` = 61 keys, within the 64
    /// `ServerStats::dropped` holds (checked at compile time: `DROPPED_KEYS_MAX`).
    fn dropped_report(&self) -> BTreeMap<String, u32> {
        let clamp = |n: u64| n.min(u64::from(u32::MAX)) as u32;
        let mut out: BTreeMap<String, u32> = self.stats.dropped.report().collect();
        let before_hello = self.pre_hello.report();
        for (i, (name, n)) in self.frame_drops.report().into_iter().enumerate() {
            let n = n + before_hello[i].1;
            if n > 0 {
                out.insert(format!("(frame) {name}"), clamp(n));
            }
        }
        for c in Counter::ALL {
            let n = self.counters.get(c);
            if n > 0 {
                out.insert(format!("(server) {}", c.name()), clamp(n));
            }
        }
        out
    }

    fn diag_bytes(&self) -> DiagBytes {
        let mut out = BTreeMap::new();
        let mut inbound = BTreeMap::new();
        for r in self.meter_out.report() {
            out.insert(r.name.to_string(), r.bytes_out);
        }
        for r in self.meter_in.report() {
            inbound.insert(r.name.to_string(), r.bytes_in);
        }
        DiagBytes {
            since: self.meters_since,
            out,
            inbound,
        }
    }
}

/// Whether `p` is behind: a frame was refused for it (its queue at `Config::queue_bytes`)
/// and the queue has not yet drained to half of that.
fn behind(p: &mut Player, config: &Config) -> bool {
    let queued = p.queued.load(Ordering::Relaxed) + p.pending_bytes;
    if queued < config.queue_bytes / 2 {
        p.behind_since = None;
    }
    p.behind_since.is_some()
}

/// Gathers one frame for `p`'s next flush; when `Config::queue_bytes` are already waiting
/// for it (a stalled client), the frame is counted as unsent instead.
fn push(
    p: &mut Player,
    bytes: Bytes,
    msg: &ServerMessage,
    config: &Config,
    meter: &Meter<ServerMessage>,
    stats: &mut RoomStats,
) {
    let queued = p.queued.load(Ordering::Relaxed) + p.pending_bytes;
    if queued + bytes.len() > config.queue_bytes {
        p.behind_since.get_or_insert_with(Instant::now);
        stats.unsent += 1;
        return;
    }
    meter.record_out(msg, bytes.len(), 1);
    p.pending_bytes += bytes.len();
    p.pending.push(bytes);
}

/// Hands the frames gathered for `p` to its connection, which writes them with one flush.
fn flush(p: &mut Player, stats: &mut RoomStats) {
    if p.pending.is_empty() {
        return;
    }
    let frames = std::mem::replace(&mut p.pending, Vec::with_capacity(16));
    let n = frames.len();
    let bytes = std::mem::take(&mut p.pending_bytes);
    p.queued.fetch_add(bytes, Ordering::Relaxed);
    match p.tx.try_send(Out::Frames(frames, bytes)) {
        Ok(()) => {}
        Err(e) => {
            p.queued.fetch_sub(bytes, Ordering::Relaxed);
            if let mpsc::error::TrySendError::Full(_) = e {
                stats.unsent += n as u64;
            }
        }
    }
}

/// Tells a connection its session was taken over by a newer one, and closes it.
fn kick(tx: &mpsc::Sender<Out>) {
    let kicked = ServerMessage::from(SessionKicked {
        reason: "session.replaced".into(),
        permanent: false,
    });
    if let Ok(bytes) = kicked.to_envelope(Encoding::Compact) {
        let n = bytes.len();
        let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
    }
    let _ = tx.try_send(Out::Close(close::NORMAL, "replaced"));
}

/// Which party a speaker is in and whether it is staff, by its token.
fn chat_rights(who: Option<&Claims>) -> (Option<u32>, bool) {
    who.map_or((None, false), |c| (c.party, c.staff))
}

/// `wanted`, or `wanted` with the first free number appended (`Ana 2`), so no two players
/// in a room share a display name (compared by look: [`crate::names::key`]); at most 24
/// bytes.
fn unique_name(wanted: &str, taken: &[&str]) -> String {
    let taken: Vec<String> = taken.iter().map(|t| crate::names::key(t)).collect();
    let free = |n: &str| !taken.contains(&crate::names::key(n));
    if free(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|i| {
            let suffix = format!(" {i}");
            let mut base = wanted.to_string();
            while base.len() + suffix.len() > 24 {
                base.pop();
            }
            base + &suffix
        })
        .find(|n| free(n))
        .expect("some number is free")
}

/// The message name of a client envelope id, for drop counts.
fn name_of(id: u32) -> &'static str {
    ClientMessage::MESSAGES
        .iter()
        .find(|m| m.1 == id)
        .map_or("(unknown id)", |m| m.0)
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A 9-character session id (as Colyseus' are), from the operating system's random
/// source: nobody can guess another player's id from its own.
fn session_id() -> String {
    const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut raw = [0u8; 9];
    if getrandom::fill(&mut raw).is_err() {
        // No random source at all is a broken machine; still never a predictable id.
        panic!("village-server: the operating system's random source failed");
    }
    raw.iter()
        .map(|b| ALPHABET[usize::from(*b) % 36] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique_within_24_bytes() {
        assert_eq!(unique_name("Ana", &[]), "Ana");
        assert_eq!(unique_name("Ana", &["ana"]), "Ana 2");
        assert_eq!(unique_name("Ana", &["Ana", "Ana 2"]), "Ana 3");
        let long = "x".repeat(24);
        let got = unique_name(&long, &[&long]);
        assert_eq!(got.len(), 24);
        assert!(got.ends_with(" 2"));
    }

    #[test]
    fn session_ids_differ_and_are_nine_characters() {
        let ids: std::collections::BTreeSet<String> = (0..1000).map(|_| session_id()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(ids.iter().all(|s| s.len() == 9));
    }
}
