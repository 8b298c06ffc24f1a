//! Leaderboards: weekly boards per activity, the player's own rank. Ids 730–749.

/// Which board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [2])]
pub enum Board {
    /// Heaviest fish.
    Fishing = 1,
    /// Fastest race laps.
    RaceLap = 3,
    /// Coins collected.
    Coins = 4,
    /// Birds spotted.
    Birds = 5,
    /// Garden harvest.
    Harvest = 6,
}

/// Sent by a client opening a board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "leaderboard:get", id = 730, dir = "c2s")]
pub struct LeaderboardGet {
    /// Which board.
    pub board: Board,
    /// Weeks back: 0 is this week.
    #[tuplet(range(0, 12))]
    pub weeks_back: u8,
    /// Friends only.
    pub friends: bool,
}

/// One board, top 50 by rank.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "leaderboard:board", id = 730, dir = "s2c")]
pub struct LeaderboardBoard {
    /// Which board.
    pub board: Board,
    /// Rank to (name, score); scores are board-specific ints (grams, ms, counts).
    #[tuplet(len(max = 50))]
    pub top: std::collections::BTreeMap<u16, RankRow>,
    /// This player's rank, if ranked.
    pub mine: Option<u32>,
    /// Board closes at, ms.
    pub closes: u64,
}

/// One row of a board.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct RankRow {
    /// Name.
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// Score.
    pub score: i64,
    /// Rank change since yesterday.
    pub trend: i16,
}

/// Sent to a player who enters the top 10 of any board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "leaderboard:ranked", id = 731, dir = "s2c")]
pub struct LeaderboardRanked {
    /// Which board.
    pub board: Board,
    /// New rank.
    #[tuplet(range(1, 10))]
    pub rank: u8,
    /// Who they pushed down, if anyone.
    #[tuplet(len(min = 1, max = 24))]
    pub passed: Option<String>,
}
