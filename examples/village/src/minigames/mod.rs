//! Mini-games: the lobby shared by every game (queueing, countdown, results), and one
//! module per game. Ids 450–469 for the lobby; each game has its own block.

pub mod hideseek;
pub mod kickball;
pub mod race;

/// The mini-games the lobby board offers. Open: new games appear server-side first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(open)]
#[repr(i64)]
pub enum Game {
    /// Foot or boat race.
    Race = 1,
    /// Hide and seek.
    HideSeek = 2,
    /// Kickball on the green.
    Kickball = 3,
    /// Snowball fight (winter).
    Snowball = 4,
    /// A game this build does not know.
    #[tuplet(unknown)]
    Unknown(i64),
}

/// Sent by a client joining or leaving a game's queue at the lobby board.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "minigame:queue", id = 450, dir = "c2s")]
pub struct MinigameQueue {
    /// Which game.
    pub game: Game,
    /// Join (true) or leave the queue.
    pub join: bool,
}

/// Sent to everyone queued when the queue changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "minigame:lobby", id = 450, dir = "s2c")]
pub struct MinigameLobby {
    /// Which game.
    pub game: Game,
    /// Players queued, in order.
    #[tuplet(len(max = 40))]
    pub queued: Vec<crate::common::PlayerRef>,
    /// Players needed to start.
    #[tuplet(range(2, 16))]
    pub needed: u8,
    /// Countdown to start, seconds, once enough are queued.
    #[tuplet(range(0, 60))]
    pub countdown: Option<u8>,
}

/// Broadcast to the participants when a round starts.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "minigame:start", id = 451, dir = "s2c")]
pub struct MinigameStart {
    /// Round id.
    pub round: u32,
    /// Which game.
    pub game: Game,
    /// Server time of the start signal, ms (clients count down to it).
    pub go_at: u64,
    /// Round length, seconds.
    #[tuplet(range(30, 1800))]
    pub length_s: u16,
}

/// One line of a results table.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Placing {
    /// Who.
    pub player: crate::common::PlayerRef,
    /// Final position, 1 = winner.
    #[tuplet(range(1, 40))]
    pub place: u8,
    /// Game score (race: ms; hide and seek: seconds hidden).
    pub score: i32,
    /// Coins won.
    pub coins: u16,
}

/// Broadcast to the participants when a round ends.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "minigame:results", id = 452, dir = "s2c")]
pub struct MinigameResults {
    /// Round id.
    pub round: u32,
    /// The table, best first.
    #[tuplet(len(max = 40))]
    pub table: Vec<Placing>,
}

/// Sent by a participant leaving a round early.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "minigame:forfeit", id = 453, dir = "c2s")]
pub struct MinigameForfeit {
    /// Round id.
    pub round: u32,
}
