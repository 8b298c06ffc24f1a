//! Client-side prediction and reconciliation of the player's own avatar.
//!
//! The client applies each input frame at once through the game's step function (the same
//! code the server runs), numbers it, sends it, and keeps it until the server acknowledges
//! it. When the server's state arrives with the sequence number of the last frame it applied
//! (`input:ack`), the [`Reconciler`] rewinds to that state, replays the frames the server
//! has not applied yet, and compares the result with what it had predicted. The difference
//! is not drawn as a jump: it becomes an error offset that decays exponentially
//! (`1 − e^(−rate·Δt)` of it per frame, [`exp_ease`]) and by at most
//! [`ReconcileSettings::max_frame_ease`] metres a frame, so a small disagreement eases out
//! over a fraction of a second and a large one glides; only one past
//! [`ReconcileSettings::teleport`] snaps. The same easing as
//! [`Ahead`](super::predict::Ahead)'s for nearby entities.
//!
//! What is drawn is a fixed number of channels: `linear` ones (positions, metres), then
//! `angle` ones (headings, radians, eased on the shortest arc). Every buffer is allocated in
//! [`Reconciler::new`]; predicting, reconciling and drawing allocate nothing as long as the
//! game's state and input clone without allocating (`clone_from` of plain numbers).
//! The TypeScript runtime's `reconcile.ts` is the same algorithm; shared traces hold both to
//! the same drawn channels.

use super::curves::{angle_delta, exp_ease, wrap_angle};
use super::offset::ease_error;

/// The game's predicted state: its step function and what is drawn of it.
pub trait Predict: Clone {
    /// One input frame.
    type Input: Clone;
    /// Applies one input frame (the same code as the server's).
    fn step(&mut self, input: &Self::Input);
    /// Writes the drawn channels: `layout.linear` positions, then `layout.angle` headings.
    fn channels(&self, out: &mut [f64]);
}

/// How many channels of each kind [`Predict::channels`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Positions, metres; corrections are measured as their Euclidean distance.
    pub linear: usize,
    /// Headings, radians; eased on the shortest arc.
    pub angle: usize,
}

/// The reconciler's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReconcileSettings {
    /// Input frames kept until acknowledged (a power of two); past it the oldest is
    /// forgotten (counted). 128 frames is 2 s at 60 Hz, well past any round trip.
    pub pending: u32,
    /// Easing rate, per second: `1 − e^(−rate·Δt)` of the error goes per frame
    /// (10/s: 86% of a correction is gone after 0.2 s).
    pub rate: f64,
    /// A correction farther than this, metres, snaps instead of easing; nearer ones are never
    /// drawn as a jump.
    pub teleport: f64,
    /// The most the easing moves the drawn position in one frame, metres (linear channels):
    /// a large correction glides at this pace instead of leaping (2 cm: 1.2 m/s at 60 fps).
    pub max_frame_ease: f64,
    /// A correction farther than this, metres, is counted in [`ReconcileStats::corrections`].
    pub count_above: f64,
}

/// The default settings (see each field).
pub const RECONCILE_DEFAULTS: ReconcileSettings = ReconcileSettings {
    pending: 128,
    rate: 10.0,
    teleport: 4.0,
    max_frame_ease: 0.02,
    count_above: 0.04,
};

/// Counters of one reconciler.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ReconcileStats {
    /// Server states reconciled.
    pub reconciled: u64,
    /// Reconciliations whose prediction moved more than `count_above`.
    pub corrections: u64,
    /// Reconciliations past `teleport` (snapped).
    pub snaps: u64,
    /// The largest correction, metres.
    pub max_correction: f64,
    /// The most the easing moved the drawn position in one frame, metres.
    pub max_eased: f64,
    /// Frames forgotten unacknowledged because `pending` frames were already kept.
    pub forgotten: u64,
    /// Server states ignored because their ack was older than the oldest kept frame's
    /// predecessor (nothing to replay from).
    pub stale: u64,
}

