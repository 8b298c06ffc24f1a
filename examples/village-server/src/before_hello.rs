//! The budget of connections yet to say hello: a place per connection, capped per address
//! and overall. When the overall budget is full, a newcomer takes the place of the oldest
//! unfinished connection, whichever address or trusted proxy holds it. Keeping every place
//! held then costs an attacker more new connections a second than the budget divided by
//! the time a player takes to say hello: an idle socket per address, however many
//! addresses, only delays the next player by one eviction.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::Arc;

use tokio::sync::Notify;

/// One connection's place: its number (older places have smaller ones) and the signal
/// that tells its task it was evicted.
#[derive(Clone)]
pub(crate) struct Place {
    pub id: u64,
    pub evicted: Arc<Notify>,
}

/// Why a place is not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The address holds `max_per_ip` places.
    PerIp,
    /// The place was taken meanwhile (only from [`Budget::rekey`]).
    Full,
}

/// The places held, by address and by age. Not locked itself: [`crate::shared::Shared`]
/// keeps it under a mutex.
#[derive(Default)]
pub(crate) struct Budget {
    by_ip: HashMap<IpAddr, usize>,
    /// Every place, oldest first: its address and its signal.
    by_age: BTreeMap<u64, (IpAddr, Arc<Notify>)>,
    next: u64,
}

impl Budget {
    /// Places held now.
    pub fn total(&self) -> usize {
        self.by_age.len()
    }

    /// Places `ip` holds now.
    fn held(&self, ip: IpAddr) -> usize {
        self.by_ip.get(&ip).copied().unwrap_or(0)
    }

    /// A place for a connection from `ip`, under `max` overall and `max_per_ip` per address
    /// (`exempt` addresses, trusted proxies, have no per-address cap: their connections are
    /// many clients). With the overall budget full, the oldest place, whoever holds it,
    /// is taken and its signal notified.
    pub fn admit(
        &mut self,
        ip: IpAddr,
        max: usize,
        max_per_ip: usize,
        exempt: impl Fn(IpAddr) -> bool,
    ) -> Result<Place, Refused> {
        if !exempt(ip) && self.held(ip) >= max_per_ip {
            return Err(Refused::PerIp);
        }
        while self.total() >= max.max(1) {
            self.evict_oldest();
        }
        Ok(self.insert(ip))
    }

    /// Frees the oldest place and tells its connection.
    fn evict_oldest(&mut self) {
        if let Some((_, (ip, signal))) = self.by_age.pop_first() {
            self.forget(ip);
            signal.notify_one();
        }
    }

