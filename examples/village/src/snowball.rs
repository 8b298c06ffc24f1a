//! Snowball fights in winter: scooping snow, throws (ballistic, server-checked), hits and
//! snowmen. Ids 1130–1149.

/// Sent by a client throwing a snowball.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "snowball:throw", id = 1130, dir = "c2s")]
pub struct SnowballThrow {
    /// Release point, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub from: [f32; 3],
    /// Launch velocity, m/s, in 1/32 steps.
    #[tuplet(scale = 32, range(-30.0, 30.0), legacy = ["vx", "vy", "vz"])]
    pub vel: [f32; 3],
    /// Thrower's clock, ms.
    pub t: u64,
}

/// Relayed to nearby players, all of them: they simulate the arc.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "snowball:flight", id = 1130, dir = "s2c")]
pub struct SnowballFlight {
    /// Ball id.
    pub ball: u32,
    /// Thrower.
    #[tuplet(len = 9)]
    pub by: String,
    /// Release point, metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub from: [f32; 3],
    /// Launch velocity, m/s.
    #[tuplet(scale = 32, range(-30.0, 30.0))]
    pub vel: [f32; 3],
}

/// Broadcast when a ball hits a player or a snowman.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "snowball:hit", id = 1131, dir = "s2c")]
pub struct SnowballHit {
    /// Ball id.
    pub ball: u32,
    /// Player hit, if a player.
    #[tuplet(len = 9)]
    pub player: Option<String>,
    /// Snowman hit, if a snowman.
    pub snowman: Option<u32>,
    /// Splat offset on the target, mm.
    #[tuplet(range(-1000, 1000))]
    pub splat_mm: [i16; 3],
}

/// Sent by a client rolling a snowman's ball bigger (every 500 ms while pushing).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "snowball:roll", id = 1132, dir = "c2s")]
pub struct SnowballRoll {
    /// Snowman under construction.
    pub snowman: u32,
    /// Push direction, radians.
    #[tuplet(quant = "crad", range(-3.1416, 3.1416))]
    pub dir: f32,
}
