//! The machine's own noise floor, measured beside the server: how late a bare OS thread
//! wakes from a 50 ms sleep. On a shared machine, a room's tick cannot be less late than
//! this; the report prints both so the server's share can be told apart.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Sleeps 50 ms at a time through the warm-up and the measured window; returns the
/// oversleep of each sleep in the window, ms, sorted.
pub fn start(warmup: Duration, window: Duration) -> JoinHandle<Vec<f64>> {
    std::thread::spawn(move || {
        let begin = Instant::now();
        let mut late = Vec::new();
        while begin.elapsed() < warmup + window {
            let t = Instant::now();
            std::thread::sleep(Duration::from_millis(50));
            if begin.elapsed() > warmup {
                let over = t.elapsed().saturating_sub(Duration::from_millis(50));
                late.push(over.as_secs_f64() * 1e3);
            }
        }
        late.sort_by(f64::total_cmp);
        late
    })
}
