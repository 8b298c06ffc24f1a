//! The names the TypeScript emitter introduces (`emit::typescript::introduced_names`): its
//! functions' locals are exactly the listed ones (`LOCALS`, `NUMBERED` bases with a counter,
//! `$` scratch locals), so the list the random schemas draw names from and the list `Names`
//! keeps items away from are the emitter's real ones; and an item named like one of them is
//! renamed.

use std::collections::BTreeSet;

use tuplet_codegen::emit::typescript::{introduced_names, is_local, Package, TypeScript};
use tuplet_codegen::emit::Emitter;

/// The locals declared inside the functions of a generated module: parameters, `const`/`let`
/// bindings (each of a `let a: T, b: U;` list), loop variables, catch variables.
fn declared_locals(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    for line in source.lines() {
        let t = line.trim_start();
        // Module-level declarations (not indented) are the items' own (`export const
        // XCodec`, `const X$t`...); only a function's parameters are locals there.
        if !line.starts_with(' ') || t.starts_with("//") || t.starts_with('*') {
            if let Some(params) = line
                .strip_prefix("export ")
                .unwrap_or(line)
                .strip_prefix("function ")
                .and_then(|r| r.split_once('('))
                .and_then(|(_, r)| r.split_once(')'))
                .map(|(p, _)| p)
            {
                for p in params.split(',') {
                    let n = ident(p);
                    if !n.is_empty() {
                        out.insert(n);
                    }
                }
            }
            continue;
        }
        for kw in ["const ", "let "] {
            let mut rest = t;
            while let Some(at) = rest.find(kw) {
                let before = &rest[..at];
                let after = &rest[at + kw.len()..];
                // A whole word: the start of the line or after `(`, `{`, `;` or a space.
                if before.is_empty() || before.ends_with(['(', ' ', '{', ';']) {
                    let decl = after.split(['=', ';']).next().unwrap_or("");
                    // `let a: T, b: U`: the parts at the top level of the type's `<>`.
                    let mut depth = 0i32;
                    let mut start = 0;
                    for (i, c) in decl.char_indices() {
                        match c {
                            '<' | '(' | '[' | '{' => depth += 1,
                            '>' | ')' | ']' | '}' => depth -= 1,
                            ',' if depth == 0 => {
                                out.insert(ident(&decl[start..i]));
                                start = i + 1;
                            }
                            _ => {}
                        }
                    }
                    out.insert(ident(&decl[start..]));
                }
                rest = after;
            }
        }
        if let Some(at) = t.find("catch (") {
            out.insert(ident(&t[at + "catch (".len()..]));
        }
    }
    out.remove("");
    out
}

/// The TypeScript modules of every snapshot case (`tests/cases`), emitted with every type
/// straight-line and with every type walked (`[ts] hot = []`), and of the village as
/// generated (its `[ts] hot` list).
fn emitted_modules() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let cases = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for case in std::fs::read_dir(&cases).unwrap() {
        let dir = case.unwrap().path();
        let input = dir.join("input.rs");
        let schema = tuplet_schema::load_from(&dir, &input).unwrap_or_else(|e| panic!("{e}"));
        for hot in [None, Some(Vec::new())] {
            let files = TypeScript {
                source: "input".into(),
                package: Package {
                    name: "input-protocol".into(),
                    version: "0.0.0".into(),
                    description: "A case.".into(),
                    private: true,
                    js: false,
                },
                hot,
            }
            .emit(&schema);
            for (path, text) in files {
                if path.ends_with(".ts") && !path.starts_with("src/runtime/") {
                    out.push((format!("{}: {path}", dir.display()), text));
                }
            }
        }
    }
    let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/ts/src");
    let mut stack = vec![generated];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("runtime") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "ts") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.display().to_string(), text));
            }
        }
    }
    out
}

#[test]
fn every_local_of_the_generated_functions_is_listed() {
    let modules = emitted_modules();
    assert!(modules.len() > 60, "{} modules", modules.len());
    let mut seen = BTreeSet::new();
    let mut unlisted = Vec::new();
    for (file, text) in &modules {
        for n in declared_locals(text) {
            if n.starts_with('$') {
                continue;
            }
            if is_local(&n) {
                seen.insert(n);
            } else {
                unlisted.push(format!("{file}: `{n}`"));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "locals missing from emit::typescript::LOCALS / NUMBERED:\n{}",
        unlisted.join("\n")
    );
    // The scan sees the locals it should: parameters, bindings, numbered and catch ones.
    for n in ["r", "w", "v", "named", "s", "k", "tag", "f0", "e", "x"] {
        assert!(seen.contains(n), "`{n}` not found by the scan: {seen:?}");
    }
}

#[test]
fn the_introduced_names_hold_the_locals_globals_and_runtime_imports() {
    let all = introduced_names();
    for n in [
        "r", "v", "x", "x1", "f", "readInt", "check", "at", "Reader", "Extract", "Map", "c2s",
    ] {
        assert!(all.contains(n), "`{n}` missing");
    }
}
