//! Fishing: casting, bites, reeling, catches and the record board. A catch is one moment,
//! so it goes to every nearby viewer and to nobody else. Ids 230–249.

/// Where a cast landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Water {
    /// The village pond.
    Pond = 1,
    /// The river.
    River = 2,
    /// Off the harbour wall.
    Harbour = 3,
    /// Open sea from a boat.
    Sea = 4,
}

/// Sent by a client when the player casts.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:cast", id = 230, dir = "c2s")]
pub struct FishingCast {
    /// Where the bobber lands, metres.
    pub bobber: crate::common::WorldPos,
    /// Cast power, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub power: f32,
    /// Bait item key; absent fishes without bait.
    #[tuplet(len(min = 1, max = 32))]
    pub bait: Option<String>,
}

/// Relayed to nearby viewers so they see the line fly.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:cast", id = 230, dir = "s2c")]
pub struct FishingCastShown {
    /// The angler.
    #[tuplet(len = 9)]
    pub s: String,
    /// Where the bobber lands, metres.
    pub bobber: crate::common::WorldPos,
    /// Which water.
    pub water: Water,
}

/// Sent to the angler when a fish bites: it has `window_ms` to strike.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:bite", id = 231, dir = "s2c")]
pub struct FishingBite {
    /// Strike window, ms.
    #[tuplet(range(200, 2000))]
    pub window_ms: u16,
    /// How hard it pulls, 0..1 (a hint, not the species).
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub pull: f32,
}

/// Sent by the angler while reeling, about 5 times a second.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:reel", id = 232, dir = "c2s")]
pub struct FishingReel {
    /// Line tension the client simulates, 0..1; above 1 the line snaps.
    #[tuplet(quant = "permille", range(0.0, 1.2))]
    pub tension: f32,
    /// Line left out, metres.
    #[tuplet(quant = "dm", range(0.0, 60.0))]
    pub line: f32,
}

/// A landed fish, to the angler and to nearby viewers.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:catch", id = 233, dir = "s2c")]
pub struct FishingCatch {
    /// The angler.
    pub angler: crate::common::PlayerRef,
    /// Species key (`fish.trout`).
    #[tuplet(len(min = 1, max = 32))]
    pub fish: String,
    /// Weight, kilograms, to the gram.
    #[tuplet(scale = 1000, range(0.01, 80.0))]
    pub kg: f64,
    /// Length, centimetres.
    #[tuplet(range(2, 250))]
    pub length_cm: u8,
    /// A new personal best.
    pub best: bool,
}

/// Sent to the angler when the fish got away.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:lost", id = 234, dir = "s2c")]
pub struct FishingLost {
    /// Whether the line snapped (and the bait is gone).
    pub snapped: bool,
}

/// The record board by the pond: heaviest fish per species, sent when opened.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fishing:records", id = 235, dir = "s2c")]
pub struct FishingRecords {
    /// Species key to the record.
    #[tuplet(len(max = 40))]
    pub records: std::collections::BTreeMap<String, FishRecord>,
}

/// One record on the board.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct FishRecord {
    /// Holder's name.
    #[tuplet(len(min = 1, max = 24))]
    pub holder: String,
    /// Weight, kilograms, to the gram.
    #[tuplet(scale = 1000, range(0.01, 80.0))]
    pub kg: f64,
    /// When, ms.
    pub at: u64,
}
