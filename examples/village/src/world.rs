//! The nearby-entity snapshot: NPCs, pets and vehicles within view, sent every server tick
//! as deltas against what this client last received, with a keyframe every 5 s. Ids
//! 110–129.

/// What kind of thing an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum EntityKind {
    /// A villager or shopkeeper.
    Npc = 1,
    /// Someone's pet.
    Pet = 2,
    /// A car, cart or bicycle.
    Vehicle = 3,
    /// A boat.
    Boat = 4,
    /// A horse.
    Horse = 5,
    /// The ferry.
    Ferry = 6,
}

/// One entity in view. Keyed by `id`: the delta encoder sends new entities whole and only
/// the changed fields of the rest.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
#[tuplet(entity(key = "id"), interp)]
pub struct NearbyEntity {
    /// Stable entity id.
    pub id: u32,
    /// What it is.
    #[tuplet(draw = "hold")]
    pub kind: EntityKind,
    /// Position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), draw = "linear")]
    pub pos: [f32; 3],
    /// Heading, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), draw = "angle")]
    pub heading: f32,
    /// Ground speed, m/s, in 1/64 steps.
    #[tuplet(scale = 64, range(0.0, 60.0), draw = "linear")]
    pub speed: f32,
    /// Animation clip index.
    #[tuplet(draw = "hold")]
    pub anim: u8,
    /// Owner (pets, parked vehicles).
    #[tuplet(len = 9)]
    pub owner: Option<String>,
    /// Name tag, when it has one.
    #[tuplet(len(max = 24))]
    pub label: Option<String>,
}

/// Sent to each client every server tick (20 Hz): the entities near it, up to 50.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:snapshot", id = 110, dir = "s2c", delta, unreliable)]
#[tuplet(interp(tick = "tick", rate = 20))]
pub struct WorldSnapshot {
    /// Server tick.
    pub tick: u32,
    /// True on a keyframe (every 5 s, or on request): every entity in view, whole.
    pub keyframe: bool,
    /// Entities in view.
    #[tuplet(len(max = 50))]
    pub entities: Vec<NearbyEntity>,
    /// Entities that left view since the last snapshot.
    #[tuplet(len(max = 64))]
    pub gone: Vec<u32>,
}

/// Sent by a client whose rebuilt entity list no longer matches (a decode error, a gap
/// after a tab sleep): asks for a keyframe on the next tick.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:keyframe", id = 110, dir = "c2s")]
pub struct WorldKeyframeRequest {
    /// Last tick the client applied.
    pub last_tick: u32,
}

/// Sent by a WebTransport client for each `world:snapshot` its mirror applies: the number
/// of the newest snapshot it holds (its mirror's `ack`). The server deltas the
/// next snapshots against it (deltas against acknowledged baselines). A WebSocket client
/// sends none: its snapshots are deltas against what was last sent.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:ack", id = 112, dir = "c2s", budget = 8, unreliable)]
pub struct WorldAck {
    /// The newest snapshot number the client's mirror applied.
    pub n: u32,
}

/// Sent by a client when its graphics preset changes its view distance; the server sizes
/// the snapshot to it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:view", id = 111, dir = "c2s")]
pub struct WorldView {
    /// Radius within which entities are wanted, metres (fog is total by ~380 m).
    #[tuplet(quant = "dm", range(50.0, 400.0))]
    pub radius: f32,
}

/// Sent when the server's clock and tick rate are (re)announced: on join and after a
/// hiccup, so the client's render clock can slew (at most 5%) instead of jumping.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:clock", id = 112, dir = "s2c")]
pub struct WorldClock {
    /// Tick number now.
    pub tick: u32,
    /// Server time at that tick, ms.
    pub at: u64,
    /// Ticks per second.
    #[tuplet(range(1, 60))]
    pub rate: u8,
}
