//! Teleport points: signposts that fast-travel between unlocked spots, and the summons a
//! party leader can send. Ids 990–1009.

/// Why a teleport was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum TeleportRefusal {
    /// Not unlocked yet.
    Locked = 1,
    /// Cooldown running.
    Cooldown = 2,
    /// In a vehicle, a boat or a mini-game.
    Busy = 3,
    /// Not enough coins for the fare.
    Fare = 4,
}

/// Sent by a client at a signpost choosing a destination.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "teleport:travel", id = 990, dir = "c2s")]
pub struct TeleportTravel {
    /// Destination signpost.
    pub to: u16,
}

/// Sent to the traveller: where it lands (then its moves continue from there), or why not.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "teleport:arrive", id = 990, dir = "s2c")]
pub struct TeleportArrive {
    /// Landing pose, metres; absent when refused.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: Option<[f32; 3]>,
    /// Facing, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub r: f32,
    /// Refusal, when refused.
    pub refused: Option<TeleportRefusal>,
    /// Cooldown until, ms.
    pub cooldown_until: u64,
}

/// Sent on join and when a signpost is discovered: unlocked destinations.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "teleport:unlocked", id = 991, dir = "s2c")]
pub struct TeleportUnlocked {
    /// Signpost id to its name.
    #[tuplet(len(max = 40), item_len(min = 1, max = 32))]
    pub posts: std::collections::BTreeMap<u16, String>,
}
