//! Kickball on the village green: the ball is server-simulated; players kick it. Ids
//! 510–529.

/// Sent by a player kicking the ball (the server checks reach and cooldown).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "kickball:kick", id = 510, dir = "c2s")]
pub struct KickballKick {
    /// Kick direction, radians.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub dir: f32,
    /// Loft, radians above horizontal.
    #[tuplet(quant = "mrad", range(0.0, 1.2))]
    pub loft: f32,
    /// Power, 0..1 (held charge).
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub power: f32,
    /// Kicker's clock, ms, for lag compensation.
    pub t: u64,
}

/// The ball's state, 20 times a second while in play, to everyone on the green.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "kickball:ball", id = 510, dir = "s2c", budget = 40)]
pub struct KickballBall {
    /// Server tick.
    pub tick: u32,
    /// Position, metres (the green is ±60 m around its centre), to the millimetre.
    #[tuplet(quant = "mm", range(-60.0, 60.0))]
    pub pos: [f32; 3],
    /// Velocity, m/s, in 1/16 steps.
    #[tuplet(scale = 16, range(-40.0, 40.0))]
    pub vel: [f32; 3],
    /// Last to touch it.
    pub touched_by: Option<u8>,
}

/// Broadcast when a goal is scored.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "kickball:goal", id = 511, dir = "s2c")]
pub struct KickballGoal {
    /// Team that scored (0 red, 1 blue).
    #[tuplet(range(0, 1))]
    pub team: u8,
    /// Scorer's player number in the round.
    pub scorer: u8,
    /// Score (red, blue).
    pub score: [u8; 2],
    /// Shot speed, km/h.
    #[tuplet(quant = "dm", range(0.0, 200.0))]
    pub kmh: f32,
}

/// Sent by a client choosing a team before kickoff.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "kickball:team", id = 512, dir = "c2s")]
pub struct KickballTeam {
    /// 0 red, 1 blue.
    #[tuplet(range(0, 1))]
    pub team: u8,
}
