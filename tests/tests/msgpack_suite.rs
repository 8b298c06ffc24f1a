//! The community's msgpack test vectors (the `msgpack-test-suite` npm package, pinned in
//! tests/ts/package.json and read from tests/ts/node_modules) fed to every kind of position a
//! schema has: each encoding of each vector is decoded as a whole message holding one value
//! at an int, float, string, binary, bool, nil, array, map and ext (skipped) position.
//!
//! The verdicts (accepted, or the error code) must equal the committed table
//! `tests/fixtures/msgpack_suite_verdicts.json`, which the TypeScript test checks too, so the
//! two languages agree vector for vector; accepted values must equal the suite's; and
//! WIRE.md's summary table must be the one these verdicts give. After a deliberate policy
//! change, rewrite both with `TUPLET_BLESS=1 cargo test -p tuplet-tests --test msgpack_suite`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tuplet::wire::Reader;
use tuplet::Error;

/// The positions, in table order.
const POSITIONS: [&str; 9] = [
    "int", "float", "string", "binary", "bool", "nil", "array", "map", "ext",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The suite's JSON, from the npm package.
fn suite() -> BTreeMap<String, Vec<Value>> {
    let file = repo().join("tests/ts/node_modules/msgpack-test-suite/dist/msgpack-test-suite.json");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; install the TypeScript tests' packages (cd tests/ts && npm ci)",
            file.display()
        )
    });
    serde_json::from_str(&text).expect("the suite is JSON")
}

/// What a position decoded: a value to compare with the suite's, or nothing to compare.
enum Got {
    Int(i64),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Bool(bool),
    Other,
}

/// One whole message of one value at `position`: the value, then the end of the input.
fn decode(position: &str, bytes: &[u8]) -> Result<Got, Error> {
    let mut r = Reader::new(bytes);
    let got = match position {
        // An `i64` field with `bigint`: the full range.
        "int" => Got::Int(r.read_i64(i64::MIN, i64::MAX)?),
        "float" => Got::Float(r.read_f64()?),
        "string" => Got::Str(r.read_str(0, u32::MAX)?.to_owned()),
        "binary" => Got::Bin(r.read_bin(0, u32::MAX)?.to_vec()),
        "bool" => Got::Bool(r.read_bool()?),
        // An absent `Option`: nil (or msgpackr's undefined) only.
        "nil" => {
            if !r.try_nil()? {
                return Err(not_nil());
            }
            Got::Other
        }
        // A list of values the schema skips (reserved slots).
        "array" => {
            let n = r.read_array_len()?;
            for _ in 0..n {
                r.skip_value()?;
            }
            r.leave();
            Got::Other
        }
        // The named shape: string keys, values skipped.
        "map" => {
            let n = r.read_map_len()?;
            for _ in 0..n {
                r.read_str(0, u32::MAX)?;
                r.skip_value()?;
            }
            r.leave();
            Got::Other
        }
        // A reserved slot or an unknown trailing element: any value, skipped.
        "ext" => {
            r.skip_value()?;
            Got::Other
        }
        other => panic!("unknown position {other}"),
    };
    r.finish()?;
    Ok(got)
}

/// The nil position's rejection of anything else.
fn not_nil() -> Error {
    Error::new(tuplet::Code::WrongType, "expected nil")
}

fn hex(s: &str) -> Vec<u8> {
    s.split('-')
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// Whether an accepted value is the one the suite names for the vector.
fn same(got: &Got, vector: &Value) -> bool {
    let number = vector
        .get("bignum")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| vector.get("number").map(Value::to_string));
    match got {
        Got::Int(v) => number.is_some_and(|n| {
            n.parse::<f64>() == Ok(*v as f64) && {
                n.parse::<i128>().map_or(true, |n| n == i128::from(*v))
            }
        }),
        Got::Float(x) => number.is_some_and(|n| n.parse::<f64>() == Ok(*x)),
        Got::Str(s) => vector.get("string").and_then(Value::as_str) == Some(s),
        Got::Bin(b) => vector
            .get("binary")
            .and_then(Value::as_str)
            .is_some_and(|h| {
                if h.is_empty() {
                    b.is_empty()
                } else {
                    hex(h) == *b
                }
            }),
        Got::Bool(b) => vector.get("bool").and_then(Value::as_bool) == Some(*b),
        Got::Other => true,
    }
}

