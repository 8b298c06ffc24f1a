//! The interpolator's decisions, one small case each, in the style of Mirror's
//! `SnapshotInterpolationTests`: holds, silences, resyncs, dilation, teleports and the ring
//! (`tests.rs` has the curves, the timing and the render clock);
//! tests/ts/tests/netcode_decisions.test.ts checks the same cases in TypeScript.

use super::*;

fn near(a: f64, b: f64, eps: f64) {
    assert!((a - b).abs() <= eps, "{a} is not {b}");
}

fn walker() -> Interpolator {
    Interpolator::new(ChannelLayout {
        linear: 1,
        angle: 0,
        hold: 0,
    })
}

#[test]
fn past_the_newest_sample_an_entity_holds_there() {
    let mut it = walker();
    for k in 0..=10 {
        it.push_sent(
            k as f64 * 100.0,
            k as f64 * 100.0 + 20.0,
            &[k.min(8) as f64 * 0.15],
        );
    }
    let mut now = 1020.0;
    while now < 2500.0 {
        it.sample(now);
        assert!(
            it.out()[0] <= 8.0 * 0.15 + 1e-12,
            "drawn at {} past the stop",
            it.out()[0]
        );
        now += 16.0;
    }
    assert_eq!(it.state(), InterpState::Holding);
    near(it.out()[0], 1.2, 1e-9);
}

#[test]
fn a_silence_ends_one_sender_step_before_the_sample_that_ends_it() {
    assert_eq!(still_lead(f64::NAN, f64::NAN, 120.0), 120.0);
    assert_eq!(still_lead(f64::NAN, 300.0, 120.0), 300.0);
    assert_eq!(still_lead(100.0, 300.0, 120.0), 100.0); // relayed every 3rd: the sender's step
    assert_eq!(still_lead(20.0, 300.0, 120.0), 75.0); // at least a quarter of the interval
    assert_eq!(still_lead(100.0, f64::NAN, 120.0), 100.0);
    assert!(still_across(0.2, 300.0, 0.02, 2100.0), "slowed to a stop");
    assert!(
        !still_across(0.9, 300.0, 6.3, 2100.0),
        "moved on through lost samples"
    );
}

#[test]
fn a_relayed_stop_seen_once_holds_until_one_step_before_the_move_after_it() {
    let mut it = walker();
    for k in 0..=5 {
        it.push_at(k as f64 * 300.0, &[k as f64 * 0.9]);
    }
    it.push_at(1600.0, &[4.8]); // one step of the sender's 100 ms
    it.push_at(1900.0, &[5.0]); // the stop, its repeat relayed, the pose before it skipped
    it.push_at(4000.0, &[5.02]); // the first move after the silence
    it.sample_at(3000.0);
    it.sample_at(3890.0);
    assert_eq!(
        it.out()[0],
        5.0,
        "still at the stop until one step before the move"
    );
    it.sample_at(3950.0);
    let x = it.out()[0];
    assert!(x > 5.0 && x < 5.02, "{x} moves over the last step");
}

#[test]
fn a_resync_eases_over_after_a_dry_spell_and_snaps_after_a_frame_gap() {
    assert_eq!(resync_by(false, false, true), Resync::None);
    assert_eq!(resync_by(true, false, true), Resync::Ease); // a stall ended
    assert_eq!(resync_by(true, true, true), Resync::Snap); // a hidden tab
    assert_eq!(resync_by(true, false, false), Resync::Snap); // samples came all along
}

#[test]
fn after_a_1_s_stall_the_drawing_converges_within_about_one_send_interval() {
    let mut it = walker();
    for k in 0..10 {
        let t = k as f64 * 100.0;
        it.push_sent(t, t + 20.0, &[k as f64 * 0.15]);
    }
    let mut now = 0.0;
    while now < 2000.0 {
        it.sample(now); // nothing arrives after 1 s: it holds at 0.9 m
        now += 16.0;
    }
    for k in 10..20 {
        it.push_sent(k as f64 * 100.0, now, &[k as f64 * 0.15]);
    }
    let held = it.out()[0];
    let (mut last, mut most) = (held, 0.0f64);
    let mut gap = f64::NAN; // from where it held to the curve at the first frame after the stall
    let end = now + 400.0;
    while now < end {
        assert_ne!(it.sample(now), InterpState::Snapped);
        if gap.is_nan() {
            gap = it.render_time() * 0.0015 - held;
        }
        most = most.max(it.out()[0] - last);
        last = it.out()[0];
        now += 16.0;
    }
    near(it.out()[0], it.render_time() * 0.0015, 0.01); // on the curve again
                                                        // eased over several frames, not jumped in one
    assert!(
        gap > 0.8 && most < 0.5 * gap,
        "a step of {most} m of the {gap} m to catch up"
    );
}

