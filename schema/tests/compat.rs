//! The compatibility check: every rule is caught by a fixture whose expected findings are
//! written by hand (rule, category, direction, and per deploy order where it matters), safe
//! changes report nothing, acceptances pass and are recorded, unmatched ones fail, and the
//! lock is deterministic.
//!
//! A fixture is `tests/compat_cases/<case>/{before.rs, after.rs, expected.json}`: two
//! single-file crates and, per deploy order, whether the check passes and exactly which
//! findings it reports. A finding's listed keys are compared; unlisted keys are free.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tuplet_schema::compat::{self, rules, Deploy, Finding, HistoryEntry, Lock};
use tuplet_schema::load_from;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat_cases")
}

fn lock_of(dir: &Path, file: &str) -> Lock {
    let schema = load_from(dir, &dir.join(file))
        .unwrap_or_else(|e| panic!("{}/{file} does not load:\n{e}", dir.display()));
    Lock::from_schema(&schema)
}

/// The old lock as `tuplet compat` sees it: written, then read back.
fn old_lock(dir: &Path) -> Lock {
    Lock::from_json(&lock_of(dir, "before.rs").to_json()).expect("a written lock parses")
}

fn finding_json(f: &Finding) -> Value {
    serde_json::to_value(f).unwrap()
}

/// Whether `found` has every key `want` lists, with the same value.
fn matches(want: &Value, found: &Value) -> bool {
    want.as_object()
        .unwrap()
        .iter()
        .all(|(k, v)| found.get(k) == Some(v))
}

fn check_case(name: &str) -> usize {
    let dir = cases_dir().join(name);
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let old = old_lock(&dir);
    let new = lock_of(&dir, "after.rs");
    let checks = expected["checks"].as_array().unwrap();
    for c in checks {
        let deploy = Deploy::parse(c["deploy"].as_str().unwrap()).unwrap();
        let report = compat::check(&old, &new, deploy);
        let found: Vec<Value> = report.findings.iter().map(finding_json).collect();
        let want = c["findings"].as_array().unwrap();
        let ctx = || {
            format!(
                "case `{name}` under {}:\n{}\nfound: {}",
                deploy.as_str(),
                report.text(),
                serde_json::to_string_pretty(&found).unwrap()
            )
        };
        assert_eq!(found.len(), want.len(), "{}", ctx());
        let mut used = vec![false; found.len()];
        for w in want {
            let i = (0..found.len())
                .find(|&i| !used[i] && matches(w, &found[i]))
                .unwrap_or_else(|| panic!("expected {w} not found in {}", ctx()));
            used[i] = true;
        }
        assert_eq!(
            report.compatible,
            c["compatible"].as_bool().unwrap(),
            "{}",
            ctx()
        );
        assert_eq!(report.exit_code(), if report.compatible { 0 } else { 1 });
    }
    checks.len()
}

