//! Sitting: benches, chairs, the inn's stools, picnic blankets. Ids 1010–1029.

/// Sent by a client sitting on a seat prop (or standing up).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "seating:sit", id = 1010, dir = "c2s")]
pub struct SeatingSit {
    /// Seat prop; absent to stand up.
    pub seat: Option<u32>,
    /// Place on a multi-seat bench, from the left.
    #[tuplet(range(0, 5))]
    pub place: u8,
}

/// Broadcast to nearby players when a seat is taken or freed.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "seating:occupancy", id = 1010, dir = "s2c")]
pub struct SeatingOccupancy {
    /// Seat prop.
    pub seat: u32,
    /// Who sits in each place (absent = free).
    #[tuplet(len(max = 6))]
    pub places: Vec<Option<crate::common::PlayerRef>>,
}

/// Sent by a client laying a picnic blanket (a temporary seat for up to 4).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "seating:blanket", id = 1011, dir = "c2s")]
pub struct SeatingBlanket {
    /// Where, metres.
    pub at: crate::common::WorldPos,
    /// Orientation, radians.
    #[tuplet(quant = "crad", range(-3.1416, 3.1416))]
    pub yaw: f32,
    /// Pattern.
    #[tuplet(range(0, 11))]
    pub pattern: u8,
}
