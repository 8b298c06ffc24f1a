//! The seeded model of one direction: what happens to each packet (lost, when delivered,
//! reordered, duplicated). Pure, so it is tested without a network.

use crate::link::{Link, Loss};
use crate::rng::Rng;

/// What the model decided for one packet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fate {
    /// Dropped.
    Lost,
    /// Delivered at `at` (ms on the relay's clock), and a second time if `duplicate`.
    Deliver {
        /// When to deliver it.
        at: f64,
        /// Deliver a copy right after it.
        duplicate: bool,
    },
}

/// Counts of what one direction did, for the report and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Packets that entered the direction.
    pub packets: u64,
    /// Packets the loss model dropped.
    pub lost: u64,
    /// Packets held back out of order.
    pub reordered: u64,
    /// Packets delivered twice.
    pub duplicated: u64,
    /// Packets dropped because the direction already held its bound of queued packets.
    pub overflow: u64,
    /// Packets (copies included) written to the other side.
    pub delivered: u64,
}

/// One direction's model. Loss draws and delay draws come from separate streams, so whether
/// the n-th packet is lost depends on the seed and n alone.
#[derive(Debug)]
pub struct Shaper {
    link: Link,
    loss_rng: Rng,
    delay_rng: Rng,
    bad: bool,
    last: f64,
    /// What it did so far.
    pub counts: Counts,
}

impl Shaper {
    /// A model of `link` drawing from `seed`.
    pub fn new(link: Link, seed: u32) -> Self {
        Shaper {
            link,
            loss_rng: Rng::new(seed.wrapping_mul(2).wrapping_add(1)),
            delay_rng: Rng::new(seed.wrapping_mul(2).wrapping_add(2)),
            bad: false,
            last: f64::NEG_INFINITY,
            counts: Counts::default(),
        }
    }

    /// The link it models.
    pub fn link(&self) -> &Link {
        &self.link
    }

    /// Decides the fate of a packet that arrives at `now` (ms).
    pub fn admit(&mut self, now: f64) -> Fate {
        self.counts.packets += 1;
        if self.lose() {
            self.counts.lost += 1;
            return Fate::Lost;
        }
        let l = &self.link;
        let r = &mut self.delay_rng;
        let mut d = l.base_ms
            + if l.jitter_ms > 0.0 {
                r.range(0.0, l.jitter_ms)
            } else {
                0.0
            };
        if l.spike_share > 0.0 && r.chance(l.spike_share) {
            d += r.range(0.0, l.spike_ms);
        }
        let reorder = l.reorder_share > 0.0 && r.chance(l.reorder_share);
        let duplicate = l.duplicate_share > 0.0 && r.chance(l.duplicate_share);
        let mut at = now + d;
        if reorder {
            // Held past its turn and outside the order, so the packets after it pass it.
            at = at.max(self.last) + l.reorder_ms;
            self.counts.reordered += 1;
        } else if l.in_order {
            at = at.max(self.last);
            self.last = at;
        }
        if duplicate {
            self.counts.duplicated += 1;
        }
        Fate::Deliver { at, duplicate }
    }

    fn lose(&mut self) -> bool {
        match self.link.loss {
            Loss::None => false,
            Loss::Independent(p) => self.loss_rng.chance(p),
            Loss::Bursty(ge) => {
                let flip = self.loss_rng.next_f64();
                self.bad = if self.bad {
                    flip >= ge.leave_bad
                } else {
                    flip < ge.enter_bad
                };
                let p = if self.bad { ge.loss_bad } else { ge.loss_good };
                self.loss_rng.chance(p)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{by_name, WIFI_BURSTS};

    fn run(link: Link, seed: u32, n: usize, gap: f64) -> (Shaper, Vec<Fate>) {
        let mut s = Shaper::new(link, seed);
        let f = (0..n).map(|i| s.admit(i as f64 * gap)).collect();
        (s, f)
    }

    #[test]
    fn independent_loss_matches_the_setting() {
        let (s, f) = run(by_name("loss5-rtt100").unwrap(), 3, 200_000, 1.0);
        let lost = f.iter().filter(|f| **f == Fate::Lost).count() as f64;
        assert!((lost / 200_000.0 - 0.05).abs() < 0.002, "{lost}");
        assert_eq!(s.counts.lost as f64, lost);
    }

    #[test]
    fn bursts_have_the_set_mean_and_length() {
        let (_, f) = run(by_name("wifi-burst").unwrap(), 9, 400_000, 1.0);
        let lost: Vec<bool> = f.iter().map(|f| *f == Fate::Lost).collect();
        let share = lost.iter().filter(|l| **l).count() as f64 / lost.len() as f64;
        assert!((share - 0.02).abs() < 0.002, "{share}");
        let runs = lost.windows(2).filter(|w| w[1] && !w[0]).count() as f64;
        let mean_run = lost.iter().filter(|l| **l).count() as f64 / runs;
        let want = 1.0 / WIFI_BURSTS.leave_bad;
        assert!((mean_run - want).abs() < 0.3, "{mean_run}");
    }

    #[test]
    fn in_order_links_never_reorder() {
        // Spaced 2 ms apart, a spike holds the packets behind it: never out of order.
        let ats = |gap: f64| -> Vec<f64> {
            run(by_name("wifi").unwrap(), 5, 20_000, gap)
                .1
                .iter()
                .filter_map(|f| match f {
                    Fate::Deliver { at, .. } => Some(*at),
                    Fate::Lost => None,
                })
                .collect()
        };
        assert!(ats(2.0).windows(2).all(|w| w[0] <= w[1]));
        // Spaced wider than the largest delay, each packet keeps its drawn delay.
        let wide = ats(250.0);
        let mean = wide
            .iter()
            .enumerate()
            .map(|(i, a)| a - i as f64 * 250.0)
            .sum::<f64>()
            / wide.len() as f64;
        let want = by_name("wifi").unwrap().mean_delay_ms();
        assert!((mean - want).abs() < 0.5, "{mean} {want}");
    }

    #[test]
    fn reordering_and_duplication_happen_at_their_shares() {
        let link = Link {
            reorder_share: 0.1,
            duplicate_share: 0.05,
            ..Link::fixed("t", "t", 10.0)
        };
        let (s, f) = run(link, 1, 100_000, 1.0);
        let c = s.counts;
        assert!((c.reordered as f64 / 1e5 - 0.1).abs() < 0.005, "{c:?}");
        assert!((c.duplicated as f64 / 1e5 - 0.05).abs() < 0.005, "{c:?}");
        // A held packet arrives after the next one: its delay is 10 + 8 ms against 10 ms at 1 ms gaps.
        let passed = f
            .windows(2)
            .enumerate()
            .filter(|(i, w)| match (w[0], w[1]) {
                (Fate::Deliver { at: a, .. }, Fate::Deliver { at: b, .. }) => {
                    a > b && a - *i as f64 > 17.0
                }
                _ => false,
            })
            .count();
        assert!(passed as u64 > c.reordered * 8 / 10, "{passed} {c:?}");
    }

    #[test]
    fn the_same_seed_gives_the_same_fates() {
        let a = run(by_name("far").unwrap(), 11, 1000, 3.0).1;
        let b = run(by_name("far").unwrap(), 11, 1000, 3.0).1;
        let c = run(by_name("far").unwrap(), 12, 1000, 3.0).1;
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
