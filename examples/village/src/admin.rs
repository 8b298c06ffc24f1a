//! Admin tools: room-wide announcements, teleporting players, spawning, maintenance mode,
//! live config. Only staff sessions may send these. Ids 530–549.

/// Something an admin can do to a player.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum AdminAction {
    /// Kick out of the room.
    #[tuplet(tag = 1)]
    Kick,
    /// Ban for a number of hours; absent is permanent.
    #[tuplet(tag = 2)]
    Ban {
        /// Hours.
        hours: Option<u32>,
        /// Reason shown to the player.
        #[tuplet(len(min = 1, max = 200))]
        reason: String,
    },
    /// Move them to a point.
    #[tuplet(tag = 3)]
    Summon(crate::common::WorldPos),
    /// Freeze in place.
    #[tuplet(tag = 4)]
    Freeze,
    /// Reset their saved position to the square.
    #[tuplet(tag = 5)]
    ResetPosition,
    /// Grant coins (negative to take).
    #[tuplet(tag = 6)]
    Grant(i32),
}

/// Sent by an admin client acting on one player.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:act", id = 530, dir = "c2s")]
pub struct AdminAct {
    /// Target session.
    #[tuplet(len = 9)]
    pub target: String,
    /// What to do.
    pub action: AdminAction,
    /// Internal note for the audit log.
    #[tuplet(len(max = 500))]
    pub note: String,
}

/// Sent back to the admin: what happened.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:result", id = 530, dir = "s2c")]
pub struct AdminResult {
    /// Audit log entry id.
    #[tuplet(bigint)]
    pub audit: u64,
    /// Whether it took effect.
    pub ok: bool,
    /// Error text otherwise.
    #[tuplet(len(max = 200))]
    pub error: Option<String>,
}

/// Sent by an admin to put the room into maintenance (new joins refused, a banner shown).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:maintenance", id = 531, dir = "c2s")]
pub struct AdminMaintenance {
    /// On or off.
    pub on: bool,
    /// Minutes until the restart, for the banner.
    #[tuplet(range(0, 120))]
    pub restart_in_min: Option<u8>,
}

/// Sent by an admin changing a live tuning value (`interest.far_stride`, `coins.wave_size`).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:config", id = 532, dir = "c2s")]
pub struct AdminConfig {
    /// Config key.
    #[tuplet(len(min = 1, max = 64))]
    pub key: String,
    /// New value (the server parses it by the key's type).
    pub value: f64,
}

/// The live config table, sent to admins when their panel opens or a value changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:config", id = 532, dir = "s2c")]
pub struct AdminConfigTable {
    /// Key to value.
    #[tuplet(len(max = 200))]
    pub values: std::collections::BTreeMap<String, f64>,
    /// Build of the server.
    #[tuplet(len(max = 32))]
    pub build: String,
}

/// Sent by an admin spawning an NPC, vehicle or item at their feet.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "admin:spawn", id = 533, dir = "c2s")]
pub struct AdminSpawn {
    /// Prefab key.
    #[tuplet(len(min = 1, max = 48))]
    pub prefab: String,
    /// How many.
    #[tuplet(range(1, 50))]
    pub count: u8,
    /// Random seed for variation; absent picks one.
    #[tuplet(bigint)]
    pub seed: Option<u64>,
}
