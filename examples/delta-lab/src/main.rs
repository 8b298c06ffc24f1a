//! The delta-snapshot lab (BENCHMARKS.md, "delta-lab"; run by `scripts/bench delta-lab`).
//!
//! ```text
//! delta-lab record --seed S --ticks N > trajectory.jsonl   simulate and record a seed
//! delta-lab frames trajectory.jsonl [--parts P] > frames    every client's messages, per row
//! delta-lab time trajectory.jsonl [--ticks N] [--rounds R]  encode cost, tracker vs full
//! delta-lab loss trajectory.jsonl [--rtt-ticks R] [--ticks N] reliable vs acked deltas, 0/2/5% loss
//! ```
//!
//! `frames` writes, for every tick and client, one frame per row: a byte for the row (0 full
//! compact snapshot, 1 tuplet delta, 2 JSON delta, 5–9 the delta form
//! with quantized fields as new values: all of them, then `pos`, `heading`, `speed`, `anim`
//! alone), a byte for the client, the message's length (u32, little-endian) and its bytes;
//! a message not sent is a frame of length 0. `scripts/delta-lab/sizes.py` measures them
//! raw and through a streaming deflate. Each tuplet delta is applied to a client [`Mirror`]
//! and checked against the full snapshot, and against [`model`]'s independent writer.

mod json_delta;
mod loss;
mod model;
mod snapshots;
mod trajectory;
mod world;

use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use tuplet::delta::{Mirror, Sent, Tracker};
use tuplet::Wire;
use village::world::WorldSnapshot;

use json_delta::JsonDelta;
use model::{Absolute, Model, Part};
use snapshots::{quantized, snapshot};
use world::{Record, CLIENTS, RATE};

/// Row numbers of the frames (3 is the @colyseus/schema row, written by colyseus.mjs).
const FULL: u8 = 0;
const DELTA: u8 = 1;
const JSON: u8 = 2;

/// The delta form with some quantized fields as new values instead of differences: rows
/// 5.. in this order.
const VARIANTS: [Absolute; 5] = [
    Absolute {
        tick: true,
        pos: true,
        heading: true,
        speed: true,
        anim: true,
    },
    Absolute {
        tick: false,
        pos: true,
        heading: false,
        speed: false,
        anim: false,
    },
    Absolute {
        tick: false,
        pos: false,
        heading: true,
        speed: false,
        anim: false,
    },
    Absolute {
        tick: false,
        pos: false,
        heading: false,
        speed: true,
        anim: false,
    },
    Absolute {
        tick: false,
        pos: false,
        heading: false,
        speed: false,
        anim: true,
    },
];
const FIRST_VARIANT: u8 = 5;

fn frame(out: &mut impl Write, row: u8, client: usize, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(&[row, client as u8])?;
    out.write_all(&(bytes.len() as u32).to_le_bytes())?;
    out.write_all(bytes)
}

fn open(path: &str) -> Result<BufReader<std::fs::File>, String> {
    std::fs::File::open(path)
        .map(BufReader::new)
        .map_err(|e| format!("{path}: {e}"))
}

