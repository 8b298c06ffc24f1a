//! Races: foot races around the village and boat races in the harbour; checkpoints, laps,
//! ghost splits. Ids 470–489.

/// Sent by a racer crossing a checkpoint; the server checks it against the move stream.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "race:checkpoint", id = 470, dir = "c2s")]
pub struct RaceCheckpoint {
    /// Round id.
    pub round: u32,
    /// Checkpoint index.
    #[tuplet(range(0, 63))]
    pub index: u8,
    /// Racer's clock at the crossing, ms.
    pub t: u64,
}

/// The standings after each checkpoint, to every racer and spectator.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "race:standings", id = 470, dir = "s2c")]
pub struct RaceStandings {
    /// Round id.
    pub round: u32,
    /// Session ids in running order.
    #[tuplet(len(max = 16), item_len(min = 9, max = 9))]
    pub order: Vec<String>,
    /// Each racer's gap to the leader, seconds, to the hundredth.
    #[tuplet(scale = 100, range(0.0, 600.0), len(max = 16))]
    pub gaps: Vec<f32>,
    /// Lap the leader is on.
    #[tuplet(range(1, 10))]
    pub lap: u8,
}

/// Sent to a racer who misses a checkpoint or cuts the course.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "race:penalty", id = 471, dir = "s2c")]
pub struct RacePenalty {
    /// Seconds added.
    #[tuplet(range(1, 30))]
    pub seconds: u8,
    /// Checkpoint to go back to.
    pub back_to: u8,
}

/// The racer's personal best splits, sent before the start for the ghost.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "race:ghost", id = 472, dir = "s2c")]
pub struct RaceGhost {
    /// Course key.
    #[tuplet(len(min = 1, max = 32))]
    pub course: String,
    /// Split per checkpoint, ms from the start.
    #[tuplet(len(max = 64))]
    pub splits: Vec<u32>,
    /// Ghost path, packed delta-encoded positions (opaque to the protocol).
    #[tuplet(len(max = 16384))]
    pub path: Vec<u8>,
}

/// Sent by a client saving a finished run as its ghost.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "race:ghost", id = 472, dir = "c2s")]
pub struct RaceGhostUpload {
    /// Round the run was in.
    pub round: u32,
    /// Packed path as recorded.
    #[tuplet(len(min = 1, max = 16384))]
    pub path: Vec<u8>,
}