/// What one [`Reconciler::reconcile`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Correction {
    /// How far the prediction moved, metres (linear channels).
    pub distance: f64,
    /// Frames replayed on top of the server's state.
    pub replayed: u32,
    /// Whether it snapped (past `teleport`).
    pub snapped: bool,
}

/// Prediction and reconciliation of one avatar (see the module docs).
#[derive(Debug, Clone)]
pub struct Reconciler<S: Predict> {
    settings: ReconcileSettings,
    layout: Layout,
    state: S,
    pending: Box<[Option<S::Input>]>,
    mask: u32,
    /// Sequence number of the oldest kept frame, and of the next frame predicted.
    oldest: u32,
    next: u32,
    before: Box<[f64]>,
    after: Box<[f64]>,
    error: Box<[f64]>,
    drawn: Box<[f64]>,
    stats: ReconcileStats,
}

impl<S: Predict> Reconciler<S> {
    /// A reconciler starting from `state`, numbering frames from `first_seq`.
    ///
    /// # Panics
    /// If `settings.pending` is not a power of two.
    pub fn new(state: S, first_seq: u32, layout: Layout, settings: ReconcileSettings) -> Self {
        assert!(
            settings.pending.is_power_of_two(),
            "pending must be a power of two"
        );
        let n = layout.linear + layout.angle;
        let zeros = || vec![0.0; n].into_boxed_slice();
        let mut r = Reconciler {
            settings,
            layout,
            state,
            pending: (0..settings.pending).map(|_| None).collect(),
            mask: settings.pending - 1,
            oldest: first_seq,
            next: first_seq,
            before: zeros(),
            after: zeros(),
            error: zeros(),
            drawn: zeros(),
            stats: ReconcileStats::default(),
        };
        r.state.channels(&mut r.drawn);
        r
    }

    /// The predicted state (without the easing offset).
    pub fn state(&self) -> &S {
        &self.state
    }

    /// Frames predicted but not acknowledged yet.
    pub fn unacked(&self) -> u32 {
        self.next.wrapping_sub(self.oldest)
    }

    /// The sequence number the next predicted frame gets.
    pub fn next_seq(&self) -> u32 {
        self.next
    }

    /// The counters.
    pub fn stats(&self) -> &ReconcileStats {
        &self.stats
    }

    /// The drawn channels of the last [`frame`](Self::frame).
    pub fn drawn(&self) -> &[f64] {
        &self.drawn
    }

    /// The current easing offset per channel (drawn = predicted + error).
    pub fn error(&self) -> &[f64] {
        &self.error
    }

    /// Applies one input frame now and keeps it until acknowledged; returns its sequence
    /// number (what goes into the batch).
    pub fn predict(&mut self, input: S::Input) -> u32 {
        self.state.step(&input);
        if self.unacked() >= self.settings.pending {
            self.pending[(self.oldest & self.mask) as usize] = None;
            self.oldest = self.oldest.wrapping_add(1);
            self.stats.forgotten += 1;
        }
        let seq = self.next;
        self.pending[(seq & self.mask) as usize] = Some(input);
        self.next = seq.wrapping_add(1);
        seq
    }

