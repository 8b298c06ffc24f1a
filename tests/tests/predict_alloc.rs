//! Prediction to now and the rewind allocate nothing per frame after construction, counted
//! with a counting global allocator (thread-local counters, like `alloc.rs`): 40 nearby cars
//! predicted and a 40-entity history recorded and viewed every frame for 10 s at 60 fps.

use tuplet::netcode::predict::{Advance, Ahead, AHEAD_DEFAULTS};
use tuplet::netcode::reconcile::Layout;
use tuplet::netcode::rewind::{Rewind, REWIND_DEFAULTS};
use tuplet::netcode::wrap_angle;
use tuplet_tests::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Debug, Clone, Default)]
struct Car {
    x: f64,
    y: f64,
    h: f64,
    v: f64,
    steer: f64,
}

impl Advance for Car {
    fn step(&mut self) {
        self.h = wrap_angle(self.h + self.steer / 60.0);
        self.x += self.h.cos() * self.v / 60.0;
        self.y += self.h.sin() * self.v / 60.0;
    }
    fn channels(&self, out: &mut [f64]) {
        out[0] = self.x;
        out[1] = self.y;
        out[2] = self.h;
    }
}

const LAYOUT: Layout = Layout {
    linear: 2,
    angle: 1,
};

#[test]
fn prediction_and_rewind_frames_allocate_nothing() {
    const N: usize = 40;
    let mut cars: Vec<Ahead<Car>> = (0..N)
        .map(|_| Ahead::new(Car::default(), LAYOUT, AHEAD_DEFAULTS))
        .collect();
    let mut rewind = Rewind::new(LAYOUT, REWIND_DEFAULTS);
    let mut start = Car::default();
    let mut ch = [0.0; 3];
    let mut sum = 0.0;
    let before = counting::allocations();
    for f in 0..600u32 {
        let now = f64::from(f) * 1000.0 / 60.0;
        rewind.record(f, now);
        for (k, a) in cars.iter_mut().enumerate() {
            let k = k as f64;
            start.x = k + f64::from(f) * 0.01;
            start.y = (f64::from(f) * 0.01 + k).sin();
            start.h = wrap_angle(f64::from(f) * 0.003 * k);
            start.v = 5.0 + f64::from((f / 6) % 5);
            start.steer = k % 3.0 - 1.0;
            let basis = f64::from(f / 6);
            sum += a.frame(
                &start,
                basis,
                now - 150.0,
                now + 100.0 + f64::from(f % 9),
                16.0,
            )[0];
            start.channels(&mut ch);
            rewind.put(k as u32, &ch);
        }
        rewind.view(now - 200.0 - f64::from(f % 400) * 2.0);
        for i in 0..rewind.len() {
            sum += rewind.channels(i)[0];
        }
    }
    let n = counting::allocations() - before;
    assert_eq!(n, 0, "allocations while predicting and rewinding");
    assert!(sum.is_finite());
    assert!(cars[7].stats().rebases > 90 && rewind.stats().views == 600);
}
