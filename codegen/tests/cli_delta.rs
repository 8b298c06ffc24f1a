//! `tuplet decode --delta` on the village's `world:snapshot` payloads of WIRE.md ("Delta
//! snapshots"), and a plain decode of a delta payload, which says what it is and what to
//! run instead. Snapshots in `tests/snapshots/`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tuplet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(args)
        .arg("--config")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tuplet.toml"))
        .output()
        .expect("tuplet runs")
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// WIRE.md's first three `world:snapshot` payloads: a keyframe, then two deltas.
const KEYFRAME: &str = "96 00 c0 cd 03 e8 c3 92 98 07 01 93 cd 04 e2 d1 fe d4 00 cd 05 dc 60 02 c0 a3 41 6e 6e 96 09 03 93 cd 27 10 cd 07 d0 00 00 00 00 90";
const MOVED: &str = "95 01 07 01 c2 93 07 02 93 07 00 00";
const ENTERED_LEFT: &str = "94 02 05 01 98 07 16 93 07 00 00 7d 01 09 00 97 0c 02 93 cd 05 78 d1 ff 38 00 00 00 01 a9 61 62 63 64 65 66 67 68 69";

#[test]
fn decode_delta_reads_a_keyframe() {
    insta::assert_snapshot!(text(&tuplet(&[
        "decode",
        "--delta",
        "world:snapshot",
        KEYFRAME
    ])));
}

#[test]
fn decode_delta_reads_changed_fields_and_entities() {
    insta::assert_snapshot!(text(&tuplet(&[
        "decode",
        "--delta",
        "world:snapshot",
        MOVED
    ])));
    insta::assert_snapshot!(text(&tuplet(&[
        "decode",
        "--delta",
        "world:snapshot",
        ENTERED_LEFT
    ])));
}

#[test]
fn a_plain_decode_of_a_delta_payload_says_what_it_is() {
    for payload in [KEYFRAME, MOVED, ENTERED_LEFT] {
        let o = tuplet(&["decode", "world:snapshot", payload]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        // The runtime's own issue (`Code::DeltaPayload`), as dispatch and TypeScript give it.
        let issue = tuplet::delta::delta_payload(if payload == KEYFRAME {
            "a keyframe"
        } else {
            "a delta"
        });
        assert!(
            err.starts_with(&format!(
                "{} at (root): {}\n",
                tuplet::Code::DeltaPayload,
                issue.issue().message
            )),
            "{err}"
        );
        assert!(
            err.contains("tuplet decode --delta world:snapshot"),
            "{err}"
        );
    }
    insta::assert_snapshot!(text(&tuplet(&["decode", "world:snapshot", MOVED])));
}

#[test]
fn other_invalid_input_keeps_its_error() {
    // Not a delta payload either: the plain decoder's issue, as before.
    let o = tuplet(&["decode", "world:snapshot", "93 01"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("delta payload"), "{err}");
    insta::assert_snapshot!(text(&o));
    // A delta payload cut short is no delta payload: its own error under --delta.
    let o = tuplet(&["decode", "--delta", "world:snapshot", &MOVED[..20]]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(text(&o));
}

#[test]
fn decode_delta_of_a_message_without_delta_is_refused() {
    let o = tuplet(&[
        "decode",
        "--delta",
        "--dir",
        "c2s",
        "world:keyframe",
        "91 01",
    ]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!(text(&o));
}
