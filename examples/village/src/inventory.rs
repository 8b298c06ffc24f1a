//! The backpack: slots, moving and dropping items, using them, the hotbar. Ids 330–349.

use std::collections::BTreeMap;

use crate::common::ItemStack;

/// One backpack slot.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Slot {
    /// Slot index.
    #[tuplet(range(0, 47))]
    pub index: u8,
    /// What is in it.
    pub stack: ItemStack,
    /// Durability left for tools (rods, watering cans), 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub wear: Option<f32>,
}

/// The whole backpack, sent on join and after a bulk change (a trade, a bank transfer).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:full", id = 330, dir = "s2c")]
pub struct InventoryFull {
    /// Occupied slots.
    #[tuplet(len(max = 48))]
    pub slots: Vec<Slot>,
    /// Backpack size (upgrades add rows of 8).
    #[tuplet(range(16, 48))]
    pub size: u8,
    /// Totals per item key (catalogue keys, as `ItemStack::item`), for quest counters and
    /// shop "you have N".
    #[tuplet(len(max = 48), key_len(min = 1, max = 32))]
    #[tuplet(accept(
        rule = "len-narrowed",
        was = "key any",
        now = "key 1..=32",
        reason = "keys were always catalogue keys of 1 to 32 bytes; now the wire says so"
    ))]
    pub totals: BTreeMap<String, u32>,
}

/// Changed slots only, after a pickup, a craft or a use.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:slots", id = 331, dir = "s2c")]
pub struct InventorySlots {
    /// Slots now holding something.
    #[tuplet(len(max = 48))]
    pub set: Vec<Slot>,
    /// Slots now empty.
    #[tuplet(len(max = 48))]
    pub cleared: Vec<u8>,
}

/// Sent by a client dragging a stack between slots (splitting when `count` is less).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:move", id = 332, dir = "c2s")]
pub struct InventoryMove {
    /// From slot.
    #[tuplet(range(0, 47))]
    pub from: u8,
    /// To slot.
    #[tuplet(range(0, 47))]
    pub to: u8,
    /// How many; absent moves the whole stack.
    #[tuplet(range(1, 999))]
    pub count: Option<u16>,
}

/// Sent by a client dropping items on the ground.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:drop", id = 333, dir = "c2s")]
pub struct InventoryDrop {
    /// Slot.
    #[tuplet(range(0, 47))]
    pub slot: u8,
    /// How many.
    #[tuplet(range(1, 999))]
    pub count: u16,
}

/// Sent by a client using an item (eat, read, plant, equip).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:use", id = 334, dir = "c2s")]
pub struct InventoryUse {
    /// Slot.
    #[tuplet(range(0, 47))]
    pub slot: u8,
    /// Target prop or entity, for items used on something.
    pub target: Option<u32>,
}

/// Sent by a client rearranging its eight-slot hotbar.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:hotbar", id = 335, dir = "c2s")]
pub struct InventoryHotbar {
    /// Backpack slot shown in each hotbar key; 255 for empty.
    pub keys: [u8; 8],
}

/// Sent to the player when an item could not be added (bag full) and fell to the ground.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "inventory:overflow", id = 336, dir = "s2c")]
pub struct InventoryOverflow {
    /// What fell.
    pub stack: ItemStack,
    /// Ground item id to pick it up again.
    pub ground: u32,
}