    /// The server's state after it applied frame `acked`: forgets the frames up to it,
    /// rewinds to `server`, replays the rest, and turns the difference into an easing offset
    /// (or snaps). `None` when the ack is too old to replay from.
    pub fn reconcile(&mut self, server: &S, acked: u32) -> Option<Correction> {
        // Frames after `acked` are replayed: from `acked + 1` to `next`.
        let from = acked.wrapping_add(1);
        let behind_oldest = self.oldest.wrapping_sub(from) as i32;
        let ahead_of_next = from.wrapping_sub(self.next) as i32;
        if behind_oldest > 0 {
            self.stats.stale += 1;
            return None;
        }
        let from = if ahead_of_next > 0 { self.next } else { from };
        while self.oldest != from {
            self.pending[(self.oldest & self.mask) as usize] = None;
            self.oldest = self.oldest.wrapping_add(1);
        }
        self.state.channels(&mut self.before);
        self.state.clone_from(server);
        let mut seq = self.oldest;
        let mut replayed = 0;
        while seq != self.next {
            if let Some(input) = &self.pending[(seq & self.mask) as usize] {
                self.state.step(input);
                replayed += 1;
            }
            seq = seq.wrapping_add(1);
        }
        self.state.channels(&mut self.after);
        let l = self.layout.linear;
        let mut d2 = 0.0;
        for k in 0..l {
            let d = self.before[k] - self.after[k];
            d2 += d * d;
        }
        let distance = d2.sqrt();
        let snapped = distance > self.settings.teleport;
        for k in 0..self.error.len() {
            if snapped {
                self.error[k] = 0.0;
            } else if k < l {
                self.error[k] += self.before[k] - self.after[k];
            } else {
                self.error[k] = angle_delta(self.error[k] + self.before[k], self.after[k]);
            }
        }
        self.stats.reconciled += 1;
        if distance > self.settings.count_above {
            self.stats.corrections += 1;
        }
        if snapped {
            self.stats.snaps += 1;
        }
        if distance > self.stats.max_correction {
            self.stats.max_correction = distance;
        }
        Some(Correction {
            distance,
            replayed,
            snapped,
        })
    }

