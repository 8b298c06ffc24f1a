//! Shops: the general store, the fishmonger, the florist. Browsing stock, buying, selling.
//! Ids 850–869.

/// One line of a shop's stock.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct StockLine {
    /// Item key.
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    /// Price, coins.
    pub price: u32,
    /// Left in stock today; absent for unlimited.
    pub left: Option<u16>,
    /// Discount, 0..1, during sales.
    #[tuplet(quant = "percent", range(0.0, 0.9))]
    pub discount: Option<f32>,
}

/// Sent by a client talking to a shopkeeper.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:open", id = 850, dir = "c2s")]
pub struct ShopOpen {
    /// The shopkeeper NPC.
    pub npc: u32,
}

/// The shop's stock and what it buys.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:stock", id = 850, dir = "s2c")]
pub struct ShopStock {
    /// Shop key.
    #[tuplet(len(min = 1, max = 24))]
    pub shop: String,
    /// For sale.
    #[tuplet(len(max = 80))]
    pub sells: Vec<StockLine>,
    /// Item key to the price the shop pays.
    #[tuplet(len(max = 80))]
    pub buys: std::collections::BTreeMap<String, u32>,
    /// Restocks at, ms.
    pub restock: u64,
}

/// Sent by a client buying from a shop.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:buy", id = 851, dir = "c2s")]
pub struct ShopBuy {
    /// Shop key.
    #[tuplet(len(min = 1, max = 24))]
    pub shop: String,
    /// Item key.
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    /// How many.
    #[tuplet(range(1, 99))]
    pub count: u8,
    /// Price the client saw; a changed price refuses the sale.
    pub seen_price: u32,
}

/// Sent by a client selling a backpack stack.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:sell", id = 852, dir = "c2s")]
pub struct ShopSell {
    /// Shop key.
    #[tuplet(len(min = 1, max = 24))]
    pub shop: String,
    /// Backpack slot.
    #[tuplet(range(0, 47))]
    pub slot: u8,
    /// How many.
    #[tuplet(range(1, 999))]
    pub count: u16,
}

/// Why a purchase or sale failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum ShopRefusal {
    /// Not enough coins.
    Funds = 1,
    /// Sold out.
    SoldOut = 2,
    /// Price changed since the stock was shown.
    PriceChanged = 3,
    /// Backpack full.
    BagFull = 4,
    /// The shop does not buy that.
    NotWanted = 5,
}

/// The outcome of a buy or sell.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "shop:receipt", id = 851, dir = "s2c")]
pub struct ShopReceipt {
    /// Coins moved: negative for a purchase.
    pub coins: i32,
    /// Why it failed; absent on success.
    pub refused: Option<ShopRefusal>,
}
