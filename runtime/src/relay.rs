//! Interest management for a relayed stream: which update of a mover reaches which viewer,
//! by distance.
//!
//! A viewer near the mover gets every update; farther away, every `stride`-th. One counter
//! per mover ([`Cadence`]), not per mover-viewer pair: every far viewer of a mover shares
//! the same cadence, which needs no bookkeeping and has nothing to clean up when someone
//! leaves. Choose the strides against the receiver's teleport threshold, so that the
//! distance a sprinting mover covers over the skipped updates stays below it.
//!
//! ```
//! use tuplet::relay::{Cadence, Tier, Tiers};
//!
//! // Every update within 50 m, every 3rd within 200 m, every 10th beyond.
//! let tiers = Tiers::new(&[Tier::new(50.0, 1), Tier::new(200.0, 3)], 10).unwrap();
//! let mut cadence = Cadence::default();
//! let far = 120.0_f32 * 120.0;
//! let sent: Vec<bool> = (0..6).map(|_| tiers.due(cadence.advance(), far)).collect();
//! assert_eq!(sent, [false, false, true, false, false, true]);
//! // A viewer that has never seen the mover gets the update whatever its stride.
//! assert!(tiers.should_send(Cadence::default().advance(), far, false, false));
//! ```

/// One distance tier: viewers within `radius` metres get every `stride`-th update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tier {
    /// Outer radius of the tier, metres.
    pub radius: f32,
    /// Every how many updates a viewer in this tier gets one (1: every update).
    pub stride: u32,
}

impl Tier {
    /// A tier of `radius` metres and `stride`.
    pub const fn new(radius: f32, stride: u32) -> Tier {
        Tier { radius, stride }
    }
}

/// The relay policy: tiers by increasing radius, and the stride beyond the last one.
#[derive(Debug, Clone, PartialEq)]
pub struct Tiers {
    /// `(radius², stride)` by increasing radius.
    tiers: Vec<(f32, u32)>,
    beyond: u32,
}

/// Why a set of tiers was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TiersError {
    /// No tier: "nearby" would mean nothing.
    Empty,
    /// A radius that is not finite and positive, or not above the previous one.
    BadRadius,
    /// A stride of zero.
    ZeroStride,
}

impl std::fmt::Display for TiersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TiersError::Empty => "at least one tier is needed",
            TiersError::BadRadius => "radii must be finite, positive and increasing",
            TiersError::ZeroStride => "a stride must be at least 1",
        })
    }
}

impl std::error::Error for TiersError {}

impl Default for Tiers {
    /// Every update within 50 m, every 3rd within 200 m, every 10th beyond.
    fn default() -> Tiers {
        Tiers::new(&[Tier::new(50.0, 1), Tier::new(200.0, 3)], 10).expect("valid tiers")
    }
}

impl Tiers {
    /// Tiers by increasing radius; `beyond_stride` applies past the last one. The first
    /// tier is "nearby" (one-off events go there only).
    pub fn new(tiers: &[Tier], beyond_stride: u32) -> Result<Tiers, TiersError> {
        if tiers.is_empty() {
            return Err(TiersError::Empty);
        }
        let mut last = 0.0_f32;
        for t in tiers {
            if !(t.radius.is_finite() && t.radius > last) {
                return Err(TiersError::BadRadius);
            }
            if t.stride == 0 {
                return Err(TiersError::ZeroStride);
            }
            last = t.radius;
        }
        if beyond_stride == 0 {
            return Err(TiersError::ZeroStride);
        }
        Ok(Tiers {
            tiers: tiers
                .iter()
                .map(|t| (t.radius * t.radius, t.stride))
                .collect(),
            beyond: beyond_stride,
        })
    }

    /// The tiers as given (radius, not squared), and the stride beyond them.
    pub fn tiers(&self) -> (Vec<Tier>, u32) {
        let tiers = self.tiers.iter().map(|&(r2, s)| Tier::new(r2.sqrt(), s));
        (tiers.collect(), self.beyond)
    }

    /// The stride for a viewer at squared distance `d2` (squared: no square root per pair).
    #[inline]
    pub fn stride(&self, d2: f32) -> u32 {
        for &(r2, stride) in &self.tiers {
            if d2 <= r2 {
                return stride;
            }
        }
        self.beyond
    }

