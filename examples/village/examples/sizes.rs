//! Prints the size table of the village protocol: compact against named bytes per message
//! for `sample` values, largest first. `cargo run -p village --example sizes`; the table in
//! examples/village/README.md is this output.

use tuplet::{Dispatch, Encoding, SampleMode};
use village::dispatch::{ClientMessage, ServerMessage};

struct Row {
    name: &'static str,
    dir: &'static str,
    id: u32,
    typical: usize,
    typical_named: usize,
    max_sample: usize,
    max_size: Option<usize>,
}

fn rows<D: Dispatch>(dir: &'static str) -> Vec<Row> {
    (0..D::MESSAGES.len())
        .map(|i| {
            // Max at seed 0, as `tuplet sizes` takes it; Random at seed 1.
            let size = |mode, encoding| {
                let seed = if mode == SampleMode::Max { 0 } else { 1 };
                let v = D::sample_variant(i, seed, mode).unwrap();
                v.to_payload(encoding).unwrap().len()
            };
            let (name, id) = D::MESSAGES[i];
            Row {
                name,
                dir,
                id,
                typical: size(SampleMode::Random, Encoding::Compact),
                typical_named: size(SampleMode::Random, Encoding::Named),
                max_sample: size(SampleMode::Max, Encoding::Compact),
                max_size: D::MAX_SIZES[i],
            }
        })
        .collect()
}

/// The whole table, as README.md quotes it.
pub fn table() -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut all = rows::<ClientMessage>("c2s");
    all.extend(rows::<ServerMessage>("s2c"));
    all.sort_by(|a, b| b.typical.cmp(&a.typical).then(a.name.cmp(b.name)));
    let (c, n) = all
        .iter()
        .fold((0, 0), |a, r| (a.0 + r.typical, a.1 + r.typical_named));
    let _ = writeln!(
        out,
        "{} messages; `sample` values (random mode, seed 1; max mode, seed 0, as `tuplet sizes`) total {c} bytes compact, {n} bytes named ({:.2}x).\n",
        all.len(),
        n as f64 / c as f64
    );
    out.push_str(
        "| message | dir | id | compact | named | named/compact | max sample | max possible |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for r in &all {
        let max = r
            .max_size
            .map_or("unbounded".to_string(), |m| m.to_string());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.2} | {} | {} |",
            r.name,
            r.dir,
            r.id,
            r.typical,
            r.typical_named,
            r.typical_named as f64 / r.typical as f64,
            r.max_sample,
            max
        );
    }
    out
}

#[allow(dead_code)]
fn main() {
    print!("{}", table());
}
