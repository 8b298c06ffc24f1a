//! Guests server-wide: every room's guests, whether connected or in their grace window,
//! counted against one cap ([`crate::Config::guest_cap`]), so guests spread over many
//! prefix rooms cannot take the places signed-in players need. And a flag rooms read on
//! their tick: a new prefix room was refused for want of a place, so an empty room
//! stops now instead of after `room_idle`, and guests in their grace window in a room
//! with no connection end now: nobody holds a room.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The guests in every room, and whether a room is wanted.
#[derive(Debug, Default)]
pub(crate) struct Guests {
    held: AtomicUsize,
    room_wanted: AtomicBool,
}

/// One guest session's place; given back when dropped (the session ended).
#[derive(Debug)]
pub(crate) struct GuestPlace(Arc<Guests>);

impl Guests {
    /// A place for a guest session, if fewer than `max` are held.
    pub fn take(self: &Arc<Self>, max: usize) -> Option<GuestPlace> {
        self.held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| GuestPlace(self.clone()))
    }

    /// Guest sessions held now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// A new prefix room was refused (`wanted`), or one opened (`!wanted`).
    pub fn set_room_wanted(&self, wanted: bool) {
        self.room_wanted.store(wanted, Ordering::Relaxed);
    }

    /// Whether a new prefix room was refused since one last opened.
    pub fn room_wanted(&self) -> bool {
        self.room_wanted.load(Ordering::Relaxed)
    }
}

impl Drop for GuestPlace {
    fn drop(&mut self) {
        self.0.held.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_stop_at_the_cap_and_come_back_when_dropped() {
        let g = Arc::new(Guests::default());
        let a = g.take(2).unwrap();
        let _b = g.take(2).unwrap();
        assert!(g.take(2).is_none());
        assert_eq!(g.held(), 2);
        drop(a);
        assert_eq!(g.held(), 1);
        assert!(g.take(2).is_some());
    }
}
