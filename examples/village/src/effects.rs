//! Weather-driven effects: puddles after rain, snow cover, wet clothes, rainbows, wind on
//! trees. Ids 1050–1069.

/// Broadcast every few minutes while the weather changes the ground: how wet and white
/// the village is, for shaders.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "effects:ground", id = 1050, dir = "s2c")]
pub struct EffectsGround {
    /// Puddle cover, 0..1.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub puddles: f32,
    /// Snow depth, metres, to the millimetre.
    #[tuplet(quant = "mm", range(0.0, 2.0))]
    pub snow: f32,
    /// Leaf litter in autumn, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub leaves: f32,
}

/// Broadcast when a rainbow appears after rain.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "effects:rainbow", id = 1051, dir = "s2c")]
pub struct EffectsRainbow {
    /// Bearing of its centre, radians from north.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub bearing: f32,
    /// Fades at, ms.
    pub until: u64,
    /// Double rainbow (an achievement if photographed).
    pub double: bool,
}

/// Sent to a player whose clothes are wet (rain, a dive, a water gun): drips and a slower
/// walk until dry.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "effects:wet", id = 1052, dir = "s2c")]
pub struct EffectsWet {
    /// Wetness, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub wetness: f32,
    /// Drying rate, per second, in 1/256 steps.
    #[tuplet(scale = 256, range(0.0, 0.5))]
    pub dry_rate: f32,
    /// Sheltered (under a roof or umbrella).
    pub sheltered: bool,
}
