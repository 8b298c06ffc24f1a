//! Emotes and the emote wheel: playing an emote, configuring the wheel, paired emotes
//! (high five, dance together). An emote is a moment: it goes to every nearby viewer.
//! Ids 570–589.

/// Built-in emotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [7])]
pub enum Emote {
    /// Wave.
    Wave = 1,
    /// Clap.
    Clap = 2,
    /// Laugh.
    Laugh = 3,
    /// Dance.
    Dance = 4,
    /// Sit on the ground.
    SitGround = 5,
    /// Point ahead.
    Point = 6,
    /// Shrug.
    Shrug = 8,
    /// Bow.
    Bow = 9,
    /// Cry.
    Cry = 10,
}

/// Sent by a client playing an emote from the wheel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:emote", id = 570, dir = "c2s")]
pub struct EmotePlay {
    /// The emote.
    pub emote: Emote,
    /// Loop until the player moves.
    pub looping: bool,
}

/// Relayed to nearby viewers.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:emote", id = 570, dir = "s2c")]
pub struct EmoteShown {
    /// Who.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub s: String,
    /// The emote.
    pub emote: Emote,
    /// Looping.
    pub looping: bool,
    /// Start time on the server clock, ms (keeps dances in step).
    pub at: u64,
}

/// Sent by a client saving its eight-slot emote wheel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "emote:wheel", id = 571, dir = "c2s")]
pub struct EmoteWheel {
    /// Emote in each slot, clockwise from the top.
    pub slots: [Emote; 8],
}

/// Sent by a client offering a paired emote to the player in front of it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "emote:pair", id = 572, dir = "c2s")]
pub struct EmotePairOffer {
    /// Partner.
    #[tuplet(len = 9)]
    pub partner: String,
    /// Paired emote key (`highfive`, `waltz`, `hug`).
    #[tuplet(len(min = 1, max = 16))]
    pub pair: String,
}

/// Sent to both partners when a paired emote starts; they are snapped face to face.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "emote:paired", id = 572, dir = "s2c")]
pub struct EmotePaired {
    /// The two partners: initiator first.
    #[tuplet(item_len(min = 9, max = 9))]
    pub partners: [String; 2],
    /// Paired emote key.
    #[tuplet(len(min = 1, max = 16))]
    pub pair: String,
    /// Meeting point (x, z), metres.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub at: [f32; 2],
}

/// Emotes unlocked beyond the built-ins, on join and when one is earned.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "emote:unlocked", id = 573, dir = "s2c")]
pub struct EmoteUnlocked {
    /// Extra emote keys.
    #[tuplet(len(max = 64), item_len(min = 1, max = 24))]
    pub keys: Vec<String>,
}
