//! The codecs' verdict on a schema edit: which (writer, reader) pairs carry every sampled
//! value of every message, and the comparison with `tuplet compat`'s verdict per deploy order.

use std::collections::BTreeSet;

use serde_json::Value;
use tuplet::wire::write;
use tuplet::SampleMode;
use tuplet_codegen::ircodec::delta::{Mirror, Sent, Tracker};
use tuplet_codegen::ircodec::{self, Shape};
use tuplet_schema::compat::{self, Deploy, Lock};
use tuplet_schema::ir::Dir;
use tuplet_schema::ResolvedSchema;

/// One way a message travels between the two versions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Pair {
    /// The old version writes, the new one reads.
    OldToNew,
    /// The new version writes, the old one reads.
    NewToOld,
}

/// The pairs a deploy order lets meet in direction `dir` (c2s is written by clients):
/// under `server-first` an old client reaches a new server (c2s) and a new server reaches
/// an old client (s2c); `client-first` is the mirror image; `any-order` allows both.
pub fn pairs(deploy: Deploy, dir: Dir) -> &'static [Pair] {
    match (deploy, dir) {
        (Deploy::AnyOrder, _) => &[Pair::OldToNew, Pair::NewToOld],
        (Deploy::ServerFirst, Dir::C2s) | (Deploy::ClientFirst, Dir::S2c) => &[Pair::OldToNew],
        _ => &[Pair::NewToOld],
    }
}

/// What the codecs found for one (direction, pair): the first value that did not arrive.
#[derive(Default)]
pub struct Carry {
    /// Values written and read.
    pub values: usize,
    /// The first loss: message, shape and what happened.
    pub loss: Option<String>,
}

/// Sampled values per message: the minimum and maximum samples, then random ones with
/// options absent or present. A sender originates only values its schema names, so no
/// open enum's unknown number or open flags' unknown bits are sampled (those are relayed).
pub fn samples(writer: &ResolvedSchema, path: &str, n: usize) -> Vec<Value> {
    let mut out = vec![
        ircodec::sample(writer, path, 0, SampleMode::Min),
        ircodec::sample(writer, path, 0, SampleMode::Max),
    ];
    for seed in 0..n as u64 {
        let mode = match seed % 2 {
            0 => SampleMode::Absent,
            _ => SampleMode::Present,
        };
        out.push(ircodec::sample(writer, path, seed, mode));
    }
    out
}

/// Whether every message the writer sends in `dir` arrives at the reader with its value.
///
/// A message is judged when the reader's version knows its name or id in `dir`, or when the
/// writer is the old version (a message removed in the new one is still sent by old peers).
/// A message only the new version has is sent to old peers only once they know it: adding
/// a message is safe by design (RULES.md), so it is not judged.
pub fn carry(old: &ResolvedSchema, new: &ResolvedSchema, dir: Dir, pair: Pair, n: usize) -> Carry {
    let (writer, reader) = match pair {
        Pair::OldToNew => (old, new),
        Pair::NewToOld => (new, old),
    };
    let mut c = Carry::default();
    for (item, m) in writer.messages(dir) {
        // A message one version lacks is not judged: the reader answers `unknown_message`,
        // and removal and addition are the rules' alone (`message-removed`).
        if !reader
            .messages(dir)
            .any(|(_, r)| r.name == m.name || r.id == m.id)
        {
            continue;
        }
        if m.delta {
            let rpath = reader
                .messages(dir)
                .find(|(_, r)| r.name == m.name)
                .map(|(i, _)| i.path.clone());
            delta_sequence(writer, &item.path, reader, rpath.as_deref(), n, &mut c);
        }
        for v in samples(writer, &item.path, n) {
            for shape in [Shape::Compact, Shape::Named] {
                let Ok(payload) = ircodec::encode(writer, &item.path, &v, shape) else {
                    continue;
                };
                // The reference is what the writer's own decoder reads back (quantized).
                let Ok(want) = ircodec::decode(writer, &item.path, &payload) else {
                    continue;
                };
                let mut bytes = Vec::new();
                write::uint(&mut bytes, u64::from(m.id));
                bytes.extend_from_slice(&payload);
                c.values += 1;
                let got = ircodec::decode_envelope(reader, dir, &bytes);
                let lost = match &got {
                    Err(e) => Some(format!("rejected: {e}")),
                    Ok((p, _)) if reader.get(p).map(message_name) != Some(m.name.clone()) => {
                        Some(format!("read as {p}"))
                    }
                    Ok((_, g)) if !agrees(&want, g) => Some(format!("read as {g}")),
                    Ok(_) => None,
                };
                if let (Some(l), None) = (lost, &c.loss) {
                    c.loss = Some(format!("{} ({}) {want}: {l}", m.name, shape_name(shape)));
                }
            }
        }
    }
    c
}