/// Every verdict: group -> one line per encoding, `hex: verdict verdict ...` in
/// [`POSITIONS`] order (`ok` or the error code).
fn verdicts() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (group, vectors) in suite() {
        let mut lines = Vec::new();
        for vector in &vectors {
            for encoding in vector["msgpack"].as_array().expect("msgpack encodings") {
                let text = encoding.as_str().expect("hex");
                let bytes = hex(text);
                let verdicts: Vec<String> = POSITIONS
                    .iter()
                    .map(|p| match decode(p, &bytes) {
                        Ok(got) => {
                            assert!(same(&got, vector), "{group} {text} at {p}: another value");
                            "ok".to_owned()
                        }
                        Err(e) => e.code().as_str().to_owned(),
                    })
                    .collect();
                lines.push(format!("{text}: {}", verdicts.join(" ")));
            }
        }
        out.insert(group, lines);
    }
    out
}

/// WIRE.md's summary: per group, the encodings accepted at each position, and the codes of
/// the rejections.
fn table(verdicts: &BTreeMap<String, Vec<String>>) -> String {
    let mut t = String::from("| group | encodings |");
    for p in POSITIONS {
        t += &format!(" {p} |");
    }
    t += " rejected with |\n|---|---:|";
    t += &"---:|".repeat(POSITIONS.len());
    t += "---|\n";
    let mut totals = [0usize; POSITIONS.len()];
    let mut all = 0;
    for (group, lines) in verdicts {
        let name = group.trim_end_matches(".yaml");
        let mut accepted = [0usize; POSITIONS.len()];
        let mut codes = BTreeMap::<&str, usize>::new();
        for line in lines {
            let (_, vs) = line.split_once(": ").expect("a verdict line");
            for (i, v) in vs.split(' ').enumerate() {
                if v == "ok" {
                    accepted[i] += 1;
                    totals[i] += 1;
                } else {
                    *codes.entry(v).or_default() += 1;
                }
            }
        }
        all += lines.len();
        t += &format!("| {name} | {} |", lines.len());
        for a in accepted {
            t += &format!(" {a} |");
        }
        let why: Vec<String> = codes.iter().map(|(c, n)| format!("`{c}` {n}")).collect();
        t += &format!(" {} |\n", why.join(", "));
    }
    t += &format!("| all | {all} |");
    for a in totals {
        t += &format!(" {a} |");
    }
    t += " |\n";
    t
}

const FIXTURE: &str = "tests/fixtures/msgpack_suite_verdicts.json";
const BEGIN: &str = "<!-- msgpack-test-suite table: begin -->\n";
const END: &str = "<!-- msgpack-test-suite table: end -->";

#[test]
fn every_suite_vector_at_every_position_gives_the_committed_verdict() {
    let got = verdicts();
    let encodings: usize = got.values().map(Vec::len).sum();
    assert!(encodings > 80, "only {encodings} encodings in the suite");
    let fixture = repo().join(FIXTURE);
    let wire_md = repo().join("WIRE.md");
    let md = std::fs::read_to_string(&wire_md).unwrap();
    let start = md.find(BEGIN).expect("WIRE.md has the suite table") + BEGIN.len();
    let end = md[start..].find(END).expect("the table's end") + start;
    let table = table(&got);
    let text = serde_json::to_string_pretty(&json!({
        "positions": POSITIONS,
        "verdicts": got,
    }))
    .unwrap()
        + "\n";
    if std::env::var_os("TUPLET_BLESS").is_some() {
        std::fs::write(&fixture, &text).unwrap();
        std::fs::write(&wire_md, format!("{}{table}{}", &md[..start], &md[end..])).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&fixture).unwrap_or_default();
    assert!(
        committed == text,
        "{FIXTURE} differs from the verdicts (TUPLET_BLESS=1 rewrites it):\n{text}"
    );
    assert_eq!(&md[start..end], table, "WIRE.md's suite table");
}
