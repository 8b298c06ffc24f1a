//! `tuplet::netcode` allocates nothing per push or per frame after warm-up: a counting global
//! allocator around 40 entities, 10 Hz pushes and 60 fps frames (teleports, silences, a hidden
//! tab, a render clock, a pool whose entities leave and enter view).

use tuplet::netcode::{ChannelLayout, InterpolatedSet, NetcodeSettings, RenderClock};
use tuplet_tests::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> usize {
    counting::allocations()
}

/// Seconds `from..to` of a 40-entity room: every 6th frame a move per entity, entities 30..40
/// leave and re-enter view every 2 s, one teleports every 3 s, a 2 s hidden tab at 20 s.
fn play(pool: &mut InterpolatedSet<u32>, clock: &mut RenderClock, from: u32, to: u32) -> f64 {
    let mut sum = 0.0;
    let mut ch = [0.0f64; 4];
    for f in from * 60..to * 60 {
        let now = f as f64 * 1000.0 / 60.0;
        if (1200..1320).contains(&f) {
            continue; // hidden
        }
        if f % 120 == 0 {
            for k in 30..40 {
                if (f / 120) % 2 == 0 {
                    pool.leave(&k);
                } else {
                    pool.enter(&k);
                }
            }
        }
        if f % 6 == 0 {
            clock.observe(now, now + 40.0 + (f % 7) as f64 * 5.0);
            for k in 0..40u32 {
                if (30..40).contains(&k) && (f / 120) % 2 == 0 {
                    continue;
                }
                let t = now - (k as f64) * 0.5;
                let walking = f % 600 < 400; // stands still (and goes silent) a third of the time
                let x = if walking {
                    t * 0.0015
                } else {
                    0.4 * 1000.0 * 0.0015 * (f / 600) as f64
                };
                let jump = if k == 3 && f % 180 == 0 { 50.0 } else { 0.0 };
                ch[0] = x + jump + k as f64;
                ch[1] = (t * 0.001).sin();
                ch[2] = (t * 0.002) % 6.0 - 3.0;
                ch[3] = (f / 60) as f64;
                if walking || f % 600 < 412 {
                    pool.enter(&k)
                        .push_sent(t, now + 30.0 + ((f + k) % 9) as f64 * 8.0, &ch);
                }
            }
        }
        let _render = clock.now(now);
        pool.sample_all(now + 16.0);
        for i in 0..pool.len() {
            sum += pool.at(i).out()[0];
        }
    }
    sum
}

#[test]
fn no_allocation_per_push_or_frame_after_warm_up() {
    let layout = ChannelLayout {
        linear: 2,
        angle: 1,
        hold: 1,
    };
    let mut pool = InterpolatedSet::new(layout, NetcodeSettings::DEFAULT);
    let mut clock = RenderClock::default();
    // warm-up: every entity entered once, the pool and its map at their size
    let warm = play(&mut pool, &mut clock, 0, 5);
    assert!(warm.is_finite());
    let before = allocs();
    let sum = play(&mut pool, &mut clock, 5, 60);
    let after = allocs();
    assert!(sum.is_finite() && sum != 0.0);
    assert_eq!(
        after - before,
        0,
        "55 s of 40 entities (pushes, frames, leave/enter) allocated {} times",
        after - before
    );
    // the harness is not fooled: a fresh pool allocates
    let mut fresh = InterpolatedSet::<u32>::new(layout, NetcodeSettings::DEFAULT);
    let b = allocs();
    fresh.enter(&1).push_sent(0.0, 1.0, &ch4());
    assert!(allocs() > b, "the counting allocator saw no allocation");
}

fn ch4() -> [f64; 4] {
    [1.0, 2.0, 3.0, 4.0]
}
