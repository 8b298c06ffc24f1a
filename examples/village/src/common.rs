//! Records and enums shared by many areas: world positions, item stacks, player references.
//!
//! World coordinates are metres in a map of ±5000 m, heights −100..1000 m; on the wire they
//! are whole centimetres. Headings are radians in ±π; on the wire milliradians.

/// A point in the world. Used where a field-per-axis shape is older than the `p` array.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct WorldPos {
    /// East-west, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub x: f32,
    /// Height above sea level, metres.
    #[tuplet(quant = "cm", range(-100.0, 1000.0))]
    pub y: f32,
    /// North-south, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub z: f32,
}

/// A stack of one item kind, as shown in bags, chests, shops and trades.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct ItemStack {
    /// Item catalogue key (`fish.trout`, `seed.tomato`).
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    /// How many; stacks cap at 999.
    #[tuplet(range(1, 999))]
    pub count: u16,
    /// Quality stars for crafted and cooked goods; absent for plain goods.
    #[tuplet(range(1, 5))]
    pub stars: Option<u8>,
}

/// Another player as the client shows them in lists (friends, parties, trades).
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct PlayerRef {
    /// Colyseus session id (9 characters).
    #[tuplet(len = 9)]
    pub s: String,
    /// Display name.
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
}

/// What a body is moving through; the server rejects moves in the wrong medium.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Medium {
    /// Walking on ground, paths, floors.
    Land = 0,
    /// At the water surface (swimming, boats).
    Water = 1,
    /// Below the surface (diving).
    Underwater = 2,
    /// Airborne (jumps, fireworks rides, the glider before 1.3).
    Air = 3,
}