/// Writes every client's messages of every row as frames on stdout, checks every tuplet
/// delta (applied to a mirror, and against the model writer's bytes) and writes where the
/// delta's bytes went to `parts` (JSON: part name to bytes per client per tick).
fn frames(path: &str, parts: Option<&str>) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let every = RATE * 5;
    let mut trackers: Vec<Tracker<WorldSnapshot>> =
        (0..CLIENTS).map(|_| Tracker::at_rate(RATE)).collect();
    let mut mirrors: Vec<Mirror<WorldSnapshot>> = (0..CLIENTS).map(|_| Mirror::new()).collect();
    let mut json: Vec<JsonDelta> = (0..CLIENTS).map(|_| JsonDelta::new(every)).collect();
    let mut models: Vec<Vec<Model>> = std::iter::once(Absolute::default())
        .chain(VARIANTS)
        .map(|form| (0..CLIENTS).map(|_| Model::new(form, every)).collect())
        .collect();
    let (mut buf, mut other) = (Vec::new(), Vec::new());
    let mut failure = None;
    let mut messages = 0u64;
    trajectory::replay(open(path)?, |t| {
        for c in 0..t.views.len() {
            if failure.is_some() {
                return;
            }
            messages += 1;
            let full = snapshot(t, c, true);
            let full_bytes = tuplet::to_vec(&full).expect("a valid snapshot");
            buf.clear();
            let sent = trackers[c]
                .encode(&snapshot(t, c, false), &mut buf)
                .expect("a valid snapshot");
            if sent != Sent::Nothing {
                match mirrors[c].apply(&buf) {
                    Ok(m) if m.tick == full.tick && m.entities == quantized(&full).entities => {}
                    Ok(_) => {
                        failure = Some(format!("tick {}: client {c}'s mirror differs", t.tick))
                    }
                    Err(e) => failure = Some(format!("tick {}: client {c}: {e}", t.tick)),
                }
            }
            let view: Vec<&Record> = t.views[c].iter().map(|&i| &t.records[i]).collect();
            let mut wrote = frame(&mut out, FULL, c, &full_bytes)
                .and_then(|()| frame(&mut out, DELTA, c, &buf))
                .and_then(|()| frame(&mut out, JSON, c, &json[c].encode(t.tick, &view)));
            for (m, row) in models.iter_mut().zip(FIRST_VARIANT - 1..) {
                other.clear();
                m[c].encode(t.tick, &view, &mut other);
                if row == FIRST_VARIANT - 1 {
                    if other != buf {
                        failure = Some(format!(
                            "tick {}: client {c}: the model writer disagrees with the tracker",
                            t.tick
                        ));
                    }
                } else {
                    wrote = wrote.and_then(|()| frame(&mut out, row, c, &other));
                }
            }
            if let Err(e) = wrote {
                failure = Some(e.to_string());
            }
        }
    })?;
    out.flush().map_err(|e| e.to_string())?;
    if let Some(f) = failure {
        return Err(f);
    }
    if let Some(parts) = parts {
        let mut sums = serde_json::Map::new();
        for p in Part::ALL {
            let bytes: u64 = models[0]
                .iter()
                .map(|m| m.parts.get(&p).copied().unwrap_or(0))
                .sum();
            sums.insert(
                p.name().into(),
                serde_json::json!(bytes as f64 / messages as f64),
            );
        }
        let (entered, moved): (u64, u64) = models[0]
            .iter()
            .fold((0, 0), |(e, m), x| (e + x.entered, m + x.moved));
        let report = serde_json::json!({
            "bytes": sums,
            "entered_per_client_per_s": entered as f64 / messages as f64 * RATE as f64,
            "moved_per_client_per_tick": moved as f64 / messages as f64,
        });
        std::fs::write(parts, report.to_string()).map_err(|e| format!("{parts}: {e}"))?;
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Per tick, for all clients: the trackers' encode against encoding every client's full
/// snapshot once. The values are built beforehand (both rows need them); rounds alternate
/// and each row's median per tick is reported, with their ratio.
fn time(path: &str, ticks: usize, rounds: usize) -> Result<(), String> {
    let mut values: Vec<Vec<WorldSnapshot>> = Vec::new();
    trajectory::replay(open(path)?, |t| {
        if values.len() < ticks {
            values.push((0..t.views.len()).map(|c| snapshot(t, c, false)).collect());
        }
    })?;
    let mut buf = Vec::with_capacity(1 << 16);
    let (mut full_ns, mut delta_ns) = (Vec::new(), Vec::new());
    let mut sink = 0usize;
    for _ in 0..rounds {
        let start = Instant::now();
        for tick in &values {
            for v in tick {
                buf.clear();
                v.encode_compact(&mut buf).expect("valid");
                sink += buf.len();
            }
        }
        full_ns.push(start.elapsed().as_nanos() as f64 / values.len() as f64);

        let mut trackers: Vec<Tracker<WorldSnapshot>> =
            (0..CLIENTS).map(|_| Tracker::at_rate(RATE)).collect();
        let start = Instant::now();
        for tick in &values {
            for (v, tr) in tick.iter().zip(trackers.iter_mut()) {
                buf.clear();
                tr.encode(v, &mut buf).expect("valid");
                sink += buf.len();
            }
        }
        delta_ns.push(start.elapsed().as_nanos() as f64 / values.len() as f64);
    }
    let (f, d) = (median(full_ns), median(delta_ns));
    println!(
        "{}",
        serde_json::json!({
            "ticks": values.len(),
            "rounds": rounds,
            "full_us_per_tick": f / 1000.0,
            "delta_us_per_tick": d / 1000.0,
            "ratio": d / f,
            "sink": sink,
        })
    );
    Ok(())
}

fn flag(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or(format!("{name} needs a number")),
    }
}

