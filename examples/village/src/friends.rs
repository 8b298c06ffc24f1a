//! Friends: requests, the friends list with presence, joining a friend. Ids 650–669.

/// A friend's presence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Presence {
    /// Not online.
    Offline = 0,
    /// In this room.
    Here = 1,
    /// In another room of the village.
    Elsewhere = 2,
    /// Online but away.
    Away = 3,
    /// Do not disturb.
    Busy = 4,
}

/// One friend.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Friend {
    /// Account id.
    #[tuplet(bigint)]
    pub account: u64,
    /// Display name.
    #[tuplet(len(min = 1, max = 24))]
    pub name: String,
    /// Presence.
    pub presence: Presence,
    /// Session in this room, when `Here`.
    #[tuplet(len = 9)]
    pub s: Option<String>,
    /// Last seen, ms, when offline.
    pub last_seen: Option<u64>,
}

/// The friends list, on join and when it changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "friends:list", id = 650, dir = "s2c")]
pub struct FriendsList {
    /// Friends.
    #[tuplet(len(max = 200))]
    pub friends: Vec<Friend>,
    /// Pending requests to this player.
    #[tuplet(len(max = 50))]
    pub incoming: Vec<crate::common::PlayerRef>,
}

/// Sent by a client asking someone to be friends.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "friends:request", id = 651, dir = "c2s")]
pub struct FriendsRequest {
    /// Target player (must be in the room; friend codes go through the website).
    #[tuplet(len = 9)]
    pub s: String,
}

/// Sent by a client answering a request or removing a friend.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "friends:answer", id = 652, dir = "c2s")]
pub struct FriendsAnswer {
    /// The other account.
    #[tuplet(bigint)]
    pub account: u64,
    /// Accept (true) or decline / remove.
    pub accept: bool,
}

/// Sent to a player when a friend's presence changes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "friends:presence", id = 653, dir = "s2c")]
pub struct FriendsPresence {
    /// The friend.
    #[tuplet(bigint)]
    pub account: u64,
    /// New presence.
    pub presence: Presence,
}

/// Sent by a client setting its own presence (away, busy).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "friends:status", id = 654, dir = "c2s")]
pub struct FriendsStatus {
    /// Presence to show.
    pub presence: Presence,
    /// Status text.
    #[tuplet(len(max = 60))]
    pub text: Option<String>,
}
