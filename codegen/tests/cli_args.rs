//! The CLI's arguments and wording: `--dir` optional where the message (or envelope id) is
//! in one direction only, an error listing both when it is in two, the usage lines, singular
//! units, and `tuplet explain`. Runs the built binary on the reference protocol.

use std::path::PathBuf;
use std::process::Output;

fn tuplet(args: &[&str]) -> Output {
    let config = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tuplet.toml");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tuplet"));
    cmd.args(args);
    if args[0] != "explain" {
        cmd.arg("--config").arg(config);
    }
    cmd.output().expect("tuplet runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const REACT: &str = r#"{"line":5,"emoji":"x","on":true}"#;

#[test]
fn dir_is_optional_for_a_message_of_one_direction() {
    let o = tuplet(&["encode", "chat:react", REACT]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).trim(), "9305a178c3");
    let o = tuplet(&["decode", "chat:react", "93 05 a1 78 c3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v, serde_json::from_str::<serde_json::Value>(REACT).unwrap());
    // By envelope id (36 is c2s only) and by type name.
    let o = tuplet(&["decode", "--envelope", "249305a178c3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("\"message\": \"chat:react\""),
        "{}",
        out(&o)
    );
    let o = tuplet(&["encode", "ChatReact", REACT]);
    assert_eq!(out(&o).trim(), "9305a178c3", "{}", err(&o));
    // A `dir = "both"` message is one message in both directions: no ambiguity.
    let o = tuplet(&["encode", "chat:typing", r#"{"typing":true}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn a_name_or_id_in_both_directions_asks_for_dir_listing_both() {
    for args in [
        &["decode", "player:move", "90"][..],
        &["encode", "player:move", "{}"][..],
        &["decode", "--envelope", "0190"][..],
    ] {
        let o = tuplet(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = err(&o);
        assert!(e.contains("names a message in both directions"), "{e}");
        assert!(
            e.contains("c2s `player:move` (id 1, crate::player::PlayerMove)"),
            "{e}"
        );
        assert!(
            e.contains("s2c `player:move` (id 1, crate::player::PlayerMoveRelayed)"),
            "{e}"
        );
        assert!(e.contains("pass --dir c2s or --dir s2c"), "{e}");
    }
    // With --dir it decodes; an unknown name is still unknown_message, exit 1.
    let o = tuplet(&["decode", "player:move", "--dir", "s2c", "90"]);
    assert!(err(&o).contains("missing_field at s"), "{}", err(&o));
    let o = tuplet(&["decode", "no:such", "90"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("no message is named \"no:such\""),
        "{}",
        err(&o)
    );
}

#[test]
fn decode_usage_names_message_and_payload() {
    let o = tuplet(&["decode", "--help"]);
    let help = out(&o);
    assert!(
        help.contains("Usage: tuplet decode [OPTIONS] <MESSAGE> <PAYLOAD>\n"),
        "{help}"
    );
    assert!(
        help.contains("tuplet decode [OPTIONS] --envelope <PAYLOAD>"),
        "{help}"
    );
    assert!(!help.contains("<MESSAGE]"), "{help}");
    let o = tuplet(&["encode", "--help"]);
    assert!(
        out(&o).contains("Usage: tuplet encode [OPTIONS] <MESSAGE> <JSON>\n"),
        "{}",
        out(&o)
    );
    // A lone argument without --envelope, or two with it, are explained.
    let o = tuplet(&["decode", "9305a178c3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("give the message and the payload"),
        "{}",
        err(&o)
    );
    let o = tuplet(&["decode", "--envelope", "chat:react", "9305a178c3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("give the payload alone"), "{}", err(&o));
}

#[test]
fn one_byte_is_singular() {
    let o = tuplet(&["decode", "chat:react", "c0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("(1 byte: c0)"), "{}", err(&o));
    let o = tuplet(&["decode", "chat:react", "93 05 a2 78"]);
    assert!(
        err(&o).contains("2 bytes declared, 1 byte left"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("(4 bytes: 9305a278)"), "{}", err(&o));
}

#[test]
fn explain_prints_a_rules_entry_from_the_binary() {
    let o = tuplet(&["explain", "message-removed"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(
        text.starts_with("### `message-removed`\n\n**Catches**"),
        "{text}"
    );
    assert!(text.contains("reserved_ids"), "{text}");
    assert!(!text.contains("### `message-renamed`"), "{text}");
    let o = tuplet(&["explain"]);
    assert!(out(&o).contains("range-narrowed"), "{}", out(&o));
    let o = tuplet(&["explain", "no-such-rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("the rules: message-removed, "),
        "{}",
        err(&o)
    );
}

#[test]
fn help_works_on_the_binary_and_every_command() {
    let help = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tuplet"))
            .args(args)
            .output()
            .expect("tuplet runs");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        out(&o)
    };
    let top = help(&["--help"]);
    assert!(top.contains("Usage: tuplet <COMMAND>"), "{top}");
    assert_eq!(help(&["-h"]), top);
    for cmd in [
        "gen", "lock", "compat", "sizes", "decode", "encode", "explain",
    ] {
        assert!(
            top.contains(&format!("\n  {cmd} ")),
            "{cmd} not listed: {top}"
        );
        let text = help(&[cmd, "--help"]);
        assert!(text.contains(&format!("Usage: tuplet {cmd}")), "{text}");
        assert_eq!(help(&["help", cmd]), text, "tuplet help {cmd}");
    }
}
