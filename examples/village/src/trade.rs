//! Player-to-player trading: request, the two-sided offer window, locking, confirming.
//! Assumes two clicks per button: every step is idempotent on the server. Ids 390–409.

use crate::common::{ItemStack, PlayerRef};

/// Sent by a client asking another player to trade.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:request", id = 390, dir = "c2s")]
pub struct TradeRequest {
    /// The other player.
    #[tuplet(len = 9)]
    pub with: String,
}

/// Sent to the other player: someone wants to trade.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:invite", id = 390, dir = "s2c")]
pub struct TradeInvite {
    /// Trade id.
    pub trade: u32,
    /// Who asks.
    pub from: PlayerRef,
    /// The invitation expires at, ms.
    pub expires: u64,
}

/// Sent by the invited client.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:respond", id = 391, dir = "c2s")]
pub struct TradeRespond {
    /// Trade id.
    pub trade: u32,
    /// Accept or decline.
    pub accept: bool,
}

/// Sent by either trader whenever it changes its side of the window.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:offer", id = 392, dir = "c2s")]
pub struct TradeOffer {
    /// Trade id.
    pub trade: u32,
    /// Backpack slots offered, with counts.
    #[tuplet(len(max = 12))]
    pub slots: std::collections::BTreeMap<u8, u16>,
    /// Coins offered.
    pub coins: u32,
}

/// Where a trade stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum TradeStage {
    /// Both editing.
    Open = 0,
    /// One side locked.
    OneLocked = 1,
    /// Both locked; waiting for confirms.
    BothLocked = 2,
    /// Done; items moved.
    Completed = 3,
    /// Someone cancelled or walked away.
    Cancelled = 4,
}

/// The trade window as both traders see it, after any change.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:window", id = 392, dir = "s2c")]
pub struct TradeWindow {
    /// Trade id.
    pub trade: u32,
    /// What this player offers.
    #[tuplet(len(max = 12))]
    pub mine: Vec<ItemStack>,
    /// What the other player offers.
    #[tuplet(len(max = 12))]
    pub theirs: Vec<ItemStack>,
    /// Coins (mine, theirs).
    pub coins: [u32; 2],
    /// Where it stands.
    pub stage: TradeStage,
    /// Revision; a confirm names the revision it agrees to.
    pub rev: u16,
}

/// Sent by a trader locking its side, then confirming the final revision.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:confirm", id = 393, dir = "c2s")]
pub struct TradeConfirm {
    /// Trade id.
    pub trade: u32,
    /// The window revision agreed to.
    pub rev: u16,
    /// False to lock only, true to confirm.
    pub final_step: bool,
}

/// Sent by either trader to cancel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "trade:cancel", id = 394, dir = "c2s")]
pub struct TradeCancel {
    /// Trade id.
    pub trade: u32,
}
