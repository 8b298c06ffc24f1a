//! The decisions of [`Rewind`], one each.

use super::*;

const LAYOUT: Layout = Layout {
    linear: 2,
    angle: 1,
};

/// Entity `id` at tick `t`: x moves 0.1 m a tick, y is its id, heading 0.01 rad a tick.
fn state(id: u32, t: u32) -> [f64; 3] {
    [
        f64::from(t) * 0.1,
        f64::from(id),
        wrap_angle(f64::from(t) * 0.01),
    ]
}

/// `ticks` records of entities 1..=3, tick `t` at `t × 10` ms.
fn history(settings: RewindSettings, ticks: u32) -> Rewind {
    let mut r = Rewind::new(LAYOUT, settings);
    for t in 0..ticks {
        r.record(t, f64::from(t) * 10.0);
        for id in 1..=3 {
            assert!(r.put(id, &state(id, t)));
        }
    }
    r
}

const TEN_MS: RewindSettings = RewindSettings {
    tick_ms: 10.0,
    max_rewind_ms: 100.0,
    entities: 8,
    teleport: 8.0,
};

fn close(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
}

#[test]
fn the_ring_holds_the_cap_plus_two_records() {
    assert_eq!(Rewind::new(LAYOUT, REWIND_DEFAULTS).capacity(), 32);
    let r = history(TEN_MS, 100);
    assert_eq!(r.capacity(), 12);
    assert_eq!(r.records(), 12);
    assert_eq!(r.oldest_ms(), Some(880.0));
    assert_eq!(r.newest_ms(), Some(990.0));
    assert_eq!(r.newest_tick(), Some(99));
}

#[test]
fn a_view_between_two_records_is_blended() {
    let mut r = history(TEN_MS, 100);
    assert_eq!(r.view(952.5), Some(952.5));
    assert_eq!(r.len(), 3);
    assert_eq!(r.id(1), 2);
    let want = [9.525, 2.0, 0.9525];
    assert!(close(r.get(2).unwrap(), &want), "{:?}", r.get(2));
    // On a record's time, that record.
    r.view(950.0);
    assert_eq!(r.get(3).unwrap(), &state(3, 95));
}

#[test]
fn a_view_older_than_the_cap_is_answered_at_the_cap() {
    let mut r = history(TEN_MS, 100);
    let at_cap = r.view(990.0 - 100.0).unwrap();
    let capped: Vec<f64> = r.channels(0).to_vec();
    for lie in [889.9, 500.0, 0.0, -1e300, f64::NEG_INFINITY] {
        assert_eq!(r.view(lie), Some(at_cap), "{lie}");
        assert_eq!(r.channels(0), &capped[..], "{lie}");
    }
    assert_eq!(at_cap, 890.0);
    assert_eq!(r.stats().capped, 5);
}

#[test]
fn a_view_in_the_future_or_not_a_number_is_the_newest_record() {
    let mut r = history(TEN_MS, 100);
    for v in [991.0, 1e300, f64::INFINITY, f64::NAN] {
        assert_eq!(r.view(v), Some(990.0));
        assert_eq!(r.get(1).unwrap(), &state(1, 99));
    }
    assert_eq!(r.stats().ahead, 3);
    assert_eq!(r.stats().invalid, 1);
    assert_eq!(r.stats().capped, 0);
}

#[test]
fn a_short_history_answers_at_its_oldest_record() {
    let mut r = history(TEN_MS, 3);
    assert_eq!(r.view(-50.0), Some(0.0));
    assert_eq!(r.get(1).unwrap(), &state(1, 0));
    // Within the cap: not counted as capped.
    assert_eq!(r.stats().capped, 0);
    let mut empty = Rewind::new(LAYOUT, TEN_MS);
    assert_eq!(empty.view(0.0), None);
    assert!(empty.is_empty());
    assert!(!empty.put(1, &[0.0; 3]));
}

#[test]
fn a_full_record_drops_what_does_not_fit() {
    let mut r = Rewind::new(LAYOUT, TEN_MS);
    r.record(0, 0.0);
    for id in 0..10 {
        assert_eq!(r.put(id, &state(id, 0)), id < 8);
    }
    assert_eq!(r.stats().dropped, 2);
    r.view(0.0);
    assert_eq!(r.len(), 8);
}

#[test]
fn an_entity_that_left_or_teleported_is_not_blended() {
    let mut r = Rewind::new(LAYOUT, TEN_MS);
    r.record(0, 0.0);
    r.put(1, &[0.0, 0.0, 0.0]);
    r.put(2, &[0.0, 0.0, 0.0]);
    r.put(3, &[5.0, 0.0, 0.0]);
    r.record(1, 10.0);
    // 2 left; 3 joined only now; 1 teleported 100 m.
    r.put(3, &[6.0, 0.0, 0.0]);
    r.put(1, &[100.0, 0.0, 0.0]);
    r.put(4, &[1.0, 1.0, 1.0]);
    r.view(4.0);
    assert_eq!(r.len(), 3);
    assert_eq!(r.get(1).unwrap()[0], 0.0, "the nearer record");
    assert_eq!(r.get(2).unwrap()[0], 0.0);
    assert!(
        (r.get(3).unwrap()[0] - 5.4).abs() < 1e-12,
        "found out of order"
    );
    assert!(r.get(4).is_none(), "not yet in the world at 4 ms");
    r.view(6.0);
    assert_eq!(r.get(1).unwrap()[0], 100.0);
}

#[test]
fn angles_blend_on_the_shortest_arc() {
    let mut r = Rewind::new(LAYOUT, TEN_MS);
    r.record(0, 0.0);
    r.put(1, &[0.0, 0.0, 3.1]);
    r.record(1, 10.0);
    r.put(1, &[0.0, 0.0, -3.1]);
    r.view(5.0);
    let h = r.get(1).unwrap()[2];
    assert!((h.abs() - std::f64::consts::PI).abs() < 1e-12, "{h}");
}

#[test]
fn a_time_going_back_restarts_the_history() {
    let mut r = history(TEN_MS, 20);
    r.record(0, 5.0);
    r.put(1, &[1.0, 2.0, 3.0]);
    assert_eq!(r.records(), 1);
    assert_eq!(r.stats().restarts, 1);
    assert_eq!(r.view(150.0), Some(5.0));
    assert_eq!(r.get(1).unwrap(), &[1.0, 2.0, 3.0]);
}
