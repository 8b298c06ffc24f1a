//! NPC dialogue: talking to villagers, choices, moods and gifts. Ids 370–389.

/// An NPC's mood toward the player, shown by the portrait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Mood {
    /// Grumpy.
    Cross = -1,
    /// Neutral.
    Neutral = 0,
    /// Pleased.
    Happy = 1,
    /// Delighted (a loved gift).
    Delighted = 2,
}

/// Sent by a client pressing E on an NPC.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:talk", id = 370, dir = "c2s")]
pub struct NpcTalk {
    /// The NPC's entity id.
    pub npc: u32,
}

/// One line of dialogue with the choices offered after it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:line", id = 370, dir = "s2c")]
pub struct NpcLine {
    /// The NPC speaking.
    pub npc: u32,
    /// Dialogue node id, echoed in the choice.
    pub node: u32,
    /// The text (already localized; lines written on the fly come from the line bank).
    #[tuplet(len(min = 1, max = 400))]
    pub text: String,
    /// Choice labels; empty means "press to continue".
    #[tuplet(len(max = 4), item_len(min = 1, max = 80))]
    pub choices: Vec<String>,
    /// Portrait mood.
    pub mood: Mood,
    /// Voice clip key, if recorded.
    #[tuplet(len(max = 48))]
    pub voice: Option<String>,
}

/// Sent by a client picking a dialogue choice (or continuing).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:choose", id = 371, dir = "c2s")]
pub struct NpcChoose {
    /// The node answered.
    pub node: u32,
    /// Index of the choice; absent to continue.
    #[tuplet(range(0, 3))]
    pub choice: Option<u8>,
}

/// Sent when a conversation ends (walked away, finished, NPC busy).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:bye", id = 372, dir = "both")]
pub struct NpcBye {
    /// The NPC.
    pub npc: u32,
}

/// Sent by a client giving an item to an NPC.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:gift", id = 373, dir = "c2s")]
pub struct NpcGift {
    /// The NPC.
    pub npc: u32,
    /// Backpack slot of the gift.
    #[tuplet(range(0, 47))]
    pub slot: u8,
}

/// The NPC's friendship with the player after a gift or a chat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:friendship", id = 374, dir = "s2c")]
pub struct NpcFriendship {
    /// The NPC.
    pub npc: u32,
    /// Hearts, in tenths (0..10).
    #[tuplet(quant = "dm", range(0.0, 10.0))]
    pub hearts: f32,
    /// Reaction to the gift.
    pub mood: Mood,
}

/// Broadcast when an NPC says a bark line overhead (greetings, weather remarks).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "npc:bark", id = 375, dir = "s2c")]
pub struct NpcBark {
    /// The NPC.
    pub npc: u32,
    /// Line bank index.
    pub line: u16,
    /// Seconds the bubble stays.
    #[tuplet(range(1, 10))]
    pub secs: u8,
}
