//! Interactable props: lamps, swings, the well bucket, notice boards, the bell tower.
//! Ids 1190–1209.

/// Sent by a client interacting with a prop.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "props:use", id = 1190, dir = "c2s")]
pub struct PropsUse {
    /// Prop id.
    pub prop: u32,
    /// Which interaction, for props with several (0 is the default).
    #[tuplet(range(0, 7))]
    pub verb: u8,
}

/// Broadcast to nearby players when a prop's animated state changes (a swing swinging,
/// the bell ringing).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "props:state", id = 1190, dir = "s2c")]
pub struct PropsState {
    /// Prop id.
    pub prop: u32,
    /// State index.
    pub state: u8,
    /// Animation phase, turns, in 1/1000.
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    pub phase: f32,
    /// Animation amplitude, degrees.
    #[tuplet(quant = "cdeg", range(-90.0, 90.0))]
    pub amplitude: f32,
    /// User.
    #[tuplet(len = 9)]
    pub by: Option<String>,
}

/// Sent by a client pinning a note on a notice board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "props:note", id = 1191, dir = "c2s")]
pub struct PropsNote {
    /// Board prop.
    pub board: u32,
    /// Note text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// Paper colour index.
    #[tuplet(range(0, 7))]
    pub paper: u8,
}

/// A notice board's notes, to players looking at it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "props:board", id = 1191, dir = "s2c")]
pub struct PropsBoard {
    /// Board prop.
    pub board: u32,
    /// Notes by note id (newest has the highest id).
    #[tuplet(len(max = 30))]
    pub notes: std::collections::BTreeMap<u32, BoardNote>,
}

/// A note on a board.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct BoardNote {
    /// Author.
    #[tuplet(len(min = 1, max = 24))]
    pub by: String,
    /// Text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// Position on the board (x, y), 0..1 of its width and height.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub pos: [f32; 2],
    /// Tilt, signed degrees.
    #[tuplet(range(-15, 15))]
    pub tilt: i8,
}
