//! The budget of connections yet to say hello: a place per connection, capped per address
//! and overall. When the overall budget is full, a newcomer takes the place of the oldest
//! connection of the address holding the most places, so addresses that hold every place
//! between them cannot lock a new player out: they can only hold an equal share.

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
    /// Every place is held, and no address holds two more than the newcomer's.
    Full,
}

/// The places held, by address. Not locked itself: [`crate::shared::Shared`] keeps it
/// under a mutex.
#[derive(Default)]
pub(crate) struct Budget {
    by_ip: HashMap<IpAddr, BTreeMap<u64, Arc<Notify>>>,
    total: usize,
    next: u64,
}

impl Budget {
    /// Places held now.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Places `ip` holds now.
    fn held(&self, ip: IpAddr) -> usize {
        self.by_ip.get(&ip).map_or(0, BTreeMap::len)
    }

    /// A place for a connection from `ip`, under `max` overall and `max_per_ip` per address
    /// (`exempt` addresses, trusted proxies, have no per-address cap and are never evicted:
    /// their connections are many clients). With the overall budget full, the oldest place
    /// of the address holding the most is taken from it when that address would still hold
    /// at least as many as the newcomer's; the evicted place's signal is notified.
    pub fn admit(
        &mut self,
        ip: IpAddr,
        max: usize,
        max_per_ip: usize,
        exempt: impl Fn(IpAddr) -> bool,
    ) -> Result<Place, Refused> {
        let exempt_ip = exempt(ip);
        let mine = if exempt_ip { 0 } else { self.held(ip) };
        if !exempt_ip && mine >= max_per_ip {
            return Err(Refused::PerIp);
        }
        if self.total >= max {
            self.evict_for(mine, &exempt)?;
        }
        Ok(self.insert(ip))
    }

