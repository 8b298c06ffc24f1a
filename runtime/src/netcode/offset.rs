//! The easing of an error offset, one frame at a time, capped: shared by
//! [`Ahead`](super::predict::Ahead) and the [`Reconciler`](super::reconcile::Reconciler)
//! (the TypeScript runtime's `offset.ts`).

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
