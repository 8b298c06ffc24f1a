//! Camera: spectating, cutscene cameras the server directs, the security-camera board in
//! the town hall. Ids 950–969.

/// A camera shot, as a cutscene keyframe.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Shot {
    /// Eye position.
    pub eye: crate::common::WorldPos,
    /// Look direction (yaw, pitch), degrees, to the hundredth.
    #[tuplet(quant = "cdeg", range(-180.0, 180.0))]
    pub look: [f32; 2],
    /// Field of view, degrees.
    #[tuplet(quant = "ddeg", range(10.0, 120.0))]
    pub fov: f32,
    /// Time from the previous shot, seconds.
    #[tuplet(quant = "dm", range(0.0, 30.0))]
    pub after: f32,
}

/// Sent to players at a scripted moment (the festival opening): a camera path to play.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "camera:cutscene", id = 950, dir = "s2c")]
pub struct CameraCutscene {
    /// Cutscene key.
    #[tuplet(len(min = 1, max = 32))]
    pub key: String,
    /// Shots.
    #[tuplet(len(min = 1, max = 32))]
    pub shots: Vec<Shot>,
    /// Whether the player may skip.
    pub skippable: bool,
}

/// Sent by a client skipping or finishing a cutscene (input is locked until then).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "camera:done", id = 950, dir = "c2s")]
pub struct CameraDone {
    /// Cutscene key.
    #[tuplet(len(min = 1, max = 32))]
    pub key: String,
    /// Skipped rather than watched.
    pub skipped: bool,
}

/// Sent by a spectating client (mini-game spectators, staff) choosing whom to follow.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "camera:follow", id = 951, dir = "c2s")]
pub struct CameraFollow {
    /// Target; absent for the free camera.
    #[tuplet(len = 9)]
    pub target: Option<String>,
    /// Orbit distance, metres.
    #[tuplet(quant = "dm", range(1.0, 50.0))]
    pub distance: f32,
}
