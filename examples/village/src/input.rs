//! Input batching for vehicles and mini-games played with server authority: a client sends
//! its inputs every ~66 ms; the server plays them out one per 60 Hz step from a jitter
//! buffer. Ids 90–109.

/// Buttons held during one input frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u16", reserved = [9])]
pub struct Buttons {
    /// Forward / accelerate.
    #[tuplet(bit = 0)]
    pub forward: bool,
    /// Back / reverse.
    #[tuplet(bit = 1)]
    pub back: bool,
    /// Strafe or steer left.
    #[tuplet(bit = 2)]
    pub left: bool,
    /// Strafe or steer right.
    #[tuplet(bit = 3)]
    pub right: bool,
    /// Jump.
    #[tuplet(bit = 4)]
    pub jump: bool,
    /// Sprint / boost.
    #[tuplet(bit = 5)]
    pub sprint: bool,
    /// Interact (E).
    #[tuplet(bit = 6)]
    pub interact: bool,
    /// Use held item (left click).
    #[tuplet(bit = 7)]
    pub primary: bool,
    /// Aim (right click).
    #[tuplet(bit = 8)]
    pub aim: bool,
    /// Handbrake.
    #[tuplet(bit = 10)]
    pub brake: bool,
    /// Horn / bell.
    #[tuplet(bit = 11)]
    pub horn: bool,
}

/// One client frame of input.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct InputFrame {
    /// Frame length, ms.
    #[tuplet(range(1, 100))]
    pub dt: u8,
    /// Buttons held.
    pub buttons: Buttons,
    /// Mouse look delta this frame, radians (yaw, pitch).
    #[tuplet(quant = "mrad", range(-1.5, 1.5), legacy = ["dx", "dy"])]
    pub look: [f32; 2],
    /// Analog steer, −100 (full left) to 100.
    #[tuplet(range(-100, 100))]
    pub steer: i8,
    /// The world the client drew when it sampled this frame (its view time): the snapshot
    /// tick it was drawing plus the fraction of the way to the next (hundredths of a tick on
    /// the wire). A server with lag compensation resolves the frame's collisions against its
    /// history at this time, capped to its maximum rewind; absent, the server estimates it.
    #[tuplet(scale = 100, range(0.0, 4294967296.0))]
    pub view: Option<f64>,
    /// How far past `view` the client ran the entities it collided with, ms (2 ms steps on the
    /// wire): its estimate of when the server applies this frame, less `view` (0 or absent: it
    /// drew them at `view`).
    #[tuplet(scale = 0.5, range(0.0, 500.0))]
    pub ahead: Option<f32>,
}

/// A client's inputs gathered over ~66 ms, about 15 a second while controlling something.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "input:batch", id = 90, dir = "c2s", budget = 224)]
pub struct InputBatch {
    /// Sequence number of the first frame; frames are numbered consecutively.
    pub first: u32,
    /// The frames, oldest first.
    #[tuplet(len(min = 1, max = 8))]
    pub frames: Vec<InputFrame>,
}

/// Sent every server tick to a controlling client: what was applied and the body it left,
/// so prediction can replay the rest. Only `input:batch` frames are acknowledged;
/// `player:move` poses are the client's own and are never acknowledged.
///
/// `p` and `r` are left out when the client already has the body at `tick`: a server that
/// sends the client that tick's `world:snapshot` before the ack, on the same ordered
/// connection, with the client's own body in it (the city Worker, whose view always holds
/// it) sends only `applied`, `tick` and `queued`, and the client reads the body from its
/// `Mirror` (the same centimetres and milliradians). A server whose snapshots leave the
/// client's own avatar out (the Rust room server) sends `p` and `r` with every ack.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "input:ack", id = 90, dir = "s2c")]
pub struct InputAck {
    /// Last input frame applied.
    pub applied: u32,
    /// Server tick it was applied on.
    pub tick: u32,
    /// Frames waiting in the jitter buffer.
    #[tuplet(range(0, 32))]
    pub queued: u8,
    /// The player's body after frame `applied`, metres (whole centimetres on the wire): the
    /// state its prediction replays the unacknowledged frames on (the village's walking step,
    /// `walk.rs` and its twin `walk.ts`). Absent when that tick's snapshot carries the body.
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pub p: Option<[f32; 3]>,
    /// The body's heading after frame `applied`, radians (milliradians on the wire); absent
    /// with `p`.
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    pub r: Option<f32>,
}

/// Sent when the server resizes a client's jitter buffer (it grows on stalls and shrinks
/// after a second of slack).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "input:buffer", id = 91, dir = "s2c")]
pub struct InputBuffer {
    /// New target depth, frames.
    #[tuplet(range(1, 32))]
    pub target: u8,
    /// Measured arrival jitter, ms, in quarter-ms steps.
    #[tuplet(scale = 4, range(0.0, 1000.0))]
    pub jitter_ms: f32,
}
