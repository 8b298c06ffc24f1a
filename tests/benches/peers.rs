//! tuplet against real peers, side by side in one run: rmp-serde (tuple and map shapes),
//! serde_json, bitcode (a size reference) and two hand-written msgpack codecs that quantize
//! like tuplet, one checking nothing and one checking every range (`peers/hand.rs`).
//! Datasets: the relayed `player:move`, an 80-bird stream and a 50-entity snapshot.
//!
//! `cargo bench -p tuplet-tests --bench peers` prints the tables of BENCHMARKS.md
//! (`scripts/bench rust-peers` runs it several times and writes them). Sizes are exact; times
//! are medians of alternating rounds with their spread, compared as ratios within the run
//! because absolute times drift on shared machines. Under `cargo test` it runs one short
//! pass (a smoke test: every row encodes and decodes, the hand codecs agree with tuplet).
//!
//! Other modes: `--targets` prints only the standing rules' table rows; `--profile DATASET ROW
//! OP ITERS` runs one row's encode or decode alone (for callgrind or perf); `--dump DIR`
//! writes every row's bytes per dataset (for the size table).

// 3.141 rad is the seeds' example heading, not an approximation of pi.
#![allow(clippy::approx_constant)]

use std::hint::black_box;

use tuplet::SampleMode::Random;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

#[path = "peers/hand.rs"]
mod hand;
#[path = "peers/measure.rs"]
mod measure;

use measure::{Row, Table};

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

// ---- the rows of one dataset --------------------------------------------------------------

/// The hand-written codecs of one dataset.
struct Hand<S> {
    encode: fn(&S, &mut Vec<u8>),
    encode_checked: fn(&S, &mut Vec<u8>) -> Result<(), hand::Bad>,
    decode: fn(&[u8]) -> Result<S, hand::Bad>,
    decode_checked: fn(&[u8]) -> Result<S, hand::Bad>,
}

