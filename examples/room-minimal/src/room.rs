//! One room: a single task that owns every player's state, handles their messages in
//! arrival order and runs the tick (`tick.rs`). No locks: connections talk to it through
//! its channel, and it answers through each player's bounded queue.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc;
use tokio::time::{interval, MissedTickBehavior};
use tuplet::delta::Tracker;
use tuplet::netcode::playout::Playout;
use tuplet::relay::{dist2_xz, Cadence, Tier, Tiers};
use tuplet::silence::Silence;
use tuplet::{Dispatch, Encoding};
use village::chat::ChatLine;
use village::common::WorldPos;
use village::diag::DiagPong;
use village::dispatch::{ClientMessage, ServerMessage};
use village::input::InputFrame;
use village::player::{LeaveReason, PlayerJoin, PlayerJoined, PlayerLeft, PlayerMove};
use village::player::{PlayerMoveRelayed, PlayerRoster, RosterEntry};
use village::session::{SessionError, SessionFailed, SessionWelcome};

use crate::conn::Out;
use crate::stats::Stats;

/// Events queued for a room before connections wait.
pub(crate) const EVENTS: usize = 1024;
/// Players in a room.
pub(crate) const CAPACITY: usize = 40;
/// The tick: 20 Hz.
pub(crate) const TICK: Duration = Duration::from_millis(50);

/// What a connection tells its room.
pub(crate) enum Event {
    /// A connection's first frame (its `session:hello`), and its outbound queue.
    Open {
        conn: u64,
        tx: mpsc::Sender<Out>,
        hello: Bytes,
    },
    /// Any later frame.
    Input { conn: u64, bytes: Bytes },
    /// The connection ended.
    Close { conn: u64 },
}

/// What the room keeps per player.
pub(crate) struct Player {
    conn: u64,
    tx: mpsc::Sender<Out>,
    /// Given by `session:welcome`; empty before the hello.
    pub session: String,
    pub joined: bool,
    pub pos: [f32; 3],
    pub heading: f32,
    /// This player's update counter, shared by all its viewers (interest tiers).
    cadence: Cadence,
    /// Whether its pose changed since the last report.
    silence: Silence<PlayerMove>,
    /// By slot: whether this viewer has a pose of the player there.
    seen: Vec<bool>,
    /// Its `input:batch` frames, played out one per 60 Hz step.
    pub inputs: Playout<InputFrame>,
    /// The last input frame acknowledged.
    pub acked: Option<u32>,
    /// Its `world:snapshot` stream: keyframes and deltas against what it last received.
    pub snapshot: Tracker<village::world::WorldSnapshot>,
    /// How far it sees, metres (`world:view`).
    pub view: f32,
}

/// One room's state.
pub(crate) struct Room {
    name: String,
    rooms: crate::Rooms,
    pub slots: Vec<Option<Player>>,
    /// Every update nearby, every 3rd within 120 m, every 10th beyond.
    tiers: Tiers,
    pub tick: u32,
    pub stats: Stats,
    /// Session ids and chat lines handed out.
    sessions: u32,
    chats: u32,
}

/// Why a valid message was not acted on (counted with the drops).
type Refused = &'static str;

impl Room {
    pub fn new(name: String, rooms: crate::Rooms) -> Room {
        let near = [Tier::new(40.0, 1), Tier::new(120.0, 3)];
        Room {
            name,
            rooms,
            slots: (0..CAPACITY).map(|_| None).collect(),
            tiers: Tiers::new(&near, 10).expect("tiers by increasing radius"),
            tick: 0,
            stats: Stats::new(),
            sessions: 0,
            chats: 0,
        }
    }

