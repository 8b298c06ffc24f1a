//! Cooking at stoves and campfires: recipes, timing mini-game, results. Ids 810–829.

/// Sent by a client putting ingredients on a stove.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "cooking:start", id = 810, dir = "c2s")]
pub struct CookingStart {
    /// Stove or campfire prop.
    pub stove: u32,
    /// Recipe key.
    #[tuplet(len(min = 1, max = 32))]
    pub recipe: String,
    /// Backpack slots of the ingredients.
    #[tuplet(len(min = 1, max = 6))]
    pub slots: Vec<u8>,
}

/// Sent to the cook: the heat curve to follow in the timing mini-game.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "cooking:curve", id = 810, dir = "s2c")]
pub struct CookingCurve {
    /// Session of this cooking attempt.
    pub attempt: u32,
    /// Target heat per second, 0..1.
    #[tuplet(len(min = 5, max = 60), quant = "percent", range(0.0, 1.0))]
    pub target: Vec<f32>,
    /// Tolerance band, ±.
    #[tuplet(quant = "percent", range(0.0, 0.5))]
    pub band: f32,
}

/// Sent by the cook every half second: where the heat knob is.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "cooking:heat", id = 811, dir = "c2s")]
pub struct CookingHeat {
    /// Attempt.
    pub attempt: u32,
    /// Knob, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub knob: f32,
    /// Stirring.
    pub stir: bool,
}

/// The dish, to the cook; nearby players see the steam puff.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "cooking:done", id = 811, dir = "s2c")]
pub struct CookingDone {
    /// Attempt.
    pub attempt: u32,
    /// Result, with stars from how well the curve was followed.
    pub dish: Option<crate::common::ItemStack>,
    /// Burnt: the ingredients are lost.
    pub burnt: bool,
    /// Score, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub score: f32,
}
