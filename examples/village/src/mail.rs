//! The post office: letters between players with attached parcels, read receipts. Ids
//! 690–709.

/// A letter header in the mailbox.
#[derive(Debug, Clone, PartialEq, tuplet::Record)]
pub struct Letter {
    /// Letter id.
    pub id: u32,
    /// Sender's name ("Village Council" for system mail).
    #[tuplet(len(min = 1, max = 24))]
    pub from: String,
    /// Subject.
    #[tuplet(len(max = 60))]
    pub subject: String,
    /// Sent at, ms.
    pub at: u64,
    /// Read yet.
    pub read: bool,
    /// Has a parcel attached.
    pub parcel: bool,
}

/// The mailbox index, when the player opens the mailbox.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:box", id = 690, dir = "s2c")]
pub struct MailBox {
    /// Newest first.
    #[tuplet(len(max = 100))]
    pub letters: Vec<Letter>,
    /// Unread count (the HUD badge).
    pub unread: u16,
}

/// Sent by a client opening its mailbox (or a letter in it).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:open", id = 690, dir = "c2s")]
pub struct MailOpen {
    /// A letter to read; absent to list the box.
    pub letter: Option<u32>,
}

/// A letter's body and parcel.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:letter", id = 691, dir = "s2c")]
pub struct MailLetter {
    /// Letter id.
    pub id: u32,
    /// Body text.
    #[tuplet(len(max = 2000))]
    pub body: String,
    /// Attached items.
    #[tuplet(len(max = 4))]
    pub parcel: Vec<crate::common::ItemStack>,
    /// Attached coins.
    pub coins: u32,
    /// Stationery design.
    pub paper: u8,
}

/// Sent by a client posting a letter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:send", id = 692, dir = "c2s")]
pub struct MailSend {
    /// Recipient's name (any player who ever visited).
    #[tuplet(len(min = 1, max = 24))]
    pub to: String,
    /// Subject.
    #[tuplet(len(max = 60))]
    pub subject: String,
    /// Body.
    #[tuplet(len(max = 2000))]
    pub body: String,
    /// Backpack slots to attach.
    #[tuplet(len(max = 4))]
    pub attach: Vec<u8>,
    /// Stationery design.
    pub paper: u8,
}

/// Sent by a client taking the parcel out of a letter.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:collect", id = 693, dir = "c2s")]
pub struct MailCollect {
    /// Letter id.
    pub letter: u32,
}

/// Sent to a player when new mail arrives (the postie NPC also walks over).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "mail:arrived", id = 694, dir = "s2c")]
pub struct MailArrived {
    /// Sender's name.
    #[tuplet(len(min = 1, max = 24))]
    pub from: String,
    /// Unread count now.
    pub unread: u16,
}
