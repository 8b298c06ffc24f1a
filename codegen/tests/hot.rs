//! `[ts] hot`: only the listed messages (and what they reach) keep straight-line compact
//! code; every other record's `X$read` / `X$write` is the runtime's table walker. Unset,
//! every record is straight-line; a name that is not a message is a clear error. Runs the
//! built binary on a scratch crate in a temporary folder.

use std::path::Path;
use std::process::{Command, Output};

const LIB: &str = r#"
/// A position.
#[derive(tuplet::Record)]
pub struct Pos {
    #[tuplet(range(-1000, 1000))]
    pub x: i32,
    #[tuplet(range(-1000, 1000))]
    pub y: i32,
}

/// A move, sent often.
#[derive(tuplet::Message)]
#[tuplet(name = "game:move", id = 1, dir = "c2s")]
pub struct Move {
    pub to: Pos,
}

/// A badge.
#[derive(tuplet::Record)]
pub struct Badge {
    #[tuplet(len(max = 16))]
    pub name: String,
}

/// A mood.
#[derive(tuplet::Enum)]
pub enum Mood {
    Calm = 0,
    Loud = 1,
}

/// A chat line, sent rarely.
#[derive(tuplet::Message)]
#[tuplet(name = "game:chat", id = 2, dir = "c2s")]
pub struct Chat {
    #[tuplet(len(min = 1, max = 280))]
    pub text: String,
    pub badge: Option<Badge>,
    pub mood: Mood,
    #[tuplet(len(max = 100))]
    pub seen: Vec<Badge>,
}
"#;

/// A scratch crate `game` and a tuplet.toml whose `[ts]` section ends with `ts`.
fn scratch(ts: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("game/src")).unwrap();
    std::fs::write(root.join("game/src/lib.rs"), LIB).unwrap();
    std::fs::write(
        root.join("game/Cargo.toml"),
        "[package]\nname = \"game\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let toml = format!("[schema]\ncrate = \"game\"\n[outputs]\nts = \"out/ts\"\n[ts]\n{ts}");
    std::fs::write(root.join("tuplet.toml"), toml).unwrap();
    tmp
}

fn gen(dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .arg("gen")
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs `tuplet gen` in `dir`, which must succeed, and returns the generated module's text.
fn gen_module(dir: &Path) -> String {
    let o = gen(dir);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(dir.join("out/ts/src/lib.ts")).unwrap()
}

/// The body of the function `name` in `text` (up to the next top-level `}`).
fn body<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("export function {name}("))
        .unwrap_or_else(|| panic!("no {name} in:\n{text}"));
    let len = text[start..].find("\n}\n").unwrap();
    &text[start..start + len]
}

fn walked(text: &str, ident: &str) -> (bool, bool) {
    (
        body(text, &format!("{ident}$read")).contains("readRecord("),
        body(text, &format!("{ident}$write")).contains("writeRecord("),
    )
}

#[test]
fn without_hot_every_record_is_straight_line() {
    let tmp = scratch("");
    let text = gen_module(tmp.path());
    for ident in ["Pos", "Move", "Badge", "Chat"] {
        assert_eq!(walked(&text, ident), (false, false), "{ident}");
    }
    assert!(!body(&text, "Mood$read").contains("readUnit("));
}

#[test]
fn hot_keeps_the_listed_messages_and_what_they_reach_straight_line() {
    let tmp = scratch("hot = [\"game:move\"]\n");
    let text = gen_module(tmp.path());
    assert_eq!(walked(&text, "Move"), (false, false));
    assert_eq!(
        walked(&text, "Pos"),
        (false, false),
        "reached from a hot message"
    );
    assert_eq!(walked(&text, "Chat"), (true, true));
    // A long list's element, but only an unlisted message holds the list.
    assert_eq!(walked(&text, "Badge"), (true, true));
    assert!(body(&text, "Mood$read").contains("readUnit("));
    assert!(body(&text, "Mood$write").contains("writeUnit("));
}

#[test]
fn every_unknown_hot_name_is_reported_with_its_line_and_the_nearest_message() {
    let tmp = scratch(
        "hot = [\n  \"game:move\",\n  \"game:mvoe\",\n  \"gmae:chat\",\n  \"lobby:join\",\n]\n",
    );
    let o = gen(tmp.path());
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    let dir = tmp.path().display().to_string();
    insta::assert_snapshot!(e.replace(&dir, "[dir]"));
    assert!(!tmp.path().join("out").exists(), "nothing written");
}
