//! Exponential easing, the [`Easer`] for corrections to one's own avatar, and the capped easing
//! of an error offset that [`Ahead`](super::predict::Ahead) and the
//! [`Reconciler`](super::reconcile::Reconciler) share.

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

/// Eases `error` by one frame: keeps `keep` of it, removing at most `max_step` (Euclidean, over
/// the first `linear` channels) from the linear part; angles keep `keep` of theirs.
pub(crate) fn ease_error(error: &mut [f64], linear: usize, keep: f64, max_step: f64) {
    let mut e2 = 0.0;
    for e in &error[..linear] {
        e2 += e * e;
    }
    let removed = e2.sqrt() * (1.0 - keep);
    // A NaN or negative bound caps nothing.
    let scale = if removed > max_step && max_step >= 0.0 {
        1.0 - max_step / e2.sqrt()
    } else {
        keep
    };
    for (k, e) in error.iter_mut().enumerate() {
        *e *= if k < linear { scale } else { keep };
    }
}