    /// Whether a viewer at squared distance `d2` is nearby (within the first tier): the
    /// viewers that get one-off events, every time.
    #[inline]
    pub fn is_near(&self, d2: f32) -> bool {
        d2 <= self.tiers[0].0
    }

    /// Whether `update` is due for a viewer at squared distance `d2`.
    #[inline]
    pub fn due(&self, update: Update, d2: f32) -> bool {
        update.0.is_multiple_of(u64::from(self.stride(d2)))
    }

    /// The whole rule: a viewer gets `update` when it is due at its distance, when the
    /// viewer has never seen this mover (it must learn where the mover is), or when the
    /// update is forced (a mover's first unchanged report after moving: see
    /// [`silence`](crate::silence)).
    #[inline]
    pub fn should_send(&self, update: Update, d2: f32, seen: bool, forced: bool) -> bool {
        forced || !seen || self.due(update, d2)
    }
}

/// A mover's update counter, shared by all of its viewers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cadence {
    n: u64,
}

impl Cadence {
    /// Counts one more relayed update and returns its number (the first is 1).
    #[inline]
    pub fn advance(&mut self) -> Update {
        self.n += 1;
        Update(self.n)
    }

    /// Updates counted so far.
    pub fn count(&self) -> u64 {
        self.n
    }
}

/// The number of one relayed update of a mover (see [`Cadence::advance`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Update(pub u64);

/// The squared distance between two positions on the ground plane (x and z; height ignored,
/// as fog and view distance are).
#[inline]
pub fn dist2_xz(a: [f32; 3], b: [f32; 3]) -> f32 {
    let (dx, dz) = (a[0] - b[0], a[2] - b[2]);
    dx * dx + dz * dz
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiers() -> Tiers {
        Tiers::new(&[Tier::new(50.0, 1), Tier::new(200.0, 3)], 10).unwrap()
    }

    fn received(d: f32, updates: usize) -> Vec<u64> {
        let (t, mut c) = (tiers(), Cadence::default());
        (0..updates)
            .map(|_| c.advance())
            .filter(|&u| t.due(u, d * d))
            .map(|u| u.0)
            .collect()
    }

    #[test]
    fn near_gets_every_update() {
        assert_eq!(received(10.0, 5), [1, 2, 3, 4, 5]);
        assert_eq!(received(50.0, 3), [1, 2, 3], "the radius is inclusive");
    }

    #[test]
    fn far_gets_every_third_and_very_far_every_tenth() {
        assert_eq!(received(50.5, 9), [3, 6, 9]);
        assert_eq!(received(200.0, 9), [3, 6, 9]);
        assert_eq!(received(200.5, 30), [10, 20, 30]);
    }

    #[test]
    fn never_seen_and_forced_override_the_stride() {
        let t = tiers();
        let far = 1000.0 * 1000.0;
        assert!(!t.should_send(Update(1), far, true, false));
        assert!(t.should_send(Update(1), far, false, false));
        assert!(t.should_send(Update(1), far, true, true));
        assert!(t.should_send(Update(10), far, true, false));
    }

    #[test]
    fn nearby_is_the_first_tier() {
        let t = tiers();
        assert!(t.is_near(49.9 * 49.9));
        assert!(!t.is_near(50.1 * 50.1));
    }

    #[test]
    fn bad_tiers_are_refused() {
        assert_eq!(Tiers::new(&[], 10), Err(TiersError::Empty));
        let dec = [Tier::new(50.0, 1), Tier::new(40.0, 3)];
        assert_eq!(Tiers::new(&dec, 10), Err(TiersError::BadRadius));
        assert_eq!(
            Tiers::new(&[Tier::new(f32::NAN, 1)], 10),
            Err(TiersError::BadRadius)
        );
        assert_eq!(
            Tiers::new(&[Tier::new(5.0, 0)], 10),
            Err(TiersError::ZeroStride)
        );
        assert_eq!(
            Tiers::new(&[Tier::new(5.0, 1)], 0),
            Err(TiersError::ZeroStride)
        );
    }

    #[test]
    fn tiers_read_back_as_given() {
        let (t, beyond) = Tiers::default().tiers();
        assert_eq!(t, [Tier::new(50.0, 1), Tier::new(200.0, 3)]);
        assert_eq!(beyond, 10);
    }

    #[test]
    fn distance_ignores_height() {
        assert_eq!(dist2_xz([0.0, 0.0, 0.0], [3.0, 100.0, 4.0]), 25.0);
    }
}
