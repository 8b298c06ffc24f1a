//! The budget of connections yet to say hello: a place per connection, capped per address
//! and overall. When the overall budget is full, a newcomer takes the place of the oldest
//! unfinished connection, whichever address or trusted proxy holds it. Keeping every place
//! held then costs an attacker more new connections a second than the budget divided by
//! the time a player takes to say hello: an idle socket per address, however many
//! addresses, only delays the next player by one eviction.
//!
//! An address takes someone's place at most once a [`COOLING`]: with the budget full and
//! its last eviction more recent, its newcomer is refused at accept, before any task or
//! buffer. An attacker reconnecting the moment it is evicted then evicts at most once a
//! [`COOLING`] per address, instead of as fast as the server accepts; a player, who
//! connects once, is never refused for it.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// The budget is full and the address took a place in the last [`COOLING`].
    Cooling,
}

/// How long after taking someone's place an address may not take another's.
pub(crate) const COOLING: Duration = Duration::from_secs(1);

/// Evictions remembered for [`COOLING`], at most: past that the oldest is forgotten
/// early, so the memory is bounded whatever the number of addresses.
const COOLING_MAX: usize = 4096;

/// The places held, by address and by age. Not locked itself: [`crate::shared::Shared`]
/// keeps it under a mutex.
#[derive(Default)]
pub(crate) struct Budget {
    by_ip: HashMap<IpAddr, usize>,
    /// Every place, oldest first: its address and its signal.
    by_age: BTreeMap<u64, (IpAddr, Arc<Notify>)>,
    next: u64,
    /// Evictions in the last [`COOLING`], oldest first, by the newcomer's address, and
    /// their count by address.
    evictions: VecDeque<(Instant, IpAddr)>,
    cooling: HashMap<IpAddr, u32>,
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
    /// is taken and its signal notified, unless `ip` took one in the [`COOLING`] before
    /// `now` (`Err(Cooling)`; exempt addresses never cool).
    pub fn admit(
        &mut self,
        ip: IpAddr,
        now: Instant,
        max: usize,
        max_per_ip: usize,
        exempt: impl Fn(IpAddr) -> bool,
    ) -> Result<Place, Refused> {
        let exempt = exempt(ip);
        if !exempt && self.held(ip) >= max_per_ip {
            return Err(Refused::PerIp);
        }
        if self.total() >= max.max(1) {
            self.cool(now);
            if !exempt && self.cooling.contains_key(&ip) {
                return Err(Refused::Cooling);
            }
        }
        let mut evicted = false;
        while self.total() >= max.max(1) {
            self.evict_oldest();
            evicted = true;
        }
        if evicted && !exempt {
            self.remember_eviction(now, ip);
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

    /// Remembers that `ip` took a place at `now`.
    fn remember_eviction(&mut self, now: Instant, ip: IpAddr) {
        if self.evictions.len() >= COOLING_MAX {
            self.forget_eviction();
        }
        self.evictions.push_back((now, ip));
        *self.cooling.entry(ip).or_default() += 1;
    }

    /// Forgets the evictions older than [`COOLING`] before `now`.
    fn cool(&mut self, now: Instant) {
        while self
            .evictions
            .front()
            .is_some_and(|&(at, _)| now.saturating_duration_since(at) >= COOLING)
        {
            self.forget_eviction();
        }
    }

    /// Forgets the oldest eviction remembered.
    fn forget_eviction(&mut self) {
        if let Some((_, ip)) = self.evictions.pop_front() {
            if let Some(n) = self.cooling.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    self.cooling.remove(&ip);
                }
            }
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
        let t0 = Instant::now();
        let mut b = Budget::default();
        let none = |_| false;
        // Four addresses hold one place each: the budget (4) is full.
        let held: Vec<Place> = (1..=4)
            .map(|n| b.admit(ip(n), t0, 4, 8, none).unwrap())
            .collect();
        assert_eq!(b.total(), 4);
        // A fifth address (the 257th of the issue: one idle socket per address) gets in,
        // and the oldest place, address 1's, is taken.
        let n = b.admit(ip(5), t0, 4, 8, none).unwrap();
        assert_eq!(b.total(), 4);
        assert!(evicted(&held[0]));
        assert!(held[1..].iter().all(|p| !evicted(p)) && !evicted(&n));
        // The evicted place is gone: giving it back frees nothing.
        assert!(!b.release(held[0].id));
        assert_eq!(b.total(), 4);
        // The next newcomer takes address 2's, then (a second later: an address evicts
        // at most once a second) address 3's.
        b.admit(ip(6), t0, 4, 8, none).unwrap();
        assert!(evicted(&held[1]));
        b.admit(ip(6), t0 + COOLING, 4, 8, none).unwrap();
        assert!(evicted(&held[2]) && !evicted(&held[3]));
        assert!(b.release(held[3].id));
        assert_eq!(b.total(), 3);
    }

    #[test]
    fn the_per_ip_cap_holds_and_a_capped_address_evicts_nobody() {
        let t0 = Instant::now();
        let mut b = Budget::default();
        let none = |_| false;
        let x = b.admit(ip(3), t0, 4, 2, none).unwrap();
        b.admit(ip(2), t0, 4, 2, none).unwrap();
        b.admit(ip(2), t0, 4, 2, none).unwrap();
        b.admit(ip(3), t0, 4, 2, none).unwrap();
        assert_eq!(b.admit(ip(2), t0, 4, 2, none).err(), Some(Refused::PerIp));
        assert!(!evicted(&x), "a refused newcomer takes nothing");
        b.admit(ip(1), t0, 4, 2, none).unwrap();
        assert!(evicted(&x));
    }

    #[test]
    fn a_trusted_proxys_places_are_evictable_and_rekey_keeps_age_and_count() {
        let t0 = Instant::now();
        let mut b = Budget::default();
        let proxy = |a: IpAddr| a == ip(9);
        // The proxy is over any per-address cap (1 here): its connections are many clients.
        let p: Vec<Place> = (0..3)
            .map(|_| b.admit(ip(9), t0, 3, 1, proxy).unwrap())
            .collect();
        // Slow heads through the proxy do not lock a direct newcomer out.
        let d = b.admit(ip(1), t0, 3, 1, proxy).unwrap();
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
        b.admit(ip(2), t0, 3, 1, proxy).unwrap();
        assert!(evicted(&p[1]) && !evicted(&p[2]) && !evicted(&d));
        assert_eq!(b.held(ip(5)), 0);
        assert!(b.release(p[2].id));
        assert_eq!(b.total(), 2);
    }

    #[test]
    fn an_address_takes_a_place_at_most_once_a_second() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut b = Budget::default();
        let none = |_| false;
        let first = b.admit(ip(1), ms(0), 2, 8, none).unwrap();
        let second = b.admit(ip(2), ms(0), 2, 8, none).unwrap();
        // Address 3 takes address 1's place; at once and 999 ms later it may not take
        // another: refused at accept, and nobody is evicted.
        let third = b.admit(ip(3), ms(10), 2, 8, none).unwrap();
        assert!(evicted(&first));
        for at in [10, 1009] {
            assert_eq!(
                b.admit(ip(3), ms(at), 2, 8, none).err(),
                Some(Refused::Cooling)
            );
            assert!(!evicted(&second) && !evicted(&third));
        }
        // The evicted address may take a place at once (a player's retry): address 2's.
        b.admit(ip(1), ms(20), 2, 8, none).unwrap();
        assert!(evicted(&second));
        // A free place a cooling address may take: it takes no one's.
        assert!(b.release(third.id));
        let free = b.admit(ip(3), ms(30), 2, 8, none).unwrap();
        assert!(!evicted(&free));
        // A second after its eviction it may evict again (address 1's, the oldest).
        b.admit(ip(3), ms(1010), 2, 8, none).unwrap();
        assert_eq!((b.total(), b.held(ip(1)), b.held(ip(3))), (2, 0, 2));
        // A trusted proxy never cools: its connections are many clients.
        let proxy = |a: IpAddr| a == ip(9);
        let mut b = Budget::default();
        let p = b.admit(ip(4), ms(0), 1, 1, proxy).unwrap();
        let q = b.admit(ip(9), ms(0), 1, 2, proxy).unwrap();
        assert!(evicted(&p));
        b.admit(ip(9), ms(1), 1, 2, proxy).unwrap();
        assert!(evicted(&q));
    }

    #[test]
    fn the_evictions_remembered_are_bounded_whatever_the_addresses() {
        let t0 = Instant::now();
        let mut b = Budget::default();
        let none = |_| false;
        let addr = |n: u32| IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + n));
        // 10,000 addresses, each taking the last one's place within the same second.
        for n in 0..10_000u32 {
            b.admit(addr(n), t0, 1, 8, none).unwrap();
        }
        assert_eq!(b.evictions.len(), COOLING_MAX);
        assert_eq!(b.cooling.len(), COOLING_MAX);
        // The newest remembered still cool; the oldest were forgotten early.
        assert_eq!(
            b.admit(addr(9_999), t0, 1, 8, none).err(),
            Some(Refused::Cooling)
        );
        assert!(b.admit(addr(1), t0, 1, 8, none).is_ok());
        // A second on, all are forgotten at the next full admit.
        b.admit(addr(9_999), t0 + COOLING, 1, 8, none).unwrap();
        assert_eq!(b.evictions.len(), 1);
    }
}
