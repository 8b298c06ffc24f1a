//! The pure decisions of the netcode runtime, one small case each, in the style of Mirror's
//! `SnapshotInterpolationTests`; tests/ts/tests/netcode_decisions.test.ts checks the same
//! cases in TypeScript.

use super::*;
use std::f64::consts::PI;

fn near(a: f64, b: f64, eps: f64) {
    assert!((a - b).abs() <= eps, "{a} is not {b}");
}

#[test]
fn the_wrap_keeps_an_angle_within_a_turn_and_takes_the_short_way_round() {
    near(wrap_angle(PI), -PI, 1e-12);
    near(wrap_angle(3.0 * PI + 0.5), -PI + 0.5, 1e-12);
    near(wrap_angle(-0.25), -0.25, 1e-12);
    near(angle_delta(-3.1, 3.1), 2.0 * PI - 6.2, 1e-12);
    near(angle_delta(3.1, -3.1), 6.2 - 2.0 * PI, 1e-12);
}

#[test]
fn a_tangent_is_zero_at_a_stop_and_at_a_turn_back() {
    assert_eq!(monotone_tangent(1.5, 0.0), 0.0);
    assert_eq!(monotone_tangent(0.0, 1.5), 0.0);
    assert_eq!(monotone_tangent(1.0, -1.0), 0.0);
    near(monotone_tangent(1.0, 2.0), 1.5, 0.0);
}

#[test]
fn an_unevenly_spaced_tangent_is_the_slope_of_the_parabola_through_its_samples() {
    // (t + 200)² / 10⁴ at t = -100, 0, 300: secants 0.03 and 0.07, the slope at 0 is 0.04
    near(spaced_tangent(0.03, 100.0, 0.07, 300.0), 0.04, 1e-15);
    near(
        spaced_tangent(1.0, 100.0, 2.0, 100.0),
        monotone_tangent(1.0, 2.0),
        0.0,
    ); // evenly spaced: the mean
    assert_eq!(spaced_tangent(1.5, 100.0, 0.0, 300.0), 0.0); // a stop
    assert_eq!(spaced_tangent(1.0, 300.0, -1.0, 100.0), 0.0); // a turn back
}

#[test]
fn the_newest_tangent_ends_a_constant_acceleration_from_the_one_before() {
    // t² / 10⁴ from t = 100 to 300: slope 0.02 at 100, secant 0.04, slope 0.06 at 300
    near(end_tangent(0.02, 0.04), 0.06, 1e-15);
    near(end_tangent(1.5, 1.5), 1.5, 0.0); // steady
    near(end_tangent(0.0, 0.5), 1.0, 0.0); // out of rest: twice the mean
    assert_eq!(end_tangent(3.0, 1.0), 0.0); // braking harder than that: a stop ahead
    assert_eq!(end_tangent(0.0, 0.0), 0.0); // standing
    near(end_tangent(-0.5, -1.0), -1.5, 0.0); // either direction
}

#[test]
fn a_ramp_into_a_stop_takes_the_share_its_braking_covers() {
    // 4 cm over 300 ms (0.133 m/s mean) entered at 0.8 m/s (per ms): a constant braking stops in 100 ms
    near(
        ramp_share(0.0008 * 0.04, 0.04 * 0.04, 300.0),
        1.0 / 3.0,
        1e-12,
    );
    assert_eq!(ramp_share(0.0002 * 0.04, 0.04 * 0.04, 300.0), 1.0); // the cubic follows
    assert_eq!(ramp_share(0.0008, 0.0, 300.0), 1.0); // nothing moved
    assert_eq!(ramp_share(-0.0008 * 0.04, 0.04 * 0.04, 300.0), 1.0); // a slope against the move
}

#[test]
fn a_monotone_segment_never_leaves_its_ends() {
    for (m0, m1) in [(10.0, 10.0), (-5.0, 3.0), (0.0, 40.0), (3.0, 3.0)] {
        for k in 0..=20 {
            let u = k as f64 / 20.0;
            let v = monotone_hermite(2.0, 1.0, m0 / 100.0, m1 / 100.0, 100.0, u);
            assert!(
                (2.0 - 1e-12..=3.0 + 1e-12).contains(&v),
                "{v} left [2, 3] at u {u} with tangents {m0}, {m1}"
            );
        }
    }
    assert_eq!(monotone_hermite(5.0, 0.0, 1.0, 1.0, 100.0, 0.5), 5.0);
    near(
        monotone_hermite(0.0, 1.0, 0.01, 0.01, 100.0, 0.5),
        0.5,
        1e-12,
    );
}

