//! How a session starts: a hello takes a slot (or is refused with a reason), a resume
//! takes over the session its token names, and either is welcomed with a new resume token.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tuplet::relay::Cadence;
use tuplet::silence::Silence;
use tuplet::{Dispatch, Encoding, Message};
use village::dispatch::{ClientMessage, ServerMessage};
use village::session::{SessionError, SessionFailed, SessionHello, SessionResumed, SessionWelcome};

use crate::counters::Counter;
use crate::snapshot::SnapshotStream;
use crate::store::Saved;
use crate::token::{Claims, ResumeClaims};

use super::event::{close, Out};
use super::session_end::{kick, End};
use super::state::{now_ms, Player, Room};

impl Room {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_open(
        &mut self,
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        who: Option<Claims>,
        len: usize,
        ticket: u64,
        saved: Option<Saved>,
        ip: std::net::IpAddr,
        datagrams: bool,
    ) {
        self.meter_in
            .record_in(&ClientMessage::from(hello.clone()), len);
        let account = who.as_ref().map(|c| c.account);
        // The connection loaded the saved state before this event; a session of this
        // account that ended meanwhile (its leave handled just before this) saved a newer
        // one, which the store keeps in memory.
        let mut start = account
            .and_then(|a| self.sessions.store.cached(a))
            .or(saved);
        if let Some(account) = account {
            if !self.sessions.holds(account, ticket) {
                // A later hello of the same account claimed it meanwhile: that one wins.
                self.counters.add(Counter::Replaced);
                kick(&tx);
                return;
            }
            // Two of everything: the older session of this account (a tab not yet
            // closed, a reload inside the grace window) ends here, saved, and this one
            // starts where it was.
            if let Some(old) = self.slot_of_account(account) {
                if let Some(state) = self.end_session(old, End::Replaced) {
                    start = Some(state);
                }
            }
        }
        let free = self.slots.iter().position(Option::is_none);
        let cfg = &self.config;
        let count =
            |f: &dyn Fn(&Player) -> bool| self.slots.iter().flatten().filter(|p| f(p)).count();
        // Guests: refused when the configuration says so, and at most `guests_per_room`,
        // so signed-in players always find the rest of the room; and at most
        // `per_ip_per_room` players from one address.
        let refused = if account.is_none() && !cfg.guests {
            Some("guests_refused")
        } else if account.is_none() && count(&|p| p.guest) >= cfg.guests_per_room {
            Some("guests_full")
        } else if cfg.per_ip_per_room > 0 && count(&|p| p.ip == ip) >= cfg.per_ip_per_room {
            Some("ip_full")
        } else {
            None
        };
        // And at most `Config::guest_cap` guests server-wide, held until the session ends.
        let guest_place = match (refused, account) {
            (None, None) => self.guests.take(cfg.guest_cap()),
            _ => None,
        };
        let refused = refused
            .or((account.is_none() && guest_place.is_none()).then_some("guests_server_full"));
        let (Some(idx), false, None) = (free, self.draining, refused) else {
            let error = if self.draining {
                SessionError::RateLimited(30_000)
            } else if refused.is_some() {
                SessionError::RoomFull(0)
            } else {
                SessionError::RoomFull(self.config.room_capacity.min(255) as u8)
            };
            let full = ServerMessage::from(SessionFailed { error, fatal: true });
            if let Ok(bytes) = full.to_envelope(Encoding::Compact) {
                let n = bytes.len();
                let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
            }
            let _ = tx.try_send(Out::Close(close::TRY_LATER, "room full"));
            self.stats
                .record_drop(SessionHello::NAME, refused.unwrap_or("room_full"));
            if let Some(account) = account {
                self.sessions.release(account, ticket);
            }
            return;
        };
        self.next_gen += 1;
        // Protocol revision 1 clients predate the tuple shapes: they get maps.
        let shape = if hello.protocol < 2 {
            Encoding::Named
        } else {
            Encoding::Compact
        };
        self.slots[idx] = Some(Player {
            tx,
            queued,
            pending: Vec::new(),
            pending_bytes: 0,
            behind_since: None,
            gen: self.next_gen,
            session: session_id(),
            ip,
            account,
            ticket,
            nonce: 0,
            detached_at: None,
            start,
            saved_pos: [f32::NAN; 3],
            joined: false,
            guest: who.is_none(),
            _guest_place: guest_place,
            cast: false,
            shape,
            name: String::new(),
            pos: [0.0; 3],
            heading: 0.0,
            seq: 0,
            bank: self.config.max_speed * self.config.speed_bank_s,
            last_move: Instant::now(),
            cadence: Cadence::default(),
            silence: Silence::new(),
            owed: None,
            seen: vec![0; self.slots.len()],
            birds: false,
            view_radius: self.config.view_radius,
            snapshot: SnapshotStream::new(self.config.keyframe_every, datagrams),
            who,
        });
        self.conns[idx] = conn;
        self.open += 1;
        self.stats.accepted += 1;
        self.welcome(idx, false);
    }

