//! Swimming and diving: entering water, breath, surfacing, diving for shells. Ids 210–229.

use crate::common::Medium;

/// Sent to the swimmer when it crosses the water surface either way.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:medium", id = 210, dir = "s2c")]
pub struct SwimMedium {
    /// The medium the player is now in.
    pub now: Medium,
    /// Water temperature there, °C (cold water drains stamina).
    #[tuplet(range(-2, 40))]
    pub water_c: i8,
}

/// Sent by a diver four times a second while underwater; the server owns the breath timer.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:dive", id = 211, dir = "c2s")]
pub struct SwimDive {
    /// Depth below the surface, metres.
    #[tuplet(quant = "cm", range(0.0, 40.0))]
    pub depth: f32,
    /// Swimming down (true) or up.
    pub descending: bool,
}

/// Sent to the diver when breath runs low and when it runs out.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:breath", id = 211, dir = "s2c")]
pub struct SwimBreath {
    /// Breath left, as a fraction.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub left: f32,
    /// Out of breath: the player is pushed to the surface.
    pub gasp: bool,
}

/// Sent by a diver picking something off the sea bed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:pickup", id = 212, dir = "c2s")]
pub struct SwimPickup {
    /// Sea-bed object id.
    pub object: u32,
}

/// What the diver found.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:found", id = 212, dir = "s2c")]
pub struct SwimFound {
    /// The object, now gone for everyone.
    pub object: u32,
    /// What went into the bag; absent when the bag was full.
    pub stack: Option<crate::common::ItemStack>,
}

/// Broadcast when someone splashes into water from a height (jetty jumps).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "swim:splash", id = 213, dir = "s2c")]
pub struct SwimSplash {
    /// Who.
    #[tuplet(len = 9)]
    pub s: String,
    /// Where, metres (x, z; the splash is at the surface).
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), legacy = ["x", "z"])]
    pub at: [f32; 2],
    /// Fall height, metres: bigger fall, bigger splash.
    #[tuplet(quant = "dm", range(0.0, 50.0))]
    pub fall: f32,
}
