//! Photo mode: freezing the player's pose, the free camera, saving and sharing photos to
//! the town board. Ids 590–609.

/// Sent by a client entering or leaving photo mode; nearby players see a camera icon.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:mode", id = 590, dir = "c2s")]
pub struct PhotoMode {
    /// In photo mode.
    pub on: bool,
}

/// Relayed to nearby players.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:mode", id = 590, dir = "s2c")]
pub struct PhotoModeShown {
    /// Photographer.
    #[tuplet(len = 9)]
    pub s: String,
    /// In photo mode.
    pub on: bool,
}

/// Sent by a client sharing a photo to the town board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:share", id = 591, dir = "c2s")]
pub struct PhotoShare {
    /// Caption.
    #[tuplet(len(max = 140))]
    pub caption: String,
    /// Thumbnail, WebP, 256 px wide.
    #[tuplet(len(min = 64, max = 32768))]
    pub thumb: Vec<u8>,
    /// Where it was taken (the board shows a map pin).
    pub at: crate::common::WorldPos,
    /// Players tagged in it.
    #[tuplet(len(max = 8), item_len(min = 9, max = 9))]
    pub tagged: Vec<String>,
    /// Filter applied.
    pub filter: PhotoFilter,
}

/// Photo filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum PhotoFilter {
    /// None.
    Plain = 0,
    /// Black and white.
    Mono = 1,
    /// Warm sepia.
    Sepia = 2,
    /// Tilt-shift miniature.
    Miniature = 3,
}

/// Sent to everyone when a photo goes up on the board (the full image is on the CDN).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:posted", id = 591, dir = "s2c")]
pub struct PhotoPosted {
    /// Photo id (a 64-bit snowflake).
    #[tuplet(bigint)]
    pub photo: u64,
    /// Photographer.
    pub by: crate::common::PlayerRef,
    /// Caption.
    #[tuplet(len(max = 140))]
    pub caption: String,
    /// Thumbnail.
    #[tuplet(len(min = 64, max = 32768))]
    pub thumb: Vec<u8>,
}

/// Sent by a client liking a photo on the board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:like", id = 592, dir = "c2s")]
pub struct PhotoLike {
    /// Photo id.
    #[tuplet(bigint)]
    pub photo: u64,
}

/// Sent by a client in photo mode when it tweaks lens settings, so others see the
/// photographer's frame as a ghost outline.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "photo:lens", id = 593, dir = "c2s")]
pub struct PhotoLens {
    /// Field of view, degrees.
    #[tuplet(quant = "ddeg", range(10.0, 120.0))]
    pub fov: f32,
    /// Roll, radians.
    #[tuplet(quant = "mrad", range(-0.7854, 0.7854))]
    pub roll: f32,
    /// Depth-of-field focus distance, metres.
    #[tuplet(quant = "dm", range(0.3, 500.0))]
    pub focus: f32,
}
