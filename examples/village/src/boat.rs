//! Rowing boats and the sailing dinghy at the harbour: launching, rowing strokes, sail
//! trim, mooring. Ids 170–189.

/// Sent by a client at a jetty to take out a boat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:launch", id = 170, dir = "c2s")]
pub struct BoatLaunch {
    /// Jetty number.
    #[tuplet(range(1, 12))]
    pub jetty: u8,
    /// Boat model key.
    #[tuplet(len(min = 1, max = 24))]
    pub model: String,
}

/// Broadcast when a boat is put on the water.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:launched", id = 170, dir = "s2c")]
pub struct BoatLaunched {
    /// Entity id of the new boat (it then appears in snapshots).
    pub boat: u32,
    /// Who took it out.
    pub skipper: crate::common::PlayerRef,
    /// Hull tint, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub hull: u32,
}

/// Sent by the rower on each stroke (about once a second).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:stroke", id = 171, dir = "c2s")]
pub struct BoatStroke {
    /// The boat.
    pub boat: u32,
    /// Left oar power, −1 (back-paddle) to 1.
    #[tuplet(quant = "percent", range(-1.0, 1.0))]
    pub left: f32,
    /// Right oar power.
    #[tuplet(quant = "percent", range(-1.0, 1.0))]
    pub right: f32,
}

/// Sent by the dinghy skipper when trimming the sail or moving the tiller.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:trim", id = 172, dir = "c2s")]
pub struct BoatTrim {
    /// The boat.
    pub boat: u32,
    /// Sheet angle, degrees from the centreline.
    #[tuplet(quant = "cdeg", range(-90.0, 90.0))]
    pub sheet: f32,
    /// Tiller angle, degrees.
    #[tuplet(quant = "cdeg", range(-45.0, 45.0))]
    pub tiller: f32,
}

/// Sent to those aboard once a second: wind on the sail and heel, for the sailing HUD.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:sailing", id = 173, dir = "s2c")]
pub struct BoatSailing {
    /// The boat.
    pub boat: u32,
    /// Apparent wind angle, degrees.
    #[tuplet(quant = "ddeg", range(-180.0, 180.0))]
    pub apparent_wind: f32,
    /// Heel, degrees; past 35 the boat capsizes.
    #[tuplet(quant = "ddeg", range(-90.0, 90.0))]
    pub heel: f32,
    /// Speed through water, knots.
    #[tuplet(scale = 10, range(0.0, 20.0))]
    pub knots: f32,
}

/// Sent by the skipper to tie up at a mooring or return the boat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:moor", id = 174, dir = "c2s")]
pub struct BoatMoor {
    /// The boat.
    pub boat: u32,
    /// Mooring buoy, or absent to return it to its jetty.
    pub buoy: Option<u16>,
}

/// Broadcast when a boat capsizes; everyone aboard is put in the water.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "boat:capsized", id = 175, dir = "s2c")]
pub struct BoatCapsized {
    /// The boat.
    pub boat: u32,
    /// Who went overboard.
    #[tuplet(len(max = 4), item_len(min = 9, max = 9))]
    pub overboard: Vec<String>,
}
