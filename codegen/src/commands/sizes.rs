//! `tuplet sizes`: per message the smallest and largest possible compact size (or
//! unbounded, and why), for a `delta` message its largest keyframe and largest delta, the field that dominates the largest, the declared budget, and the
//! sizes of sample values in both shapes; sorted by largest size, as a table or JSON.
//!
//! Samples: the CLI cannot call the derive's `sample`, so it draws the same values from the
//! IR ([`ircodec::sample`], which draws with the derive's rules and generator; the village
//! tests check they are equal) and encodes them with the IR codec. `max sample` is the
//! `Max`-mode sample (every list and string at its longest, capped at 4096, options
//! present); `typical` is the median over the `Random`-mode samples of seeds 0..16.

use std::path::PathBuf;

use clap::Args;
use serde_json::{json, Value};
use tuplet::SampleMode;
use tuplet_schema::sizes::{message_sizes, MessageSize};
use tuplet_schema::ResolvedSchema;

use super::shared::load_schema;
use crate::exit::Exit;
use crate::ircodec::{self, Shape};

pub use super::Format;

/// `tuplet sizes`.
#[derive(Debug, Args)]
pub struct SizesArgs {
    /// The output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Only the first N rows of the table (totals still cover every message).
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// Seeds of the `Random` samples behind the `typical` columns.
pub const TYPICAL_SEEDS: u64 = 16;

/// One row: the schema's sizes plus the samples' sizes.
#[derive(Debug, Clone)]
pub struct Row {
    /// The schema's sizes.
    pub size: MessageSize,
    /// Compact and named size of the `Max` sample.
    pub max_sample: (usize, usize),
    /// Median compact and named size of the `Random` samples.
    pub typical: (usize, usize),
}

fn sample_sizes(
    schema: &ResolvedSchema,
    path: &str,
    seed: u64,
    mode: SampleMode,
) -> (usize, usize) {
    let v = ircodec::sample(schema, path, seed, mode);
    let c = ircodec::encode(schema, path, &v, Shape::Compact).map_or(0, |b| b.len());
    let n = ircodec::encode(schema, path, &v, Shape::Named).map_or(0, |b| b.len());
    (c, n)
}

fn median(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Every message's row, sorted by largest size (unbounded first), then direction and id.
pub fn rows(schema: &ResolvedSchema) -> Vec<Row> {
    let mut rows: Vec<Row> = message_sizes(schema)
        .into_iter()
        .map(|size| {
            let max_sample = sample_sizes(schema, &size.path, 0, SampleMode::Max);
            let (c, n): (Vec<usize>, Vec<usize>) = (0..TYPICAL_SEEDS)
                .map(|seed| sample_sizes(schema, &size.path, seed, SampleMode::Random))
                .unzip();
            Row {
                size,
                max_sample,
                typical: (median(c), median(n)),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &Row| r.size.max.as_ref().map_or(usize::MAX, |m| *m);
        key(b)
            .cmp(&key(a))
            .then(a.size.dir.cmp(&b.size.dir))
            .then(a.size.id.cmp(&b.size.id))
    });
    rows
}

/// The Markdown table: the first `top` rows (all when `None`), then totals over all.
pub fn table(rows: &[Row], top: Option<usize>) -> String {
    let mut s = String::new();
    s.push_str(
        "| message | dir | id | min | max | delta: keyframe / delta | max sample | max sample named | typical | typical named | budget | largest field |\n",
    );
    s.push_str("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for r in rows.iter().take(top.unwrap_or(usize::MAX)) {
        let z = &r.size;
        let max = match &z.max {
            Ok(m) => m.to_string(),
            Err(_) => "unbounded".into(),
        };
        let field = match (&z.max, &z.dominant) {
            (Err(u), _) => format!("`{}` ({})", u.field, u.reason),
            (Ok(_), Some((f, Some(n)))) => format!("`{f}` ({n} B)"),
            (Ok(_), Some((f, None))) => format!("`{f}`"),
            (Ok(_), None) => "-".into(),
        };
        let budget = z.budget.map_or("-".into(), |b| b.to_string());
        let shown = |m: &Result<usize, tuplet_schema::sizes::Unbounded>| match m {
            Ok(n) => n.to_string(),
            Err(_) => "unbounded".into(),
        };
        let delta = z.delta.as_ref().map_or("-".into(), |d| {
            format!("{} / {}", shown(&d.keyframe), shown(&d.delta))
        });
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            z.name,
            z.dir.as_str(),
            z.id,
            z.min,
            max,
            delta,
            r.max_sample.0,
            r.max_sample.1,
            r.typical.0,
            r.typical.1,
            budget,
            field
        ));
    }
    let bounded: Vec<usize> = rows
        .iter()
        .filter_map(|r| r.size.max.as_ref().ok().copied())
        .collect();
    let unbounded = rows.len() - bounded.len();
    let sum = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    s.push_str(&format!(
        "| **total: {} messages ({unbounded} unbounded)** | | | {} | {} (bounded) | | {} | {} | {} | {} | | |\n",
        rows.len(),
        sum(&|r| r.size.min),
        bounded.iter().sum::<usize>(),
        sum(&|r| r.max_sample.0),
        sum(&|r| r.max_sample.1),
        sum(&|r| r.typical.0),
        sum(&|r| r.typical.1),
    ));
    s
}

/// The rows as JSON.
pub fn to_json(rows: &[Row]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                let z = &r.size;
                json!({
                    "message": z.name,
                    "dir": z.dir.as_str(),
                    "id": z.id,
                    "type": z.path,
                    "file": z.file,
                    "line": z.line,
                    "min": z.min,
                    "max": z.max.as_ref().ok(),
                    "unbounded": z.max.as_ref().err().map(|u| json!({"field": u.field, "reason": u.reason})),
                    "largest_field": z.dominant.as_ref().map(|(f, n)| json!({"field": f, "max": n})),
                    "budget": z.budget,
                    "delta": z.delta.as_ref().map(|d| json!({
                        "keyframe": d.keyframe.as_ref().ok(),
                        "delta": d.delta.as_ref().ok(),
                    })),
                    "max_sample": {"compact": r.max_sample.0, "named": r.max_sample.1},
                    "typical": {"compact": r.typical.0, "named": r.typical.1},
                })
            })
            .collect(),
    )
}

/// `tuplet sizes`.
pub fn run(args: &SizesArgs) -> Exit {
    let schema = match load_schema(args.config.as_deref(), "sizes") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let rows = rows(&schema);
    match args.format {
        Format::Text => print!("{}", table(&rows, args.top)),
        Format::Json => match serde_json::to_string_pretty(&to_json(&rows)) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::BadInput;
            }
        },
    }
    Exit::Ok
}
