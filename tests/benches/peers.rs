//! tuplet against real peers, side by side in one run: rmp-serde (tuple and map shapes),
//! serde_json, bitcode (a size reference) and a hand-written rmp codec that quantizes like
//! tuplet but validates nothing (the practical limit). Datasets: the relayed `player:move`,
//! an 80-bird stream and a 50-entity snapshot.
//!
//! `cargo bench -p tuplet-tests --bench peers` prints the tables README.md quotes. Sizes are
//! exact; times are medians of alternating rounds, reported as ratios to tuplet because
//! absolute times drift on shared machines. Under `cargo test` it runs one short pass.

// 3.141 rad is the seeds' example heading, not an approximation of pi.
#![allow(clippy::approx_constant)]

use std::hint::black_box;
use std::time::Instant;

use serde::{Deserialize, Serialize};

// ---- the tuplet declarations ------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c")]
struct Move {
    #[tuplet(len = 9)]
    s: String,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    p: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    r: f32,
    t: u64,
    seq: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
struct Bird {
    id: u16,
    #[tuplet(range(0, 15))]
    species: u8,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    x: f32,
    #[tuplet(quant = "cm", range(-100.0, 1000.0))]
    y: f32,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    z: f32,
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    yaw: f32,
    #[tuplet(quant = "mrad", range(-1.5708, 1.5708))]
    pitch: f32,
    #[tuplet(range(0, 7))]
    state: u8,
    #[tuplet(quant = "permille", range(0.0, 1.0))]
    flap: f32,
    #[tuplet(quant = "percent", range(0.5, 2.0))]
    scale: f32,
}

#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "birds:stream", id = 2, dir = "s2c")]
struct Birds {
    #[tuplet(len(max = 80))]
    birds: Vec<Bird>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Record)]
struct Entity {
    id: u32,
    #[tuplet(range(0, 31))]
    kind: u8,
    #[tuplet(quant = "cm", range(-5000.0, 5000.0))]
    pos: [f32; 3],
    #[tuplet(quant = "mrad", range(-3.1416, 3.1416))]
    heading: f32,
    #[tuplet(scale = 64, range(0.0, 60.0))]
    speed: f32,
    anim: u8,
    #[tuplet(len = 9)]
    owner: Option<String>,
    #[tuplet(len(max = 24))]
    label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "world:snapshot", id = 3, dir = "s2c")]
struct Snapshot {
    tick: u32,
    #[tuplet(len(max = 50))]
    entities: Vec<Entity>,
}

