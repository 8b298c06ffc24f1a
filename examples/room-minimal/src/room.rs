//! One room: a single task that owns its players, handles their messages in arrival order
//! and runs the tick (`tick.rs`). No locks: connections reach it through its channel, and
//! it answers through each player's bounded queue.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc::{self, error::TrySendError};
use tuplet::delta::Tracker;
use tuplet::netcode::playout::Playout;
use tuplet::relay::{dist2_xz, Cadence, Tier, Tiers};
use tuplet::silence::Silence;
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding};
use village::common::WorldPos;
use village::diag::DiagPong;
use village::dispatch::{ClientMessage, ServerMessage};
use village::input::InputFrame;
use village::player::{LeaveReason, PlayerJoined, PlayerLeft, PlayerMove, PlayerMoveRelayed};
use village::session::{SessionError, SessionFailed, SessionWelcome};
use village::world::WorldSnapshot;

use crate::stats::Stats;

/// Events queued for a room before connections wait; players in a room.
pub(crate) const EVENTS: usize = 1024;
const CAPACITY: usize = 40;

/// What the room sends a connection: a frame, or a close with the reason.
pub(crate) enum Out {
    Frame(Bytes),
    Close(&'static str),
}

/// What a connection tells its room.
pub(crate) enum Event {
    /// A connection's first frame (its `session:hello`), and its outbound queue.
    Open(u64, mpsc::Sender<Out>, Bytes),
    /// A later frame.
    Input(u64, Bytes),
    Close(u64),
}

/// What the room keeps per player.
pub(crate) struct Player {
    conn: u64,
    tx: mpsc::Sender<Out>,
    /// From `session:welcome`; empty before the hello.
    session: String,
    pub joined: bool,
    pub pos: [f32; 3],
    pub heading: f32,
    /// Its update counter, which all its viewers share (interest tiers).
    cadence: Cadence,
    /// Whether its pose changed since the last report.
    silence: Silence<PlayerMove>,
    /// By slot: whether this viewer has a pose of the player there.
    seen: [bool; CAPACITY],
    /// Its `input:batch` frames, one per 60 Hz step, and the last one acknowledged.
    pub inputs: Playout<InputFrame>,
    pub acked: Option<u32>,
    /// Its `world:snapshot` stream: keyframes, then deltas against what it received.
    pub snapshot: Tracker<WorldSnapshot>,
}

/// One room's state.
pub(crate) struct Room {
    pub slots: Vec<Option<Player>>,
    /// Every update within 40 m, every 3rd within 120 m, every 10th beyond.
    tiers: Tiers,
    pub tick: u32,
    pub stats: Stats,
    sessions: u32,
}

impl Room {
    pub fn new() -> Room {
        let tiers = Tiers::new(&[Tier::new(40.0, 1), Tier::new(120.0, 3)], 10).expect("radii");
        let slots = (0..CAPACITY).map(|_| None).collect();
        Room { slots, tiers, tick: 0, stats: Stats::default(), sessions: 0 }
    }

