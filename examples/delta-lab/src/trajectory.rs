//! The recorded trajectories: one JSON object per line, read back by this crate and by the
//! Node replay (`scripts/delta-lab/colyseus.mjs`), so every row of the lab encodes the same
//! states.
//!
//! The first line is a header (`seed`, `rate`, `clients`, `ticks`, `fields`); each next line
//! is one tick: `{"t": tick, "e": [records that changed], "v": [each client's view]}`, a
//! record being `[id, kind, x, y, z, heading, speed, anim, owner, label]` in wire ints (cm,
//! mrad, 1/64 m/s; `null` for an absent option) and a view the ids in it, ascending. The
//! first tick lists every entity.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde_json::{json, Value};

use crate::world::{Record, Tick, World, CLIENTS, RATE};

/// Simulates `ticks` ticks of the world for `seed` and writes them.
pub fn record(seed: u64, ticks: u32, out: &mut impl Write) -> std::io::Result<()> {
    let header = json!({
        "seed": seed,
        "rate": RATE,
        "clients": CLIENTS,
        "ticks": ticks,
        "fields": ["id", "kind", "x", "y", "z", "heading", "speed", "anim", "owner", "label"],
    });
    writeln!(out, "{header}")?;
    let mut world = World::new(seed);
    let mut last: Vec<Record> = Vec::new();
    for t in 0..ticks {
        if t > 0 {
            world.step();
        }
        let now = world.snapshot();
        let changed: Vec<Value> = now
            .records
            .iter()
            .enumerate()
            .filter(|&(i, r)| last.get(i) != Some(r))
            .map(|(_, r)| {
                json!([
                    r.id, r.kind, r.pos[0], r.pos[1], r.pos[2], r.heading, r.speed, r.anim,
                    r.owner, r.label
                ])
            })
            .collect();
        let views: Vec<Vec<u32>> = now
            .views
            .iter()
            .map(|v| v.iter().map(|&i| now.records[i].id).collect())
            .collect();
        writeln!(
            out,
            "{}",
            json!({ "t": now.tick, "e": changed, "v": views })
        )?;
        last = now.records;
    }
    out.flush()
}

/// Reads a recording back, calling `each` with every tick's full state (views as indices
/// into `records`, records in the order they first appeared).
pub fn replay(input: impl BufRead, mut each: impl FnMut(&Tick)) -> Result<u64, String> {
    let mut lines = input.lines();
    let header: Value = parse(lines.next())?;
    let seed = header["seed"].as_u64().ok_or("header without a seed")?;
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut tick = Tick {
        tick: 0,
        records: Vec::new(),
        views: Vec::new(),
    };
    for line in lines {
        let v: Value = parse(Some(line))?;
        tick.tick = v["t"].as_u64().ok_or("a tick without t")? as u32;
        for e in v["e"].as_array().ok_or("a tick without e")? {
            let r = record_of(e).ok_or_else(|| format!("bad record {e}"))?;
            match index.get(&r.id) {
                Some(&i) => tick.records[i] = r,
                None => {
                    index.insert(r.id, tick.records.len());
                    tick.records.push(r);
                }
            }
        }
        tick.views = v["v"]
            .as_array()
            .ok_or("a tick without v")?
            .iter()
            .map(|ids| {
                ids.as_array()
                    .into_iter()
                    .flatten()
                    .map(|id| {
                        let id = id.as_u64().unwrap_or(u64::MAX) as u32;
                        index.get(&id).copied().ok_or(format!("unknown id {id}"))
                    })
                    .collect::<Result<Vec<usize>, String>>()
            })
            .collect::<Result<_, _>>()?;
        each(&tick);
    }
    Ok(seed)
}

fn parse(line: Option<std::io::Result<String>>) -> Result<Value, String> {
    let line = line.ok_or("empty recording")?.map_err(|e| e.to_string())?;
    serde_json::from_str(&line).map_err(|e| e.to_string())
}

fn record_of(e: &Value) -> Option<Record> {
    let a = e.as_array()?;
    let int = |i: usize| a.get(i)?.as_i64();
    let text = |i: usize| a.get(i)?.as_str().map(str::to_string);
    Some(Record {
        id: int(0)? as u32,
        kind: int(1)? as u8,
        pos: [int(2)? as i32, int(3)? as i32, int(4)? as i32],
        heading: int(5)? as i32,
        speed: int(6)? as i32,
        anim: int(7)? as u8,
        owner: text(8),
        label: text(9),
    })
}
