//! Doors and gates: opening, locking, knocking; shared with housing and the shops. Ids
//! 1030–1049.

/// A door's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum DoorState {
    /// Closed.
    Closed = 0,
    /// Open.
    Open = 1,
    /// Closed and locked.
    Locked = 2,
    /// Jammed (storm damage) until repaired.
    Jammed = 3,
}

/// Sent by a client using a door.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "doors:use", id = 1030, dir = "c2s")]
pub struct DoorsUse {
    /// The door.
    pub door: u32,
    /// Knock instead of opening.
    pub knock: bool,
}

/// Broadcast to nearby players when a door moves.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "doors:state", id = 1030, dir = "s2c")]
pub struct DoorsState {
    /// The door.
    pub door: u32,
    /// New state.
    pub state: DoorState,
    /// Swing angle, degrees (doors swing either way).
    #[tuplet(quant = "ddeg", range(-110.0, 110.0))]
    pub swing: f32,
    /// Who moved it.
    #[tuplet(len = 9)]
    pub by: Option<String>,
}

/// Broadcast on a knock: the sound, and the owner's doorbell light.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "doors:knock", id = 1031, dir = "s2c")]
pub struct DoorsKnock {
    /// The door.
    pub door: u32,
    /// Gaps between knocks, ms (a secret knock opens the speakeasy).
    #[tuplet(len(min = 1, max = 8))]
    pub pattern: Vec<u16>,
}
