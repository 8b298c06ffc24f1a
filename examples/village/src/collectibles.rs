//! Collectibles: seashells, pressed flowers and the weekly treasure hunt with its clue
//! chain. Ids 1090–1109.

/// Sent by a client digging at a spot with the shovel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "treasure:dig", id = 1090, dir = "c2s")]
pub struct TreasureDig {
    /// Where, metres (x, z).
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub at: [f32; 2],
}

/// Sent to the digger: a find, the next clue, or nothing.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "treasure:result", id = 1090, dir = "s2c")]
pub struct TreasureResult {
    /// What was dug up.
    pub found: Option<crate::common::ItemStack>,
    /// Next clue text in the chain.
    #[tuplet(len(max = 200))]
    pub clue: Option<String>,
    /// Distance band to the next cache, metres, rounded to tens.
    #[tuplet(scale = 0.1, range(0.0, 2000.0))]
    pub warmth_m: Option<f32>,
}

/// The collection book, on join and after a new entry: set key to pieces owned (bitmask
/// per set, low bit first).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "collectibles:book", id = 1091, dir = "s2c")]
pub struct CollectiblesBook {
    /// Set key to owned-pieces mask.
    #[tuplet(len(max = 40))]
    pub sets: std::collections::BTreeMap<String, u64>,
    /// Sets completed.
    pub complete: u8,
}
