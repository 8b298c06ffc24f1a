//! `tuplet gen` end to end: deterministic output (manifests included), only changed files
//! written, and `gen --check` failing (naming the file) after a hand edit under the outputs.
//! What tuplet owns and refuses is tests/ownership.rs.

use std::path::{Path, PathBuf};
use std::process::Command;

use tuplet_codegen::config::Config;
use tuplet_codegen::writer::{self, Change};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's config, with its outputs redirected under `out`.
fn config_into(out: &Path) -> Config {
    let mut config = Config::read(&repo().join("tuplet.toml")).unwrap();
    config.outputs.jsonschema = Some(out.join("jsonschema"));
    config.outputs.ts = Some(out.join("ts"));
    config
}

fn gen_into(out: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let config = config_into(out);
    let schema = tuplet_codegen::load(&config).unwrap_or_else(|e| panic!("{e}"));
    for (dir, files) in tuplet_codegen::generate(&config, &schema).unwrap() {
        writer::write(&dir, &files).unwrap();
    }
    let mut all = Vec::new();
    let mut stack = vec![out.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(out).unwrap().to_path_buf();
                all.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    all.sort();
    all
}

#[test]
fn two_runs_are_byte_identical() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = gen_into(a.path());
    let second = gen_into(b.path());
    assert!(first.len() > 290, "{} files", first.len());
    assert!(
        first.iter().any(|(p, _)| p.starts_with("ts")),
        "the TypeScript package is compared too"
    );
    assert_eq!(first, second);
}

#[test]
fn rewriting_leaves_unchanged_files_untouched_and_keeps_a_users_file() {
    let out = tempfile::tempdir().unwrap();
    gen_into(out.path());
    let config = config_into(out.path());
    let schema = tuplet_codegen::load(&config).unwrap();
    let outputs = tuplet_codegen::generate(&config, &schema).unwrap();
    let (dir, files) = outputs.iter().next().unwrap();
    let manifest = std::fs::read(dir.join(".tuplet-manifest")).unwrap();
    std::fs::write(dir.join("c2s/not_ours.json"), "{}\n").unwrap();
    let w = writer::write(dir, files).unwrap();
    assert!(w.written.is_empty() && w.removed.is_empty());
    assert_eq!(w.kept, [dir.join("c2s/not_ours.json")]);
    assert_eq!(w.unchanged, files.len());
    assert_eq!(
        std::fs::read(dir.join("c2s/not_ours.json")).unwrap(),
        b"{}\n"
    );
    assert_eq!(
        std::fs::read(dir.join(".tuplet-manifest")).unwrap(),
        manifest
    );
    assert_eq!(writer::diff(dir, files).unwrap(), []);
}

#[test]
fn check_fails_after_a_hand_edit() {
    let out = tempfile::tempdir().unwrap();
    gen_into(out.path());
    let config = config_into(out.path());
    let schema = tuplet_codegen::load(&config).unwrap();
    let outputs = tuplet_codegen::generate(&config, &schema).unwrap();
    let (dir, files) = outputs.iter().next().unwrap();
    assert_eq!(writer::diff(dir, files).unwrap(), []);
    let edited = dir.join("c2s/player_move.json");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push(' ');
    std::fs::write(&edited, text).unwrap();
    std::fs::remove_file(dir.join("s2c/player_move.json")).unwrap();
    assert_eq!(
        writer::diff(dir, files).unwrap(),
        [
            Change::Missing(dir.join("s2c/player_move.json")),
            Change::Edited(edited),
        ]
    );
}

/// Regression: the tests once wrote the repository's own `generated/ts`, so a stale
/// committed package was regenerated before `gen --check` could see it.
#[test]
fn check_sees_a_hand_edit_in_the_typescript_package() {
    let out = tempfile::tempdir().unwrap();
    gen_into(out.path());
    let config = config_into(out.path());
    let schema = tuplet_codegen::load(&config).unwrap();
    let outputs = tuplet_codegen::generate(&config, &schema).unwrap();
    let (dir, files) = outputs
        .iter()
        .find(|(dir, _)| dir.ends_with("ts"))
        .expect("a ts output");
    assert!(
        dir.starts_with(out.path()),
        "tests never write the repository's generated/"
    );
    let edited = dir.join("src/player.ts");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push_str("// hand edit\n");
    std::fs::write(&edited, text).unwrap();
    assert_eq!(writer::diff(dir, files).unwrap(), [Change::Edited(edited)]);
}

/// The binary: exit 0 when fresh, 2 after a hand edit (which `gen` refuses to overwrite), 1
/// when a file is missing (naming the file), 2 on a bad config.
#[test]
fn exit_codes_of_the_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let crate_dir = repo().join("examples/village");
    let toml = format!(
        "[schema]\ncrate = {:?}\n[outputs]\njsonschema = \"out/jsonschema\"\n",
        crate_dir.display().to_string()
    );
    std::fs::write(root.join("tuplet.toml"), toml).unwrap();
    let tuplet = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tuplet"))
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    assert_eq!(tuplet(&["gen", "--check"]).status.code(), Some(1));
    assert_eq!(tuplet(&["gen"]).status.code(), Some(0));
    assert_eq!(tuplet(&["gen", "--check"]).status.code(), Some(0));
    let edited = root.join("out/jsonschema/c2s/chat_message.json");
    std::fs::write(&edited, "{}\n").unwrap();
    let out = tuplet(&["gen", "--check"]);
    assert_eq!(out.status.code(), Some(2), "a hand edit: gen would refuse");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("edited:  out/jsonschema/c2s/chat_message.json"),
        "{stderr}"
    );
    std::fs::remove_file(&edited).unwrap();
    let out = tuplet(&["gen", "--check"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("missing: out/jsonschema/c2s/chat_message.json"),
        "{stderr}"
    );
    std::fs::write(root.join("bad.toml"), "[schema]\ncrate = 3\n").unwrap();
    let out = tuplet(&["gen", "--config", "bad.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.toml: "), "{stderr}");
}
