//! The emitters on a data folder of small schema cases (`tests/cases/<case>/input.rs`, each
//! the root file of a one-file crate), snapshotted with insta: every file an emitter writes,
//! concatenated under its path (for TypeScript, all but the hand-written runtime it embeds
//! verbatim under `src/runtime/`, listed instead). Rerun with `INSTA_UPDATE=always` to accept
//! changes.

use std::path::Path;

use tuplet_codegen::emit::typescript::{Package, TypeScript};
use tuplet_codegen::emit::{jsonschema::JsonSchema, Emitter};

#[test]
fn jsonschema_of_each_case() {
    insta::glob!("cases/*/input.rs", |input| {
        let dir = input.parent().unwrap();
        let schema = tuplet_schema::load_from(dir, input).unwrap_or_else(|e| panic!("{e}"));
        let files = JsonSchema.emit(&schema);
        let mut text = String::new();
        for (path, body) in &files {
            text.push_str(&format!("=== {path}\n{body}"));
        }
        insta::assert_snapshot!(text);
    });
}

#[test]
fn typescript_of_each_case() {
    insta::glob!("cases/*/input.rs", |input| {
        let dir = input.parent().unwrap();
        let schema = tuplet_schema::load_from(dir, input).unwrap_or_else(|e| panic!("{e}"));
        let emitter = TypeScript {
            source: "input".into(),
            package: Package {
                name: "input-protocol".into(),
                version: "0.0.0".into(),
                description: "A case.".into(),
                private: true,
                js: false,
            },
            hot: None,
        };
        let files = emitter.emit(&schema);
        let mut text = String::new();
        let mut runtime = Vec::new();
        for (path, body) in &files {
            if path.starts_with("src/runtime/") {
                runtime.push(path.as_str());
            } else {
                text.push_str(&format!("=== {path}\n{body}"));
            }
        }
        text.push_str(&format!("=== embedded runtime\n{}\n", runtime.join("\n")));
        insta::assert_snapshot!(text);
    });
}

#[test]
fn at_least_five_cases() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let n = std::fs::read_dir(cases).unwrap().count();
    assert!(n >= 5, "{n} cases");
}

#[test]
fn ts_runtime_readme_lists_every_hand_written_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("ts-runtime/README.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("ts-runtime")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".ts") && !readme.contains(&format!("`{name}`")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "codegen/ts-runtime/README.md does not list {missing:?}"
    );
}
