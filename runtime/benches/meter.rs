//! What a byte meter costs per message: decode through the dispatch enum with and without
//! `Meter::record_in`, side by side in the same run. `cargo bench -p tuplet --bench meter`
//! prints the table docs/server.md quotes; under `cargo test` it runs one short pass as a smoke
//! test.

use std::hint::black_box;
use std::time::Instant;

use tuplet::{Dispatch, Encoding, Meter, SampleMode};

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
struct Pose {
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    r: f32,
}

/// The relayed move.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 2, dir = "s2c")]
struct Moved {
    #[tuplet(len = 9)]
    s: String,
    pose: Pose,
    t: u64,
    seq: Option<u32>,
}

/// A heartbeat: the smallest message, where a meter's share is largest.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:heartbeat", id = 3, dir = "s2c")]
struct Heartbeat {
    t: u64,
}

#[derive(Debug, Clone, PartialEq, tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
enum ServerMsg {
    Moved(Moved),
    Heartbeat(Heartbeat),
}

/// Median ns per call of each closure, timed in alternating rounds so drift on a shared
/// machine hits both alike.
fn side_by_side(runs: usize, iters: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(runs); fs.len()];
    for _ in 0..runs {
        for (f, s) in fs.iter_mut().zip(samples.iter_mut()) {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            s.push(start.elapsed().as_nanos() as f64 / iters as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(|a, b| a.total_cmp(b));
            s[runs / 2]
        })
        .collect()
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let (runs, iters) = if bench { (31, 100_000) } else { (1, 100) };
    let meter = Meter::<ServerMsg>::new();
    println!("| message | bytes | decode ns | decode + meter ns | meter share |");
    println!("|---|---:|---:|---:|---:|");
    for index in 0..ServerMsg::MESSAGES.len() {
        let msg = ServerMsg::sample_variant(index, 1, SampleMode::Max).unwrap();
        let bytes = msg.to_envelope(Encoding::Compact).unwrap();
        let mut plain = || {
            black_box(ServerMsg::from_envelope(black_box(&bytes)).unwrap());
        };
        let mut metered = || {
            let m = ServerMsg::from_envelope(black_box(&bytes)).unwrap();
            meter.record_in(&m, bytes.len());
            black_box(m);
        };
        let t = side_by_side(runs, iters, &mut [&mut plain, &mut metered]);
        let (plain, metered) = (t[0], t[1]);
        println!(
            "| {} | {} | {plain:.1} | {metered:.1} | {:+.1}% |",
            msg.name(),
            bytes.len(),
            (metered / plain - 1.0) * 100.0
        );
    }
    let heartbeat = ServerMsg::Heartbeat(Heartbeat { t: 1 });
    let mut record = || meter.record_in(black_box(&heartbeat), 10);
    let meter_only = side_by_side(runs, iters * 5, &mut [&mut record])[0];
    println!("\nrecord_in alone: {meter_only:.2} ns per message");
    assert!(meter.report().iter().all(|r| r.count_in > 0));
}
