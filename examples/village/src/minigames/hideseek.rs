//! Hide and seek: roles, the seeker's count, tagging, hints. Ids 490–509.

/// A participant's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Role {
    /// Counting, then seeking.
    Seeker = 1,
    /// Hiding.
    Hider = 2,
    /// Found; now helps seek.
    Found = 3,
    /// Watching.
    Spectator = 4,
}

/// Sent to each participant at the start: their role and the play area.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "hideseek:role", id = 490, dir = "s2c")]
pub struct HideSeekRole {
    /// Round id.
    pub round: u32,
    /// This player's role.
    pub role: Role,
    /// Play area centre (x, z), metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub centre: [f32; 2],
    /// Play area radius, metres.
    #[tuplet(range(20, 400))]
    pub radius_m: u16,
    /// Seconds hiders have before seeking starts.
    #[tuplet(range(10, 120))]
    pub hide_s: u8,
}

/// Sent by a seeker who believes they found someone (must be within 2 m and in sight).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "hideseek:tag", id = 491, dir = "c2s")]
pub struct HideSeekTag {
    /// Round id.
    pub round: u32,
    /// The hider found.
    #[tuplet(len = 9)]
    pub hider: String,
}

/// Broadcast to participants when a hider is found.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "hideseek:found", id = 491, dir = "s2c")]
pub struct HideSeekFound {
    /// Who was found.
    pub hider: crate::common::PlayerRef,
    /// Who found them.
    #[tuplet(len = 9)]
    pub by: String,
    /// Hiders still hidden.
    pub left: u8,
}

/// Sent to seekers every 30 s after the first two minutes: a warmer/colder hint.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "hideseek:hint", id = 492, dir = "s2c")]
pub struct HideSeekHint {
    /// Bearing to the nearest hider, degrees, blurred by ±20.
    #[tuplet(quant = "ddeg", range(0.0, 360.0))]
    pub bearing: f32,
    /// Rough distance band: 0 near, 1 medium, 2 far.
    #[tuplet(range(0, 2))]
    pub band: u8,
}

/// Sent by a hider who gets bored and makes a noise (bonus points, reveals a ripple).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "hideseek:taunt", id = 493, dir = "c2s")]
pub struct HideSeekTaunt {
    /// Sound index.
    #[tuplet(range(0, 7))]
    pub sound: u8,
}
