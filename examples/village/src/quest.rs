//! Quests: offers, accepting, objective progress, turning in, the journal. Ids 350–369.

use std::collections::BTreeMap;

/// A quest's state in the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum QuestState {
    /// Offered, not accepted.
    Offered = 0,
    /// In progress.
    Active = 1,
    /// Objectives met, not turned in.
    Ready = 2,
    /// Done.
    Done = 3,
    /// Abandoned by the player.
    Abandoned = 4,
}

/// What a quest objective asks for.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum Objective {
    /// Bring items.
    #[tuplet(tag = 1)]
    Deliver {
        /// Item key.
        #[tuplet(len(min = 1, max = 32))]
        item: String,
        /// How many.
        count: u16,
        /// NPC to bring them to.
        npc: u32,
    },
    /// Go somewhere.
    #[tuplet(tag = 2)]
    Reach {
        /// Destination.
        at: crate::common::WorldPos,
        /// Within this many metres.
        #[tuplet(quant = "dm", range(1.0, 100.0))]
        radius: f32,
    },
    /// Talk to an NPC.
    #[tuplet(tag = 3)]
    Talk(u32),
    /// Catch a fish of a species.
    #[tuplet(tag = 4)]
    Catch(#[tuplet(len(min = 1, max = 32))] String),
    /// Spot a bird species.
    #[tuplet(tag = 5)]
    Spot(crate::birds::Species),
}

/// Sent when an NPC offers a quest.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:offer", id = 350, dir = "s2c")]
pub struct QuestOffer {
    /// Quest key.
    #[tuplet(len(min = 1, max = 48))]
    pub quest: String,
    /// Giver.
    pub npc: u32,
    /// What must be done.
    #[tuplet(len(min = 1, max = 6))]
    pub objectives: Vec<Objective>,
    /// Coin reward.
    pub coins: u32,
    /// Item rewards.
    #[tuplet(len(max = 4))]
    pub items: Vec<crate::common::ItemStack>,
}

/// Sent by a client accepting, declining or abandoning a quest.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:answer", id = 351, dir = "c2s")]
pub struct QuestAnswer {
    /// Quest key.
    #[tuplet(len(min = 1, max = 48))]
    pub quest: String,
    /// True to accept, false to decline or abandon.
    pub accept: bool,
}

/// Sent when an objective's counter changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:progress", id = 352, dir = "s2c")]
pub struct QuestProgress {
    /// Quest key.
    #[tuplet(len(min = 1, max = 48))]
    pub quest: String,
    /// Objective index to amount done.
    #[tuplet(len(max = 6))]
    pub done: BTreeMap<u8, u16>,
    /// New state.
    pub state: QuestState,
}

/// Sent by a client turning in a finished quest at its giver.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:turnin", id = 353, dir = "c2s")]
pub struct QuestTurnIn {
    /// Quest key.
    #[tuplet(len(min = 1, max = 48))]
    pub quest: String,
    /// Which of the offered reward choices, for quests with a choice.
    #[tuplet(range(0, 3))]
    pub choice: Option<u8>,
}

/// The quest journal on join: every quest not yet done.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:journal", id = 354, dir = "s2c")]
pub struct QuestJournal {
    /// Quest key to state.
    #[tuplet(len(max = 64))]
    pub quests: BTreeMap<String, QuestState>,
    /// The tracked quest shown on the HUD.
    #[tuplet(len(min = 1, max = 48))]
    pub tracked: Option<String>,
}

/// Sent by a client choosing which quest the HUD tracks.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "quest:track", id = 355, dir = "c2s")]
pub struct QuestTrack {
    /// Quest key; absent to track none.
    #[tuplet(len(min = 1, max = 48))]
    pub quest: Option<String>,
}
