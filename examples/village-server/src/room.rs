//! One room: a single task that owns every player's state, handles their messages in
//! arrival order and runs the 20 Hz tick. No locks: connections talk to it through a
//! channel, and it answers through each player's bounded outbound queue.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Bytes;
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
use village::player::{
    LeaveReason, PlayerCorrection, PlayerJoined, PlayerLeft, PlayerMove, PlayerMoveRelayed,
    PlayerRoster, RejectReason, RosterEntry,
};
use village::session::{SessionError, SessionFailed, SessionWelcome};
use village::watergun::WatergunSprayShown;
use village::world::{NearbyEntity, WorldClock};

use crate::config::Config;
use crate::fanout::Frames;
use crate::snapshot::SnapshotStream;
use crate::stats::{rss, RoomStats};
use crate::world::World;

/// What a connection tells its room.
pub(crate) enum Event {
    /// A WebSocket was accepted for this room: its outbound queue, and how many frames
    /// are in that queue (the connection's writer counts them down).
    Open {
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
    },
    /// One binary frame, within the size and rate caps.
    Input { conn: u64, bytes: Bytes },
    /// A frame the connection dropped itself (over a cap, or not binary).
    Dropped {
        conn: u64,
        id: Option<u32>,
        code: &'static str,
        len: usize,
    },
    /// The connection ended.
    Close { conn: u64 },
}

/// What a room tells a connection.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send these frames, in order, with one flush.
    Frames(Vec<Bytes>),
    /// Close the connection.
    Close,
}

/// The state a room keeps per player.
struct Player {
    tx: mpsc::Sender<Out>,
    /// Frames in `tx` not yet written (shared with the connection's writer).
    queued: Arc<AtomicUsize>,
    /// Frames gathered for the next flush (`Config::flush_per_tick`).
    pending: Vec<Bytes>,
    /// Changes every time a slot is reused, so `seen` marks of a leaver never apply to the
    /// newcomer in its slot.
    gen: u32,
    session: String,
    hello: bool,
    joined: bool,
    guest: bool,
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
}

/// `Room::conns` of an empty slot (connection numbers start at 1).
const FREE: u64 = 0;

/// Why a valid message was still not handled (counted with the drops).
type Refused = &'static str;

impl Room {
    pub fn new(config: Arc<Config>, started: Instant) -> Room {
        Room {
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
        }
    }

