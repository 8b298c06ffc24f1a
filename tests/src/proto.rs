//! A small two-direction protocol (24 messages) for dispatch, envelope and meter tests.

use crate::kinds::{MoveFlags, Pose, Species};

/// Client: join the room once, with a display name and colour.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:join", id = 1, dir = "c2s")]
pub struct Join {
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    #[tuplet(range(0, 0xFFFFFF))]
    pub colour: u32,
}

/// Client: a move sample, 10 Hz.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 2, dir = "c2s", budget = 32)]
pub struct Move {
    pub pose: Pose,
    pub t: u64,
    pub seq: Option<u32>,
    pub flags: Option<MoveFlags>,
}

/// Client: heartbeat, 2 Hz.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:heartbeat", id = 3, dir = "c2s")]
pub struct Heartbeat {
    pub t: u64,
}

/// Client: chat line.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:send", id = 4, dir = "c2s")]
pub struct ChatSend {
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    pub channel: u8,
}

/// Client: emote.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:emote", id = 5, dir = "c2s")]
pub struct Emote {
    #[tuplet(range(0, 31))]
    pub emote: u8,
}

/// Client: cast a fishing line.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:cast", id = 6, dir = "c2s")]
pub struct Cast {
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub target: [f32; 2],
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub power: f32,
}

/// Client: sit on a bench.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "bench:sit", id = 7, dir = "c2s")]
pub struct Sit {
    pub bench: u16,
    pub seat: u8,
}

/// Client: spray the water gun.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:spray", id = 8, dir = "c2s")]
pub struct Spray {
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub yaw: f32,
    #[tuplet(quant = "mrad", range(-1.5708, 1.5708))]
    pub pitch: f32,
}

/// Client: pick up a coin.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coin:pickup", id = 9, dir = "c2s")]
pub struct Pickup {
    pub coin: u32,
}

/// Client: ping with its own clock.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:ping", id = 10, dir = "both")]
pub struct Ping {
    pub t: u64,
}

/// Client: report a player.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mod:report", id = 11, dir = "c2s")]
pub struct Report {
    #[tuplet(len = 9)]
    pub session: String,
    #[tuplet(len(max = 500))]
    pub reason: String,
}

/// Client: buy from a shop.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:buy", id = 12, dir = "c2s")]
pub struct Buy {
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    #[tuplet(range(1, 99))]
    pub count: u8,
}

/// Server: a player's move relayed to everyone in range.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 2, dir = "s2c")]
pub struct Moved {
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    pub pose: Pose,
    pub t: u64,
}

/// Server: someone joined.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:joined", id = 1, dir = "s2c")]
pub struct Joined {
    #[tuplet(len = 9)]
    pub s: String,
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    pub colour: u32,
}

/// Server: someone left.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:left", id = 3, dir = "s2c")]
pub struct Left {
    #[tuplet(len = 9)]
    pub s: String,
}

/// Server: a chat line from someone.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:message", id = 4, dir = "s2c")]
pub struct ChatMessage {
    #[tuplet(len = 9)]
    pub from: String,
    #[tuplet(len(max = 280))]
    pub text: String,
    pub at: u64,
}

/// Server: correction of the sender's own position.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:correct", id = 5, dir = "s2c")]
pub struct Correct {
    pub pose: Pose,
    pub seq: u32,
}

/// Server: one bird in the stream.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Bird {
    pub id: u16,
    pub species: Species,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: [f32; 3],
}

/// Server: the bird stream, 5 Hz.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:update", id = 6, dir = "s2c")]
pub struct Birds {
    #[tuplet(len(max = 80))]
    pub birds: Vec<Bird>,
}

/// Server: the weather changed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "weather:set", id = 7, dir = "s2c")]
pub struct WeatherSet {
    pub weather: crate::kinds::Weather,
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub intensity: f32,
}

/// Server: a coin spawned.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coin:spawn", id = 8, dir = "s2c")]
pub struct CoinSpawn {
    pub coin: u32,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: [f32; 3],
}

/// Server: pong with the loop lag.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:pong", id = 11, dir = "s2c")]
pub struct Pong {
    pub t: u64,
    #[tuplet(quant = "percent", range(0.0, 100.0))]
    pub lag_ms: f32,
}

/// Server: an error for the session.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "session:error", id = 12, dir = "s2c")]
pub struct SessionError {
    pub code: u16,
    #[tuplet(len(max = 120))]
    pub detail: Option<String>,
}

/// Everything a client sends.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_ids = [40], reserved_names = ["player:teleport"])]
pub enum ClientMsg {
    Join(Join),
    Move(Move),
    Heartbeat(Heartbeat),
    ChatSend(ChatSend),
    Emote(Emote),
    Cast(Cast),
    Sit(Sit),
    Spray(Spray),
    Pickup(Pickup),
    Ping(Ping),
    Report(Report),
    Buy(Buy),
}

/// Everything the server sends.
#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
pub enum ServerMsg {
    Joined(Joined),
    Moved(Moved),
    Left(Left),
    ChatMessage(ChatMessage),
    Correct(Correct),
    Birds(Birds),
    WeatherSet(WeatherSet),
    CoinSpawn(CoinSpawn),
    Ping(Ping),
    Pong(Pong),
    SessionError(SessionError),
}
