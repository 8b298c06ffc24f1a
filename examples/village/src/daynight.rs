//! Day and night: the game clock (one game day is 48 real minutes), sun and moon, street
//! lamps. Ids 310–329.

/// Broadcast every game hour and on join: the game clock, so clients run it locally.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daynight:clock", id = 310, dir = "s2c")]
pub struct DayClock {
    /// Game day number since the world opened.
    pub day: u32,
    /// Minutes into the game day.
    #[tuplet(range(0, 1439))]
    pub minute: u16,
    /// Real ms per game minute (2000 normally; events may slow it).
    #[tuplet(range(100, 60000))]
    pub ms_per_minute: u16,
    /// Sun elevation, degrees.
    #[tuplet(quant = "cdeg", range(-90.0, 90.0))]
    pub sun_elevation: f32,
    /// Sun azimuth, degrees.
    #[tuplet(quant = "cdeg", range(-180.0, 180.0))]
    pub sun_azimuth: f32,
}

/// Moon phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum MoonPhase {
    /// New moon.
    New = 0,
    /// Waxing crescent.
    WaxingCrescent = 1,
    /// First quarter.
    FirstQuarter = 2,
    /// Waxing gibbous.
    WaxingGibbous = 3,
    /// Full moon (owls and the night market).
    Full = 4,
    /// Waning gibbous.
    WaningGibbous = 5,
    /// Last quarter.
    LastQuarter = 6,
    /// Waning crescent.
    WaningCrescent = 7,
}

/// Broadcast at dusk: the night's moon and whether the night market opens.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daynight:dusk", id = 311, dir = "s2c")]
pub struct DayDusk {
    /// Tonight's phase.
    pub moon: MoonPhase,
    /// Night market tonight.
    pub market: bool,
    /// Fraction of the sky with stars visible (clouds hide them).
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub stars: f32,
}

/// Sent to nearby players when street lamps switch (the lamplighter NPC walks the rounds).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daynight:lamps", id = 312, dir = "s2c")]
pub struct DayLamps {
    /// Lamp prop ids.
    #[tuplet(len(min = 1, max = 200))]
    pub lamps: Vec<u32>,
    /// On or off.
    pub lit: bool,
}

/// Sent by a client with a bed in its house to skip the night (all housemates must agree).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daynight:sleep", id = 313, dir = "c2s")]
pub struct DaySleep {
    /// Bed prop id.
    pub bed: u32,
}