// ---- the same types for serde and bitcode (natural floats, no quantization) --------------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
struct MoveS {
    s: String,
    p: [f32; 3],
    r: f32,
    t: u64,
    seq: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
struct BirdS {
    id: u16,
    species: u8,
    x: f32,
    y: f32,
    z: f32,
    yaw: f32,
    pitch: f32,
    state: u8,
    flap: f32,
    scale: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
struct BirdsS {
    birds: Vec<BirdS>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
struct EntityS {
    id: u32,
    kind: u8,
    pos: [f32; 3],
    heading: f32,
    speed: f32,
    anim: u8,
    owner: Option<String>,
    label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
struct SnapshotS {
    tick: u32,
    entities: Vec<EntityS>,
}

fn mv_s(m: &Move) -> MoveS {
    MoveS {
        s: m.s.clone(),
        p: m.p,
        r: m.r,
        t: m.t,
        seq: m.seq,
    }
}

fn birds_s(b: &Birds) -> BirdsS {
    let birds = b.birds.iter().map(|b| BirdS {
        id: b.id,
        species: b.species,
        x: b.x,
        y: b.y,
        z: b.z,
        yaw: b.yaw,
        pitch: b.pitch,
        state: b.state,
        flap: b.flap,
        scale: b.scale,
    });
    BirdsS {
        birds: birds.collect(),
    }
}

fn snapshot_s(s: &Snapshot) -> SnapshotS {
    let entities = s.entities.iter().map(|e| EntityS {
        id: e.id,
        kind: e.kind,
        pos: e.pos,
        heading: e.heading,
        speed: e.speed,
        anim: e.anim,
        owner: e.owner.clone(),
        label: e.label.clone(),
    });
    SnapshotS {
        tick: s.tick,
        entities: entities.collect(),
    }
}

// ---- the hand-written rmp codec of the move: quantizes, validates nothing ----------------

fn q(x: f32, scale: f64) -> i64 {
    (x as f64 * scale).round() as i64
}

fn hand_encode_move(m: &MoveS, out: &mut Vec<u8>) {
    use rmp::encode::*;
    let n = if m.seq.is_some() { 5 } else { 4 };
    let _ = write_array_len(out, n);
    let _ = write_str(out, &m.s);
    let _ = write_array_len(out, 3);
    for x in m.p {
        let _ = write_sint(out, q(x, 100.0));
    }
    let _ = write_sint(out, q(m.r, 1000.0));
    let _ = write_uint(out, m.t);
    if let Some(seq) = m.seq {
        let _ = write_uint(out, seq as u64);
    }
}

fn hand_decode_move(mut buf: &[u8]) -> Option<MoveS> {
    use rmp::decode::*;
    let n = read_array_len(&mut buf).ok()?;
    let (s, rest) = read_str_from_slice(buf).ok()?;
    buf = rest;
    read_array_len(&mut buf).ok()?;
    let mut p = [0f32; 3];
    for x in &mut p {
        *x = (read_int::<i64, _>(&mut buf).ok()? as f64 / 100.0) as f32;
    }
    let r = (read_int::<i64, _>(&mut buf).ok()? as f64 / 1000.0) as f32;
    let t = read_int(&mut buf).ok()?;
    let seq = if n > 4 {
        Some(read_int(&mut buf).ok()?)
    } else {
        None
    };
    Some(MoveS {
        s: s.to_owned(),
        p,
        r,
        t,
        seq,
    })
}

// ---- measurement -----------------------------------------------------------------------

/// Median ns per call of each closure, timed in alternating rounds.
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
            s[s.len() / 2]
        })
        .collect()
}

struct Peer<'a> {
    name: &'static str,
    bytes: usize,
    encode: Box<dyn FnMut() + 'a>,
    decode: Box<dyn FnMut() + 'a>,
}

fn table(title: &str, runs: usize, iters: usize, mut peers: Vec<Peer>) {
    let mut enc: Vec<&mut dyn FnMut()> = Vec::new();
    let mut dec: Vec<&mut dyn FnMut()> = Vec::new();
    let names: Vec<(&str, usize)> = peers.iter().map(|p| (p.name, p.bytes)).collect();
    for p in peers.iter_mut() {
        enc.push(&mut *p.encode);
        dec.push(&mut *p.decode);
    }
    let e = side_by_side(runs, iters, &mut enc);
    let d = side_by_side(runs, iters, &mut dec);
    println!("\n{title}\n");
    println!("| codec | bytes | encode (x tuplet) | decode (x tuplet) |");
    println!("|---|---:|---:|---:|");
    for (i, (name, bytes)) in names.iter().enumerate() {
        println!(
            "| {name} | {bytes} | {:.2} | {:.2} |",
            e[i] / e[0],
            d[i] / d[0]
        );
    }
    println!(
        "\n(tuplet: encode {:.0} ns, decode {:.0} ns on this run)",
        e[0], d[0]
    );
}

