//! The emitters on a data folder of small schema cases (`tests/cases/<case>/input.rs`, each
//! the root file of a one-file crate), snapshotted with insta: every file an emitter writes,
//! concatenated under its path. Rerun with `INSTA_UPDATE=always` to accept changes.

use std::path::Path;

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
fn at_least_five_cases() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let n = std::fs::read_dir(cases).unwrap().count();
    assert!(n >= 5, "{n} cases");
}
