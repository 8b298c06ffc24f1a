//! `tuplet decode`, `tuplet encode` and `tuplet sizes` on the reference protocol, running
//! the built binary.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

fn config() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tuplet.toml")
}

fn tuplet(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tuplet"));
    cmd.args(args)
        .arg("--config")
        .arg(config())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("tuplet runs");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The relayed move of WIRE.md: `["abc123def", [12345, 150, -2500], 3141, 1764000000000, 1234]`.
const MOVE_HEX: &str = "95 a9 61 62 63 31 32 33 64 65 66 93 cd 30 39 cc 96 d1 f6 3c cd 0c 45 cf 00 00 01 9a b6 97 e8 00 cd 04 d2";

fn move_value() -> Value {
    json!({
        "s": "abc123def",
        "p": [123.44999694824219, 1.5, -25.0],
        "r": 3.1410000324249268,
        "t": 1764000000000u64,
        "seq": 1234
    })
}

fn decoded(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_str(&stdout(o)).expect("decode prints JSON")
}

#[test]
fn decode_hex_with_spaces_commas_and_0x() {
    let v = decoded(&tuplet(
        &["decode", "player:move", "--dir", "s2c", MOVE_HEX],
        None,
    ));
    assert_eq!(v, move_value());
    // Keys in declaration order.
    let text = stdout(&tuplet(
        &["decode", "player:move", "--dir", "s2c", MOVE_HEX],
        None,
    ));
    let (s, p, t) = (
        text.find("\"s\"").unwrap(),
        text.find("\"p\"").unwrap(),
        text.find("\"t\"").unwrap(),
    );
    assert!(s < p && p < t, "{text}");
    let commas: String = MOVE_HEX
        .split(' ')
        .map(|b| format!("0x{b}"))
        .collect::<Vec<_>>()
        .join(", ");
    let v = decoded(&tuplet(
        &["decode", "player:move", "--dir", "s2c", &commas],
        None,
    ));
    assert_eq!(v, move_value());
    // By type name and by id too.
    let v = decoded(&tuplet(
        &["decode", "PlayerMoveRelayed", "--dir", "s2c", MOVE_HEX],
        None,
    ));
    assert_eq!(v, move_value());
    let v = decoded(&tuplet(&["decode", "1", "--dir", "s2c", MOVE_HEX], None));
    assert_eq!(v, move_value());
}

#[test]
fn decode_base64_envelope_and_stdin() {
    // `01` (id 1) then the payload, as base64 the way devtools copy a binary frame.
    let b64 = "AZWpYWJjMTIzZGVmk80wOcyW0fY8zQxFzwAAAZq2l+gAzQTS";
    let v = decoded(&tuplet(
        &["decode", "--envelope", "--dir", "s2c", b64],
        None,
    ));
    assert_eq!(
        v,
        json!({"message": "player:move", "id": 1, "value": move_value()})
    );
    let v = decoded(&tuplet(
        &["decode", "--envelope", "--dir", "s2c", "--base64", "-"],
        Some(b64),
    ));
    assert_eq!(v["value"], move_value());
    let v = decoded(&tuplet(
        &["decode", "player:move", "--dir", "s2c", "-"],
        Some(MOVE_HEX),
    ));
    assert_eq!(v, move_value());
}

#[test]
fn decode_the_named_shape() {
    // The legacy map of WIRE.md (sessionId, x, y, z, rotationY, t, seq).
    let named = "87 a9 73 65 73 73 69 6f 6e 49 64 a9 61 62 63 31 32 33 64 65 66 a1 78 cb 40 5e dc cc cc cc cc cd a1 79 cb 3f f8 00 00 00 00 00 00 a1 7a cb c0 39 00 00 00 00 00 00 a9 72 6f 74 61 74 69 6f 6e 59 cb 40 09 20 c4 9b a5 e3 54 a1 74 cf 00 00 01 9a b6 97 e8 00 a3 73 65 71 cd 04 d2";
    let v = decoded(&tuplet(
        &["decode", "player:move", "--dir", "s2c", named],
        None,
    ));
    assert_eq!(v, move_value());
}

#[test]
fn bad_payloads_print_the_issue_and_exit_1() {
    // flags = -1 in the client's move: out of range, at `flags`.
    let o = tuplet(
        &[
            "decode",
            "player:move",
            "--dir",
            "c2s",
            "95 93 cd 30 39 cc 96 d1 f6 3c cd 0c 45 cf 00 00 01 9a b6 97 e8 00 c0 ff",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("out_of_range at flags: -1 is outside 0..=255"),
        "{err}"
    );
    assert!(
        err.contains("as plain msgpack: [[12345,150,-2500],3141,1764000000000,null,-1]"),
        "{err}"
    );
    // Truncated: the path is where the input ended.
    let o = tuplet(
        &["decode", "player:move", "--dir", "s2c", &MOVE_HEX[..38]],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("truncated at p: 3 elements declared, 1 byte left"),
        "{}",
        stderr(&o)
    );
    // An id no message has.
    let o = tuplet(
        &["decode", "--envelope", "--dir", "c2s", "cd ff ff 90"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown_message at (root): no message has id 65535"));
    // A name no message has.
    let o = tuplet(&["decode", "player:fly", "--dir", "c2s", "90"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown_message"), "{}", stderr(&o));
    // An odd number of hex digits is not read as base64.
    let o = tuplet(
        &["decode", "player:move", "--dir", "s2c", &MOVE_HEX[..40]],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not hex"), "{}", stderr(&o));
    // What `new Packr()` writes for a plain object: msgpackr's record extension, named with
    // the fix.
    let o = tuplet(
        &[
            "decode",
            "player:move",
            "--dir",
            "c2s",
            "d4 72 40 91 a1 78 01",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "wrong_type at (root): expected array or map, found a msgpackr record (ext 0x72); \
             send tuples, or encode with useRecords: false"
        ),
        "{}",
        stderr(&o)
    );
    // Not hex nor base64: bad input.
    let o = tuplet(&["decode", "player:move", "--dir", "c2s", "%%%"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn encode_round_trips_through_decode() {
    let value = move_value().to_string();
    let o = tuplet(&["encode", "player:move", "--dir", "s2c", &value], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), MOVE_HEX.replace(' ', ""));
    // The named shape, the envelope, base64.
    let o = tuplet(
        &["encode", "player:move", "--dir", "s2c", "--named", &value],
        None,
    );
    let named = stdout(&o).trim().to_owned();
    assert!(named.starts_with("87a973657373696f6e4964"), "{named}");
    let v = decoded(&tuplet(
        &["decode", "player:move", "--dir", "s2c", &named],
        None,
    ));
    assert_eq!(v, move_value());
    let o = tuplet(
        &[
            "encode",
            "player:move",
            "--dir",
            "s2c",
            "--envelope",
            "--base64",
            &value,
        ],
        None,
    );
    assert_eq!(
        stdout(&o).trim(),
        "AZWpYWJjMTIzZGVmk80wOcyW0fY8zQxFzwAAAZq2l+gAzQTS"
    );
    // Natural units in, quantized out: 1.005 m is 100 cm (f64 rounding, WIRE.md).
    let o = tuplet(
        &[
            "encode",
            "player:move",
            "--dir",
            "c2s",
            r#"{"p": [1.005, 0, 0], "r": 0, "t": 5}"#,
        ],
        None,
    );
    assert_eq!(stdout(&o).trim(), "93936400000005");
    // From stdin.
    let o = tuplet(
        &["encode", "player:move", "--dir", "s2c", "-"],
        Some(&value),
    );
    assert_eq!(stdout(&o).trim(), MOVE_HEX.replace(' ', ""));
}

#[test]
fn invalid_values_print_the_issue_with_its_path() {
    let o = tuplet(
        &[
            "encode",
            "player:move",
            "--dir",
            "c2s",
            r#"{"p": [1, 2, 5000.5], "r": 0, "t": 5}"#,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("out_of_range at p[2]: 5000.5 is outside -5000..=5000"),
        "{}",
        stderr(&o)
    );
    let o = tuplet(
        &[
            "encode",
            "player:move",
            "--dir",
            "c2s",
            r#"{"p": [1, 2, 3], "r": 0}"#,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("missing_field at t: missing field t"),
        "{}",
        stderr(&o)
    );
    let o = tuplet(&["encode", "player:move", "--dir", "c2s", "{"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sizes_prints_a_sorted_table_and_json() {
    let o = tuplet(&["sizes", "--format", "json"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(rows.len(), 306);
    let keys: Vec<u64> = rows
        .iter()
        .map(|r| r["max"].as_u64().unwrap_or(u64::MAX))
        .collect();
    assert!(keys.windows(2).all(|w| w[0] >= w[1]), "sorted by max");
    let mv = rows
        .iter()
        .find(|r| r["message"] == "player:move" && r["dir"] == "c2s")
        .unwrap();
    // 1 + p [3 x 5-byte cm] 16 + r 3 + t 9 + seq 5 + flags 2 = 36; budget 40.
    assert_eq!(mv["max"], 36);
    assert_eq!(mv["budget"], 40);
    assert_eq!(mv["largest_field"]["field"], "p");
    // 1 + p 4 + r 1 + t 1, options trimmed.
    assert_eq!(mv["min"], 7);
    assert_eq!(mv["max_sample"]["compact"], 36);
    let unbounded = rows.iter().find(|r| r["max"].is_null()).unwrap();
    assert!(unbounded["unbounded"]["reason"]
        .as_str()
        .unwrap()
        .contains("without len(max)"));
    let o = tuplet(&["sizes", "--top", "5"], None);
    let table = stdout(&o);
    assert!(
        table.starts_with("| message | dir | id | min | max |"),
        "{table}"
    );
    assert_eq!(table.lines().count(), 2 + 5 + 1);
    assert!(table.contains("**total: 306 messages"));
}

/// Regression: `tuplet sizes | head` panicked on the closed pipe.
#[test]
fn a_closed_pipe_ends_output_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(["sizes"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before the first line
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}", out.status);
}

/// Caught by the `decode_input` fuzz target (a 648-byte input timed out): the plain view
/// wrote a map key holding maps as JSON text, escaping the keys inside it again at every
/// level, so 40 nested maps as keys doubled the backslashes 40 times.
#[test]
fn the_plain_view_of_maps_keyed_by_maps_stays_small() {
    let depth = 40;
    // {{{...{nil: nil}...: nil}: nil}: nil}
    let mut bytes = vec![0x81; depth];
    bytes.extend(vec![0xc0; depth + 1]);
    let started = std::time::Instant::now();
    let v = tuplet_codegen::commands::decode::plain(&bytes).expect("plain msgpack");
    let text = v.to_string();
    assert!(text.len() < 2000, "{} bytes of text", text.len());
    assert!(started.elapsed().as_secs() < 5);
    assert!(text.starts_with(r#"{"{{{"#), "{text}");
}