macro_rules! peers {
    ($t:expr, $s:expr, $T:ty, $S:ty) => {{
        let t = $t;
        let s = $s;
        let compact = tuplet::to_vec(&t).unwrap();
        let named = tuplet::to_vec_named(&t).unwrap();
        let rmp_tuple = rmp_serde::to_vec(&s).unwrap();
        let rmp_map = rmp_serde::to_vec_named(&s).unwrap();
        let json = serde_json::to_vec(&s).unwrap();
        let bitcode_bytes = bitcode::encode(&s);
        assert_eq!(tuplet::from_slice::<$T>(&compact).unwrap(), t);
        assert_eq!(rmp_serde::from_slice::<$S>(&rmp_tuple).unwrap(), s);
        let mut out = Vec::with_capacity(8192);
        vec![
            Peer {
                name: "tuplet compact",
                bytes: compact.len(),
                encode: Box::new({
                    let t = t.clone();
                    let mut out = out.clone();
                    move || {
                        out.clear();
                        tuplet::Wire::encode_compact(black_box(&t), &mut out).unwrap();
                        black_box(&out);
                    }
                }),
                decode: Box::new({
                    let b = compact.clone();
                    move || {
                        black_box(tuplet::from_slice::<$T>(black_box(&b)).unwrap());
                    }
                }),
            },
            Peer {
                name: "tuplet named (field names as keys)",
                bytes: named.len(),
                encode: Box::new({
                    let t = t.clone();
                    let mut out = out.clone();
                    move || {
                        out.clear();
                        tuplet::Wire::encode_named(black_box(&t), &mut out).unwrap();
                        black_box(&out);
                    }
                }),
                decode: Box::new({
                    let b = named.clone();
                    move || {
                        black_box(tuplet::from_slice::<$T>(black_box(&b)).unwrap());
                    }
                }),
            },
            Peer {
                name: "rmp-serde tuple",
                bytes: rmp_tuple.len(),
                encode: Box::new({
                    let s = s.clone();
                    let mut out = out.clone();
                    move || {
                        out.clear();
                        rmp_serde::encode::write(&mut out, black_box(&s)).unwrap();
                        black_box(&out);
                    }
                }),
                decode: Box::new({
                    let b = rmp_tuple.clone();
                    move || {
                        black_box(rmp_serde::from_slice::<$S>(black_box(&b)).unwrap());
                    }
                }),
            },
            Peer {
                name: "rmp-serde map",
                bytes: rmp_map.len(),
                encode: Box::new({
                    let s = s.clone();
                    let mut out = out.clone();
                    move || {
                        out.clear();
                        rmp_serde::encode::write_named(&mut out, black_box(&s)).unwrap();
                        black_box(&out);
                    }
                }),
                decode: Box::new({
                    let b = rmp_map.clone();
                    move || {
                        black_box(rmp_serde::from_slice::<$S>(black_box(&b)).unwrap());
                    }
                }),
            },
            Peer {
                name: "serde_json",
                bytes: json.len(),
                encode: Box::new({
                    let s = s.clone();
                    move || {
                        out.clear();
                        serde_json::to_writer(&mut out, black_box(&s)).unwrap();
                        black_box(&out);
                    }
                }),
                decode: Box::new({
                    let b = json.clone();
                    move || {
                        black_box(serde_json::from_slice::<$S>(black_box(&b)).unwrap());
                    }
                }),
            },
            Peer {
                name: "bitcode (size reference)",
                bytes: bitcode_bytes.len(),
                encode: Box::new({
                    let s = s.clone();
                    let mut buf = bitcode::Buffer::new();
                    move || {
                        black_box(buf.encode(black_box(&s)));
                    }
                }),
                decode: Box::new({
                    let b = bitcode_bytes.clone();
                    let mut buf = bitcode::Buffer::new();
                    move || {
                        black_box(buf.decode::<$S>(black_box(&b)).unwrap());
                    }
                }),
            },
        ]
    }};
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let (runs, iters) = if bench { (21, 20_000) } else { (1, 10) };
    let big = if bench { 20 } else { 1 };

    let mv = Move {
        s: "abc123def".into(),
        p: [123.45, 1.5, -25.0],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
    };
    let mut peers = peers!(mv.clone(), mv_s(&mv), Move, MoveS);
    let hand = {
        let mut b = Vec::new();
        hand_encode_move(&mv_s(&mv), &mut b);
        b
    };
    assert_eq!(
        hand,
        tuplet::to_vec(&mv).unwrap(),
        "the hand codec writes tuplet's bytes"
    );
    let s = mv_s(&mv);
    let mut out = Vec::with_capacity(64);
    peers.push(Peer {
        name: "hand-written rmp (no checks)",
        bytes: hand.len(),
        encode: Box::new(move || {
            out.clear();
            hand_encode_move(black_box(&s), &mut out);
            black_box(&out);
        }),
        decode: Box::new(move || {
            black_box(hand_decode_move(black_box(&hand)).unwrap());
        }),
    });
    table(
        "player:move (relayed, 10 Hz per player)",
        runs,
        iters,
        peers,
    );

    let birds: Birds = tuplet::sample(7, tuplet::SampleMode::Max);
    assert_eq!(birds.birds.len(), 80);
    table(
        "birds:stream (80 birds, 5 Hz)",
        runs,
        iters / big,
        peers!(birds.clone(), birds_s(&birds), Birds, BirdsS),
    );

    let snapshot: Snapshot = tuplet::sample(7, tuplet::SampleMode::Max);
    table(
        "world:snapshot (50 entities, full)",
        runs,
        iters / big,
        peers!(snapshot.clone(), snapshot_s(&snapshot), Snapshot, SnapshotS),
    );
}
