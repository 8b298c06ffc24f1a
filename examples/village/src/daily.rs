//! Daily rewards: the login streak calendar and claiming. Ids 890–909.

/// Sent on join when today's reward is unclaimed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daily:offer", id = 890, dir = "s2c")]
pub struct DailyOffer {
    /// Streak length, days (resets after a missed day).
    #[tuplet(range(1, 365))]
    pub streak: u16,
    /// The 7-day strip of rewards, today first.
    pub week: [crate::common::ItemStack; 7],
    /// Resets at, ms (server midnight).
    pub resets: u64,
}

/// Sent by a client claiming today's reward.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daily:claim", id = 891, dir = "c2s")]
pub struct DailyClaim {
    /// Streak day the client showed, so a claim across midnight is not double-paid.
    #[tuplet(range(1, 365))]
    pub day: u16,
}

/// The result of a claim.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "daily:claimed", id = 891, dir = "s2c")]
pub struct DailyClaimed {
    /// What was granted; empty if already claimed today.
    #[tuplet(len(max = 3))]
    pub granted: Vec<crate::common::ItemStack>,
    /// Bonus multiplier from the streak.
    #[tuplet(quant = "dm", range(1.0, 3.0))]
    pub multiplier: f32,
}
