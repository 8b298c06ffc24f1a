//! Achievements: unlocks, progress toward counted ones, the showcase. Ids 710–729.

use std::collections::BTreeMap;

/// Achievement tiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Tier {
    /// Bronze.
    Bronze = 1,
    /// Silver.
    Silver = 2,
    /// Gold.
    Gold = 3,
    /// Hidden achievements, revealed on unlock.
    Secret = 4,
}

/// Sent to the player (and as a system chat line to the room) when one unlocks.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "achievement:unlocked", id = 710, dir = "s2c")]
pub struct AchievementUnlocked {
    /// Key.
    #[tuplet(len(min = 1, max = 32))]
    pub key: String,
    /// Tier.
    pub tier: Tier,
    /// Share of players who have it, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub rarity: f32,
    /// Points added to the account.
    pub points: u16,
}

/// Counted progress (walk 100 km, catch 500 fish), on join and every 10% step.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "achievement:progress", id = 711, dir = "s2c")]
pub struct AchievementProgress {
    /// Key to (done, goal).
    #[tuplet(len(max = 128))]
    pub counters: BTreeMap<String, [u32; 2]>,
}

/// Sent by a client opening the achievements page.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "achievement:list", id = 712, dir = "c2s")]
pub struct AchievementListOpen {
    /// Include locked ones (hidden stay hidden).
    pub locked: bool,
}

/// The achievements page.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "achievement:list", id = 712, dir = "s2c")]
pub struct AchievementList {
    /// Unlocked key to unlock time, ms.
    #[tuplet(len(max = 256))]
    pub unlocked: BTreeMap<String, u64>,
    /// Locked keys, when asked for.
    #[tuplet(len(max = 256), item_len(min = 1, max = 32))]
    pub locked: Vec<String>,
    /// Total points.
    pub points: u32,
}

/// Sent by a client choosing the six achievements on its profile card.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "achievement:showcase", id = 713, dir = "c2s")]
pub struct AchievementShowcase {
    /// Keys, in order.
    #[tuplet(len(max = 6), item_len(min = 1, max = 32))]
    pub keys: Vec<String>,
}
