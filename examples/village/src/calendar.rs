//! The events calendar: festivals, markets, competitions; signing up for reminders. Ids
//! 910–929.

/// What kind of event.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
#[tuplet(open)]
pub enum EventKind {
    /// A festival with decorations (the festival key).
    #[tuplet(tag = 1)]
    Festival(#[tuplet(len(min = 1, max = 24))] String),
    /// The night market.
    #[tuplet(tag = 2)]
    Market,
    /// A competition on a leaderboard, with a prize pool in coins.
    #[tuplet(tag = 3)]
    Contest {
        /// The board.
        board: crate::leaderboard::Board,
        /// Prize pool.
        pool: u32,
    },
    /// A staff-hosted gathering at a spot.
    #[tuplet(tag = 4)]
    Meetup {
        /// Where.
        at: crate::common::WorldPos,
        /// Host's name.
        #[tuplet(len(min = 1, max = 24))]
        host: String,
    },
    /// A kind this build does not know (shown as a plain entry).
    #[tuplet(unknown)]
    Unknown(u32),
}

/// One calendar entry.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct CalendarEvent {
    /// Event id.
    pub id: u32,
    /// Title.
    #[tuplet(len(min = 1, max = 60))]
    pub title: String,
    /// Kind and its details.
    pub kind: EventKind,
    /// Starts, ms.
    pub starts: u64,
    /// Length, minutes.
    pub minutes: u16,
    /// Signed-up players.
    pub going: u16,
}

/// The calendar for the next two weeks, when the noticeboard opens and on changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "calendar:month", id = 910, dir = "s2c")]
pub struct CalendarMonth {
    /// Entries, by start.
    #[tuplet(len(max = 60))]
    pub events: Vec<CalendarEvent>,
    /// Ids this player signed up for.
    #[tuplet(len(max = 60))]
    pub mine: Vec<u32>,
}

/// Sent by a client signing up for (or leaving) an event; signed-up players get a
/// reminder 10 minutes before.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "calendar:rsvp", id = 911, dir = "c2s")]
pub struct CalendarRsvp {
    /// Event id.
    pub event: u32,
    /// Going or not.
    pub going: bool,
}

/// The reminder.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "calendar:reminder", id = 912, dir = "s2c")]
pub struct CalendarReminder {
    /// Event id.
    pub event: u32,
    /// Minutes to start.
    #[tuplet(range(0, 60))]
    pub in_min: u8,
}
