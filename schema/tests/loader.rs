//! The source loader: the reference protocol loads and resolves; every rejection is reported
//! at its exact `file:line:col`, with the fix. Error fixtures are crates under
//! `tests/loader_cases/<case>/src/`.

use std::path::{Path, PathBuf};

use tuplet_schema::ir::{Dir, ItemKind, TypeRef};
use tuplet_schema::{load, Kind, LoadErrors};

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/loader_cases")
        .join(name)
}

/// Loads a fixture that must fail; returns its errors as `file:line:col: message` with the
/// file relative to the fixture.
fn errors(name: &str) -> Vec<String> {
    let dir = case(name);
    let errs: LoadErrors = match load(&dir) {
        Ok(_) => panic!("case `{name}` loaded without error"),
        Err(e) => e,
    };
    errs.0
        .iter()
        .map(|e| {
            let file = e.file.strip_prefix(&dir).unwrap_or(&e.file);
            format!("{}:{}:{}: {}", file.display(), e.line, e.col, e.message)
        })
        .collect()
}

/// Asserts exactly one error, at `at` (`src/lib.rs:3:12`), whose message contains `needle`.
fn assert_one(name: &str, at: &str, needle: &str) {
    let errs = errors(name);
    assert_eq!(errs.len(), 1, "case `{name}`: {errs:#?}");
    let e = &errs[0];
    assert!(e.starts_with(&format!("{at}: ")), "case `{name}`: {e}");
    assert!(e.contains(needle), "case `{name}`: {e}");
}

#[test]
fn village_loads_and_resolves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/village");
    let schema = load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let messages = schema
        .items
        .values()
        .filter(|i| matches!(i.item.kind, ItemKind::Message(_)))
        .count();
    assert_eq!(messages, 299);
    assert!(schema.c2s.len() > 50 && schema.s2c.len() > 50);
    // Every reference is canonical and names a record, enum or flags type.
    for item in schema.items.values() {
        if let ItemKind::Message(m) = &item.item.kind {
            for slot in &m.record.slots {
                if let tuplet_schema::ir::Slot::Field(f) = slot {
                    let mut t = &f.ty;
                    loop {
                        match t {
                            TypeRef::Option { inner }
                            | TypeRef::Vec { inner, .. }
                            | TypeRef::Array { inner, .. } => t = inner,
                            _ => break,
                        }
                    }
                    if let TypeRef::Named { path } = t {
                        assert!(path.starts_with("crate::"), "{path}");
                        assert!(matches!(
                            schema.kind(path),
                            Some(Kind::Record | Kind::Enum | Kind::Flags)
                        ));
                    }
                }
            }
        }
    }
    let mv = &schema.items["crate::player::PlayerMove"];
    assert_eq!(mv.file, "src/player.rs");
    assert_eq!(schema.messages(Dir::C2s).count(), schema.c2s.len());
}