    fn forget(&mut self, ip: IpAddr) {
        if let Some(n) = self.by_ip.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.by_ip.remove(&ip);
            }
        }
    }

    fn insert(&mut self, ip: IpAddr) -> Place {
        self.next += 1;
        let evicted = Arc::new(Notify::new());
        self.by_age.insert(self.next, (ip, evicted.clone()));
        *self.by_ip.entry(ip).or_default() += 1;
        Place {
            id: self.next,
            evicted,
        }
    }

    /// Gives place `id` back; false when it was already taken (evicted).
    pub fn release(&mut self, id: u64) -> bool {
        match self.by_age.remove(&id) {
            Some((ip, _)) => {
                self.forget(ip);
                true
            }
            None => false,
        }
    }

    /// Counts place `id` under `to` from now on (a trusted proxy named its client), within
    /// `to`'s cap. `Err(PerIp)` when `to` holds `max_per_ip`; `Err(Full)` when the place
    /// was evicted meanwhile. The place keeps its age.
    pub fn rekey(
        &mut self,
        to: IpAddr,
        id: u64,
        max_per_ip: usize,
        exempt: impl Fn(IpAddr) -> bool,
    ) -> Result<(), Refused> {
        let from = self.by_age.get(&id).ok_or(Refused::Full)?.0;
        if from == to {
            return Ok(());
        }
        if !exempt(to) && self.held(to) >= max_per_ip {
            return Err(Refused::PerIp);
        }
        self.forget(from);
        *self.by_ip.entry(to).or_default() += 1;
        self.by_age.get_mut(&id).expect("checked above").0 = to;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    /// Whether `p` was told it is evicted (a stored permit makes `notified()` ready at once).
    fn evicted(p: &Place) -> bool {
        let mut f = std::pin::pin!(p.evicted.notified());
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        f.as_mut().poll(&mut cx).is_ready()
    }

    #[test]
    fn a_newcomer_evicts_the_oldest_place_whoever_holds_it() {
        let mut b = Budget::default();
        let none = |_| false;
        // Four addresses hold one place each: the budget (4) is full.
        let held: Vec<Place> = (1..=4)
            .map(|n| b.admit(ip(n), 4, 8, none).unwrap())
            .collect();
        assert_eq!(b.total(), 4);
        // A fifth address (the 257th of the issue: one idle socket per address) gets in,
        // and the oldest place, address 1's, is taken.
        let n = b.admit(ip(5), 4, 8, none).unwrap();
        assert_eq!(b.total(), 4);
        assert!(evicted(&held[0]));
        assert!(held[1..].iter().all(|p| !evicted(p)) && !evicted(&n));
        // The evicted place is gone: giving it back frees nothing.
        assert!(!b.release(held[0].id));
        assert_eq!(b.total(), 4);
        // The next newcomer takes address 2's, then address 3's.
        b.admit(ip(6), 4, 8, none).unwrap();
        assert!(evicted(&held[1]));
        b.admit(ip(6), 4, 8, none).unwrap();
        assert!(evicted(&held[2]) && !evicted(&held[3]));
        assert!(b.release(held[3].id));
        assert_eq!(b.total(), 3);
    }

    #[test]
    fn the_per_ip_cap_holds_and_a_capped_address_evicts_nobody() {
        let mut b = Budget::default();
        let none = |_| false;
        let x = b.admit(ip(3), 4, 2, none).unwrap();
        b.admit(ip(2), 4, 2, none).unwrap();
        b.admit(ip(2), 4, 2, none).unwrap();
        b.admit(ip(3), 4, 2, none).unwrap();
        assert_eq!(b.admit(ip(2), 4, 2, none).err(), Some(Refused::PerIp));
        assert!(!evicted(&x), "a refused newcomer takes nothing");
        b.admit(ip(1), 4, 2, none).unwrap();
        assert!(evicted(&x));
    }

    #[test]
    fn a_trusted_proxys_places_are_evictable_and_rekey_keeps_age_and_count() {
        let mut b = Budget::default();
        let proxy = |a: IpAddr| a == ip(9);
        // The proxy is over any per-address cap (1 here): its connections are many clients.
        let p: Vec<Place> = (0..3)
            .map(|_| b.admit(ip(9), 3, 1, proxy).unwrap())
            .collect();
        // Slow heads through the proxy do not lock a direct newcomer out.
        let d = b.admit(ip(1), 3, 1, proxy).unwrap();
        assert!(evicted(&p[0]));
        // The proxy names its clients: they count under their own addresses from now on.
        assert_eq!(
            b.rekey(ip(5), p[0].id, 1, proxy),
            Err(Refused::Full),
            "evicted"
        );
        b.rekey(ip(5), p[1].id, 1, proxy).unwrap();
        assert_eq!(b.rekey(ip(5), p[2].id, 1, proxy), Err(Refused::PerIp));
        assert_eq!(b.held(ip(5)), 1);
        assert_eq!(b.held(ip(9)), 1);
        // Rekeyed, the place keeps its age: it is the next evicted.
        b.admit(ip(2), 3, 1, proxy).unwrap();
        assert!(evicted(&p[1]) && !evicted(&p[2]) && !evicted(&d));
        assert_eq!(b.held(ip(5)), 0);
        assert!(b.release(p[2].id));
        assert_eq!(b.total(), 2);
    }
}
