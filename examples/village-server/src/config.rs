//! What a server is told: where to listen, room size, relay tiers, caps, map bounds and the
//! simulated world. `Config::default()` is what `cargo run -p village-server` uses.

use std::net::SocketAddr;
use std::time::Duration;

use tuplet::relay::Tiers;

/// Server settings. Every field has a default fit for the village.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen; loopback by default.
    pub addr: SocketAddr,
    /// Players per room (a room is one task; add rooms, not players, to scale).
    pub room_capacity: usize,
    /// Distance tiers of the move relay; the first tier is "nearby" for one-off events.
    pub tiers: Tiers,
    /// Server ticks per second (entity snapshots go out every tick).
    pub tick_hz: u32,
    /// A keyframe snapshot every this many ticks (and on request).
    pub keyframe_every: u32,
    /// The bird stream every this many ticks (4 at 20 Hz: 5 times a second).
    pub birds_every: u32,
    /// Largest binary frame handled, bytes; bigger ones are dropped and counted.
    pub frame_cap: usize,
    /// Frames above this are a protocol error that closes the connection (a frame this big
    /// is no client of ours): the WebSocket library's own limit, above `frame_cap`.
    pub hard_frame_cap: usize,
    /// Sustained messages per second a client may send; more are dropped and counted.
    pub rate_per_s: f64,
    /// Burst allowance on top of the rate, messages.
    pub rate_burst: f64,
    /// The walkable map: a move outside it is corrected.
    pub map_min: [f32; 3],
    /// The walkable map's far corner.
    pub map_max: [f32; 3],
    /// Fastest a player may move, m/s; faster moves are corrected.
    pub max_speed: f32,
    /// How much unused movement a player may bank, seconds at `max_speed` (absorbs jitter:
    /// two moves arriving together are fine, a teleport is not).
    pub speed_bank_s: f32,
    /// Spawn points by join order within a room (cycled); empty: around the village square.
    pub spawns: Vec<[f32; 3]>,
    /// Birds in the village (80 in the seed game).
    pub birds: u16,
    /// Birds within this radius of a subscriber are streamed to it, metres.
    pub bird_radius: f32,
    /// Simulated NPCs walking around the square (the entity snapshot's content).
    pub npcs: u32,
    /// Default snapshot view radius, metres (a client changes it with `world:view`).
    pub view_radius: f32,
    /// Frames queued per client before sends are counted as unsent (a stalled client must
    /// not grow the server's memory).
    pub queue: usize,
    /// Gather each client's relayed frames (moves, events, chat, joins) and write them once
    /// per tick with its snapshot: one socket write per client per tick instead of one per
    /// relayed message, for up to one tick (50 ms) more relay latency. Direct answers
    /// (welcome, pong, correction, diagnostics) are written at once, after whatever was
    /// gathered before them, so order is kept. False: every frame is written as soon as it
    /// is handled.
    pub flush_per_tick: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 7878)),
            room_capacity: 40,
            tiers: Tiers::default(),
            tick_hz: 20,
            keyframe_every: 100,
            birds_every: 4,
            frame_cap: 4096,
            hard_frame_cap: 64 * 1024,
            rate_per_s: 40.0,
            rate_burst: 80.0,
            map_min: [-2000.0, -50.0, -2000.0],
            map_max: [2000.0, 500.0, 2000.0],
            max_speed: 12.0,
            speed_bank_s: 1.0,
            spawns: Vec::new(),
            birds: 80,
            bird_radius: 70.0,
            npcs: 24,
            view_radius: 120.0,
            queue: 1024,
            flush_per_tick: true,
        }
    }
}

impl Config {
    /// The tick period.
    pub fn tick(&self) -> Duration {
        Duration::from_secs_f64(1.0 / f64::from(self.tick_hz.max(1)))
    }
}
