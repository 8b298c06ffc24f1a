//! Telling players when saving fails: checked once a second, a banner to every player in
//! the room when the store's writes start failing (their progress is held in memory and
//! retried) and one when they succeed again.

use village::dispatch::ServerMessage;
use village::notices::{Level, NoticeBody, NoticeShow};

use super::Room;

/// The notice id of the saving banners (the drain's restart notice is 1).
pub(crate) const SAVING_NOTICE: u32 = 2;

/// What players are told when saving starts failing.
pub(crate) const SAVING_FAILS: &str =
    "Saving is failing on the server: your progress is kept and saved as soon as it can be.";

/// What players are told when it works again.
pub(crate) const SAVING_WORKS: &str = "Saving works again: your progress is saved.";

impl Room {
    /// Tells every player, when the store's state changed since they were last told.
    pub(super) fn tell_if_saving_changed(&mut self) {
        let failing = self.sessions.store.failing();
        if failing == self.told_saving_fails {
            return;
        }
        self.told_saving_fails = failing;
        let notice = ServerMessage::from(NoticeShow {
            id: SAVING_NOTICE,
            level: Level::Banner,
            body: NoticeBody::Text(if failing { SAVING_FAILS } else { SAVING_WORKS }.into()),
            ttl_s: (!failing).then_some(10),
        });
        for idx in 0..self.slots.len() {
            self.send_to(idx, &notice);
        }
    }
}