/// Whether the reader's value `got` agrees with the writer's `want` on every member both
/// know: object keys present on one side only (a field, variant field or flag one version
/// lacks: a reader ignores what it does not know, an absent option reads as absent) are
/// not compared; fields added, removed and renamed are judged by the rules alone. A
/// `bigint` reads as a decimal string, equal numerically; an open enum keeps a variant it
/// does not know as its number (or `{"kind": "unknown"}`), and open flags keep unknown bits
/// in `rest`: both are the documented fallbacks, so they agree.
pub fn agrees(want: &Value, got: &Value) -> bool {
    let int = |v: &Value| match v {
        Value::String(s) => s.parse::<i128>().ok(),
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        _ => None,
    };
    if let (Some(a), Some(b)) = (int(want), int(got)) {
        return a == b;
    }
    if want.is_string() && got.is_number() {
        return true;
    }
    if got.get("kind").and_then(Value::as_str) == Some("unknown") {
        return true;
    }
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, x)| k == "rest" || b.get(k).is_none_or(|y| agrees(x, y))),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agrees(x, y))
        }
        _ => ircodec::json_eq(want, got),
    }
}

/// A sequence of ticks of a delta message: the writer's tracker (a keyframe every 4 ticks)
/// feeds the reader's mirror and the writer's own, and each rebuilt value must agree. The
/// ticks alternate minimum, maximum and random samples, so entities enter, change (the
/// minimum and maximum samples share keys) and leave.
fn delta_sequence(
    writer: &ResolvedSchema,
    path: &str,
    reader: &ResolvedSchema,
    rpath: Option<&str>,
    n: usize,
    c: &mut Carry,
) {
    let lose = |c: &mut Carry, what: String| {
        if c.loss.is_none() {
            c.loss = Some(format!("{path} (delta) {what}"));
        }
    };
    let Ok(mut tracker) = Tracker::new(writer, path, 4) else {
        return;
    };
    let Ok(mut own) = Mirror::new(writer, path) else {
        return;
    };
    let Some(Ok(mut mirror)) = rpath.map(|p| Mirror::new(reader, p)) else {
        c.values += 1;
        lose(
            c,
            "payloads: the reader's message is not a delta message".into(),
        );
        return;
    };
    for tick in 0..(2 * n as u64 + 4) {
        let mode = match tick % 4 {
            0 => SampleMode::Min,
            1 => SampleMode::Max,
            2 => SampleMode::Present,
            _ => SampleMode::Absent,
        };
        let v = ircodec::sample(writer, path, tick, mode);
        let mut out = Vec::new();
        match tracker.encode(&v, &mut out) {
            Ok(Sent::Nothing) | Err(_) => continue,
            Ok(_) => {}
        }
        let Ok(want) = own.apply(&out).cloned() else {
            continue;
        };
        c.values += 1;
        match mirror.apply(&out) {
            Err(e) => lose(c, format!("tick {tick}: rejected: {e}")),
            Ok(got) if !agrees(&want, got) => lose(c, format!("tick {tick}: {want} read as {got}")),
            Ok(_) => {}
        }
    }
}

fn message_name(item: &tuplet_schema::ResolvedItem) -> String {
    match &item.item.kind {
        tuplet_schema::ir::ItemKind::Message(m) => m.name.clone(),
        _ => String::new(),
    }
}

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Compact => "compact",
        Shape::Named => "named",
    }
}

/// The verdicts for one edit under one deploy order.
pub struct Verdict {
    pub deploy: Deploy,
    /// `tuplet compat`: whether no finding breaks peers under this order (an acceptance
    /// lets the check pass, but the break stays a break).
    pub compat_ok: bool,
    /// The rules of the breaking findings.
    pub rules: BTreeSet<String>,
    /// The codecs: the first loss over the pairs the order lets meet.
    pub loss: Option<String>,
    /// Values written and read.
    pub values: usize,
}

/// Both verdicts of one edit, per deploy order.
pub fn verdicts(old: &ResolvedSchema, new: &ResolvedSchema, n: usize) -> Vec<Verdict> {
    let old_lock = Lock::from_json(&Lock::from_schema(old).to_json()).expect("a lock parses");
    let new_lock = Lock::from_schema(new);
    let mut carried = Vec::new();
    for dir in [Dir::C2s, Dir::S2c] {
        for pair in [Pair::OldToNew, Pair::NewToOld] {
            carried.push((dir, pair, carry(old, new, dir, pair, n)));
        }
    }
    Deploy::ALL
        .into_iter()
        .map(|deploy| {
            let report = compat::check(&old_lock, &new_lock, deploy);
            let breaking = report.findings.iter().filter(|f| f.breaking);
            let rules: BTreeSet<String> = breaking.map(|f| f.rule.to_string()).collect();
            let mut loss = None;
            let mut values = 0;
            for (dir, pair, c) in &carried {
                if pairs(deploy, *dir).contains(pair) {
                    values += c.values;
                    if loss.is_none() {
                        loss = c.loss.clone();
                    }
                }
            }
            Verdict {
                deploy,
                compat_ok: rules.is_empty(),
                rules,
                loss,
                values,
            }
        })
        .collect()
}
