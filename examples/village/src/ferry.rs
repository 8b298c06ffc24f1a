//! The ferry to the island: timetable, boarding, the crossing. The ferry itself appears in
//! `world:snapshot`. Ids 1110–1129.

/// A ferry stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Pier {
    /// Village harbour.
    Harbour = 1,
    /// Lighthouse island.
    Island = 2,
    /// The fishing rock (summer only).
    Rock = 3,
}

/// The timetable, when a player opens it at a pier.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "ferry:timetable", id = 1110, dir = "s2c")]
pub struct FerryTimetable {
    /// Departures from this pier, ms, with their destination.
    #[tuplet(len(max = 12))]
    pub departures: Vec<Departure>,
    /// Fare, coins.
    pub fare: u16,
}

/// One departure.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Departure {
    /// Leaves at, ms.
    pub at: u64,
    /// Going to.
    pub to: Pier,
    /// Seats left.
    pub seats: u8,
}

/// Sent by a client boarding at a pier (fare paid on boarding).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "ferry:board", id = 1110, dir = "c2s")]
pub struct FerryBoard {
    /// Pier boarded at.
    pub pier: Pier,
}

/// Sent to those aboard during the crossing, every 5 s: progress for the HUD.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "ferry:crossing", id = 1111, dir = "s2c")]
pub struct FerryCrossing {
    /// Heading for.
    pub to: Pier,
    /// Progress, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub progress: f32,
    /// Arrival, ms.
    pub eta: u64,
    /// Swell, metres of wave height.
    #[tuplet(quant = "dm", range(0.0, 5.0))]
    pub swell: f32,
}