#[test]
fn the_render_time_follows_at_the_senders_rate_and_slews_at_most_as_asked() {
    near(
        follow_time(0.0, 16.0, 16.0, 0.0, 0.05, 0.05, 0.0),
        16.0,
        1e-12,
    );
    near(
        follow_time(0.0, 1000.0, 16.0, 0.0, 0.05, 0.05, 0.0),
        16.0 * 1.05,
        1e-12,
    );
    near(
        follow_time(0.0, -1000.0, 16.0, 0.0, 0.2, 0.05, 0.0),
        16.0 * 0.8,
        1e-12,
    );
    near(
        follow_time(0.0, 1000.0, 16.0, 0.1, 0.0, 0.0, 0.0),
        16.0 / 1.1,
        1e-12,
    );
    near(
        follow_time(100.0, 0.0, -5.0, 0.0, 1.0, 1.0, 0.0),
        100.0,
        0.0,
    );
}

#[test]
fn within_its_band_the_render_time_runs_at_the_rate_and_follows_only_beyond() {
    // 6 ms off inside a 10 ms band: on at the rate alone
    near(
        follow_time(0.0, 22.0, 16.0, 0.0, 0.2, 0.2, 10.0),
        16.0,
        1e-12,
    );
    near(
        follow_time(0.0, 10.0, 16.0, 0.0, 0.2, 0.2, 10.0),
        16.0,
        1e-12,
    );
    // 14 ms ahead, 4 beyond the band: those 4 are followed (within the slew)
    near(
        follow_time(0.0, 30.0, 16.0, 0.0, 0.5, 0.5, 10.0),
        20.0,
        1e-12,
    );
    near(
        follow_time(0.0, 0.0, 16.0, 0.0, 0.5, 0.5, 10.0),
        10.0,
        1e-12,
    );
    // far off: at most the slew
    near(
        follow_time(0.0, 1000.0, 16.0, 0.0, 0.05, 0.05, 10.0),
        16.0 * 1.05,
        1e-12,
    );
}

#[test]
fn the_target_holds_within_its_band_and_grows_at_once() {
    assert_eq!(hold_target(150.0, 170.0, 40.0), 170.0);
    assert_eq!(hold_target(150.0, 120.0, 40.0), 150.0);
    assert_eq!(hold_target(150.0, 110.0, 40.0), 150.0);
    assert_eq!(hold_target(150.0, 109.0, 40.0), 109.0);
    assert_eq!(hold_target(150.0, 149.0, 0.0), 149.0);
}

#[test]
fn the_delay_covers_what_the_latest_samples_needed() {
    let mut t = StreamTiming::new(NetcodeSettings::DEFAULT);
    for k in 0..64 {
        let late = if k % 16 == 3 { 60.0 } else { 0.0 };
        t.observe(k as f64 * 100.0, k as f64 * 100.0 + 30.0 + late, true);
    }
    near(t.interval(), 100.0, 1e-6);
    near(t.offset(), 30.0, 1e-9);
    near(t.need(), 160.0, 1.0);
    near(t.target(), t.need(), 0.0);
    let mut calm = StreamTiming::new(NetcodeSettings::DEFAULT);
    for k in 0..20 {
        calm.observe(k as f64 * 50.0, k as f64 * 50.0 + 10.0, true);
    }
    assert_eq!(calm.target(), NetcodeSettings::DEFAULT.min_delay_ms);
}

/// The browser test's holds: an in-order link held one message 130 ms once in 64, and every
/// player held at its newest sample for four frames, since the default 98th percentile of 64
/// is the second-largest need. With `late_percentile` 1 the delay covers it.
#[test]
fn with_late_percentile_1_one_late_sample_in_the_window_is_covered() {
    let s = NetcodeSettings {
        late_percentile: 1.0,
        ..NetcodeSettings::DEFAULT
    };
    let mut d = StreamTiming::new(NetcodeSettings::DEFAULT);
    let mut t = StreamTiming::new(s);
    for k in 0..64 {
        let late = if k == 40 { 130.0 } else { 0.0 };
        t.observe(k as f64 * 100.0, k as f64 * 100.0 + 30.0 + late, true);
        d.observe(k as f64 * 100.0, k as f64 * 100.0 + 30.0 + late, true);
    }
    assert!(t.need() > 225.0, "need {}", t.need());
    assert!(d.need() < 110.0, "the default's need {}", d.need());
    near(t.target(), t.need(), 0.0);
}

