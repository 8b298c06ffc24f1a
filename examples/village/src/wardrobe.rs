//! The wardrobe: outfits, hats, dyes; what others see of a player's looks. Ids 1070–1089.

/// Clothing slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum WearSlot {
    /// Hat.
    Head = 0,
    /// Top.
    Top = 1,
    /// Trousers or skirt.
    Bottom = 2,
    /// Shoes.
    Feet = 3,
    /// Backpack, cape, wings.
    Back = 4,
    /// Held accessory (umbrella, lantern).
    Hand = 5,
}

/// One worn piece.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Worn {
    /// Slot.
    pub slot: WearSlot,
    /// Item key.
    #[tuplet(len(min = 1, max = 32))]
    pub item: String,
    /// Primary and secondary dye, 0xRRGGBB.
    #[tuplet(range(0, 0xFFFFFF))]
    pub dyes: [u32; 2],
}

/// Sent by a client changing its outfit (once, when the wardrobe closes).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "wardrobe:wear", id = 1070, dir = "c2s")]
pub struct WardrobeWear {
    /// The full outfit.
    #[tuplet(len(max = 6))]
    pub outfit: Vec<Worn>,
    /// Save as preset number.
    #[tuplet(range(0, 9))]
    pub preset: Option<u8>,
}

/// Broadcast when a player's looks change (and to newcomers, for everyone in view).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "wardrobe:looks", id = 1070, dir = "s2c")]
pub struct WardrobeLooks {
    /// Whose looks.
    #[tuplet(len = 9)]
    pub s: String,
    /// The outfit.
    #[tuplet(len(max = 6))]
    pub outfit: Vec<Worn>,
    /// Body height scale.
    #[tuplet(quant = "percent", range(0.85, 1.15))]
    pub height: f32,
    /// Body colour, once sent here on every change; it lives in `player:joined` now.
    #[tuplet(reserved = "colour: body colour moved to player:join in 1.4")]
    pub _colour: tuplet::Reserved,
    /// Hair style index.
    pub hair: u8,
}
