//! The decisions of [`Ahead`], one each, on a body moving along x.

use super::*;
use crate::netcode::offset::ease_error;

/// A body at `x` moving at `v` metres a second; one step is 1/60 s.
#[derive(Debug, Clone, PartialEq)]
struct Body {
    x: f64,
    v: f64,
}

impl Advance for Body {
    fn step(&mut self) {
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

fn ahead() -> Ahead<Body> {
    Ahead::new(Body { x: 0.0, v: 0.0 }, LAYOUT, AHEAD_DEFAULTS)
}

const STEP: f64 = 1000.0 / 60.0;

#[test]
fn whole_steps_reach_the_horizon_and_a_fraction_is_drawn_between_steps() {
    let mut a = ahead();
    let b = Body { x: 1.0, v: 6.0 };
    let d = a.frame(&b, 0.0, 1000.0, 1000.0 + 6.0 * STEP, 16.0)[0];
    assert!((d - 1.6).abs() < 1e-12, "{d}");
    assert!((a.state().x - 1.6).abs() < 1e-12);
    let d = a.frame(&b, 0.0, 1000.0, 1000.0 + 6.5 * STEP, 16.0)[0];
    assert!((d - 1.65).abs() < 1e-12, "{d}");
    // The simulation holds the whole steps only.
    assert!((a.state().x - 1.6).abs() < 1e-12);
}

#[test]
fn the_horizon_is_cut_to_max_ahead_and_never_negative() {
    let mut a = ahead();
    let b = Body { x: 0.0, v: 6.0 };
    let d = a.frame(&b, 0.0, 0.0, 5000.0, 16.0)[0];
    assert!((d - 6.0 * 0.5).abs() < 1e-9, "{d}");
    assert_eq!(a.stats().capped, 1);
    let d = a.frame(&b, 0.0, 100.0, 50.0, 16.0)[0];
    assert_eq!(d, 0.0);
    let d = a.frame(&b, 0.0, f64::NAN, 50.0, 16.0)[0];
    assert_eq!(d, 0.0);
    assert_eq!(a.stats().capped, 1);
}

#[test]
fn the_same_basis_draws_the_prediction_as_is() {
    let mut a = ahead();
    for f in 0..30 {
        let b = Body {
            x: f as f64 * 0.1,
            v: 6.0,
        };
        let d = a.frame(&b, 7.0, 0.0, 10.0 * STEP, 16.0)[0];
        assert!((d - (b.x + 1.0)).abs() < 1e-12, "{d}");
    }
    assert_eq!(a.stats().rebases, 0);
    assert_eq!(a.error()[0], 0.0);
}

#[test]
fn a_new_velocity_continues_the_drawn_path_then_eases_out() {
    let s = AheadSettings {
        max_frame_ease: 1.0,
        ..AHEAD_DEFAULTS
    };
    let mut a = Ahead::new(Body { x: 0.0, v: 0.0 }, LAYOUT, s);
    a.frame(&Body { x: 0.0, v: 6.0 }, 1.0, 0.0, 30.0 * STEP, 16.0);
    // A new sample: the entity brakes to 5.7 m/s, and the start moved 0.1 m.
    let d = a.frame(&Body { x: 0.1, v: 5.7 }, 2.0, 0.0, 30.0 * STEP, 0.0)[0];
    assert!(
        (d - (3.0 + 0.1)).abs() < 1e-12,
        "drawn {d}: where the old prediction went"
    );
    assert!((a.predicted()[0] - (0.1 + 2.85)).abs() < 1e-12);
    assert!((a.stats().max_disagreement - 0.15).abs() < 1e-12);
    assert_eq!(a.stats().corrections, 1);
    // 200 ms later 1 − e^(−2) of it is gone.
    let same = Body { x: 0.1, v: 5.7 };
    a.frame(&same, 2.0, 0.0, 30.0 * STEP, 200.0);
    let left = a.error()[0];
    assert!((left - 0.15 * (-2.0f64).exp()).abs() < 1e-12, "{left}");
}

#[test]
fn no_frame_eases_more_than_max_frame_ease() {
    let mut a = ahead();
    a.frame(&Body { x: 0.0, v: 0.0 }, 1.0, 0.0, STEP, 16.0);
    a.frame(&Body { x: 1.0, v: 0.0 }, 2.0, 0.0, STEP, 16.0);
    // The start moved 1 m with the sample: no disagreement (the start is interpolated).
    assert_eq!(a.error()[0], 0.0);
    a.frame(&Body { x: 1.0, v: 60.0 }, 3.0, 0.0, 1.0 * STEP, 16.0);
    assert!((a.error()[0] + 1.0).abs() < 1e-12);
    let mut last = a.drawn()[0];
    let mut frames = 0;
    while a.error()[0].abs() > 1e-6 {
        let d = a.frame(&Body { x: 1.0, v: 60.0 }, 3.0, 0.0, STEP, 16.0)[0];
        assert!(
            (d - last).abs() <= AHEAD_DEFAULTS.max_frame_ease + 1e-12,
            "{last} -> {d}"
        );
        last = d;
        frames += 1;
    }
    // 1 m at 2 cm a frame until the exponential takes over.
    assert!((44..150).contains(&frames), "{frames}");
}

#[test]
fn a_disagreement_past_snap_above_snaps() {
    let mut a = ahead();
    a.frame(&Body { x: 0.0, v: 0.0 }, 1.0, 0.0, 30.0 * STEP, 16.0);
    let d = a.frame(&Body { x: 0.0, v: 600.0 }, 2.0, 0.0, 30.0 * STEP, 16.0)[0];
    assert!((d - 300.0).abs() < 1e-9, "{d}");
    assert_eq!(a.stats().snaps, 1);
    assert_eq!(a.error()[0], 0.0);
}

#[test]
fn a_new_basis_is_compared_at_the_new_horizon() {
    let mut a = ahead();
    a.frame(&Body { x: 0.0, v: 6.0 }, 1.0, 0.0, 10.0 * STEP, 16.0);
    // The render clock jumped back 10 steps with the new sample: twice the horizon.
    let d = a.frame(
        &Body { x: 0.0, v: 6.0 },
        2.0,
        -10.0 * STEP,
        10.0 * STEP,
        16.0,
    )[0];
    assert!((d - 2.0).abs() < 1e-12, "{d}");
    assert_eq!(a.stats().rebases, 1);
    assert!(a.stats().max_disagreement < 1e-12);
}

#[test]
fn after_a_frame_with_no_horizon_nothing_is_compared() {
    let mut a = ahead();
    a.frame(&Body { x: 0.0, v: 6.0 }, 1.0, 0.0, -5.0, 16.0);
    let d = a.frame(&Body { x: 0.0, v: 9.0 }, 2.0, 0.0, 30.0 * STEP, 16.0)[0];
    assert!((d - 4.5).abs() < 1e-12, "{d}");
    assert_eq!(a.error()[0], 0.0);
    assert_eq!(a.stats().rebases, 0);
}

#[test]
fn reset_forgets_the_basis() {
    let mut a = ahead();
    a.frame(&Body { x: 0.0, v: 0.0 }, 1.0, 0.0, 0.0, 16.0);
    a.reset();
    let d = a.frame(&Body { x: 0.0, v: 6.0 }, 2.0, 0.0, 30.0 * STEP, 16.0)[0];
    assert!((d - 3.0).abs() < 1e-12);
    assert_eq!(a.stats().rebases, 0);
}

#[test]
fn angles_blend_and_ease_on_the_shortest_arc() {
    #[derive(Debug, Clone)]
    struct Spin {
        h: f64,
        w: f64,
    }
    impl Advance for Spin {
        fn step(&mut self) {
            self.h = wrap_angle(self.h + self.w / 60.0);
        }
        fn channels(&self, out: &mut [f64]) {
            out[0] = self.h;
        }
    }
    let layout = Layout {
        linear: 0,
        angle: 1,
    };
    let mut a = Ahead::new(Spin { h: 0.0, w: 0.0 }, layout, AHEAD_DEFAULTS);
    // Half a step past π: between 3.1 + 0.06 (wrapped) and 3.1.
    let d = a.frame(&Spin { h: 3.1, w: 3.6 }, 1.0, 0.0, 0.5 * STEP, 16.0)[0];
    assert!((d - 3.13).abs() < 1e-12, "{d}");
    let d = a.frame(&Spin { h: 3.1, w: 7.2 }, 2.0, 0.0, 0.5 * STEP, 0.0)[0];
    // Drawn where it was; the offset is −0.03 rad, not +6.25.
    assert!((d - 3.13).abs() < 1e-12, "{d}");
    assert!((a.error()[0] + 0.03).abs() < 1e-12, "{:?}", a.error());
}

#[test]
fn ease_error_caps_the_linear_part_only() {
    let mut e = [0.3, 0.4, 1.0];
    ease_error(&mut e, 2, 0.5, 0.1);
    // |(0.3, 0.4)| = 0.5; half of it is 0.25 > 0.1: it loses 0.1 along its direction.
    assert!(
        (e[0] - 0.24).abs() < 1e-12 && (e[1] - 0.32).abs() < 1e-12,
        "{e:?}"
    );
    assert_eq!(e[2], 0.5);
    let mut e = [0.03, 0.04];
    ease_error(&mut e, 2, 0.5, 0.1);
    assert!((e[0] - 0.015).abs() < 1e-12 && (e[1] - 0.02).abs() < 1e-12);
}
