//! `cfg` and `cfg_attr`: the loader sees what the derive sees, or refuses.
//!
//! rustc configures a derive's input before the derive runs: fields and variants under a
//! false `#[cfg]` are gone and each `#[cfg_attr(pred, attr)]` is `#[attr]` or nothing, so the
//! derive never sees a `cfg`. The loader applies the predicates that are the same in every
//! build (`all`, `any`, `not`); `cfg_forms/src/lib.rs` holds every such form on types, fields
//! and variants, and the first test asserts that the derive's IR of each type equals the
//! loader's. A predicate that depends on the build (a feature, `test`, a target) would give
//! the Rust codec one schema per build and the generated TypeScript one: the second test
//! asserts the loader refuses each, at the attribute's line, saying what to write. The
//! derive has no such error to give (it sees the configured item only); the refusal is the
//! CLI's, before `tuplet gen`, `tuplet lock` or `tuplet compat` reads anything else.

use std::path::Path;

use serde_json::Value;
use tuplet_schema::loader::{load_items_from, SourceTree};

#[path = "cfg_forms/src/lib.rs"]
#[allow(dead_code)]
mod forms;

macro_rules! wire_types {
    ($($t:ident),* $(,)?) => {
        /// (type name, the IR its derive emitted).
        const TYPES: &[(&str, &str)] = &[$((stringify!($t), <forms::$t as tuplet::Wire>::IR)),*];
    };
}

wire_types!(Say, Spot, Mood, Body, Marks, State);

#[test]
fn every_constant_cfg_form_gives_the_loader_the_derive_ir() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cfg_forms");
    let loaded = load_items_from(&dir, &dir.join("src/lib.rs")).unwrap_or_else(|e| panic!("{e}"));
    let found: Vec<&str> = loaded
        .items
        .keys()
        .map(|k| k.strip_prefix("crate::").unwrap())
        .collect();
    let mut listed: Vec<&str> = TYPES.iter().map(|(n, _)| *n).collect();
    listed.sort();
    // `NotTuplet` (derive under a false `cfg_attr`) and `Never` (a false `cfg`) are absent.
    assert_eq!(found, listed, "the loader finds exactly the derived types");
    for (name, ir) in TYPES {
        let derived: Value = serde_json::from_str(ir).unwrap();
        let ours = serde_json::to_value(&loaded.items[&format!("crate::{name}")].item).unwrap();
        assert_eq!(
            ours, derived,
            "{name}: the loader's IR differs from the derive's"
        );
    }
    // The forms did something: a field in no build is absent, a bound in `cfg_attr` is read.
    let say = serde_json::to_string(&loaded.items["crate::Say"].item).unwrap();
    assert!(
        !say.contains("\"gone\"") && !say.contains("also_gone"),
        "{say}"
    );
    assert!(say.contains("120") && say.contains("more text"), "{say}");
}

/// A type around `member` (a field, a variant, or the whole type when `member` is empty),
/// as source text.
fn source(on_type: &str, on_field: &str, on_variant: &str) -> String {
    format!(
        "#[derive(tuplet::Record)]\n{on_type}\npub struct R {{\n    {on_field}\n    pub a: \
         String,\n}}\n\n#[derive(tuplet::Enum)]\npub enum E {{\n    {on_variant}\n    A = 0,\n    \
         B = 1,\n}}\n"
    )
}

#[test]
fn every_build_dependent_cfg_form_is_refused_at_its_line() {
    let preds = [
        "feature = \"x\"",
        "test",
        "unix",
        "debug_assertions",
        "target_os = \"linux\"",
        "tuplet_custom",
        "all(feature = \"x\", any())",
        "not(test)",
    ];
    let mut cases = Vec::new();
    for p in preds {
        let cfg = format!("#[cfg({p})]");
        cases.push((source(&cfg, "", ""), 2, "on the tuplet type `R`"));
        cases.push((source("", &cfg, ""), 4, "on field `a`"));
        cases.push((source("", "", &cfg), 10, "on variant `A`"));
        let bound = format!("#[cfg_attr({p}, tuplet(len(max = 120)))]");
        cases.push((
            source("", &bound, ""),
            4,
            "write `#[tuplet(len(max = 120))]`",
        ));
        let doc = format!("#[cfg_attr({p}, doc = \"d\")]");
        cases.push((source("", "", &doc), 10, "write `#[doc = \"d\"]`"));
        let derive = format!(
            "#[cfg_attr({p}, derive(tuplet::Record))]\npub struct S {{\n    pub a: u8,\n}}\n"
        );
        cases.push((derive, 1, "write `#[derive(tuplet::Record)]`"));
    }
    for (text, line, needle) in &cases {
        let mut tree = SourceTree::new();
        tree.insert("src/lib.rs", text);
        let errors = match tree.load() {
            Ok(_) => panic!("loaded without error:\n{text}"),
            Err(e) => e.0,
        };
        assert_eq!(errors.len(), 1, "{text}\n{errors:#?}");
        let e = &errors[0];
        assert_eq!(
            (e.line, e.col),
            (*line, 5 - 4 * (*line == 1 || *line == 2) as usize)
        );
        assert!(e.message.contains(needle), "{text}\n{}", e.message);
        assert!(
            e.message.contains("unconditionally"),
            "says what to write: {}",
            e.message
        );
    }
}

#[test]
fn a_build_dependent_cfg_attr_of_other_attributes_is_kept() {
    let text = source(
        "#[cfg_attr(feature = \"serde\", derive(serde::Serialize))]",
        "#[cfg_attr(test, allow(dead_code))]",
        "#[cfg_attr(unix, allow(unused))]",
    );
    let mut tree = SourceTree::new();
    tree.insert("src/lib.rs", &text);
    tree.load().unwrap_or_else(|e| panic!("{e}"));
}