    /// Runs the room until it is empty and no connection holds its channel.
    pub async fn run(mut self, mut events: mpsc::Receiver<Event>) {
        let mut clock = interval(TICK);
        clock.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) => self.on_event(ev),
                    None => return,
                },
                at = clock.tick() => {
                    self.on_tick(at.into_std());
                    if self.slots.iter().all(Option::is_none) && self.close_if_unused() {
                        return;
                    }
                }
            }
        }
    }

    /// Leaves the registry when only its entry holds a sender (senders are cloned under
    /// the same lock, so no connection can be on its way in).
    fn close_if_unused(&self) -> bool {
        let Ok(mut rooms) = self.rooms.lock() else {
            return true;
        };
        let unused = rooms
            .get(&self.name)
            .is_some_and(|tx| tx.strong_count() == 1);
        if unused {
            rooms.remove(&self.name);
        }
        unused
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Open { conn, tx, hello } => {
                let Some(idx) = self.slots.iter().position(Option::is_none) else {
                    let full = SessionError::RoomFull(CAPACITY as u8);
                    let msg = SessionFailed {
                        error: full,
                        fatal: true,
                    };
                    let _ = tx.try_send(Out::Frame(envelope(&msg.into())));
                    let _ = tx.try_send(Out::Close("room full"));
                    return;
                };
                self.slots[idx] = Some(Player::new(conn, tx));
                self.on_input(idx, &hello);
                if self.slots[idx]
                    .as_ref()
                    .is_some_and(|p| p.session.is_empty())
                {
                    self.close(idx, "expected session:hello");
                }
            }
            Event::Input { conn, bytes } => {
                if let Some(idx) = self.slot_of(conn) {
                    self.on_input(idx, &bytes);
                }
            }
            Event::Close { conn } => {
                if let Some(idx) = self.slot_of(conn) {
                    self.leave(idx);
                }
            }
        }
    }

    fn slot_of(&self, conn: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.conn == conn))
    }

    /// Decodes and validates a frame, then dispatches it. Bad input is dropped, counted by
    /// message type and error code (`player:move out_of_range`), and its sender stays.
    fn on_input(&mut self, idx: usize, bytes: &[u8]) {
        let t0 = Instant::now();
        let msg = match ClientMessage::from_envelope(bytes) {
            Ok(msg) => msg,
            Err(e) => return self.stats.dropped(bytes, e.code().as_str()),
        };
        self.stats.meter_in.record_in(&msg, bytes.len());
        let (name, is_move) = (msg.name(), matches!(msg, ClientMessage::PlayerMove(_)));
        match self.handle(idx, msg) {
            Ok(()) => self.stats.accepted(is_move.then(|| t0.elapsed())),
            Err(code) => self.stats.refused(name, code),
        }
    }

    /// Typed dispatch: every message of the protocol, with the slot of its sender.
    fn handle(&mut self, idx: usize, msg: ClientMessage) -> Result<(), Refused> {
        let p = self.slots[idx].as_mut().ok_or("gone")?;
        match msg {
            ClientMessage::SessionHello(_) if !p.session.is_empty() => return Err("repeated"),
            // Every player is a guest: the reference server checks a signed token here.
            ClientMessage::SessionHello(_) => {
                self.sessions += 1;
                p.session = format!("m{:08x}", self.sessions);
                let welcome = SessionWelcome {
                    s: p.session.clone(),
                    account: None,
                    server_time: now_ms(),
                    occupancy: self.slots.iter().flatten().count() as u8,
                    resumed: false,
                    motd: None,
                    resume_token: None,
                };
                self.send(idx, envelope(&welcome.into()));
            }
            _ if p.session.is_empty() => return Err("no_hello"),
            // The room's numbers, for anyone: the reference gives them to admins only.
            ClientMessage::DiagPing(ping) => {
                let pong = DiagPong {
                    nonce: ping.nonce,
                    sent: ping.sent,
                    server_time: now_ms(),
                    stats: ping.want_stats.then(|| self.stats.report()),
                };
                self.send(idx, envelope(&pong.into()));
            }
            ClientMessage::DiagBytesRequest(req) => {
                let bytes = self.stats.bytes();
                self.send(idx, envelope(&bytes.into()));
                if req.reset {
                    self.stats.reset();
                }
            }
            ClientMessage::PlayerJoin(_) if p.joined => return Err("repeated"),
            ClientMessage::PlayerJoin(j) => self.join(idx, j),
            _ if !p.joined => return Err("not_joined"),
            ClientMessage::PlayerMove(m) => self.on_move(idx, m),
            ClientMessage::InputBatch(b) => p.inputs.push(b.first, &b.frames),
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.request_keyframe(),
            ClientMessage::WorldView(v) => p.view = v.radius,
            ClientMessage::ChatSay(c) => {
                self.chats += 1;
                let line = ChatLine {
                    id: self.chats,
                    from: p.session.clone(),
                    name: p.session.clone(),
                    text: c.text,
                    channel: c.channel,
                    at: now_ms(),
                    reply_to: c.reply_to,
                    guest: Some(true),
                };
                let (at, bytes) = (p.pos, envelope(&line.into()));
                self.fan_out(None, at, &bytes, |tiers, d2, _| tiers.is_near(d2));
            }
            // This room streams no birds.
            ClientMessage::BirdSubscribe(_) => return Err("no_birds"),
            // The rest of the protocol is valid input this example does not act on.
            _ => {}
        }
        Ok(())
    }

    /// Places the player, tells everyone (the player too), and sends it the roster. Its
    /// name is its session id: the reference server cleans and reserves names (`names.rs`).
    fn join(&mut self, idx: usize, j: PlayerJoin) {
        let a = idx as f32 * 2.4; // the golden angle: an even ring around the square
        let spawn = [8.0 * a.cos(), 0.0, 8.0 * a.sin()];
        let roster = PlayerRoster {
            players: (self.slots.iter().flatten())
                .filter(|o| o.joined)
                .map(|o| RosterEntry {
                    s: o.session.clone(),
                    name: o.session.clone(),
                    colour: 0x88aa66,
                    p: o.pos,
                    vehicle: None,
                    guest: true,
                })
                .collect(),
        };
        for viewer in self.slots.iter_mut().flatten() {
            viewer.seen[idx] = false;
        }
        let p = self.slots[idx].as_mut().expect("joining player");
        (p.joined, p.pos) = (true, spawn);
        let joined = PlayerJoined {
            s: p.session.clone(),
            name: p.session.clone(),
            colour: j.colour,
            spawn: WorldPos {
                x: spawn[0],
                y: spawn[1],
                z: spawn[2],
            },
            heading: 0.0,
            guest: true,
            outfit: j.outfit,
        };
        let joined = envelope(&joined.into());
        self.send(idx, joined.clone());
        self.send(idx, envelope(&roster.into()));
        self.fan_out(Some(idx), spawn, &joined, |_, _, _| true);
    }

    /// Takes a pose (a `player:move`, or one that input playout stepped) and relays it by
    /// interest tier: nothing while it does not change, every update to viewers nearby,
    /// fewer farther away, and the first to a viewer that has none. The reference server
    /// also checks it against the map and a speed limit, answering `player:correction`.
    pub(crate) fn on_move(&mut self, idx: usize, m: PlayerMove) {
        let Some(p) = self.slots[idx].as_mut() else {
            return;
        };
        (p.pos, p.heading) = (m.p, m.r);
        let report = p.silence.observe(&PlayerMove {
            t: 0,
            seq: None,
            ..m.clone()
        });
        if !report.relay() {
            return;
        }
        let (update, forced) = (p.cadence.advance(), report.forced());
        let relayed = PlayerMoveRelayed {
            s: p.session.clone(),
            p: m.p,
            r: m.r,
            t: m.t,
            seq: m.seq,
            flags: m.flags,
        };
        let bytes = envelope(&relayed.into());
        self.fan_out(Some(idx), m.p, &bytes, |tiers, d2, seen| {
            tiers.should_send(update, d2, seen, forced)
        });
    }

    /// Sends `bytes` to every joined player that `want(tiers, d2, seen)` accepts, where
    /// `d2` is its squared distance to `at` and `seen` whether it has a pose of `mover`
    /// (which this marks). The mover itself gets nothing.
    fn fan_out(
        &mut self,
        mover: Option<usize>,
        at: [f32; 3],
        bytes: &Bytes,
        want: impl Fn(&Tiers, f32, bool) -> bool,
    ) {
        for i in 0..self.slots.len() {
            let Some(v) = self.slots[i]
                .as_mut()
                .filter(|v| v.joined && mover != Some(i))
            else {
                continue;
            };
            let seen = mover.is_some_and(|m| v.seen[m]);
            if want(&self.tiers, dist2_xz(v.pos, at), seen) {
                if let Some(m) = mover {
                    v.seen[m] = true;
                }
                self.send(i, bytes.clone());
            }
        }
    }

    /// Queues a frame for slot `idx`; a full queue drops it (counted). A snapshot frame
    /// lost that way breaks the delta chain: the next snapshot is a keyframe.
    pub(crate) fn send(&mut self, idx: usize, bytes: Bytes) {
        let Some(p) = self.slots[idx].as_mut() else {
            return;
        };
        if p.tx.try_send(Out::Frame(bytes.clone())).is_err() {
            self.stats.unsent += 1;
            p.snapshot.request_keyframe();
        } else {
            self.stats.sent(&bytes);
        }
    }

    fn close(&mut self, idx: usize, why: &'static str) {
        if let Some(p) = self.slots[idx].take() {
            let _ = p.tx.try_send(Out::Close(why));
        }
    }

    fn leave(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].take() else {
            return;
        };
        if p.joined {
            let left = PlayerLeft {
                s: p.session,
                reason: LeaveReason::Closed,
            };
            self.fan_out(None, p.pos, &envelope(&left.into()), |_, _, _| true);
        }
    }
}

impl Player {
    fn new(conn: u64, tx: mpsc::Sender<Out>) -> Player {
        Player {
            conn,
            tx,
            session: String::new(),
            joined: false,
            pos: [0.0; 3],
            heading: 0.0,
            cadence: Cadence::default(),
            silence: Silence::new(),
            seen: vec![false; CAPACITY],
            inputs: Playout::new(),
            acked: None,
            snapshot: Tracker::at_rate(20),
            view: 150.0,
        }
    }
}

/// A message as a binary frame: its envelope id, then the compact payload. (The derived
/// decoders read both shapes; the reference server also answers old clients in theirs.)
pub(crate) fn envelope(msg: &ServerMessage) -> Bytes {
    msg.to_envelope(Encoding::Compact)
        .expect("the server builds valid messages")
        .into()
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