    /// Frees the oldest place of the address holding the most, if it holds at least two
    /// more than `mine` (so the newcomer never ends up holding more than it).
    fn evict_for(&mut self, mine: usize, exempt: &impl Fn(IpAddr) -> bool) -> Result<(), Refused> {
        let victim = self
            .by_ip
            .iter()
            .filter(|(ip, _)| !exempt(**ip))
            .filter_map(|(ip, places)| Some((places.len(), places.keys().next()?, *ip)))
            // The most places; among equals, the oldest connection.
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(a.1)))
            .filter(|(n, _, _)| *n >= mine + 2)
            .map(|(_, _, ip)| ip)
            .ok_or(Refused::Full)?;
        let places = self.by_ip.get_mut(&victim).expect("chosen from the map");
        let (_, signal) = places.pop_first().expect("chosen for holding places");
        if places.is_empty() {
            self.by_ip.remove(&victim);
        }
        self.total -= 1;
        signal.notify_one();
        Ok(())
    }

    fn insert(&mut self, ip: IpAddr) -> Place {
        self.next += 1;
        let evicted = Arc::new(Notify::new());
        self.by_ip
            .entry(ip)
            .or_default()
            .insert(self.next, evicted.clone());
        self.total += 1;
        Place {
            id: self.next,
            evicted,
        }
    }

    /// Gives place `id` of `ip` back; false when it was already taken (evicted).
    pub fn release(&mut self, ip: IpAddr, id: u64) -> bool {
        let Some(places) = self.by_ip.get_mut(&ip) else {
            return false;
        };
        let held = places.remove(&id).is_some();
        if places.is_empty() {
            self.by_ip.remove(&ip);
        }
        if held {
            self.total -= 1;
        }
        held
    }

    /// Counts place `id` under `to` instead of `from` (a trusted proxy named its client),
    /// within `to`'s cap. `Err(PerIp)` when `to` holds `max_per_ip`; `Err(Full)` when the
    /// place was evicted meanwhile. The place keeps its age.
    pub fn rekey(
        &mut self,
        from: IpAddr,
        to: IpAddr,
        id: u64,
        max_per_ip: usize,
        exempt: impl Fn(IpAddr) -> bool,
    ) -> Result<(), Refused> {
        if !exempt(to) && self.held(to) >= max_per_ip {
            return Err(Refused::PerIp);
        }
        let places = self.by_ip.get_mut(&from).ok_or(Refused::Full)?;
        let signal = places.remove(&id).ok_or(Refused::Full)?;
        if places.is_empty() {
            self.by_ip.remove(&from);
        }
        self.by_ip.entry(to).or_default().insert(id, signal);
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
    fn a_newcomer_evicts_the_oldest_place_of_the_biggest_holder() {
        let mut b = Budget::default();
        let none = |_| false;
        // Address 2 holds 3 places, address 3 holds 1: the budget (4) is full.
        let a: Vec<Place> = (0..3)
            .map(|_| b.admit(ip(2), 4, 8, none).unwrap())
            .collect();
        let c = b.admit(ip(3), 4, 8, none).unwrap();
        assert_eq!(b.total(), 4);
        // A newcomer from address 1 takes address 2's oldest place.
        let n = b.admit(ip(1), 4, 8, none).unwrap();
        assert_eq!(b.total(), 4);
        assert!(evicted(&a[0]));
        assert!(!evicted(&a[1]) && !evicted(&a[2]) && !evicted(&c) && !evicted(&n));
        // The evicted place is gone: giving it back frees nothing.
        assert!(!b.release(ip(2), a[0].id));
        assert_eq!(b.total(), 4);
        // Address 2 now holds 2, address 1 holds 1: 2 < 1 + 2, so a second newcomer from
        // address 1 is refused rather than taking more than its share.
        assert_eq!(b.admit(ip(1), 4, 8, none).err(), Some(Refused::Full));
        // From a fourth address (holding none), it may evict: address 2 holds 2 >= 0 + 2.
        b.admit(ip(4), 4, 8, none).unwrap();
        assert!(evicted(&a[1]));
        // Now every address holds one: a fifth is refused.
        assert_eq!(b.admit(ip(5), 4, 8, none).err(), Some(Refused::Full));
        assert!(b.release(ip(2), a[2].id));
        assert_eq!(b.total(), 3);
    }

    #[test]
    fn ties_evict_the_oldest_connection_and_the_per_ip_cap_holds() {
        let mut b = Budget::default();
        let none = |_| false;
        let x = b.admit(ip(3), 4, 2, none).unwrap();
        let y = b.admit(ip(2), 4, 2, none).unwrap();
        b.admit(ip(2), 4, 2, none).unwrap();
        b.admit(ip(3), 4, 2, none).unwrap();
        assert_eq!(b.admit(ip(2), 4, 2, none).err(), Some(Refused::PerIp));
        b.admit(ip(1), 4, 2, none).unwrap();
        // Both hold two; address 3's first place is the older.
        assert!(evicted(&x));
        assert!(!evicted(&y));
    }

    #[test]
    fn exempt_addresses_are_never_evicted_and_rekey_keeps_the_count() {
        let mut b = Budget::default();
        let proxy = |a: IpAddr| a == ip(9);
        let p: Vec<Place> = (0..3)
            .map(|_| b.admit(ip(9), 3, 1, proxy).unwrap())
            .collect();
        assert_eq!(b.admit(ip(1), 3, 1, proxy).err(), Some(Refused::Full));
        // The proxy names its clients: they count under their own addresses from now on.
        b.rekey(ip(9), ip(5), p[0].id, 1, proxy).unwrap();
        b.rekey(ip(9), ip(5), p[1].id, 1, proxy)
            .expect_err("address 5 holds its one place");
        b.rekey(ip(9), ip(6), p[1].id, 1, proxy).unwrap();
        assert_eq!(b.total(), 3);
        assert!(b.release(ip(6), p[1].id));
        assert!(!b.release(ip(9), p[1].id));
        assert_eq!(b.total(), 2);
    }
}