    /// One drawn frame, `dt_ms` after the last: decays the error offset and returns the
    /// drawn channels (predicted + offset; angles in `[−π, π)`).
    pub fn frame(&mut self, dt_ms: f64) -> &[f64] {
        let keep = 1.0 - exp_ease(self.settings.rate, dt_ms);
        self.state.channels(&mut self.drawn);
        let l = self.layout.linear;
        let norm = |e: &[f64]| e[..l].iter().map(|x| x * x).sum::<f64>().sqrt();
        let before = norm(&self.error);
        ease_error(&mut self.error, l, keep, self.settings.max_frame_ease);
        let eased = before - norm(&self.error);
        if eased > self.stats.max_eased {
            self.stats.max_eased = eased;
        }
        for k in 0..self.drawn.len() {
            self.drawn[k] += self.error[k];
            if k >= l {
                self.drawn[k] = wrap_angle(self.drawn[k]);
            }
        }
        &self.drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// A body with a speed along x, driven by throttle frames.
    #[derive(Debug, Clone, PartialEq)]
    struct Body {
        x: f64,
        v: f64,
    }

    impl Predict for Body {
        type Input = f64;
        fn step(&mut self, throttle: &f64) {
            self.v += throttle * 0.1;
            self.x += self.v / 60.0;
        }
        fn channels(&self, out: &mut [f64]) {
            out[0] = self.x;
        }
    }

    const LAYOUT: Layout = Layout {
        linear: 1,
        angle: 0,
    };

    #[test]
    fn an_agreeing_server_corrects_nothing() {
        let mut server = Body { x: 0.0, v: 0.0 };
        let mut r = Reconciler::new(server.clone(), 0, LAYOUT, RECONCILE_DEFAULTS);
        for _ in 0..10 {
            r.predict(1.0);
        }
        for _ in 0..6 {
            server.step(&1.0);
        }
        let c = r.reconcile(&server, 5).unwrap();
        assert_eq!(c.replayed, 4);
        assert!(c.distance < 1e-12, "{c:?}");
        assert_eq!(r.unacked(), 4);
        assert_eq!(r.stats().corrections, 0);
    }

    #[test]
    fn a_disagreement_eases_out_and_a_teleport_snaps() {
        let server = Body { x: 0.0, v: 0.0 };
        let s = ReconcileSettings {
            max_frame_ease: f64::INFINITY,
            ..RECONCILE_DEFAULTS
        };
        let mut r = Reconciler::new(server, 0, LAYOUT, s);
        r.predict(0.0);
        r.predict(0.0);
        let moved = Body { x: 1.0, v: 0.0 };
        let c = r.reconcile(&moved, 0).unwrap();
        assert!((c.distance - 1.0).abs() < 1e-12);
        assert!(!c.snapped);
        // Drawn where it was, then easing toward the new prediction.
        assert!((r.frame(0.0)[0] - 0.0).abs() < 1e-12);
        let after = r.frame(200.0)[0];
        assert!((after - (1.0 - (-2.0f64).exp())).abs() < 1e-12, "{after}");
        let far = Body { x: 100.0, v: 0.0 };
        assert!(r.reconcile(&far, 1).unwrap().snapped);
        assert_eq!(r.frame(16.0)[0], 100.0);
        assert_eq!(r.stats().corrections, 2);
        assert_eq!(r.stats().snaps, 1);
    }

    /// Before the per-frame bound, a 1 m correction moved the drawn avatar 15 cm in the
    /// next 16 ms frame and 86 cm in a 200 ms one.
    #[test]
    fn a_correction_moves_the_drawn_avatar_at_most_max_frame_ease_a_frame() {
        let mut r = Reconciler::new(Body { x: 0.0, v: 0.0 }, 0, LAYOUT, RECONCILE_DEFAULTS);
        r.predict(0.0);
        r.reconcile(&Body { x: 1.0, v: 0.0 }, 0).unwrap();
        let mut last = r.frame(0.0)[0];
        assert_eq!(last, 0.0, "drawn where it was");
        let mut frames = 0;
        for dt in [200.0, 16.0, 33.0, 7.0].into_iter().cycle() {
            let d = r.frame(dt)[0];
            assert!(d - last <= 0.02 + 1e-12, "{last} -> {d} in {dt} ms");
            last = d;
            frames += 1;
            if (1.0 - d).abs() < 1e-6 {
                break;
            }
        }
        assert!(frames > 43, "{frames}");
        assert!((r.stats().max_eased - 0.02).abs() < 1e-12);
    }

    #[test]
    fn an_old_ack_is_ignored_and_the_pending_ring_is_bounded() {
        let s = ReconcileSettings {
            pending: 8,
            ..RECONCILE_DEFAULTS
        };
        let mut r = Reconciler::new(Body { x: 0.0, v: 0.0 }, 100, LAYOUT, s);
        for _ in 0..20 {
            r.predict(1.0);
        }
        assert_eq!(r.unacked(), 8);
        assert_eq!(r.stats().forgotten, 12);
        assert!(r.reconcile(&Body { x: 0.0, v: 0.0 }, 101).is_none());
        assert_eq!(r.stats().stale, 1);
        // An ack past everything predicted: the server's state as is.
        let c = r.reconcile(&Body { x: 5.0, v: 0.0 }, 1000).unwrap();
        assert_eq!(c.replayed, 0);
        assert_eq!(r.unacked(), 0);
        assert_eq!(r.state().x, 5.0);
    }

    #[test]
    fn angles_ease_on_the_shortest_arc() {
        #[derive(Debug, Clone)]
        struct Heading(f64);
        impl Predict for Heading {
            type Input = ();
            fn step(&mut self, _: &()) {}
            fn channels(&self, out: &mut [f64]) {
                out[0] = self.0;
            }
        }
        let layout = Layout {
            linear: 0,
            angle: 1,
        };
        let mut r = Reconciler::new(Heading(3.1), 0, layout, RECONCILE_DEFAULTS);
        r.reconcile(&Heading(-3.1), 0).unwrap();
        // The error is −0.0832 rad (across ±π), not +6.2.
        assert!(
            (r.error()[0] - (6.2 - 2.0 * PI)).abs() < 1e-12,
            "{:?}",
            r.error()
        );
        let d = r.frame(0.0)[0];
        assert!((d - 3.1).abs() < 1e-12, "{d}");
    }
}