#[test]
fn a_stop_crept_into_before_a_relayed_silence_still_holds_until_the_move() {
    let mut it = walker();
    for k in 0..=5 {
        it.push_at(k as f64 * 300.0, &[k as f64 * 0.9]);
    }
    it.push_at(1600.0, &[4.8]);
    it.push_at(1900.0, &[4.99]); // slowing
    it.push_at(2100.0, &[4.995]); // the stop's repeat: the pose before it already crept
    it.push_at(4000.0, &[5.02]); // the first move after the silence
    it.sample_at(3000.0);
    it.sample_at(3890.0);
    assert_eq!(
        it.out()[0],
        4.995,
        "still at the stop until one step before the move"
    );
}

/// The render time's slowest pace and its held frames for a walker at 10 Hz whose sample 30
/// (and every one behind it, in order) arrives 60 ms past the usual.
fn pace_through_a_late_sample(dilate_below_ms: f64, late_ms: f64) -> (usize, f64) {
    let s = NetcodeSettings {
        dilate_below_ms,
        ..NetcodeSettings::DEFAULT
    };
    let mut it = Interpolator::with_settings(
        ChannelLayout {
            linear: 1,
            angle: 0,
            hold: 0,
        },
        s,
    );
    let mut arrival: Vec<f64> = Vec::new();
    for k in 0..50 {
        let late = if k == 30 { late_ms } else { 0.0 };
        let before = arrival.last().copied().unwrap_or(0.0);
        arrival.push((k as f64 * 100.0 + 20.0 + late).max(before));
    }
    let (mut k, mut held, mut slowest, mut prev) = (0, 0, f64::INFINITY, f64::NAN);
    let mut now = 0.0;
    while now < 4800.0 {
        while k < 50 && arrival[k] <= now {
            it.push_sent(k as f64 * 100.0, arrival[k], &[k as f64 * 0.15]);
            k += 1;
        }
        it.sample(now);
        if now > 1500.0 {
            let pace = (it.render_time() - prev) / 16.0;
            slowest = slowest.min(pace);
            held += usize::from(pace == 0.0);
        }
        prev = it.render_time();
        now += 16.0;
    }
    (held, slowest)
}

/// The browser test's holds: an in-order link holds one message (and every one behind it).
/// Held at the newest sample, the walker stops for two frames; with time dilation the render
/// time slows instead, never below `dilate_min` of its pace.
#[test]
fn a_late_sample_is_waited_for_in_motion_time_dilation_not_a_hold() {
    // once the late sample is overdue the render time slows and holds fewer frames than
    // without dilation
    let dilate = NetcodeSettings::DEFAULT.dilate_below_ms;
    let (held, _) = pace_through_a_late_sample(dilate, 60.0);
    let (undilated, _) = pace_through_a_late_sample(0.0, 60.0);
    assert!(
        undilated >= 2,
        "without dilation it held {undilated} frames"
    );
    assert!(held < undilated, "held {held} frames, {undilated} without");
    // samples on time never slow it: no saw on every interval
    let (held, slowest) = pace_through_a_late_sample(dilate, 0.0);
    assert_eq!(held, 0);
    assert!(slowest > 0.99, "an on-time stream paced at {slowest}");
}

