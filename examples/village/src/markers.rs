//! Map markers: the player's own pins on the world map, shared pins, server points of
//! interest. Ids 970–989.

/// Marker icons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Icon {
    /// A plain pin.
    Pin = 0,
    /// A star.
    Star = 1,
    /// A fishing spot.
    Fish = 2,
    /// A bird spot.
    Bird = 3,
    /// Treasure.
    Chest = 4,
    /// A house.
    Home = 5,
}

/// One marker.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Marker {
    /// Marker id.
    pub id: u32,
    /// Map position (x, z), metres, to the decimetre.
    #[tuplet(quant = "dm", range(-5000.0, 5000.0), legacy = ["mx", "mz"])]
    pub at: [f32; 2],
    /// Icon.
    pub icon: Icon,
    /// Label.
    #[tuplet(len(max = 32))]
    pub label: String,
    /// Tint, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub tint: u32,
}

/// Sent by a client placing or editing one of its pins (id 0 for a new one).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "markers:put", id = 970, dir = "c2s")]
pub struct MarkersPut {
    /// The pin.
    pub marker: Marker,
    /// Share with the party.
    pub share: bool,
}

/// Sent by a client removing a pin.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "markers:remove", id = 971, dir = "c2s")]
pub struct MarkersRemove {
    /// Pin ids.
    #[tuplet(len(min = 1, max = 100))]
    pub ids: Vec<u32>,
}

/// The player's pins, shared pins and the server's points of interest: on join and when
/// they change.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "markers:all", id = 970, dir = "s2c")]
pub struct MarkersAll {
    /// Own pins (100 at most).
    #[tuplet(len(max = 100))]
    pub own: Vec<Marker>,
    /// Pins shared by party members, by sharer's session.
    #[tuplet(len(max = 8))]
    pub shared: std::collections::BTreeMap<String, Vec<Marker>>,
    /// Points of interest (shops, jetties, the stable).
    #[tuplet(len(max = 64))]
    pub poi: Vec<Marker>,
}
