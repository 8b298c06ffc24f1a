//! Zones: named areas of the map (the square, the harbour, the woods), entering and
//! leaving them, music and rules per zone. Ids 1170–1189.

/// Rules a zone imposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u64", reserved = [1])]
pub struct ZoneRules {
    /// No water guns or snowballs.
    #[tuplet(bit = 0)]
    pub no_throwing: bool,
    /// No vehicles.
    #[tuplet(bit = 2)]
    pub no_vehicles: bool,
    /// Quiet zone (library): local chat only.
    #[tuplet(bit = 3)]
    pub quiet: bool,
    /// Voice chat off.
    #[tuplet(bit = 4)]
    pub no_voice: bool,
    /// Part of a mini-game arena.
    #[tuplet(bit = 40)]
    pub arena: bool,
}

/// Sent to a player crossing into a zone.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "zones:enter", id = 1170, dir = "s2c")]
pub struct ZonesEnter {
    /// Zone id.
    pub zone: u16,
    /// Name to flash on screen.
    #[tuplet(len(min = 1, max = 32))]
    pub name: String,
    /// Rules.
    pub rules: ZoneRules,
    /// Ambient track.
    #[tuplet(len(max = 40))]
    pub ambience: Option<String>,
    /// Players in the zone now.
    pub population: u8,
}

/// Zone populations for the map overlay, every 10 s while the map is open.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "zones:heat", id = 1171, dir = "s2c")]
pub struct ZonesHeat {
    /// Zone id to players there.
    #[tuplet(len(max = 64))]
    pub counts: std::collections::BTreeMap<u16, u8>,
}

/// Sent by a client opening or closing the map (the heat stream runs only while open).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "zones:map", id = 1171, dir = "c2s")]
pub struct ZonesMap {
    /// Map open.
    pub open: bool,
}