    /// Runs the room until every sender of its channel is gone.
    pub async fn run(mut self, mut rx: mpsc::Receiver<Event>) {
        let mut ticks = crate::ticker::start(self.config.tick());
        loop {
            tokio::select! {
                biased;
                Some(at) = ticks.recv() => self.on_tick(at),
                ev = rx.recv() => match ev {
                    Some(ev) => self.on_event(ev),
                    None => break,
                },
            }
        }
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Open { conn, tx, queued } => self.on_open(conn, tx, queued),
            Event::Input { conn, bytes } => self.on_input(conn, &bytes),
            Event::Dropped {
                conn,
                id,
                code,
                len,
            } => {
                if self.slot_of(conn).is_some() {
                    self.drop_input(id.map_or("(frame)", name_of), code, len);
                }
            }
            Event::Close { conn } => self.on_close(conn),
        }
    }

    fn on_open(&mut self, conn: u64, tx: mpsc::Sender<Out>, queued: Arc<AtomicUsize>) {
        let Some(idx) = self.slots.iter().position(Option::is_none) else {
            let full = ServerMessage::from(SessionFailed {
                error: SessionError::RoomFull(self.config.room_capacity.min(255) as u8),
                fatal: true,
            });
            if let Ok(bytes) = full.to_envelope(Encoding::Compact) {
                let _ = tx.try_send(Out::Frames(vec![bytes.into()]));
            }
            let _ = tx.try_send(Out::Close);
            return;
        };
        self.next_gen += 1;
        self.slots[idx] = Some(Player {
            tx,
            queued,
            pending: Vec::new(),
            gen: self.next_gen,
            session: session_id(conn),
            hello: false,
            joined: false,
            guest: true,
            shape: Encoding::Compact,
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
        });
        self.conns[idx] = conn;
        self.open += 1;
    }

    /// The slot of connection `conn`, if it is in the room.
    fn slot_of(&self, conn: u64) -> Option<usize> {
        self.conns.iter().position(|&c| c == conn)
    }

    fn on_close(&mut self, conn: u64) {
        let Some(idx) = self.slot_of(conn) else {
            return;
        };
        self.conns[idx] = FREE;
        self.open -= 1;
        let Some(p) = self.slots[idx].take() else {
            return;
        };
        if p.joined {
            self.joined.retain(|&i| i != idx);
            let left = || {
                ServerMessage::from(PlayerLeft {
                    s: p.session,
                    reason: LeaveReason::Closed,
                })
            };
            self.fan_out(left, p.pos, None, None, |_, _| true);
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

    fn drop_input(&mut self, kind: &str, code: &str, len: usize) {
        self.meter_in.record_dropped(len);
        self.stats.record_drop(kind, code);
    }

    fn handle(&mut self, idx: usize, msg: ClientMessage, now: Instant) -> Result<(), Refused> {
        let p = self.slots[idx].as_mut().ok_or("gone")?;
        match msg {
            ClientMessage::SessionHello(h) => {
                if p.hello {
                    return Err("repeated");
                }
                p.hello = true;
                p.guest = h.token.is_none();
                // Protocol revision 1 clients predate the tuple shapes: they get maps.
                p.shape = if h.protocol < 2 {
                    Encoding::Named
                } else {
                    Encoding::Compact
                };
                let welcome = ServerMessage::from(SessionWelcome {
                    s: p.session.clone(),
                    account: (!p.guest).then_some(u64::from(p.gen)),
                    server_time: now_ms(),
                    occupancy: self.open.clamp(1, 40) as u8,
                    resumed: false,
                    motd: None,
                });
                self.send_to(idx, &welcome);
            }
            ClientMessage::PlayerJoin(j) => {
                if !p.hello {
                    return Err("no_hello");
                }
                if p.joined {
                    return Err("repeated");
                }
                self.join(idx, j);
            }
            ClientMessage::DiagPing(ping) => {
                let pong = ServerMessage::from(DiagPong {
                    nonce: ping.nonce,
                    sent: ping.sent,
                    server_time: now_ms(),
                    stats: ping.want_stats.then(|| self.server_stats()),
                });
                self.send_to(idx, &pong);
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
            // The heartbeat feeds idle timers; it is never fanned out.
            ClientMessage::PlayerHeartbeat(_) => {}
            ClientMessage::BirdSubscribe(b) => p.birds = b.on,
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.want_keyframe(),
            ClientMessage::WorldView(v) => p.view_radius = v.radius,
            ClientMessage::ChatSay(c) => {
                self.chat_id += 1;
                let (at, local) = (p.pos, c.channel == Channel::Local);
                let line = ServerMessage::from(ChatLine {
                    id: self.chat_id,
                    from: p.session.clone(),
                    name: p.name.clone(),
                    text: c.text,
                    channel: c.channel,
                    at: now_ms(),
                    reply_to: c.reply_to,
                });
                let config = Arc::clone(&self.config);
                self.fan_out(
                    || line,
                    at,
                    None,
                    None,
                    |d2, _| !local || config.tiers.is_near(d2),
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
                let shown = ServerMessage::from(FishingCastShown {
                    s: p.session.clone(),
                    bobber: c.bobber,
                    water: Water::Pond,
                });
                self.event_to_nearby(idx, shown);
            }
            ClientMessage::FishingReel(r) if r.line == 0.0 => {
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
        p.pos = spawn;
        p.name = if j.name.is_empty() {
            format!("Villager{}", p.gen)
        } else {
            j.name
        };
        p.snapshot.want_keyframe();
        let joined = ServerMessage::from(PlayerJoined {
            s: p.session.clone(),
            name: p.name.clone(),
            colour: j.colour,
            spawn: WorldPos {
                x: spawn[0],
                y: spawn[1],
                z: spawn[2],
            },
            heading: 0.0,
            guest: p.guest,
            outfit: j.outfit,
        });
        let roster = ServerMessage::from(PlayerRoster {
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
        });
        let clock = ServerMessage::from(WorldClock {
            tick: self.tick,
            at: now_ms(),
            rate: self.config.tick_hz.clamp(1, 60) as u8,
        });
        self.send_to(idx, &roster);
        self.send_to(idx, &clock);
        self.fan_out(|| joined, spawn, None, None, |_, _| true);
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
        let mut to = std::mem::take(&mut self.recipients);
        to.clear();
        for &i in &self.joined {
            let Some(v) = self.slots[i].as_mut().filter(|_| Some(i) != skip) else {
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

    fn on_tick(&mut self, scheduled: Instant) {
        self.stats
            .record_tick(Instant::now().saturating_duration_since(scheduled));
        self.tick = self.tick.wrapping_add(1);
        if self.tick.is_multiple_of(self.config.tick_hz.max(1)) {
            self.stats.moves_last_s = std::mem::take(&mut self.stats.moves_this_s);
        }
        if self.open == 0 {
            return;
        }
        self.world.step(self.tick);
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
        for p in slots.iter_mut().flatten().filter(|p| p.joined) {
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
            dropped: Some(s.dropped.clone()),
            unsent: Some(s.unsent),
        }
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

/// Gathers one frame for `p`'s next flush; when `Config::queue` frames are already waiting
/// for it (a stalled client), the frame is counted as unsent instead.
fn push(
    p: &mut Player,
    bytes: Bytes,
    msg: &ServerMessage,
    config: &Config,
    meter: &Meter<ServerMessage>,
    stats: &mut RoomStats,
) {
    if p.queued.load(Ordering::Relaxed) + p.pending.len() >= config.queue {
        stats.unsent += 1;
        return;
    }
    meter.record_out(msg, bytes.len(), 1);
    p.pending.push(bytes);
}

/// Hands the frames gathered for `p` to its connection, which writes them with one flush.
fn flush(p: &mut Player, stats: &mut RoomStats) {
    if p.pending.is_empty() {
        return;
    }
    let frames = std::mem::replace(&mut p.pending, Vec::with_capacity(16));
    let n = frames.len();
    p.queued.fetch_add(n, Ordering::Relaxed);
    match p.tx.try_send(Out::Frames(frames)) {
        Ok(()) => {}
        Err(e) => {
            p.queued.fetch_sub(n, Ordering::Relaxed);
            if let mpsc::error::TrySendError::Full(_) = e {
                stats.unsent += n as u64;
            }
        }
    }
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

/// A 9-character session id (as Colyseus' are) from a connection number.
fn session_id(conn: u64) -> String {
    const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    // A bijective mix, so ids of consecutive connections look unrelated.
    let mut x = conn.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    (0..9)
        .map(|_| {
            let c = ALPHABET[(x % 36) as usize] as char;
            x /= 36;
            c
        })
        .collect()
}