/// Every row for one value: `t` for tuplet, `s` (the same data, raw floats) for serde and
/// bitcode; `q` is `s` after quantization (what tuplet and the hand codecs decode to).
fn rows<'a, T, S>(t: T, s: S, q: S, hand: Hand<S>) -> Vec<Row<'a>>
where
    T: tuplet::Wire + Clone + PartialEq + std::fmt::Debug + 'a,
    S: Serialize
        + DeserializeOwned
        + bitcode::Encode
        + bitcode::DecodeOwned
        + Clone
        + PartialEq
        + std::fmt::Debug
        + 'a,
{
    let compact = tuplet::to_vec(&t).unwrap();
    let named = tuplet::to_vec_named(&t).unwrap();
    let rmp_tuple = rmp_serde::to_vec(&s).unwrap();
    let rmp_map = rmp_serde::to_vec_named(&s).unwrap();
    let json = serde_json::to_vec(&s).unwrap();
    let bitcode_bytes = bitcode::encode(&s);
    assert_eq!(tuplet::from_slice::<T>(&compact).unwrap(), t);
    assert_eq!(tuplet::from_slice::<T>(&named).unwrap(), t);
    assert_eq!(rmp_serde::from_slice::<S>(&rmp_tuple).unwrap(), s);
    let mut hand_bytes = Vec::new();
    (hand.encode)(&s, &mut hand_bytes);
    assert_eq!(hand_bytes, compact, "the hand codec writes tuplet's bytes");
    hand_bytes.clear();
    (hand.encode_checked)(&s, &mut hand_bytes).unwrap();
    assert_eq!(
        hand_bytes, compact,
        "the checked hand codec writes tuplet's bytes"
    );
    assert_eq!(
        (hand.decode)(&compact).unwrap(),
        q,
        "the hand codec reads tuplet's values"
    );
    assert_eq!((hand.decode_checked)(&compact).unwrap(), q);

    // Encoders append to a buffer that is cleared, not reallocated, between calls.
    fn buf() -> Vec<u8> {
        Vec::with_capacity(16 * 1024)
    }
    vec![
        Row::new("tuplet compact", compact.clone())
            .encode({
                let (t, mut out) = (t.clone(), buf());
                move || {
                    out.clear();
                    tuplet::Wire::encode_compact(black_box(&t), &mut out).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = compact.clone();
                move || {
                    black_box(tuplet::from_slice::<T>(black_box(&b)).unwrap());
                }
            }),
        Row::new("tuplet named (field names as keys)", named.clone())
            .encode({
                let (t, mut out) = (t.clone(), buf());
                move || {
                    out.clear();
                    tuplet::Wire::encode_named(black_box(&t), &mut out).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = named;
                move || {
                    black_box(tuplet::from_slice::<T>(black_box(&b)).unwrap());
                }
            }),
        Row::new("rmp-serde tuple", rmp_tuple.clone())
            .encode({
                let (s, mut out) = (s.clone(), buf());
                move || {
                    out.clear();
                    rmp_serde::encode::write(&mut out, black_box(&s)).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = rmp_tuple;
                move || {
                    black_box(rmp_serde::from_slice::<S>(black_box(&b)).unwrap());
                }
            }),
        Row::new("rmp-serde map", rmp_map.clone())
            .encode({
                let (s, mut out) = (s.clone(), buf());
                move || {
                    out.clear();
                    rmp_serde::encode::write_named(&mut out, black_box(&s)).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = rmp_map;
                move || {
                    black_box(rmp_serde::from_slice::<S>(black_box(&b)).unwrap());
                }
            }),
        Row::new("serde_json", json.clone())
            .encode({
                let (s, mut out) = (s.clone(), buf());
                move || {
                    out.clear();
                    serde_json::to_writer(&mut out, black_box(&s)).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = json;
                move || {
                    black_box(serde_json::from_slice::<S>(black_box(&b)).unwrap());
                }
            }),
        Row::new(
            "bitcode (not msgpack; size reference)",
            bitcode_bytes.clone(),
        )
        .encode({
            let s = s.clone();
            let mut buf = bitcode::Buffer::new();
            move || {
                black_box(buf.encode(black_box(&s)));
            }
        })
        .decode({
            let b = bitcode_bytes;
            let mut buf = bitcode::Buffer::new();
            move || {
                black_box(buf.decode::<S>(black_box(&b)).unwrap());
            }
        }),
        Row::new("hand-written, no checks", compact.clone())
            .encode({
                let (s, mut out) = (s.clone(), buf());
                move || {
                    out.clear();
                    (hand.encode)(black_box(&s), &mut out);
                    black_box(&out);
                }
            })
            .decode({
                let b = compact.clone();
                move || {
                    black_box((hand.decode)(black_box(&b)).unwrap());
                }
            }),
        Row::new("hand-written, ranges checked", compact.clone())
            .encode({
                let (s, mut out) = (s, buf());
                move || {
                    out.clear();
                    (hand.encode_checked)(black_box(&s), &mut out).unwrap();
                    black_box(&out);
                }
            })
            .decode({
                let b = compact;
                move || {
                    black_box((hand.decode_checked)(black_box(&b)).unwrap());
                }
            }),
    ]
}

/// The three datasets: (key, title, rows, iterations per round).
fn datasets<'a>() -> Vec<(&'static str, &'static str, Vec<Row<'a>>, usize)> {
    let mv = Move {
        s: "abc123def".into(),
        p: [123.45, 1.5, -25.0],
        r: 3.141,
        t: 1_764_000_000_000,
        seq: Some(1234),
    };
    let mv_q = tuplet::from_slice::<Move>(&tuplet::to_vec(&mv).unwrap()).unwrap();
    // Varied values: every bird and entity drawn at random within its field ranges (one
    // seed each), so int widths, option presence and string lengths differ from one to the
    // next as in a real frame; the counts are the declared maximums.
    let birds = Birds {
        birds: (0..80).map(|i| tuplet::sample(i, Random)).collect(),
    };
    let snapshot = Snapshot {
        tick: 123_456,
        entities: (0..50).map(|i| tuplet::sample(100 + i, Random)).collect(),
    };
    vec![
        (
            "move",
            "player:move (relayed, 10 Hz per player)",
            rows(
                mv.clone(),
                mv_s(&mv),
                mv_s(&mv_q),
                Hand {
                    encode: hand::encode_move,
                    encode_checked: hand::encode_move_checked,
                    decode: hand::decode_move,
                    decode_checked: hand::decode_move_checked,
                },
            ),
            20_000,
        ),
        (
            "birds",
            "birds:stream (80 birds, 5 Hz)",
            rows(
                birds.clone(),
                birds_s(&birds),
                birds_s(&birds),
                Hand {
                    encode: hand::encode_birds,
                    encode_checked: hand::encode_birds_checked,
                    decode: hand::decode_birds,
                    decode_checked: hand::decode_birds_checked,
                },
            ),
            1_000,
        ),
        (
            "snapshot",
            "world:snapshot (50 entities, full)",
            rows(
                snapshot.clone(),
                snapshot_s(&snapshot),
                snapshot_s(&snapshot),
                Hand {
                    encode: hand::encode_snapshot,
                    encode_checked: hand::encode_snapshot_checked,
                    decode: hand::decode_snapshot,
                    decode_checked: hand::decode_snapshot_checked,
                },
            ),
            1_000,
        ),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name);
    if let Some(i) = flag("--profile") {
        let want = |k: usize| args.get(i + k).map(String::as_str).unwrap_or("");
        let iters: usize = want(4).parse().expect("--profile DATASET ROW OP ITERS");
        for (key, _, mut rows, _) in datasets() {
            if key == want(1) {
                let row = rows
                    .iter_mut()
                    .find(|r| r.name.starts_with(want(2)))
                    .expect("a row whose name starts with ROW");
                measure::profile(row, want(3), iters);
            }
        }
        return;
    }
    if let Some(i) = flag("--dump") {
        let dir = std::path::Path::new(&args[i + 1]);
        for (key, _, rows, _) in datasets() {
            for row in &rows {
                let name: String = row.name.split([' ', ',']).collect::<Vec<_>>().join("_");
                std::fs::create_dir_all(dir.join(key)).unwrap();
                std::fs::write(dir.join(key).join(name), &row.bytes).unwrap();
            }
        }
        return;
    }
    let bench = flag("--bench").is_some();
    let rounds = if bench { 31 } else { 1 };
    let targets_only = flag("--targets").is_some();
    let mut tables = Vec::new();
    for (_, title, rows, iters) in datasets() {
        let iters = if bench { iters } else { 2 };
        let table = Table::measure(title, rows, rounds, iters);
        if !targets_only {
            table.print();
        }
        tables.push(table);
    }
    if !targets_only {
        println!("\n### Standing rules on this run\n");
        println!("{}", measure::TARGETS_HEADER);
    }
    for t in &tables {
        println!("{}", t.targets_row());
    }
}
