//! Water guns in summer: spraying, hits, refills and soaked players. Ids 250–269.

/// Sent by a client while the trigger is held, at most 10 times a second.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:spray", id = 250, dir = "c2s")]
pub struct WatergunSpray {
    /// Nozzle position, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub from: [f32; 3],
    /// Aim yaw, radians.
    #[tuplet(quant = "crad", range(-3.1416, 3.1416))]
    pub yaw: f32,
    /// Aim pitch, radians.
    #[tuplet(quant = "crad", range(-1.5708, 1.5708))]
    pub pitch: f32,
    /// Pump pressure, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub pressure: f32,
}

/// Relayed to nearby viewers, all of them, every time: a spray is a moment.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:spray", id = 250, dir = "s2c")]
pub struct WatergunSprayShown {
    /// Who sprays.
    #[tuplet(len = 9)]
    pub s: String,
    /// Aim as (yaw, pitch), radians.
    #[tuplet(quant = "crad", range(-3.1416, 3.1416))]
    pub aim: [f32; 2],
    /// Jet length, metres, from the pressure.
    #[tuplet(quant = "dm", range(0.0, 15.0))]
    pub reach: f32,
}

/// Sent to the shooter and the target when a spray hits someone.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:hit", id = 251, dir = "s2c")]
pub struct WatergunHit {
    /// Shooter.
    #[tuplet(len = 9)]
    pub by: String,
    /// Target.
    #[tuplet(len = 9)]
    pub target: String,
    /// How wet the target is now, 0..1 (1 is soaked: slowed for 5 s).
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub wetness: f32,
}

/// Sent by a client refilling at a fountain or the sea.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:refill", id = 252, dir = "c2s")]
pub struct WatergunRefill {
    /// Fountain prop id; absent when refilling from open water.
    pub fountain: Option<u32>,
}

/// The tank level after a refill or an empty trigger pull.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "watergun:tank", id = 252, dir = "s2c")]
pub struct WatergunTank {
    /// Millilitres left.
    #[tuplet(range(0, 2000))]
    pub ml: u16,
    /// Tank size, ml (upgrades raise it).
    #[tuplet(range(250, 2000))]
    pub capacity: u16,
}
