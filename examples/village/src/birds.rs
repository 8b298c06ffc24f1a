//! Birdwatching: the bird stream (the biggest downstream cost before it was compacted),
//! sightings and the journal. Ids 130–149.

use std::collections::BTreeMap;

/// Bird species. Open: new species ship server-side first and old clients draw a generic
/// bird.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Species {
    /// House sparrow.
    Sparrow = 1,
    /// Robin.
    Robin = 2,
    /// Pigeon.
    Pigeon = 3,
    /// Herring gull, at the harbour.
    Gull = 4,
    /// Crow.
    Crow = 5,
    /// Grey heron, at the pond.
    Heron = 6,
    /// Barn owl, at night.
    Owl = 7,
    /// Kingfisher, rare.
    Kingfisher = 8,
    /// A species this build does not know.
    #[tuplet(unknown)]
    Unknown(i64),
}

/// What a bird is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum BirdState {
    /// Sitting on a perch.
    Perched = 0,
    /// Hopping on the ground.
    Hopping = 1,
    /// Flapping flight.
    Flying = 2,
    /// Gliding.
    Gliding = 3,
    /// Coming in to land.
    Landing = 4,
    /// Startled, flying away.
    Fleeing = 5,
}

/// One bird. The compact form is the ten-int tuple
/// `[id, species, x, y, z, yaw, pitch, state, flap, scale]`; the named form is the old
/// ten-key object of doubles, so old and new shapes both decode.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
#[tuplet(interp(key = "id"))]
pub struct Bird {
    /// Bird id, stable while it lives.
    #[tuplet(legacy = "birdId")]
    pub id: u16,
    /// Species.
    #[tuplet(legacy = "kind", draw = "hold")]
    pub species: Species,
    /// East-west, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), draw = "linear")]
    pub x: f32,
    /// Height, metres.
    #[tuplet(quant = "cm", range(-100.0, 1000.0), draw = "linear")]
    pub y: f32,
    /// North-south, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0), draw = "linear")]
    pub z: f32,
    /// Heading, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416), legacy = "rotY", draw = "angle")]
    pub yaw: f32,
    /// Nose up/down, radians.
    #[tuplet(quant = "mrad", range(-1.5708, 1.5708), legacy = "rotX", draw = "linear")]
    pub pitch: f32,
    /// What it is doing.
    #[tuplet(legacy = "mode", draw = "hold")]
    pub state: BirdState,
    /// Wing-beat phase, 0..1.
    #[tuplet(
        quant = "permille",
        range(0.0, 1.0),
        legacy = "flapPhase",
        draw = "hold"
    )]
    pub flap: f32,
    /// Size relative to the species model.
    #[tuplet(quant = "percent", range(0.5, 2.0), legacy = "size", draw = "linear")]
    pub scale: f32,
}

/// Every bird within 70 m, five times a second, to signed-in players who subscribed.
/// Guests never get it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(
    name = "birds:stream",
    id = 130,
    dir = "s2c",
    unreliable,
    interp(arrival)
)]
pub struct BirdStream {
    /// The birds, up to 80 (the village has about that many in range).
    #[tuplet(len(max = 80), legacy = "birds")]
    pub b: Vec<Bird>,
}

/// Sent by a client when the birdwatching layer mounts or unmounts its listener.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:subscribe", id = 130, dir = "c2s")]
pub struct BirdSubscribe {
    /// Stream on or off.
    pub on: bool,
}

/// Sent by a client when the player spots a bird through binoculars.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:spot", id = 131, dir = "c2s")]
pub struct BirdSpot {
    /// The bird.
    pub id: u16,
    /// The species the player ticked (scored against the real one).
    pub guess: Species,
    /// Binocular zoom at the time.
    #[tuplet(range(1, 12))]
    pub zoom: u8,
}

/// The player's bird journal, sent on join and after every new sighting.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:journal", id = 131, dir = "s2c")]
pub struct BirdJournal {
    /// Species number to sightings.
    #[tuplet(len(max = 64))]
    pub seen: BTreeMap<u16, u32>,
    /// Species newly added by the last sighting.
    pub new_species: Option<Species>,
}

/// Broadcast to nearby players when something startles a flock (a firework, a water gun).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:scatter", id = 132, dir = "s2c")]
pub struct BirdScatter {
    /// Centre of the startle.
    pub at: crate::common::WorldPos,
    /// Radius, metres.
    #[tuplet(quant = "dm", range(0.0, 100.0))]
    pub radius: f32,
    /// Birds taking off.
    #[tuplet(len(max = 80))]
    pub birds: Vec<u16>,
}
