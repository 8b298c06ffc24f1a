//! Interpolators keyed by entity, pooled (`InterpolatedSet`). The twin of TypeScript's `pool.ts`.

use super::interp::Interpolator;
use super::interp_ring::ChannelLayout;
use super::settings::NetcodeSettings;
use std::collections::HashMap;
use std::hash::Hash;

/// Interpolators keyed by entity, with a free list: an entity entering view reuses one a
/// leaving entity gave back, so view changes allocate nothing in steady state (once the map
/// and vectors reached their size). Live entries are dense (`at(i)`, `key_at(i)`).
/// The twin of TypeScript's `InterpolatedSet`.
#[derive(Debug, Clone)]
pub struct InterpolatedSet<K> {
    layout: ChannelLayout,
    settings: NetcodeSettings,
    index: HashMap<K, usize>,
    live: Vec<Interpolator>,
    keys: Vec<K>,
    free: Vec<Interpolator>,
}

impl<K: Eq + Hash + Clone> InterpolatedSet<K> {
    /// A pool of interpolators of `layout` with `settings`.
    pub fn new(layout: ChannelLayout, settings: NetcodeSettings) -> Self {
        InterpolatedSet {
            layout,
            settings,
            index: HashMap::new(),
            live: Vec::new(),
            keys: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Live entities.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// True when no entity is live.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// The `i`th live interpolator.
    pub fn at(&self, i: usize) -> &Interpolator {
        &self.live[i]
    }

    /// The `i`th live interpolator, mutably.
    pub fn at_mut(&mut self, i: usize) -> &mut Interpolator {
        &mut self.live[i]
    }

    /// The key of the `i`th live interpolator.
    pub fn key_at(&self, i: usize) -> &K {
        &self.keys[i]
    }

    /// The interpolator of `key`, if it is in view.
    pub fn get(&self, key: &K) -> Option<&Interpolator> {
        self.index.get(key).map(|&i| &self.live[i])
    }

    /// The interpolator of `key`: the live one, or a pooled (reset) or new one.
    pub fn enter(&mut self, key: &K) -> &mut Interpolator {
        let i = match self.index.get(key) {
            Some(&i) => i,
            None => {
                let it = self
                    .free
                    .pop()
                    .unwrap_or_else(|| Interpolator::with_settings(self.layout, self.settings));
                self.index.insert(key.clone(), self.live.len());
                self.live.push(it);
                self.keys.push(key.clone());
                self.live.len() - 1
            }
        };
        &mut self.live[i]
    }

    /// `key` left view: its interpolator is reset and pooled. False when it was not live.
    pub fn leave(&mut self, key: &K) -> bool {
        let Some(i) = self.index.remove(key) else {
            return false;
        };
        let mut it = self.live.swap_remove(i);
        self.keys.swap_remove(i);
        if i < self.live.len() {
            self.index.insert(self.keys[i].clone(), i);
        }
        it.reset();
        self.free.push(it);
        true
    }

    /// Draws every live entity at our clock's `now_ms`.
    pub fn sample_all(&mut self, now_ms: f64) {
        for it in &mut self.live {
            it.sample(now_ms);
        }
    }
}
