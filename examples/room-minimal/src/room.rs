//! The room: its players and their messages, handled one at a time under the room's lock.
//! It answers through each player's bounded queue and never waits on a client.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use tokio::sync::mpsc::{error::TrySendError, Sender};
use tokio::sync::Mutex;
use tuplet::delta::Tracker;
use tuplet::netcode::playout::Playout;
use tuplet::relay::{dist2_xz, Cadence, Tier, Tiers};
use tuplet::wire::Reader;
use tuplet::{Dispatch, Encoding, Message};
use village::common::WorldPos;
use village::diag::DiagPong;
use village::dispatch::{ClientMessage, ServerMessage};
use village::input::InputFrame;
use village::player::{LeaveReason, PlayerJoined, PlayerLeft, PlayerMove, PlayerMoveRelayed};
use village::session::{SessionError, SessionFailed, SessionHello, SessionWelcome};
use village::walk::Body;
use village::world::WorldSnapshot;

use crate::stats::Stats;

const CAPACITY: usize = 40;

/// The room, shared by its connections and its tick: each locks it for one message or tick.
pub(crate) type Shared = Arc<Mutex<Room>>;

/// What the room keeps per player.
pub(crate) struct Player {
    tx: Sender<Bytes>,
    session: String,
    pub joined: bool,
    pub body: Body,
    /// Its update counter, which all its viewers share (interest tiers).
    cadence: Cadence,
    /// By slot: whether this viewer has a pose of the player there.
    seen: [bool; CAPACITY],
    /// Its `input:batch` frames, one per 60 Hz step.
    pub inputs: Playout<InputFrame>,
    /// Its `world:snapshot` stream: keyframes, then deltas against what it received.
    pub snapshot: Tracker<WorldSnapshot>,
}

pub(crate) struct Room {
    pub slots: Vec<Option<Player>>,
    /// Every update within 40 m, every 3rd within 120 m, every 10th beyond.
    tiers: Tiers,
    pub tick: u32,
    pub stats: Stats,
}

impl Room {
    pub fn new() -> Room {
        let tiers = Tiers::new(&[Tier::new(40.0, 1), Tier::new(120.0, 3)], 10).expect("radii");
        let slots = (0..CAPACITY).map(|_| None).collect();
        Room { slots, tiers, tick: 0, stats: Stats::default() }
    }

