//! Settings sync: account-level preferences that follow a player between devices. Ids
//! 750–769.

use std::collections::BTreeMap;

/// Accessibility and comfort toggles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u32", open)]
pub struct Comfort {
    /// Reduce camera shake and flashes.
    #[tuplet(bit = 0)]
    pub reduced_motion: bool,
    /// Larger UI text.
    #[tuplet(bit = 1)]
    pub large_text: bool,
    /// Colour-blind palette.
    #[tuplet(bit = 2)]
    pub colourblind: bool,
    /// Subtitles for NPC voice.
    #[tuplet(bit = 3)]
    pub subtitles: bool,
    /// Hide other players' name tags.
    #[tuplet(bit = 4)]
    pub hide_names: bool,
    /// Toggle sprint instead of hold.
    #[tuplet(bit = 5)]
    pub toggle_sprint: bool,
    /// Bits from newer clients, kept so they survive a round trip through this one.
    #[tuplet(rest)]
    pub rest: u32,
}

/// The synced preferences.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Prefs {
    /// Comfort toggles.
    pub comfort: Comfort,
    /// Mouse sensitivity multiplier.
    #[tuplet(range(0.1, 5.0))]
    pub sensitivity: f32,
    /// Key rebinding: action to key code.
    #[tuplet(len(max = 64), item_len(min = 1, max = 16))]
    pub keys: BTreeMap<String, String>,
    /// UI language, overriding the browser's.
    #[tuplet(len(min = 2, max = 12))]
    pub locale: Option<String>,
}

/// Sent by a client when the player changes a setting (debounced 1 s).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "settings:save", id = 750, dir = "c2s")]
pub struct SettingsSave {
    /// The preferences.
    pub prefs: Prefs,
    /// Revision the client edited; stale saves are refused.
    pub rev: u32,
}

/// The settings as stored, sent on join and after a save from another device.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "settings:sync", id = 750, dir = "s2c")]
pub struct SettingsSync {
    /// Stored revision.
    pub rev: u32,
    /// The preferences.
    pub prefs: Prefs,
    /// Device that saved last.
    #[tuplet(len(max = 32))]
    pub device: String,
    /// Saved at, ms.
    pub saved: u64,
}

/// Sent to a client whose save lost a race with another device.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "settings:conflict", id = 751, dir = "s2c")]
pub struct SettingsConflict {
    /// Revision the client tried to save over.
    pub tried: u32,
    /// Current revision (a `settings:sync` follows).
    pub current: u32,
}
