//! Player safety: reports, blocking, the moderator queue, warnings. Ids 550–569.

/// What a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(open, reserved = [4])]
#[repr(i64)]
pub enum ReportCategory {
    /// Abusive chat.
    Harassment = 1,
    /// Spam or advertising.
    Spam = 2,
    /// Offensive name.
    Name = 3,
    /// Cheating (speed, teleport).
    Cheating = 5,
    /// Offensive building or photo.
    Content = 6,
    /// A category this build does not know.
    #[tuplet(unknown)]
    Unknown(i64),
}

/// Sent by a client reporting another player.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "report:submit", id = 550, dir = "c2s")]
pub struct ReportSubmit {
    /// Reported session.
    #[tuplet(len = 9)]
    pub target: String,
    /// Category.
    pub category: ReportCategory,
    /// Chat line ids as evidence.
    #[tuplet(len(max = 20))]
    pub lines: Vec<u32>,
    /// Free text.
    #[tuplet(len(max = 1000))]
    pub details: String,
    /// A screenshot, JPEG, when attached.
    #[tuplet(len(max = 262144))]
    pub screenshot: Option<Vec<u8>>,
}

/// Sent to the reporter: the report's ticket.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "report:received", id = 550, dir = "s2c")]
pub struct ReportReceived {
    /// Ticket number.
    pub ticket: u32,
    /// Whether the reported player was auto-muted pending review.
    pub auto_muted: bool,
}

/// Sent by a client blocking or unblocking someone (hides chat, trades and invites).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "moderation:block", id = 551, dir = "c2s")]
pub struct ModerationBlock {
    /// Account to block (blocks outlive sessions).
    #[tuplet(bigint)]
    pub account: u64,
    /// Block (true) or unblock.
    pub block: bool,
}

/// The block list, on join and after changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "moderation:blocked", id = 551, dir = "s2c")]
pub struct ModerationBlocked {
    /// Blocked accounts.
    #[tuplet(len(max = 500), bigint)]
    pub accounts: Vec<u64>,
}

/// One open report in the moderator queue.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct QueueItem {
    /// Ticket.
    pub ticket: u32,
    /// Category.
    pub category: ReportCategory,
    /// Reported player's name.
    #[tuplet(len(min = 1, max = 24))]
    pub target: String,
    /// Reports on this player in the last day.
    pub reports_24h: u16,
    /// Filed at, ms.
    pub at: u64,
}

/// Sent to moderators on duty whenever the queue changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "moderation:queue", id = 552, dir = "s2c")]
pub struct ModerationQueue {
    /// Open tickets, oldest first.
    #[tuplet(len(max = 100))]
    pub open: Vec<QueueItem>,
}

/// A formal warning shown in a modal the player must acknowledge.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "moderation:warning", id = 553, dir = "s2c")]
pub struct ModerationWarning {
    /// Warning id, acknowledged by the client.
    pub id: u32,
    /// Text.
    #[tuplet(len(min = 1, max = 500))]
    pub text: String,
    /// Strikes on the account now (3 is a ban).
    #[tuplet(range(1, 3))]
    pub strikes: u8,
}

/// Sent by the client when the player acknowledges a warning.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "moderation:ack", id = 554, dir = "c2s")]
pub struct ModerationAck {
    /// Warning id.
    pub id: u32,
}
