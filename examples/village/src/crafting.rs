//! Crafting at the workbench: recipes known, crafting queue, results. Ids 830–849.

/// A recipe as the workbench shows it.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Recipe {
    /// Recipe key.
    #[tuplet(len(min = 1, max = 32))]
    pub key: String,
    /// Inputs: item key to count.
    #[tuplet(len(min = 1, max = 6))]
    pub inputs: std::collections::BTreeMap<String, u16>,
    /// Output.
    pub output: crate::common::ItemStack,
    /// Crafting time, seconds.
    #[tuplet(range(1, 3600))]
    pub secs: u16,
}

/// Known recipes, when the workbench opens.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "crafting:recipes", id = 830, dir = "s2c")]
pub struct CraftingRecipes {
    /// Recipes.
    #[tuplet(len(max = 200))]
    pub recipes: Vec<Recipe>,
}

/// Sent by a client queueing a craft.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "crafting:make", id = 831, dir = "c2s")]
pub struct CraftingMake {
    /// Workbench prop.
    pub bench: u32,
    /// Recipe key.
    #[tuplet(len(min = 1, max = 32))]
    pub recipe: String,
    /// Repeat count.
    #[tuplet(range(1, 20))]
    pub times: u8,
}

/// The crafting queue of a workbench, to the crafter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "crafting:queue", id = 831, dir = "s2c")]
pub struct CraftingQueue {
    /// Workbench.
    pub bench: u32,
    /// Recipe keys, in order.
    #[tuplet(len(max = 20), item_len(min = 1, max = 32))]
    pub queue: Vec<String>,
    /// Progress of the first, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub progress: f32,
    /// Ends at, ms.
    pub ends: Option<u64>,
}

/// Sent by a client cancelling the queue (inputs are refunded).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "crafting:cancel", id = 832, dir = "c2s")]
pub struct CraftingCancel {
    /// Workbench.
    pub bench: u32,
    /// Index in the queue; absent cancels all.
    pub index: Option<u8>,
}
