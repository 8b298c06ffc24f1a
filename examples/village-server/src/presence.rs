//! Who is playing, server-wide, for what watches the server from outside (the Agones
//! lifecycle, [`crate::Server::players`]): the session ids of the players who joined a
//! room and have not left, and a count of room ticks. Rooms write it on join, on leave and
//! on every tick; it is one short lock per join or leave and one atomic add per tick.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use tokio::sync::watch;

/// The joined players and the tick count.
#[derive(Debug)]
pub(crate) struct Presence {
    players: Mutex<BTreeSet<String>>,
    /// The number of players, changed on every join and leave: each watcher wakes once
    /// for any number of changes since it last looked.
    count: watch::Sender<usize>,
    ticks: AtomicU64,
}

impl Default for Presence {
    fn default() -> Presence {
        Presence {
            players: Mutex::default(),
            count: watch::Sender::new(0),
            ticks: AtomicU64::new(0),
        }
    }
}

impl Presence {
    fn players(&self) -> MutexGuard<'_, BTreeSet<String>> {
        self.players.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A player joined a room as `session`.
    pub fn joined(&self, session: &str) {
        let mut players = self.players();
        players.insert(session.to_string());
        self.count.send_replace(players.len());
    }

    /// The player `session` left its room.
    pub fn left(&self, session: &str) {
        let mut players = self.players();
        players.remove(session);
        self.count.send_replace(players.len());
    }

    /// The session ids of everyone in a room now.
    #[cfg_attr(not(feature = "agones"), allow(dead_code))]
    pub fn snapshot(&self) -> BTreeSet<String> {
        self.players().clone()
    }

    /// Players in rooms now.
    pub fn count(&self) -> usize {
        self.players().len()
    }

    /// A watch of the player count: its `changed()` resolves after any join or leave
    /// since the watcher last looked (changes in between are seen together, by the next
    /// [`Presence::snapshot`]).
    #[cfg_attr(not(feature = "agones"), allow(dead_code))]
    pub fn watch(&self) -> watch::Receiver<usize> {
        self.count.subscribe()
    }

    /// A room ticked.
    pub fn tick(&self) {
        self.ticks.fetch_add(1, Ordering::Relaxed);
    }

    /// Room ticks so far, every room's together.
    pub fn ticks(&self) -> u64 {
        self.ticks.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn joins_and_leaves_are_seen_together_after_a_wake() {
        let p = Presence::default();
        let mut count = p.watch();
        p.joined("a");
        p.joined("b");
        p.left("a");
        // One wake for the three changes.
        tokio::time::timeout(std::time::Duration::from_secs(1), count.changed())
            .await
            .expect("a change was signalled")
            .unwrap();
        assert_eq!(*count.borrow_and_update(), 1);
        assert!(!count.has_changed().unwrap());
        assert_eq!(p.snapshot().into_iter().collect::<Vec<_>>(), ["b"]);
        assert_eq!(p.count(), 1);
        p.tick();
        p.tick();
        assert_eq!(p.ticks(), 2);
    }
}
