//! Input playout and reconciliation allocate nothing per frame after construction, counted
//! with a counting global allocator (thread-local counters, like `alloc.rs`).

use tuplet::netcode::playout::Playout;
use tuplet::netcode::reconcile::{Layout, Predict, Reconciler, RECONCILE_DEFAULTS};
use tuplet_tests::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = counting::allocations();
    f();
    counting::allocations() - before
}

/// The village's input frame, as a game would hold it: plain numbers.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    dt: u8,
    buttons: u16,
    steer: i8,
}

#[derive(Debug, Clone, Default)]
struct Car {
    x: f64,
    y: f64,
    h: f64,
    v: f64,
}

impl Predict for Car {
    type Input = Frame;
    fn step(&mut self, f: &Frame) {
        let dt = f64::from(f.dt) / 1000.0;
        let accel = if f.buttons & 1 != 0 { 6.0 } else { -1.0 };
        self.v = (self.v + accel * dt).clamp(0.0, 30.0);
        self.h += f64::from(f.steer) / 100.0 * 1.2 * dt;
        self.x += self.h.cos() * self.v * dt;
        self.y += self.h.sin() * self.v * dt;
    }
    fn channels(&self, out: &mut [f64]) {
        out[0] = self.x;
        out[1] = self.y;
        out[2] = self.h;
    }
}

#[test]
fn playout_pushes_and_steps_without_allocating() {
    let mut p = Playout::<Frame>::new();
    let batch = [Frame {
        dt: 16,
        buttons: 1,
        steer: 10,
    }; 4];
    let mut sum = 0u64;
    // Warm-up, then ten seconds of 60 Hz steps with batches, resends and a burst.
    p.push(0, &batch);
    let n = allocations(|| {
        let mut seq = 4u32;
        for step in 0..600u32 {
            if step % 4 == 0 {
                p.push(seq, &batch);
                p.push(seq, &batch);
                seq += 4;
            }
            if step == 300 {
                for _ in 0..20 {
                    p.push(seq, &batch);
                    seq += 4;
                }
            }
            p.step(|s, f| sum += u64::from(s) + u64::from(f.dt));
        }
    });
    assert_eq!(n, 0, "allocations while playing out");
    assert!(sum > 0 && p.stats().applied > 500);
}

#[test]
fn reconciliation_allocates_nothing_per_frame() {
    let layout = Layout {
        linear: 2,
        angle: 1,
    };
    let mut r = Reconciler::new(Car::default(), 0, layout, RECONCILE_DEFAULTS);
    let mut server = Car::default();
    let mut sent = Vec::with_capacity(1000);
    let f = Frame {
        dt: 16,
        buttons: 1,
        steer: 30,
    };
    let mut applied = 0usize;
    let n = allocations(|| {
        for t in 0..600u32 {
            r.predict(f);
            sent.push(f);
            if t % 3 == 2 && t > 12 {
                // The server is ten frames behind, and bumped a centimetre each time.
                let upto = t as usize - 9;
                for g in &sent[applied..upto] {
                    server.step(g);
                }
                applied = upto;
                server.x += 0.01;
                r.reconcile(&server, t - 10).expect("a fresh ack");
            }
            r.frame(16.7);
        }
    });
    assert_eq!(n, 0, "allocations while predicting and reconciling");
    assert!(r.stats().reconciled > 150);
}
