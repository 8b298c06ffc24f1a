//! How a session ends: every path (leave, drop, replacement, grace, drain, eviction)
//! goes through [`Room::end_session`], which saves, releases and tells the room.

use std::time::Instant;

use tokio::sync::mpsc;
use tuplet::{Dispatch, Encoding};

use village::dispatch::ServerMessage;
use village::notices::{Level, NoticeBody, NoticeShow};
use village::player::{LeaveReason, PlayerLeft};
use village::session::SessionKicked;

use crate::counters::Counter;
use crate::store::Saved;

use super::event::{close, Out};
use super::state::{Room, FREE};

/// Why a session ended (every path goes through [`Room::end_session`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// `session:leave`, or a connection that closed before it joined.
    Left,
    /// Its connection dropped and no grace applies (draining, or `grace` is zero).
    Dropped,
    /// The same account joined again.
    Replaced,
    /// Its grace window passed without a resume.
    GraceExpired,
    /// The server is draining.
    Drained,
    /// Closed by the room: a reader too slow.
    Evicted,
}

impl Room {
    /// The one way a session ends, whatever ended it: its state handed to the store (a
    /// signed-in player that joined), its claim released, its leave told to the room, its
    /// connection (if still open) told why and closed. Returns its last state.
    pub(super) fn end_session(&mut self, idx: usize, why: End) -> Option<Saved> {
        let mut p = self.slots[idx].take()?;
        if self.conns[idx] != FREE {
            self.conns[idx] = FREE;
            self.open -= 1;
        }
        if p.detached_at.is_some() {
            self.detached -= 1;
        }
        if self.open == 0 && self.detached == 0 {
            self.empty_since = Instant::now();
        }
        self.counters.add(Counter::SessionsEnded);
        match why {
            End::Replaced => self.counters.add(Counter::Replaced),
            End::GraceExpired => self.counters.add(Counter::GraceExpired),
            _ => {}
        }
        let state = if p.joined {
            Some(Saved {
                pos: p.pos,
                heading: p.heading,
            })
        } else {
            p.start
        };
        if let (Some(account), Some(state)) = (p.account, state) {
            self.sessions.store.save(account, state);
            p.saved_pos = state.pos;
            self.counters.add(Counter::SessionsSaved);
        }
        if let Some(account) = p.account {
            self.sessions.release(account, p.ticket);
        }
        if p.detached_at.is_none() {
            match why {
                End::Replaced => kick(&p.tx),
                End::Left => {
                    let _ = p.tx.try_send(Out::Close(close::NORMAL, "left"));
                }
                _ => {}
            }
        }
        if p.joined {
            self.presence.left(&p.session);
            self.joined.retain(|&i| i != idx);
            let reason = match why {
                End::Left | End::Dropped | End::Evicted => LeaveReason::Closed,
                End::Replaced => LeaveReason::Replaced,
                End::GraceExpired => LeaveReason::TimedOut,
                End::Drained => LeaveReason::Shutdown,
            };
            let left = || {
                ServerMessage::from(PlayerLeft {
                    s: p.session,
                    reason,
                })
            };
            self.fan_out(left, p.pos, None, None, |_, _| true);
        }
        state
    }

    /// Hands a signed-in player's state to the store (not an end: on the timer, after a
    /// long move, when its connection drops).
    pub(super) fn save(&mut self, idx: usize) {
        let Some(p) = self.slots[idx].as_mut().filter(|p| p.joined) else {
            return;
        };
        if let Some(account) = p.account {
            self.sessions.store.save(
                account,
                Saved {
                    pos: p.pos,
                    heading: p.heading,
                },
            );
            p.saved_pos = p.pos;
        }
    }

    /// Tells every player the server stops by `at_ms` and refuses newcomers from now on.
    pub(super) fn on_drain(&mut self, at_ms: u64) {
        self.draining = true;
        // Sessions in their grace window have no connection to come back on: they end
        // now, saved.
        for idx in 0..self.slots.len() {
            if self.slots[idx]
                .as_ref()
                .is_some_and(|p| p.detached_at.is_some())
            {
                self.end_session(idx, End::Drained);
            }
        }
        let notice = ServerMessage::from(NoticeShow {
            id: 1,
            level: Level::Banner,
            body: NoticeBody::Restart {
                at: at_ms,
                downtime_s: 0,
            },
            ttl_s: None,
        });
        for idx in 0..self.slots.len() {
            self.send_to(idx, &notice);
        }
    }

    /// The slot of connection `conn`, if it is in the room.
    pub(super) fn slot_of(&self, conn: u64) -> Option<usize> {
        self.conns.iter().position(|&c| c == conn)
    }

    /// A connection ended. A joined player's session outlives it for `Config::grace`
    /// (saved now, in case it is not resumed); otherwise the session ends.
    pub(super) fn on_close(&mut self, conn: u64) {
        let Some(idx) = self.slot_of(conn) else {
            return;
        };
        let joined = self.slots[idx].as_ref().is_some_and(|p| p.joined);
        if !joined {
            self.end_session(idx, End::Left);
            return;
        }
        if self.draining || self.config.grace.is_zero() {
            self.end_session(idx, End::Dropped);
            return;
        }
        self.save(idx);
        self.conns[idx] = FREE;
        self.open -= 1;
        self.detached += 1;
        if let Some(p) = self.slots[idx].as_mut() {
            p.detached_at = Some(Instant::now());
            p.pending.clear();
            p.pending_bytes = 0;
        }
    }

    /// Closes slot `idx`'s connection with `code` and frees the slot at once (its writer
    /// may still be blocked on the socket; `Config::write_timeout` ends it).
    pub(super) fn evict(&mut self, idx: usize, code: u16, reason: &'static str) {
        if let Some(p) = self.slots[idx].as_ref() {
            let _ = p.tx.try_send(Out::Close(code, reason));
            self.end_session(idx, End::Evicted);
        }
    }
}

/// Tells a connection its session was taken over by a newer one, and closes it.
pub(super) fn kick(tx: &mpsc::Sender<Out>) {
    let kicked = ServerMessage::from(SessionKicked {
        reason: "session.replaced".into(),
        permanent: false,
    });
    if let Ok(bytes) = kicked.to_envelope(Encoding::Compact) {
        let n = bytes.len();
        let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
    }
    let _ = tx.try_send(Out::Close(close::NORMAL, "replaced"));
}
