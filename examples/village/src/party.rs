//! Parties: up to 8 players grouped for chat, mini-games and shared quests; invites,
//! leader, members' positions on the map. Ids 670–689.

/// Sent by the leader (or anyone, for a new party) inviting a player.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:invite", id = 670, dir = "c2s")]
pub struct PartyInvite {
    /// Invitee.
    #[tuplet(len = 9)]
    pub s: String,
}

/// Delivered to the invitee.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:invited", id = 670, dir = "s2c")]
pub struct PartyInvited {
    /// Party id.
    pub party: u32,
    /// Who invites.
    pub by: crate::common::PlayerRef,
    /// Members now.
    #[tuplet(range(1, 8))]
    pub size: u8,
}

/// Sent by the invitee.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:join", id = 671, dir = "c2s")]
pub struct PartyJoin {
    /// Party id.
    pub party: u32,
}

/// A party member.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Member {
    /// Who.
    pub player: crate::common::PlayerRef,
    /// Leader or not.
    pub leader: bool,
    /// Map position (x, z), metres, to the decimetre.
    #[tuplet(quant = "dm", range(-5000.0, 5000.0))]
    pub map: [f32; 2],
}

/// Sent to the members when anyone joins or leaves, and every 2 s for map dots.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:state", id = 671, dir = "s2c")]
pub struct PartyState {
    /// Party id.
    pub party: u32,
    /// Members.
    #[tuplet(len(min = 1, max = 8))]
    pub members: Vec<Member>,
    /// Shared quest, if the leader set one.
    #[tuplet(len(max = 48))]
    pub quest: Option<String>,
}

/// Sent by a member leaving, or by the leader removing someone.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:leave", id = 672, dir = "c2s")]
pub struct PartyLeave {
    /// Member to remove (leader only); absent to leave oneself.
    #[tuplet(len = 9)]
    pub kick: Option<String>,
}

/// Sent by the leader handing over leadership.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:promote", id = 673, dir = "c2s")]
pub struct PartyPromote {
    /// New leader.
    #[tuplet(len = 9)]
    pub s: String,
}

/// Sent by a member dropping a ping on the map for the party.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "party:ping", id = 674, dir = "both")]
pub struct PartyPing {
    /// Pinged point (x, z), metres.
    #[tuplet(quant = "dm", range(-5000.0, 5000.0))]
    pub at: [f32; 2],
    /// Pinger; filled in by the server on relay.
    #[tuplet(len = 9)]
    pub by: Option<String>,
}