#[test]
fn a_teleport_snaps_however_late_its_sample_arrives() {
    let mut it = walker();
    for k in 0..10 {
        it.push_sent(
            k as f64 * 100.0,
            k as f64 * 100.0 + 20.0,
            &[k as f64 * 0.15],
        );
    }
    let mut now = 0.0;
    while now < 1300.0 {
        it.sample(now);
        now += 16.0;
    }
    it.push_sent(1000.0, now, &[50.0]);
    it.push_sent(1100.0, now, &[50.15]);
    let mut snaps = 0;
    let end = now + 500.0;
    while now < end {
        if it.sample(now) == InterpState::Snapped {
            snaps += 1;
        }
        let x = it.out()[0];
        assert!(x <= 9.0 * 0.15 + 1e-9 || x >= 50.0, "drawn at {x}: a slide");
        now += 16.0;
    }
    assert_eq!(snaps, 1);
    let mut flagged = walker();
    for k in 0..10 {
        flagged.push_sent(
            k as f64 * 100.0,
            k as f64 * 100.0 + 20.0,
            &[k as f64 * 0.15],
        );
    }
    flagged.push_sent_teleport(1000.0, 1020.0, &[1.5], true);
    let mut snapped = false;
    let mut t = 1000.0;
    while t < 1300.0 {
        snapped |= flagged.sample(t) == InterpState::Snapped;
        t += 16.0;
    }
    assert!(snapped, "a flagged teleport did not snap");
}

/// A stall longer than the delay: the render clock stands at the newest snapshot through it, so
/// afterwards it draws up to the stall's wait further back than its target. The ring still
/// holds the samples there; with 8 samples (350 ms at 20 Hz) the entity held at its oldest
/// sample and stepped with every snapshot for seconds.
#[test]
fn after_a_stall_the_render_time_still_finds_its_samples_in_the_ring() {
    let mut clock = RenderClock::default();
    let mut it = Interpolator::new(ChannelLayout {
        linear: 1,
        angle: 0,
        hold: 0,
    });
    let arrival = |k: u64| -> f64 {
        let a = (k * 50 + 40 + ((k * 37) % 11) * 3) as f64;
        for at in [3000.0, 6000.0, 9000.0] {
            if a >= at && a < at + 450.0 {
                return at + 450.0;
            }
        }
        a
    };
    let (mut k, mut furthest, mut stuck) = (0u64, 0.0f64, 0);
    let mut now = 0.0;
    while now < 12000.0 {
        while arrival(k) <= now {
            clock.observe(k as f64 * 50.0, arrival(k));
            it.push_at(k as f64 * 50.0, &[k as f64 * 0.5]);
            k += 1;
        }
        let t = clock.now(now);
        now += 16.0;
        if !(t >= 0.0) {
            continue;
        }
        let newest = (k - 1) as f64 * 50.0;
        furthest = furthest.max(newest - t);
        if it.sample_at(t) == InterpState::Holding && t < newest {
            stuck += 1;
        }
    }
    assert!(
        furthest > 400.0,
        "the render time stood {furthest} ms behind the newest snapshot"
    );
    assert_eq!(stuck, 0, "{stuck} frames held behind the newest sample");
}

/// A 60 Hz sender behind a stall: the ring of 8 spans 117 ms, the drawing stands 450 ms back.
/// Full while the render time still needs its oldest sample, the ring thins its densest stretch
/// instead of dropping that one, so the entity goes on along its path; dropping it would hold
/// the entity at whatever sample was oldest.
#[test]
fn a_full_ring_thins_out_rather_than_drop_the_sample_the_drawing_still_needs() {
    let settings = NetcodeSettings {
        ring_size: 8,
        ..NetcodeSettings::DEFAULT
    };
    let layout = ChannelLayout {
        linear: 1,
        angle: 0,
        hold: 0,
    };
    let mut it = Interpolator::with_settings(layout, settings);
    let step = 1000.0 / 60.0;
    for k in 0..8 {
        it.push_at(k as f64 * step, &[k as f64 * step * 0.01]);
    }
    assert_eq!(it.sample_at(10.0), InterpState::Interpolating);
    for k in 8..28 {
        it.push_at(k as f64 * step, &[k as f64 * step * 0.01]); // a burst after the stall
    }
    assert_eq!(it.len(), 8);
    let mut t = 20.0;
    while t < 27.0 * step {
        assert_eq!(it.sample_at(t), InterpState::Interpolating, "at {t} ms");
        near(it.out()[0], t * 0.01, 1e-9);
        t += 16.0;
    }
}