    /// Seats a connection whose first frame is `hello`, with `tx` its queue, and welcomes
    /// it as a guest (the reference server checks a signed token here). Refuses it, with
    /// the reason to close with, when the frame is not a `session:hello` or the room is full.
    pub fn open(&mut self, tx: Sender<Bytes>, hello: &[u8]) -> Result<usize, &'static str> {
        let Ok(ClientMessage::SessionHello(_)) = ClientMessage::from_envelope(hello) else {
            return Err("expected session:hello");
        };
        let Some(idx) = self.slots.iter().position(Option::is_none) else {
            let error = SessionError::RoomFull(CAPACITY as u8);
            let _ = tx.try_send(envelope(SessionFailed { error, fatal: true }));
            return Err("room full");
        };
        // A session id of 9 characters, unique among the players in the room.
        let session = format!("m{idx:08}");
        let welcome = SessionWelcome {
            s: session.clone(),
            account: None,
            server_time: now_ms(),
            occupancy: self.slots.iter().flatten().count() as u8 + 1,
            resumed: false,
            motd: None,
            resume_token: None,
        };
        self.slots[idx] = Some(Player {
            tx,
            session,
            joined: false,
            body: Body::default(),
            cadence: Cadence::default(),
            seen: [false; CAPACITY],
            inputs: Playout::new(),
            snapshot: Tracker::at_rate(20),
        });
        self.send(idx, envelope(welcome));
        self.stats.accept(SessionHello::NAME);
        Ok(idx)
    }

    /// Frees slot `idx` and tells everyone its player left.
    pub fn close(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].take() else { return };
        for viewer in self.slots.iter_mut().flatten() {
            viewer.seen[idx] = false;
        }
        self.broadcast(envelope(PlayerLeft { s: p.session, reason: LeaveReason::Closed }));
    }

    /// Decodes and validates a frame from slot `idx`, then dispatches it. Bad input is
    /// dropped and counted by message and error code (`player:move out_of_range`).
    pub fn on_input(&mut self, idx: usize, frame: &[u8]) {
        let msg = match ClientMessage::from_envelope(frame) {
            Ok(msg) => msg,
            Err(e) => return self.stats.reject(name_of(frame), e.code().as_str()),
        };
        let name = msg.name();
        match self.handle(idx, msg) {
            Ok(()) => self.stats.accept(name),
            Err(why) => self.stats.reject(name, why),
        }
    }

    /// Typed dispatch: every message of the protocol, with the slot of its sender.
    fn handle(&mut self, idx: usize, msg: ClientMessage) -> Result<(), &'static str> {
        let p = self.slots[idx].as_mut().ok_or("gone")?;
        match msg {
            ClientMessage::SessionHello(_) => return Err("repeated"),
            // The room's numbers, for anyone: the reference gives them to admins only.
            ClientMessage::DiagPing(ping) => {
                let stats = ping.want_stats.then(|| self.stats.report());
                let (nonce, sent, server_time) = (ping.nonce, ping.sent, now_ms());
                self.send(idx, envelope(DiagPong { nonce, sent, server_time, stats }));
            }
            ClientMessage::DiagBytesRequest(req) if req.reset => self.stats.tick_late.clear(),
            ClientMessage::PlayerJoin(_) if p.joined => return Err("repeated"),
            // A spawn on a ring around the square, told to everyone. The name is the session
            // id: the reference server cleans and reserves names.
            ClientMessage::PlayerJoin(join) => {
                let a = idx as f32 * 2.4;
                (p.joined, p.body.pos) = (true, [8.0 * a.cos(), 0.0, 8.0 * a.sin()]);
                let [x, y, z] = p.body.pos;
                let joined = PlayerJoined {
                    s: p.session.clone(),
                    name: p.session.clone(),
                    colour: join.colour,
                    spawn: WorldPos { x, y, z },
                    heading: 0.0,
                    guest: true,
                    outfit: join.outfit,
                };
                self.broadcast(envelope(joined));
            }
            _ if !p.joined => return Err("not_joined"),
            ClientMessage::PlayerMove(m) => self.on_move(idx, m),
            ClientMessage::InputBatch(b) => p.inputs.push(b.first, &b.frames),
            ClientMessage::WorldKeyframeRequest(_) => p.snapshot.request_keyframe(),
            ClientMessage::BirdSubscribe(_) => return Err("no_birds"),
            // The rest of the protocol is valid input this example does not act on.
            _ => {}
        }
        Ok(())
    }

    /// Takes a pose (a `player:move`, or one stepped from input frames) and relays it by
    /// interest tier: every update to viewers nearby, fewer farther away, and the first to
    /// a viewer that has none. The reference server also checks it against the map and a
    /// speed limit, and sends a resting pose to all (`tuplet::silence`).
    pub fn on_move(&mut self, idx: usize, m: PlayerMove) {
        let Some(p) = self.slots[idx].as_mut() else { return };
        p.body = Body { pos: m.p, heading: m.r };
        let update = p.cadence.advance();
        let PlayerMove { p: at, r, t, seq, flags } = m;
        let s = p.session.clone();
        let relayed = envelope(PlayerMoveRelayed { s, p: at, r, t, seq, flags });
        for i in (0..CAPACITY).filter(|&i| i != idx) {
            let Some(v) = self.slots[i].as_mut().filter(|v| v.joined) else { continue };
            if self.tiers.should_send(update, dist2_xz(v.body.pos, at), v.seen[idx], false) {
                v.seen[idx] = true;
                self.send(i, relayed.clone());
            }
        }
    }

    fn broadcast(&mut self, frame: Bytes) {
        for i in 0..CAPACITY {
            if self.slots[i].as_ref().is_some_and(|p| p.joined) {
                self.send(i, frame.clone());
            }
        }
    }

    /// Queues a frame for slot `idx`, never waiting. A full queue drops it (counted); as a
    /// lost snapshot breaks the delta chain, the next one is a keyframe.
    pub fn send(&mut self, idx: usize, frame: Bytes) {
        let Some(p) = self.slots[idx].as_mut() else { return };
        // (A closed queue is a connection on its way out: it closes its slot next.)
        if let Err(TrySendError::Full(_)) = p.tx.try_send(frame) {
            self.stats.unsent += 1;
            p.snapshot.request_keyframe();
        }
    }
}

/// A message as a binary frame: the envelope id, then the compact payload.
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
