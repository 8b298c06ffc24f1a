//! Coins scattered around the village: spawns, pickups (checked by the heartbeat sweep),
//! the wallet. Ids 270–289.

/// A coin lying in the world.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct CoinDrop {
    /// Coin id.
    pub id: u32,
    /// Where, metres.
    pub at: crate::common::WorldPos,
    /// Face value.
    #[tuplet(range(1, 100))]
    pub value: u8,
}

/// Sent to nearby players when coins appear (a spawn wave, a broken piñata).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coins:spawn", id = 270, dir = "s2c")]
pub struct CoinsSpawn {
    /// The new coins.
    #[tuplet(len(min = 1, max = 64))]
    pub coins: Vec<CoinDrop>,
}

/// Sent by a client that walks through a coin; the server checks it against the last
/// heartbeat position before paying.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coins:pickup", id = 271, dir = "c2s")]
pub struct CoinsPickup {
    /// The coin.
    pub coin: u32,
}

/// Broadcast when a coin is taken, so everyone removes it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coins:taken", id = 271, dir = "s2c")]
pub struct CoinsTaken {
    /// The coin.
    pub coin: u32,
    /// Who took it; absent when it expired.
    #[tuplet(len = 9)]
    pub by: Option<String>,
    /// Slot of the old picker position, sent until 1.2.
    #[tuplet(reserved = "pos: clients never used it; removed in 1.2")]
    pub _pos: tuplet::Reserved,
}

/// The player's wallet after any change.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coins:wallet", id = 272, dir = "s2c")]
pub struct CoinsWallet {
    /// Coins held.
    pub coins: u32,
    /// Signed change that caused this update.
    pub delta: i32,
    /// Why, as a translation key (`coins.pickup`, `shop.buy`).
    #[tuplet(len(max = 32))]
    pub cause: String,
}

/// Sent by a client tipping another player (a busker, a helper).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "coins:tip", id = 273, dir = "c2s")]
pub struct CoinsTip {
    /// Recipient.
    #[tuplet(len = 9)]
    pub to: String,
    /// Amount.
    #[tuplet(range(1, 500))]
    pub amount: u16,
}