    /// `session:welcome` to slot `idx`, with a new single-use resume token.
    pub(super) fn welcome(&mut self, idx: usize, resumed: bool) {
        let occupancy = (self.open + self.detached).clamp(1, 40) as u8;
        let grace = !self.config.grace.is_zero();
        let p = self.slots[idx].as_mut().expect("a player to welcome");
        p.nonce = crate::sessions::random_u64();
        let resume_token = grace.then(|| {
            crate::token::mint_resume(
                &self.sessions.resume_key,
                &ResumeClaims {
                    s: p.session.clone(),
                    room: self.name.clone(),
                    n: p.nonce,
                    who: p.who.clone(),
                },
            )
        });
        let welcome = ServerMessage::from(SessionWelcome {
            s: p.session.clone(),
            account: p.account,
            server_time: now_ms(),
            occupancy,
            resumed,
            motd: None,
            resume_token,
        });
        self.send_to(idx, &welcome);
    }

    /// The slot of `account`'s session in this room, if any.
    pub(super) fn slot_of_account(&self, account: u64) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.account == Some(account)))
    }

    /// A resume: the session the token names takes the new connection, if it is here and
    /// the token is the last one issued for it. Its state, sequence numbers and place in
    /// the room are kept; its delta mirror is healed by a keyframe, in the mode of the new
    /// connection (acknowledged over datagrams).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn on_resume(
        &mut self,
        conn: u64,
        tx: mpsc::Sender<Out>,
        queued: Arc<AtomicUsize>,
        hello: SessionHello,
        claims: ResumeClaims,
        len: usize,
        datagrams: bool,
    ) {
        self.meter_in
            .record_in(&ClientMessage::from(hello.clone()), len);
        let found = self
            .slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.session == claims.s));
        let refused = match found.and_then(|i| self.slots[i].as_ref()) {
            None => Some((Counter::ResumeGone, SessionError::TokenExpired)),
            Some(p) if p.account != claims.who.as_ref().map(|c| c.account) => {
                Some((Counter::ResumeMismatch, SessionError::TokenInvalid))
            }
            Some(p) if p.nonce != claims.n => {
                Some((Counter::ResumeReplayed, SessionError::TokenInvalid))
            }
            Some(_) if self.draining => {
                Some((Counter::Draining, SessionError::RateLimited(30_000)))
            }
            Some(_) => None,
        };
        if let Some((counter, error)) = refused {
            self.counters.add(counter);
            let failed = ServerMessage::from(SessionFailed { error, fatal: true });
            if let Ok(bytes) = failed.to_envelope(Encoding::Compact) {
                let n = bytes.len();
                let _ = tx.try_send(Out::Frames(vec![bytes.into()], n));
            }
            let _ = tx.try_send(Out::Close(close::POLICY, counter.name()));
            return;
        }
        let idx = found.expect("checked");
        let p = self.slots[idx].as_mut().expect("checked");
        let gap = p.detached_at.map_or(Duration::ZERO, |t| t.elapsed());
        if p.detached_at.take().is_some() {
            self.detached -= 1;
            self.open += 1;
        } else {
            // The older connection is still open (the new page's hello beat the old
            // socket's close): it is told and closed; its close finds no slot.
            kick(&p.tx);
        }
        p.tx = tx;
        p.queued = queued;
        p.pending.clear();
        p.pending_bytes = 0;
        p.behind_since = None;
        p.shape = if hello.protocol < 2 {
            Encoding::Named
        } else {
            Encoding::Compact
        };
        // A new stream: its first snapshot is a keyframe, numbered from 1 over datagrams.
        p.snapshot = SnapshotStream::new(self.config.keyframe_every, datagrams);
        self.conns[idx] = conn;
        self.counters.add(Counter::Resumed);
        self.welcome(idx, true);
        let guest = self.slots[idx].as_ref().is_some_and(|p| p.guest);
        let grace_ms = self
            .config
            .grace_for(guest)
            .as_millis()
            .min(u128::from(u32::MAX)) as u32;
        let resumed = ServerMessage::from(SessionResumed {
            gap_ms: gap.as_millis().min(u128::from(u32::MAX)) as u32,
            dropped: 0,
            grace_ms,
        });
        self.send_to(idx, &resumed);
        if self.slots[idx].as_ref().is_some_and(|p| p.joined) {
            let roster = self.roster(idx);
            let clock = self.clock();
            self.send_to(idx, &roster);
            self.send_to(idx, &clock);
        }
    }
}

/// A 9-character session id (as Colyseus' are), from the operating system's random
/// source: nobody can guess another player's id from its own.
pub(super) fn session_id() -> String {
    const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut raw = [0u8; 9];
    if getrandom::fill(&mut raw).is_err() {
        // No random source at all is a broken machine; still never a predictable id.
        panic!("village-server: the operating system's random source failed");
    }
    raw.iter()
        .map(|b| ALPHABET[usize::from(*b) % 36] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_differ_and_are_nine_characters() {
        let ids: std::collections::BTreeSet<String> = (0..1000).map(|_| session_id()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(ids.iter().all(|s| s.len() == 9));
    }
}
