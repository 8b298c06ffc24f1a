//! Server notices: announcements, restart countdowns, toasts. Ids 1150–1169.

/// How prominent a notice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tuplet::Enum)]
pub enum Level {
    /// A toast in the corner.
    Toast = 0,
    /// A banner across the top.
    Banner = 1,
    /// A modal that must be dismissed.
    Modal = 2,
}

/// What a notice is about.
#[derive(Debug, Clone, PartialEq, tuplet::Enum)]
#[tuplet(reserved = [3])]
pub enum NoticeBody {
    /// Free text from staff.
    #[tuplet(tag = 1)]
    Text(#[tuplet(len(min = 1, max = 500))] String),
    /// Restart countdown.
    #[tuplet(tag = 2)]
    Restart {
        /// Restart at, ms.
        at: u64,
        /// Expected downtime, seconds.
        downtime_s: u16,
    },
    /// A new client build is out; reload when convenient.
    #[tuplet(tag = 4)]
    NewBuild,
    /// Someone did something notable (a record fish, a full journal).
    #[tuplet(tag = 5)]
    Feat {
        /// Who.
        #[tuplet(len(min = 1, max = 24))]
        name: String,
        /// Translation key.
        #[tuplet(len(min = 1, max = 48))]
        key: String,
    },
}

/// Sent to the room (or one player) to show a notice.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "notice:show", id = 1150, dir = "s2c")]
pub struct NoticeShow {
    /// Notice id.
    pub id: u32,
    /// Prominence.
    pub level: Level,
    /// Content.
    pub body: NoticeBody,
    /// Hide after, seconds; absent stays until dismissed.
    pub ttl_s: Option<u16>,
}

/// Sent by a client dismissing a modal or banner (so it is not shown again on reload).
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "notice:dismiss", id = 1150, dir = "c2s")]
pub struct NoticeDismiss {
    /// Notice id.
    pub id: u32,
}

/// Sent by staff from the admin panel to broadcast a notice.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "notice:broadcast", id = 1151, dir = "c2s")]
pub struct NoticeBroadcast {
    /// Prominence.
    pub level: Level,
    /// Content.
    pub body: NoticeBody,
    /// One player only.
    #[tuplet(len = 9)]
    pub to: Option<String>,
}
