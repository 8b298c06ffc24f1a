//! Gardening: plots behind houses and at the allotments, planting, watering, growth,
//! harvest. Weather waters gardens too. Ids 790–809.

/// A crop's growth stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Stage {
    /// Bare soil.
    Empty = 0,
    /// Seed in the ground.
    Seeded = 1,
    /// Sprouted.
    Sprout = 2,
    /// Growing.
    Growing = 3,
    /// Ready to pick.
    Ripe = 4,
    /// Left too long.
    Withered = 5,
}

/// One bed of a plot.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Bed {
    /// Bed index in the plot (rows of 4).
    #[tuplet(range(0, 23))]
    pub bed: u8,
    /// Crop key, when planted.
    #[tuplet(len(min = 1, max = 24))]
    pub crop: Option<String>,
    /// Stage.
    pub stage: Stage,
    /// Soil moisture, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub moisture: f32,
    /// Ripe at, ms.
    pub ripe_at: Option<u64>,
}

/// Sent to a player near a plot (entering range, or a bed changing).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "garden:plot", id = 790, dir = "s2c")]
pub struct GardenPlot {
    /// Plot id.
    pub plot: u32,
    /// Owner's account; absent for shared allotments.
    #[tuplet(bigint)]
    pub owner: Option<u64>,
    /// Beds.
    #[tuplet(len(max = 24))]
    pub beds: Vec<Bed>,
}

/// What a gardener does to a bed.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
pub enum GardenAction {
    /// Plant seeds from a backpack slot.
    #[tuplet(tag = 1)]
    Plant(u8),
    /// Water with the can.
    #[tuplet(tag = 2)]
    Water,
    /// Pull weeds or a withered crop.
    #[tuplet(tag = 3)]
    Clear,
    /// Harvest.
    #[tuplet(tag = 4)]
    Harvest,
    /// Fertilize.
    #[tuplet(tag = 5)]
    Feed {
        /// Backpack slot of the fertilizer.
        slot: u8,
        /// Strength used, 0..1.
        #[tuplet(quant = "percent", range(0.0, 1.0))]
        strength: f32,
    },
}

/// Sent by a client working a bed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "garden:tend", id = 791, dir = "c2s")]
pub struct GardenTend {
    /// Plot id.
    pub plot: u32,
    /// Bed.
    #[tuplet(range(0, 23))]
    pub bed: u8,
    /// What to do.
    pub action: GardenAction,
}

/// Sent to the gardener after a harvest: yield and any rare mutation.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "garden:harvest", id = 792, dir = "s2c")]
pub struct GardenHarvest {
    /// What went into the backpack.
    #[tuplet(len(min = 1, max = 4))]
    pub got: Vec<crate::common::ItemStack>,
    /// Giant-vegetable weight, kilograms, when one grew.
    #[tuplet(quant = "mm", range(0.0, 500.0))]
    pub giant_kg: Option<f32>,
}
