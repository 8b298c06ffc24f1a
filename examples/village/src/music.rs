//! Music: the bandstand jukebox, instruments players can play, the busker's hat. Ids
//! 610–629.

/// An instrument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Instrument {
    /// Acoustic guitar.
    Guitar = 1,
    /// Piano at the inn.
    Piano = 2,
    /// Flute.
    Flute = 3,
    /// Drum.
    Drum = 4,
    /// Harp.
    Harp = 5,
}

/// Sent by a player playing notes, batched every 100 ms.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "music:notes", id = 610, dir = "c2s")]
pub struct MusicNotes {
    /// Instrument played.
    pub instrument: Instrument,
    /// MIDI note numbers struck in this window.
    #[tuplet(len(min = 1, max = 16))]
    pub notes: Vec<u8>,
    /// Offsets of each note within the window, ms.
    #[tuplet(len(min = 1, max = 16))]
    pub offsets: Vec<u8>,
    /// Velocity of the window, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub velocity: f32,
}

/// Relayed to listeners within 30 m, with the player delayed by 150 ms to absorb jitter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "music:notes", id = 610, dir = "s2c")]
pub struct MusicNotesHeard {
    /// Player.
    #[tuplet(len = 9)]
    pub s: String,
    /// Instrument.
    pub instrument: Instrument,
    /// Packed (note, offset) pairs.
    #[tuplet(len(min = 2, max = 32))]
    pub packed: Vec<u8>,
}

/// Sent by a client queueing a track on the bandstand jukebox (costs a coin).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "music:queue", id = 611, dir = "c2s")]
pub struct MusicQueue {
    /// Track key.
    #[tuplet(len(min = 1, max = 40))]
    pub track: String,
}

/// The jukebox's state, to players near the bandstand, on change.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "music:jukebox", id = 611, dir = "s2c")]
pub struct MusicJukebox {
    /// Playing now.
    #[tuplet(len(max = 40))]
    pub now: Option<String>,
    /// Playback position at `at`, seconds, to the centisecond.
    #[tuplet(scale = 100)]
    pub position_s: f64,
    /// Server time of that position, ms.
    pub at: u64,
    /// Upcoming tracks.
    #[tuplet(len(max = 20), item_len(min = 1, max = 40))]
    pub queue: Vec<String>,
    /// Volume, 0..1.
    #[tuplet(quant = "percent", range(0.0, 1.0))]
    pub volume: f32,
}

/// Sent by a client tuning its own music and ambience mix (kept locally too; saved for
/// the account).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "music:mix", id = 612, dir = "c2s")]
pub struct MusicMix {
    /// Channel name (`music`, `ambience`, `sfx`, `voice`) to gain, 0..1.5.
    #[tuplet(len(max = 8), quant = "percent", range(0.0, 1.5))]
    pub gains: std::collections::BTreeMap<String, f32>,
}
