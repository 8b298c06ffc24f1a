//! Exponential easing and the [`Easer`] for corrections to one's own avatar.

/// The share of the remaining distance to cover in a frame of `dt_ms` at `rate` per second:
/// `1 - e^(-rate * dt)`; frame-rate independent. 0 for a non-positive rate or frame.
pub fn exp_ease(rate: f64, dt_ms: f64) -> f64 {
    if !(dt_ms > 0.0) || !(rate > 0.0) {
        return 0.0;
    }
    1.0 - (-rate * dt_ms * 0.001).exp()
}

/// Eases corrections to a predicted avatar out over time: `correct(shown, corrected)` adds the
/// difference to an offset; each frame `apply(values, dt_ms)` shrinks it by
/// [`exp_ease`] and adds what is left. Preallocated.
#[derive(Debug, Clone)]
pub struct Easer {
    offset: Vec<f64>,
    /// Easing rate per second.
    pub rate: f64,
}

impl Easer {
    /// An easer of `channels` values at `rate` per second (10: 95% gone in 300 ms).
    pub fn new(channels: usize, rate: f64) -> Self {
        Easer {
            offset: vec![0.0; channels],
            rate,
        }
    }

    /// The correction still to ease out, per channel.
    pub fn offset(&self) -> &[f64] {
        &self.offset
    }

    /// A correction: the simulation jumps from `shown` to `corrected`.
    pub fn correct(&mut self, shown: &[f64], corrected: &[f64]) {
        for (i, o) in self.offset.iter_mut().enumerate() {
            *o += shown.get(i).copied().unwrap_or(0.0) - corrected.get(i).copied().unwrap_or(0.0);
        }
    }

    /// Shrinks the offset by one frame of `dt_ms` and adds it to `values` in place.
    pub fn apply(&mut self, values: &mut [f64], dt_ms: f64) {
        let keep = 1.0 - exp_ease(self.rate, dt_ms);
        for (i, o) in self.offset.iter_mut().enumerate() {
            let v = *o * keep;
            *o = if v.abs() < 1e-9 { 0.0 } else { v };
            if let Some(x) = values.get_mut(i) {
                *x += *o;
            }
        }
    }

    /// Drops any correction left.
    pub fn reset(&mut self) {
        self.offset.fill(0.0);
    }
}
