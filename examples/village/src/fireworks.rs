//! Fireworks: launching from the pier on festival nights, shells, the show schedule. Ids
//! 630–649.

/// Shell shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Shell {
    /// Round peony.
    Peony = 1,
    /// Willow that drips down.
    Willow = 2,
    /// Ring.
    Ring = 3,
    /// Heart.
    Heart = 4,
    /// Crackling strobe.
    Strobe = 5,
}

/// Sent by a client lighting a firework from its backpack.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fireworks:launch", id = 630, dir = "c2s")]
pub struct FireworksLaunch {
    /// Backpack slot of the rocket.
    #[tuplet(range(0, 47))]
    pub slot: u8,
    /// Tilt from vertical, degrees.
    #[tuplet(quant = "cdeg", range(0.0, 30.0))]
    pub tilt: f32,
    /// Direction of the tilt, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub bearing: f32,
}

/// One burst in the sky.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Burst {
    /// Shape.
    pub shell: Shell,
    /// Colours, 0xRRGGBB, one to three.
    #[tuplet(len(min = 1, max = 3), range(0, 0xFFFFFF))]
    pub colours: Vec<u32>,
    /// Burst point, metres.
    pub at: crate::common::WorldPos,
    /// Delay after the launch message, ms.
    pub delay_ms: u16,
    /// Radius, metres.
    #[tuplet(quant = "dm", range(1.0, 80.0))]
    pub radius: f32,
}

/// Broadcast to everyone who can see the sky over the pier: one launch with its bursts.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fireworks:show", id = 630, dir = "s2c")]
pub struct FireworksShow {
    /// Launched by, absent for the scheduled show.
    #[tuplet(len = 9)]
    pub by: Option<String>,
    /// Bursts (a cake fires many).
    #[tuplet(len(min = 1, max = 36))]
    pub bursts: Vec<Burst>,
    /// Seed for sparks, shared so every screen shows the same sky.
    pub seed: u32,
}

/// Sent on join on festival days: when the scheduled shows start.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fireworks:schedule", id = 631, dir = "s2c")]
pub struct FireworksSchedule {
    /// Start times, ms.
    #[tuplet(len(max = 6))]
    pub shows: Vec<u64>,
    /// Where to watch from, as a map marker id.
    pub viewpoint: Option<u32>,
}

/// Broadcast when a rocket misfires (a dud still costs the rocket).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "fireworks:dud", id = 632, dir = "s2c")]
pub struct FireworksDud {
    /// Who launched it.
    #[tuplet(len = 9)]
    pub by: String,
    /// Whether it tipped over and fizzled on the ground.
    pub tipped: bool,
}