#[test]
fn the_senders_rate_follows_the_least_delays_of_whole_blocks() {
    let mut t = StreamTiming::new(NetcodeSettings::DEFAULT);
    for k in 0..1200u64 {
        t.observe(
            k as f64 * 50.0,
            k as f64 * 56.0 + ((k * 7919) % 31) as f64,
            true,
        );
    }
    near(t.rate(), 0.12, 0.01);
    let mut steady = StreamTiming::new(NetcodeSettings::DEFAULT);
    for k in 0..200u64 {
        let stall = if k == 90 { 250.0 } else { 0.0 };
        steady.observe(
            k as f64 * 50.0,
            k as f64 * 50.0 + ((k * 7919) % 31) as f64 + stall,
            true,
        );
    }
    near(steady.rate(), 0.0, 0.005);
}

/// Feeds `t` a 20 Hz stream for `secs` whose clock runs `drift(ms)` slow (ms: our clock), with
/// up to 30 ms of jitter; returns our clock.
fn drifting(t: &mut StreamTiming, secs: f64, drift: impl Fn(f64) -> f64) -> f64 {
    let mut at = 0.0;
    for k in 0..(secs * 20.0) as u64 {
        t.observe(k as f64 * 50.0, at + ((k * 7919) % 31) as f64, true);
        at += 50.0 * (1.0 + drift(at));
    }
    at
}

#[test]
fn the_render_clocks_rate_follows_a_ramp_and_a_step_and_shrugs_off_a_stall() {
    // a tick drifting from 15% fast to 15% slow over 40 s: followed within 2 points
    let mut ramp = RenderClock::default();
    let end = drifting(&mut ramp.timing, 30.0, |ms| -0.15 + 0.3 * ms / 40_000.0);
    near(ramp.timing.rate(), -0.15 + 0.3 * end / 40_000.0, 0.02);
    // a step from on time to 12% slow: followed within 1 point 3 s later
    let mut step = RenderClock::default();
    drifting(&mut step.timing, 13.0, |ms| {
        if ms < 10_000.0 {
            0.0
        } else {
            0.12
        }
    });
    near(step.timing.rate(), 0.12, 0.01);
    // a 300 ms stall moves the rate less than 2 points from the same stream's without it (5 when
    // blocks held up whole were not skipped)
    let mut stalled = RenderClock::default();
    let mut calm = RenderClock::default();
    let mut worst: f64 = 0.0;
    for k in 0..300u64 {
        // what was sent in those 300 ms arrives when they end, with the sample sent then
        let sent = k as f64 * 50.0;
        let jitter = ((k * 7919) % 31) as f64;
        let held = if (100..106).contains(&k) { 5300.0 } else { 0.0 };
        stalled.observe(sent, sent.max(held) + jitter);
        calm.observe(sent, sent + jitter);
        worst = worst.max((stalled.timing.rate() - calm.timing.rate()).abs());
    }
    assert!(worst < 0.02, "a stall moved the rate by {worst}");
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

#[test]
fn the_render_clock_runs_at_a_slow_servers_rate_and_never_past_its_newest_snapshot() {
    let mut c = RenderClock::default();
    let mut k = 0u64;
    let mut worst = f64::NEG_INFINITY;
    let mut now = 0.0;
    while now < 20000.0 {
        while (k * 56 + 30) as f64 <= now {
            c.observe(k as f64 * 50.0, (k * 56 + 30) as f64);
            k += 1;
        }
        let t = c.now(now);
        if !t.is_nan() {
            worst = worst.max(t - (k - 1) as f64 * 50.0);
        }
        if now > 10000.0 {
            assert!(!c.snapped);
        }
        now += 16.0;
    }
    assert!(worst <= 0.0, "drew {worst} ms past the newest snapshot");
    near(c.timing.rate(), 0.12, 0.01);
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
    assert!(furthest > 400.0, "the render time stood {furthest} ms behind the newest snapshot");
    assert_eq!(stuck, 0, "{stuck} frames held behind the newest sample");
}