/// What `delta-lab --help` prints.
const USAGE: &str = "\
The delta-snapshot lab: recorded village trajectories, the bytes per client per tick of full
snapshots, tuplet deltas and a JSON delta, and the encode cost (BENCHMARKS.md, \"delta-lab\";
run by `scripts/bench delta-lab`).

Usage:
  delta-lab record [--seed S] [--ticks N] > trajectory.jsonl
      simulate and record seed S (default 1) for N ticks (default 1200)
  delta-lab frames <trajectory.jsonl> [--parts P] > frames
      every client's messages, one frame per row (the crate's doc gives the format)
  delta-lab time <trajectory.jsonl> [--ticks N] [--rounds R]
      encode cost, tracker vs full snapshot, over N ticks (default 200), R rounds (default 11)
  delta-lab loss <trajectory.jsonl> [--rtt-ticks R] [--ticks N] [--seed S]
      bytes per client per tick, reliable deltas vs deltas on acknowledged baselines over a
      link losing 0, 2 and 5% each way, round trip R ticks (default 2), N ticks (default 1200)
  delta-lab --help
      print this
";

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        Some("record") => {
            let seed = flag(args, "--seed", 1)?;
            let ticks = flag(args, "--ticks", 1200)? as u32;
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            trajectory::record(seed, ticks, &mut out).map_err(|e| e.to_string())
        }
        Some("frames") => {
            let parts = args.iter().position(|a| a == "--parts");
            frames(
                args.get(1).ok_or("frames needs a recording")?,
                parts.and_then(|i| args.get(i + 1)).map(String::as_str),
            )
        }
        Some("time") => time(
            args.get(1).ok_or("time needs a recording")?,
            flag(args, "--ticks", 200)? as usize,
            flag(args, "--rounds", 11)? as usize,
        ),
        Some("loss") => {
            let path = args.get(1).ok_or("loss needs a recording")?;
            let rtt = flag(args, "--rtt-ticks", 2)?.max(1);
            let most = flag(args, "--ticks", 1200)? as usize;
            let mut ticks = Vec::new();
            trajectory::replay(open(path)?, |t| {
                if ticks.len() < most {
                    ticks.push(loss::values(t));
                }
            })?;
            let rows = loss::measure(&ticks, &[0.0, 0.02, 0.05], rtt, flag(args, "--seed", 1)?);
            loss::print(&rows, rtt);
            match rows.iter().map(|r| r.mirror_errors).sum::<u64>() {
                0 => Ok(()),
                n => Err(format!("{n} applied snapshots differ from the server's")),
            }
        }
        Some(other) => Err(format!(
            "unknown command {other:?}: write record, frames, time or loss (delta-lab --help)"
        )),
        None => Err("no command: write record, frames, time or loss (delta-lab --help)".into()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("delta-lab: {e}");
        std::process::exit(2);
    }
}