fn case_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_fixture_reports_exactly_its_expected_findings() {
    let names = case_names();
    let mut failures = Vec::new();
    for name in &names {
        if let Err(e) = std::panic::catch_unwind(|| check_case(name)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("--- {name}\n{msg}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_a_breaking_fixture_and_at_least_20_safe_changes_report_nothing() {
    let mut covered = BTreeSet::new();
    let mut silent = 0;
    for name in case_names() {
        let text = std::fs::read_to_string(cases_dir().join(&name).join("expected.json")).unwrap();
        let expected: Value = serde_json::from_str(&text).unwrap();
        for c in expected["checks"].as_array().unwrap() {
            for f in c["findings"].as_array().unwrap() {
                covered.insert(f["rule"].as_str().unwrap().to_string());
            }
        }
        if name.starts_with("safe_") {
            let all_empty = expected["checks"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["findings"].as_array().unwrap().is_empty());
            silent += usize::from(all_empty);
        }
    }
    let missing: Vec<&str> = rules::ALL
        .iter()
        .map(|r| r.name)
        .filter(|r| !covered.contains(*r))
        .collect();
    assert!(missing.is_empty(), "rules without a fixture: {missing:?}");
    assert!(silent >= 20, "only {silent} safe fixtures report nothing");
}

#[test]
fn every_rule_is_documented_in_rules_md() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../RULES.md")).unwrap();
    for r in rules::ALL {
        assert!(
            doc.contains(&format!("### `{}`", r.name)),
            "RULES.md has no section for `{}`",
            r.name
        );
    }
}

#[test]
fn an_accepted_break_is_recorded_by_lock_and_then_passes() {
    let dir = cases_dir().join("accepted_break");
    let old = old_lock(&dir);
    let new = lock_of(&dir, "after.rs");
    let (next, report) = compat::relock(&old, &new, Deploy::AnyOrder).expect("accepted");
    assert!(report.compatible);
    assert_eq!(
        next.history,
        vec![HistoryEntry::Accepted {
            rule: "range-narrowed".into(),
            dir: compat::WireDir::C2s,
            item: "crate::Up".into(),
            member: "hp".into(),
            was: "0..=100".into(),
            now: "0..=50".into(),
            reason: "no client ever sent more than 40".into(),
            superseded: false,
        }]
    );
    // The acceptance stays in the source: against the new lock it matches the history.
    let written = Lock::from_json(&next.to_json()).unwrap();
    let again = compat::check(&written, &new, Deploy::AnyOrder);
    assert!(again.compatible, "{}", again.text());
    assert!(again.findings.is_empty(), "{}", again.text());
    // Locking again changes nothing.
    let (third, _) = compat::relock(&written, &new, Deploy::AnyOrder).unwrap();
    assert_eq!(third.to_json(), next.to_json());
}

#[test]
fn lock_refuses_an_unaccepted_break_and_an_unmatched_acceptance() {
    for case in ["field_removed", "message_removed", "accept_unmatched"] {
        let dir = cases_dir().join(case);
        let err = compat::relock(
            &old_lock(&dir),
            &lock_of(&dir, "after.rs"),
            Deploy::AnyOrder,
        )
        .expect_err(case);
        assert!(!err.compatible);
        assert!(err.text().contains("error["), "{}", err.text());
    }
}

#[test]
fn a_restart_keeps_its_reason_and_every_later_check_prints_it() {
    let dir = cases_dir().join("field_removed");
    let old = old_lock(&dir);
    let new = lock_of(&dir, "after.rs");
    let next = compat::restart(Some(&old), &new, "1.0: every client is force-updated");
    let written = Lock::from_json(&next.to_json()).unwrap();
    let report = compat::check(&written, &new, Deploy::AnyOrder);
    assert!(report.compatible);
    assert!(report
        .text()
        .contains("note: the lock was restarted: 1.0: every client is force-updated"));
    assert!(report.json().contains("\"event\": \"restart\""));
}

#[test]
fn the_lock_is_byte_identical_when_written_twice() {
    let village = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/village");
    let a = Lock::from_schema(&tuplet_schema::load(&village).unwrap()).to_json();
    let b = Lock::from_schema(&tuplet_schema::load(&village).unwrap()).to_json();
    assert_eq!(a, b);
    assert!(a.ends_with("}\n"));
    // Round trip: parsing and writing again gives the same bytes.
    assert_eq!(Lock::from_json(&a).unwrap().to_json(), a);
    let lock = Lock::from_json(&a).unwrap();
    let messages: usize = lock.messages.values().map(|m| m.len()).sum();
    assert!(messages >= 300, "{messages}");
    // The reference protocol is compatible with itself, with nothing to report.
    let report = compat::check(&lock, &Lock::from_json(&a).unwrap(), Deploy::AnyOrder);
    assert!(report.findings.is_empty(), "{}", report.text());
}

#[test]
fn marking_a_message_unreliable_leaves_the_lock_byte_identical() {
    // RULES.md: the lock does not record `unreliable` (only the sender reads it).
    let dir = cases_dir().join("safe_mark_message_unreliable");
    let before = load_from(&dir, &dir.join("before.rs")).unwrap();
    let after = load_from(&dir, &dir.join("after.rs")).unwrap();
    let flags = |s: &tuplet_schema::ResolvedSchema| {
        let flags = s.items.values().filter_map(|i| match &i.item.kind {
            tuplet_schema::ir::ItemKind::Message(m) => Some(m.unreliable),
            _ => None,
        });
        flags.collect::<Vec<_>>()
    };
    assert_eq!((flags(&before), flags(&after)), (vec![false], vec![true]));
    // The same bytes but the file each entry names.
    let after = Lock::from_schema(&after).to_json();
    assert_eq!(
        Lock::from_schema(&before).to_json(),
        after.replace("\"after.rs\"", "\"before.rs\"")
    );
}

#[test]
fn the_json_report_names_rule_category_direction_and_location() {
    let dir = cases_dir().join("range_narrowed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::ServerFirst,
    );
    let v: Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(v["compatible"], false);
    assert_eq!(v["deploy"], "server-first");
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "range-narrowed");
    assert_eq!(f["category"], "compact");
    assert_eq!(f["dir"], "c2s");
    assert_eq!(f["hurts"], "old-to-new");
    assert_eq!(
        f["breaks_under"],
        serde_json::json!(["any-order", "server-first"])
    );
    // The field's line, not the struct's (3).
    assert_eq!(f["location"], "after.rs:5");
    let text = report.text();
    assert!(text.contains("error[range-narrowed]: compact wire, c2s: hurts an old client sending to a new server; breaks under any-order, server-first"), "{text}");
    assert!(text.contains("--> after.rs:5"), "{text}");
}

#[test]
fn a_removed_variants_fix_puts_accept_on_the_enum() {
    let dir = cases_dir().join("variant_removed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    insta::assert_snapshot!(report.text());
}

#[test]
fn a_finding_in_a_struct_variant_points_at_its_field() {
    let dir = cases_dir().join("enum_data_variant_changed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    insta::assert_snapshot!(report.text());
}

#[test]
fn a_removed_message_points_at_its_entry_in_the_lock() {
    let dir = cases_dir().join("message_removed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    let f = &report.findings[0];
    assert!(
        f.location.starts_with("tuplet.lock.json:"),
        "{}",
        f.location
    );
}

#[test]
fn a_removed_messages_fix_offers_reserving_its_id_and_name() {
    let dir = cases_dir().join("message_removed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    let text = report.text();
    assert!(
        text.contains(
            "fix: reserve it on the c2s dispatch enum (beside any ids and names already there), \
             so no later message takes it: #[tuplet(dir = \"c2s\", reserved_ids = [2], \
             reserved_names = [\"m:other\"])]"
        ),
        "{text}"
    );
    assert!(text.contains("or accept the removal:"), "{text}");
    assert!(text.contains("accept(rule = \"message-removed\""), "{text}");
    assert!(
        text.contains("rule: `tuplet explain message-removed`"),
        "{text}"
    );
}

#[test]
fn reports_point_at_tuplet_explain_not_at_a_repository_file() {
    let dir = cases_dir().join("range_narrowed");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    let text = report.text();
    assert!(!text.contains("RULES.md"), "{text}");
    assert!(
        text.contains("fix: `tuplet explain range-narrowed` says how to make it safely"),
        "{text}"
    );
    let entry = compat::explain::explain("range-narrowed").unwrap();
    assert!(entry.starts_with("### `range-narrowed`\n"), "{entry}");
    assert!(entry.contains("**Catches**"), "{entry}");
}

#[test]
fn assert_compatible_panics_with_the_readable_report() {
    let tmp = std::env::temp_dir().join(format!("tuplet-compat-{}", std::process::id()));
    let src = tmp.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let dir = cases_dir().join("range_narrowed");
    std::fs::copy(dir.join("before.rs"), src.join("lib.rs")).unwrap();
    let lock_path = tmp.join("tuplet.lock.json");
    let lock = Lock::from_schema(&tuplet_schema::load(&tmp).unwrap());
    std::fs::write(&lock_path, lock.to_json()).unwrap();
    compat::assert_compatible(&tmp, &lock_path, Deploy::AnyOrder);
    std::fs::copy(dir.join("after.rs"), src.join("lib.rs")).unwrap();
    let err =
        std::panic::catch_unwind(|| compat::assert_compatible(&tmp, &lock_path, Deploy::AnyOrder))
            .expect_err("a narrowed range fails");
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("error[range-narrowed]"), "{msg}");
    // Under client-first the narrowing of what clients send is safe.
    compat::assert_compatible(&tmp, &lock_path, Deploy::ClientFirst);
    std::fs::remove_dir_all(&tmp).ok();
}

/// The reference protocol against its committed lock (`tuplet lock` writes it), as users put
/// the check in `cargo test`.
#[test]
fn the_reference_protocol_is_compatible_with_the_committed_lock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    compat::assert_compatible(
        &root.join("examples/village"),
        &root.join("tuplet.lock.json"),
        Deploy::AnyOrder,
    );
}

/// The same, as RULES.md's `cargo test` snippet writes it: the deploy order and the lock from
/// the repository's `tuplet.toml` (found above the crate), budgets included.
#[test]
fn the_reference_protocol_passes_assert_project_compatible() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    compat::project::assert_project_compatible(root.join("examples/village"));
    let project = compat::project::Project::discover(&root.join("examples/village")).unwrap();
    assert_eq!(project.deploy, Deploy::AnyOrder);
    assert!(project.lock.ends_with("tuplet.lock.json"));
}

/// `accept-unmatched` once pointed at the struct's line: it points at the `accept` key of
/// the stale acceptance, line and column, so an annotation lands on the text to delete.
#[test]
fn accept_unmatched_points_at_the_accept_key_not_the_struct() {
    let dir = cases_dir().join("accept_unmatched");
    let report = compat::check(
        &old_lock(&dir),
        &lock_of(&dir, "after.rs"),
        Deploy::AnyOrder,
    );
    let found: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.rule == rules::ACCEPT_UNMATCHED.name)
        .collect();
    assert_eq!(found.len(), 1, "{}", report.text());
    let source = std::fs::read_to_string(dir.join("after.rs")).unwrap();
    let (line, col) = source
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("accept(").map(|c| (i + 1, c + 1)))
        .expect("the fixture has an accept");
    assert_eq!(found[0].location, format!("after.rs:{line}:{col}"));
    let fix = compat::finding_fix(found[0]).expect("a failing finding has a fix");
    assert!(fix.contains("delete the acceptance"), "{fix}");
    assert!(report
        .text()
        .contains(&format!("  --> after.rs:{line}:{col}\n")));
}

/// Every failing, unaccepted finding of every fixture has a fix, and its text is the
/// body, then that fix, then the rule's pointer: what located notes print.
#[test]
fn every_failing_finding_has_a_fix_and_its_text_is_body_then_fix() {
    let mut checked = 0;
    for case in case_names() {
        let dir = cases_dir().join(&case);
        for deploy in Deploy::ALL {
            let report = compat::check(&old_lock(&dir), &lock_of(&dir, "after.rs"), deploy);
            for f in report.findings.iter().filter(|f| f.fails()) {
                let fix = compat::finding_fix(f).unwrap_or_else(|| panic!("{case}: no fix"));
                let text = compat::finding_text(f);
                let body = compat::finding_body(f);
                assert_eq!(
                    text,
                    format!("{body}  fix: {fix}\n  rule: `tuplet explain {}`\n", f.rule),
                    "{case}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} failing findings checked");
}
