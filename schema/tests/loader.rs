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

/// The type inside any `Option`, `Vec` and array.
fn innermost(t: &TypeRef) -> &TypeRef {
    match t {
        TypeRef::Option { inner } | TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => {
            innermost(inner)
        }
        other => other,
    }
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
    assert_eq!(messages, 301);
    assert!(schema.c2s.len() > 50 && schema.s2c.len() > 50);
    // Every reference is canonical and names a record, enum or flags type.
    for item in schema.items.values() {
        if let ItemKind::Message(m) = &item.item.kind {
            for slot in &m.record.slots {
                if let tuplet_schema::ir::Slot::Field(f) = slot {
                    if let TypeRef::Named { path } = innermost(&f.ty) {
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

#[test]
fn every_naming_form_resolves() {
    let schema = load(&case("resolves")).unwrap_or_else(|e| panic!("{e}"));
    let ItemKind::Message(m) = &schema.items["crate::Moved"].item.kind else {
        panic!("not a message");
    };
    let named: Vec<&str> = m
        .record
        .slots
        .iter()
        .map(|s| match s {
            tuplet_schema::ir::Slot::Field(f) => match innermost(&f.ty) {
                TypeRef::Named { path } => path.as_str(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        named,
        [
            "crate::common::Vec3",
            "crate::common::Vec3",
            "crate::common::Vec3",
            "crate::common::Mode",
            "crate::zone::Zone",
            "crate::nested::deep::Deep",
        ]
    );
    assert_eq!(
        schema.items["crate::zone::Zone"].file,
        "src/elsewhere/zone.rs"
    );
    assert_eq!(
        schema.items["crate::nested::deep::Deep"].file,
        "src/nested/mod.rs"
    );
}

#[test]
fn cfg_item_is_rejected() {
    assert_one(
        "cfg_item",
        "src/lib.rs:3:1",
        "`#[cfg(feature = \"extra\")]` on the tuplet type `Extra`: it exists in some builds only",
    );
}

#[test]
fn item_in_cfg_module_is_rejected() {
    assert_one(
        "cfg_module",
        "src/lib.rs:6:16",
        "`Hidden` is in `crate::inner`, which is under a `#[cfg(...)]` that depends on the build",
    );
}

#[test]
fn macro_made_type_is_rejected_where_made_and_where_used() {
    let errs = errors("macro_type");
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs[0].starts_with("src/lib.rs:12:1: item-level macro `record!` in `crate`"));
    assert!(errs[0].contains("types made by macros are invisible to the loader"));
    assert!(errs[1].starts_with("src/lib.rs:17:12: cannot find type `Pos`"));
    assert!(errs[1].contains("types made by macros are invisible"));
}

#[test]
fn unknown_type_is_rejected_at_the_type() {
    assert_one(
        "unknown_type",
        "src/lib.rs:7:16",
        "cannot find type `Missing`: `crate` has no `Missing`",
    );
}

#[test]
fn generic_message_is_rejected() {
    assert_one(
        "generic_message",
        "src/lib.rs:5:17",
        "tuplet types cannot be generic",
    );
}

#[test]
fn missing_module_file_is_rejected() {
    let errs = errors("missing_module");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].starts_with("src/lib.rs:4:9: module `nowhere` has no file: looked for "));
    assert!(errs[0].contains("nowhere.rs and "));
}

#[test]
fn path_attribute_to_a_missing_file_is_rejected() {
    assert_one(
        "bad_path",
        "src/lib.rs:3:1",
        "`#[path = \"gone/area.rs\"]` on `mod area` points at ",
    );
}

#[test]
fn duplicate_id_in_a_direction_is_rejected_at_the_later_id() {
    assert_one(
        "duplicate_id",
        "src/b.rs:3:26",
        "id 7 is used twice in direction c2s: by `crate::a::One` and `crate::b::Two`",
    );
}

#[test]
fn unknown_use_is_rejected() {
    assert_one(
        "unknown_use",
        "src/lib.rs:10:27",
        "unresolved import `crate::common::Vec4`: `crate::common` has no `Vec4`",
    );
}

#[test]
fn type_defined_twice_is_rejected() {
    assert_one(
        "defined_twice",
        "src/lib.rs:9:10",
        "`Pos` is defined twice in `crate` (first at line 4)",
    );
}

#[test]
fn message_as_field_type_is_rejected() {
    assert_one(
        "field_is_message",
        "src/lib.rs:12:23",
        "`Inner` is a message: a field holds a record, enum or flags type",
    );
}

#[test]
fn message_missing_from_dispatch_is_rejected() {
    assert_one(
        "dispatch_missing",
        "src/lib.rs:11:12",
        "message `b` (c2s, id 2) is in no c2s dispatch enum: add a variant `B(crate::B)`",
    );
}

#[test]
fn struct_variant_field_named_kind_is_rejected() {
    assert_one(
        "variant_field_kind",
        "src/lib.rs:4:14",
        "a field of a struct variant cannot be named `kind`",
    );
}

#[test]
fn open_enum_variant_named_unknown_is_rejected() {
    assert_one(
        "open_variant_unknown",
        "src/lib.rs:5:5",
        "a variant of an open enum with data cannot be named `unknown`",
    );
}

#[test]
fn optional_field_named_like_an_object_prototype_member_is_rejected() {
    assert_one(
        "optional_value_of",
        "src/lib.rs:3:9",
        "an optional field cannot be named `valueOf`",
    );
}

#[test]
fn field_named_proto_is_rejected() {
    assert_one(
        "proto_field",
        "src/lib.rs:3:9",
        "a field named `__proto__` sets a JavaScript object's prototype",
    );
}
