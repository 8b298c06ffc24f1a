//! Chat: room and channel messages, whispers, typing, reactions, history and moderation
//! notices. Text limits count UTF-8 bytes. Ids 30–49.

use std::collections::BTreeMap;

/// Where a chat line goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
#[tuplet(reserved = [4])]
pub enum Channel {
    /// Players within 40 m.
    Local = 0,
    /// The whole room.
    Room = 1,
    /// The sender's party.
    Party = 2,
    /// The trade channel (rate-limited harder).
    Trade = 3,
    /// Staff only.
    Staff = 5,
}

/// The channels a client listens to; unknown bits from newer servers are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, tuplet::Flags)]
#[tuplet(int = "u8", open)]
pub struct ChannelMask {
    /// Local chat.
    #[tuplet(bit = 0)]
    pub local: bool,
    /// Room chat.
    #[tuplet(bit = 1)]
    pub room: bool,
    /// Party chat.
    #[tuplet(bit = 2)]
    pub party: bool,
    /// Trade chat.
    #[tuplet(bit = 3)]
    pub trade: bool,
    /// Bits this build does not know.
    #[tuplet(rest)]
    pub rest: u8,
}

/// Sent by a client when its player says something.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:message", id = 30, dir = "c2s")]
pub struct ChatSay {
    /// The text, 1 to 280 bytes.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// Target channel.
    pub channel: Channel,
    /// Id of the line this replies to.
    pub reply_to: Option<u32>,
}

/// A chat line as delivered to listeners, after filtering.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:message", id = 30, dir = "s2c")]
pub struct ChatLine {
    /// Server-assigned line id (for replies, reactions, deletion).
    pub id: u32,
    /// Speaker's session id.
    #[tuplet(len = 9, legacy = "sessionId")]
    pub from: String,
    /// Speaker's name at the time.
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// The filtered text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// Channel it was said in.
    pub channel: Channel,
    /// Server time, ms.
    pub at: u64,
    /// Line replied to, if any.
    pub reply_to: Option<u32>,
    /// True when the speaker is a guest (not signed in): the client marks the line, so a
    /// guest cannot pass for a signed-in player in chat. Absent for signed-in speakers.
    /// Appended last and optional, so clients built before it skip it.
    pub guest: Option<bool>,
}

/// Sent by a client to whisper to one player by name.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:whisper", id = 31, dir = "c2s")]
pub struct WhisperSend {
    /// Recipient's display name.
    #[tuplet(len(min = 1, max = 24))]
    pub to: String,
    /// The text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
}

/// A whisper, delivered to the recipient and echoed to the sender.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:whisper", id = 31, dir = "s2c")]
pub struct WhisperDelivered {
    /// The other party (sender for the recipient, recipient for the echo).
    pub peer: crate::common::PlayerRef,
    /// The text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// True on the sender's own echo.
    pub echo: bool,
}

/// Typing indicator. Clients send it when they start or stop typing (at most once a
/// second); the server relays it to nearby players with the typist filled in.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:typing", id = 32, dir = "both")]
pub struct ChatTyping {
    /// Whether typing is under way.
    pub typing: bool,
    /// The typist; set by the server when relaying, absent from clients.
    #[tuplet(len = 9)]
    pub s: Option<String>,
}

/// Sent by the server when moderation removes lines; clients blank them in place.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:deleted", id = 33, dir = "s2c")]
pub struct ChatDeleted {
    /// The removed line ids.
    #[tuplet(len(min = 1, max = 100))]
    pub ids: Vec<u32>,
    /// Whether a moderator (not the author) removed them.
    pub by_staff: bool,
}

/// Sent to a player when they are muted, and again (with `until` absent) when unmuted.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:muted", id = 34, dir = "s2c")]
pub struct ChatMuted {
    /// When the mute lifts, ms; absent when lifted now.
    pub until: Option<u64>,
    /// Reason shown to the player.
    #[tuplet(len(max = 120))]
    pub reason: String,
}

/// Sent once after joining: the last lines of room chat.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:history", id = 35, dir = "s2c")]
pub struct ChatHistory {
    /// Oldest first.
    #[tuplet(len(max = 50))]
    pub lines: Vec<HistoryLine>,
}

/// A past chat line.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct HistoryLine {
    /// Line id.
    pub id: u32,
    /// Name of the speaker (the session may be gone).
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// The text.
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    /// Server time, ms.
    pub at: u64,
}

/// Sent by a client reacting to a line with an emoji.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:react", id = 36, dir = "c2s")]
pub struct ChatReact {
    /// The line.
    pub line: u32,
    /// One emoji (a grapheme can take up to 16 bytes).
    #[tuplet(len(min = 1, max = 16))]
    pub emoji: String,
    /// False to take the reaction back.
    pub on: bool,
}

/// Updated reaction counts for one line, sent to everyone who has it.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:reactions", id = 37, dir = "s2c")]
pub struct ChatReactions {
    /// The line.
    pub line: u32,
    /// Emoji to count.
    #[tuplet(len(max = 12))]
    pub counts: BTreeMap<String, u16>,
}

/// A localized system line ("Mira found a golden trout!").
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:system", id = 38, dir = "s2c")]
pub struct ChatSystem {
    /// Translation key.
    #[tuplet(len(min = 1, max = 64))]
    pub key: String,
    /// Placeholder values by name.
    #[tuplet(len(max = 8), item_len(max = 64))]
    pub params: BTreeMap<String, String>,
}

/// Sent by a client when the player toggles channels in the chat panel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "chat:channels", id = 39, dir = "c2s")]
pub struct ChatChannels {
    /// Channels to receive.
    pub listen: ChannelMask,
}
