//! Housing: plots, entering a house, placing furniture (positions inside a house in mm),
//! visitors and the doorbell. Ids 410–429.

/// Who may enter a house.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Visitors {
    /// Nobody but the owner.
    Locked = 0,
    /// Friends.
    Friends = 1,
    /// Party members and friends.
    Party = 2,
    /// Everyone.
    Open = 3,
}

/// A piece of furniture as placed.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Furniture {
    /// Placement id within the house.
    pub id: u16,
    /// Catalogue key.
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    /// Offset from the room origin, metres, to the millimetre.
    #[tuplet(quant = "mm", range(-20.0, 20.0), legacy = ["ox", "oy", "oz"])]
    pub offset: [f32; 3],
    /// Rotation about the vertical, radians.
    #[tuplet(quant = "crad", range(-3.1416, 3.1416))]
    pub rot: f32,
    /// Floor: −1 for the cellar.
    #[tuplet(range(-1, 3))]
    pub floor: i8,
    /// Dye, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub dye: Option<u32>,
}

/// Sent to a player entering a house: the layout.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:interior", id = 410, dir = "s2c")]
pub struct HousingInterior {
    /// Plot number.
    pub plot: u16,
    /// Owner.
    pub owner: crate::common::PlayerRef,
    /// Furniture placed.
    #[tuplet(len(max = 300))]
    pub furniture: Vec<Furniture>,
    /// Wallpaper per room index.
    #[tuplet(len(max = 12), item_len(max = 32))]
    pub wallpaper: std::collections::BTreeMap<u8, String>,
    /// Who may enter.
    pub visitors: Visitors,
}

/// Sent by the owner placing or moving a piece.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:place", id = 411, dir = "c2s")]
pub struct HousingPlace {
    /// The piece; `id` 0 places a new one from the backpack.
    pub piece: Furniture,
    /// Backpack slot, when placing a new piece.
    #[tuplet(range(0, 47))]
    pub from_slot: Option<u8>,
}

/// Sent to everyone inside when a piece is placed, moved or removed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:changed", id = 411, dir = "s2c")]
pub struct HousingChanged {
    /// The placed or moved piece.
    pub placed: Option<Furniture>,
    /// Ids of removed pieces.
    #[tuplet(len(max = 16))]
    pub removed: Vec<u16>,
}

/// Sent by the owner putting a piece back in the backpack.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:pickup", id = 412, dir = "c2s")]
pub struct HousingPickup {
    /// Placement id.
    pub id: u16,
}

/// Sent by the owner changing who may visit.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:visitors", id = 413, dir = "c2s")]
pub struct HousingVisitors {
    /// New policy.
    pub visitors: Visitors,
}

/// Sent by a visitor ringing the doorbell; delivered to the owner wherever they are.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:doorbell", id = 414, dir = "c2s")]
pub struct HousingDoorbell {
    /// Plot rung.
    pub plot: u16,
}

/// Delivered to the owner when someone rings.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "housing:doorbell", id = 414, dir = "s2c")]
pub struct HousingDoorbellRung {
    /// Who is at the door.
    pub visitor: crate::common::PlayerRef,
    /// Plot.
    pub plot: u16,
}