    /// Runs the room for as long as the server runs.
    pub async fn run(mut self, mut events: mpsc::Receiver<Event>) {
        let mut clock = tokio::time::interval(Duration::from_millis(50));
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Some(ev) => self.on_event(ev),
                    None => return,
                },
                at = clock.tick() => self.on_tick(at.into_std()),
            }
        }
    }

    fn slot_of(&self, conn: u64) -> Option<usize> {
        (self.slots.iter()).position(|s| s.as_ref().is_some_and(|p| p.conn == conn))
    }

    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Open(conn, tx, hello) => {
                let Some(idx) = self.slots.iter().position(Option::is_none) else {
                    let error = SessionError::RoomFull(CAPACITY as u8);
                    let _ = tx.try_send(Out::Frame(envelope(SessionFailed { error, fatal: true })));
                    let _ = tx.try_send(Out::Close("room full"));
                    return;
                };
                self.slots[idx] = Some(Player::new(conn, tx));
                self.on_input(idx, &hello);
                if self.slots[idx].as_ref().is_some_and(|p| p.session.is_empty()) {
                    let p = self.slots[idx].take().expect("this player");
                    let _ = p.tx.try_send(Out::Close("expected session:hello"));
                }
            }
            Event::Input(conn, bytes) => {
                if let Some(idx) = self.slot_of(conn) {
                    self.on_input(idx, &bytes);
                }
            }
            Event::Close(conn) => {
                if let Some(p) = self.slot_of(conn).and_then(|idx| self.slots[idx].take()) {
                    let left = envelope(PlayerLeft { s: p.session, reason: LeaveReason::Closed });
                    self.fan_out(None, p.pos, &left, |_, _, _| true);
                }
            }
        }
    }

    /// Decodes and validates a frame, then dispatches it. Bad input is dropped, counted by
    /// message and error code (`player:move out_of_range`); its sender stays connected.
    fn on_input(&mut self, idx: usize, bytes: &[u8]) {
        let t0 = Instant::now();
        let msg = match ClientMessage::from_envelope(bytes) {
            Ok(msg) => msg,
            Err(e) => return self.stats.dropped(name_of(bytes), e.code().as_str()),
        };
        let (name, is_move) = (msg.name(), matches!(msg, ClientMessage::PlayerMove(_)));
        match self.handle(idx, msg) {
            Err(why) => self.stats.dropped(name, why),
            Ok(()) => {
                self.stats.accepted += 1;
                if is_move {
                    self.stats.moves += 1;
                    Stats::sample(&mut self.stats.move_cost, t0.elapsed());
                }
            }
        }
    }

    /// Typed dispatch: every message of the protocol, with the slot of its sender.
    fn handle(&mut self, idx: usize, msg: ClientMessage) -> Result<(), &'static str> {
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
                self.send(idx, envelope(welcome));
            }
            _ if p.session.is_empty() => return Err("no_hello"),
            // The room's numbers, for anyone: the reference gives them to admins only.
            ClientMessage::DiagPing(ping) => {
                let stats = ping.want_stats.then(|| self.stats.report());
                let (nonce, sent, server_time) = (ping.nonce, ping.sent, now_ms());
                self.send(idx, envelope(DiagPong { nonce, sent, server_time, stats }));
            }
            ClientMessage::DiagBytesRequest(req) if req.reset => self.stats.reset(),
            ClientMessage::PlayerJoin(_) if p.joined => return Err("repeated"),
            // A ring around the square; the name is the session id (the reference server
            // cleans and reserves names).
            ClientMessage::PlayerJoin(j) => {
                let a = idx as f32 * 2.4;
                (p.joined, p.pos) = (true, [8.0 * a.cos(), 0.0, 8.0 * a.sin()]);
                let [x, y, z] = p.pos;
                let joined = envelope(PlayerJoined {
                    s: p.session.clone(),
                    name: p.session.clone(),
                    colour: j.colour,
                    spawn: WorldPos { x, y, z },
                    heading: 0.0,
                    guest: true,
                    outfit: j.outfit,
                });
                for viewer in self.slots.iter_mut().flatten() {
                    viewer.seen[idx] = false;
                }
                self.send(idx, joined.clone());
                self.fan_out(Some(idx), [x, y, z], &joined, |_, _, _| true);
            }
            _ if !p.joined => return Err("not_joined"),
            ClientMessage::PlayerMove(m) => self.on_move(idx, m),
            ClientMessage::InputBatch(b) => p.inputs.push(b.first, &b.frames),
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.request_keyframe(),
            // This room streams no birds.
            ClientMessage::BirdSubscribe(_) => return Err("no_birds"),
            // The rest of the protocol is valid input this example does not act on.
            _ => {}
        }
        Ok(())
    }

    /// Takes a pose (a `player:move`, or one stepped from input frames) and relays it by
    /// interest tier: nothing while it does not change, every update to viewers nearby,
    /// fewer farther away, and the first to a viewer that has none. The reference server
    /// also checks it against the map and a speed limit (`player:correction`).
    pub(crate) fn on_move(&mut self, idx: usize, m: PlayerMove) {
        let Some(p) = self.slots[idx].as_mut() else { return };
        (p.pos, p.heading) = (m.p, m.r);
        let report = p.silence.observe(&PlayerMove { t: 0, seq: None, ..m.clone() });
        if !report.relay() {
            return;
        }
        let (update, forced, s) = (p.cadence.advance(), report.forced(), p.session.clone());
        let PlayerMove { p, r, t, seq, flags } = m;
        let relayed = envelope(PlayerMoveRelayed { s, p, r, t, seq, flags });
        self.fan_out(Some(idx), p, &relayed, |tiers, d2, seen| {
            tiers.should_send(update, d2, seen, forced)
        });
    }

    /// Sends `bytes` to every joined player but `mover` that `want(tiers, d2, seen)`
    /// accepts: `d2` is its squared distance to `at`, `seen` whether it has a pose of
    /// `mover` (which this marks).
    fn fan_out(
        &mut self,
        mover: Option<usize>,
        at: [f32; 3],
        bytes: &Bytes,
        want: impl Fn(&Tiers, f32, bool) -> bool,
    ) {
        for i in 0..CAPACITY {
            let Some(v) = self.slots[i].as_mut().filter(|v| v.joined && mover != Some(i)) else {
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

    /// Queues a frame for slot `idx`. A full queue drops it (counted); as a lost snapshot
    /// breaks the delta chain, the next one is a keyframe.
    pub(crate) fn send(&mut self, idx: usize, bytes: Bytes) {
        if let Some(p) = self.slots[idx].as_mut() {
            // (A closed queue is a connection on its way out: its Close event follows.)
            if let Err(TrySendError::Full(_)) = p.tx.try_send(Out::Frame(bytes)) {
                self.stats.unsent += 1;
                p.snapshot.request_keyframe();
            }
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
            seen: [false; CAPACITY],
            inputs: Playout::new(),
            acked: None,
            snapshot: Tracker::at_rate(20),
        }
    }
}

/// A message as a binary frame: the envelope id, then the compact payload. (The decoders
/// read both shapes; the reference server also answers old clients in theirs.)
pub(crate) fn envelope(msg: impl Into<ServerMessage>) -> Bytes {
    let msg: ServerMessage = msg.into();
    msg.to_envelope(Encoding::Compact).expect("the room builds valid messages").into()
}

/// The name of a frame's message, when its envelope id is one.
fn name_of(frame: &[u8]) -> &'static str {
    let id = Reader::new(frame).read_u64(0, u64::from(u32::MAX));
    let known = ClientMessage::MESSAGES.iter().find(|m| Ok(u64::from(m.1)) == id);
    known.map_or("(unknown)", |m| m.0)
}

pub(crate) fn now_ms() -> u64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH);
    now.map_or(0, |d| d.as_millis() as u64)
}
