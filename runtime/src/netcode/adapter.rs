//! The traits the derive implements for `interp` items (ATTRIBUTES.md "Interpolation") and
//! [`EntityFeed`], which puts decoded values and a snapshot's entities into an
//! [`InterpolatedSet`].
//!
//! Channels are linear, then angle, then hold, each group in declaration order
//! (`tuplet_schema::interp`), the same as the TypeScript adapters (`X$interp`).

use std::collections::HashMap;
use std::hash::Hash;

use super::interp_ring::ChannelLayout;
use super::pool::InterpolatedSet;
use super::settings::NetcodeSettings;

/// How a value's samples are stamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// The sender's own ms ([`SampleClock::time_ms`]), drawn with `Interpolator::sample`.
    Sent,
    /// Server ticks at `rate` a second, drawn at a render clock's time.
    Tick {
        /// Ticks per second.
        rate: u32,
    },
    /// No time on the wire: stamped on arrival.
    Arrival,
    /// A record: the time of the message carrying it.
    Carrier,
}

/// The sample clock of an `interp` message or record.
pub trait SampleClock {
    /// Its clock.
    const CLOCK: Clock;
    /// The sample time in ms on its clock (`tick × 1000 / rate`); NaN without one.
    fn time_ms(&self) -> f64;
}

/// A value drawn by an interpolator: derived for `interp` items with a key.
pub trait Interpolate: SampleClock {
    /// The entity key's type.
    type Key: Eq + Hash + Clone;
    /// Channel counts.
    const LAYOUT: ChannelLayout;
    /// The entity key.
    fn key(&self) -> &Self::Key;
    /// Copies the drawn fields into `channels` (at least `LAYOUT.channels()` long).
    fn write(&self, channels: &mut [f64]);
    /// Writes drawn channels back into `self`; fields not drawn are left as they are.
    fn read(&mut self, channels: &[f64]);
}

/// A field's value as one channel and back (NaN reads as no value).
pub trait Hold: Sized {
    /// The channel value.
    fn to_channel(&self) -> f64;
    /// The value of a channel, `None` for NaN (or a number naming no variant).
    fn from_channel(v: f64) -> Option<Self>;
}

impl Hold for f64 {
    fn to_channel(&self) -> f64 {
        *self
    }
    fn from_channel(v: f64) -> Option<Self> {
        (!v.is_nan()).then_some(v)
    }
}

impl Hold for f32 {
    fn to_channel(&self) -> f64 {
        f64::from(*self)
    }
    fn from_channel(v: f64) -> Option<Self> {
        (!v.is_nan()).then_some(v as f32)
    }
}

impl Hold for bool {
    fn to_channel(&self) -> f64 {
        if *self {
            1.0
        } else {
            0.0
        }
    }
    fn from_channel(v: f64) -> Option<Self> {
        (!v.is_nan()).then_some(v != 0.0)
    }
}

macro_rules! hold_int {
    ($($t:ty),*) => {$(
        impl Hold for $t {
            fn to_channel(&self) -> f64 {
                *self as f64
            }
            fn from_channel(v: f64) -> Option<Self> {
                v.is_finite().then(|| v.round() as $t)
            }
        }
    )*};
}
hold_int!(u8, u16, u32, u64, i8, i16, i32, i64);

/// Interpolators of one adapter's values, keyed by entity, with the scratch channels and the
/// bookkeeping of entities entering and leaving: steady state allocates nothing.
pub struct EntityFeed<T: Interpolate> {
    set: InterpolatedSet<T::Key>,
    scratch: Vec<f64>,
    seen: HashMap<T::Key, u64>,
    round: u64,
}

impl<T: Interpolate> EntityFeed<T> {
    /// A feed with `settings`.
    pub fn new(settings: NetcodeSettings) -> Self {
        EntityFeed {
            set: InterpolatedSet::new(T::LAYOUT, settings),
            scratch: vec![0.0; T::LAYOUT.channels()],
            seen: HashMap::new(),
            round: 0,
        }
    }

    /// The interpolators (TypeScript's `feed.set`).
    pub fn set(&self) -> &InterpolatedSet<T::Key> {
        &self.set
    }

    /// The interpolators, to draw them.
    pub fn set_mut(&mut self) -> &mut InterpolatedSet<T::Key> {
        &mut self.set
    }

    /// One decoded value that arrived at our `arrived_ms`, stamped on `T`'s clock.
    pub fn push(&mut self, v: &T, arrived_ms: f64) -> bool {
        self.push_carried(T::CLOCK, v.time_ms(), v, arrived_ms)
    }

    /// A carried record at its carrier's `time_ms` on the carrier's `clock`.
    pub fn push_carried(&mut self, clock: Clock, time_ms: f64, v: &T, arrived_ms: f64) -> bool {
        v.write(&mut self.scratch);
        let it = self.set.enter(v.key());
        match clock {
            Clock::Sent => it.push_sent(time_ms, arrived_ms, &self.scratch),
            Clock::Tick { .. } => it.push_at(time_ms, &self.scratch),
            Clock::Arrival | Clock::Carrier => it.push_sent(arrived_ms, arrived_ms, &self.scratch),
        }
    }

    /// A snapshot's entities (a delta `Mirror`'s list) at the carrier's time: every entity
    /// listed is entered and pushed, every other one leaves (its interpolator pooled).
    pub fn update<C: SampleClock>(&mut self, carrier: &C, entities: &[T], arrived_ms: f64) {
        self.round += 1;
        let time = carrier.time_ms();
        for e in entities {
            self.push_carried(C::CLOCK, time, e, arrived_ms);
            match self.seen.get_mut(e.key()) {
                Some(r) => *r = self.round,
                None => {
                    self.seen.insert(e.key().clone(), self.round);
                }
            }
        }
        let mut i = self.set.len();
        while i > 0 {
            i -= 1;
            let key = self.set.key_at(i);
            if self.seen.get(key) != Some(&self.round) {
                let key = key.clone();
                self.seen.remove(&key);
                self.set.leave(&key);
            }
        }
    }
}
