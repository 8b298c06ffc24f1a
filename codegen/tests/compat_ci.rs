//! `tuplet compat` and `tuplet lock --check` as CI runs them, on the reference protocol: it
//! passes under each of the three deploy orders (a switch from the order its lock records
//! acknowledged with `accept-deploy`, as RULES.md asks), the committed lock is what `tuplet
//! lock` writes, and the machine formats (JSON, GitHub annotations, exit-2 errors) say so.
//! The pull-request workflow against a git base is `scripts/compat-workflow`.

use std::path::{Path, PathBuf};
use std::process::Output;

use tuplet_schema::compat::{self, Deploy, Lock};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn tuplet(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(args)
        .output()
        .expect("tuplet runs")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// A config in `dir` naming the reference protocol's crate, with `deploy` and `extra` keys.
fn config(dir: &Path, deploy: Deploy, extra: &str) -> PathBuf {
    let path = dir.join("tuplet.toml");
    let krate = root().join("examples/village");
    let body = format!(
        "deploy = \"{}\"\n{extra}\n[schema]\ncrate = {:?}\n",
        deploy.as_str(),
        krate.to_string_lossy()
    );
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn the_reference_protocol_passes_under_all_three_deploy_orders() {
    let lock_path = root().join("tuplet.lock.json");
    let lock = compat::read_lock(&lock_path).unwrap();
    assert_eq!(
        lock.deploy,
        Some(Deploy::AnyOrder),
        "the lock records its order"
    );
    let schema = tuplet_schema::load(&root().join("examples/village")).unwrap();
    let new = Lock::from_schema(&schema);
    let tmp = tempfile::tempdir().unwrap();
    let lock_arg = lock_path.to_string_lossy().into_owned();
    for deploy in Deploy::ALL {
        // The rules with the source's acceptances, under this order.
        let r = compat::check(&lock, &new, deploy);
        assert!(r.compatible, "{}:\n{}", deploy.as_str(), r.text());
        // The CLI: a switch from the lock's any-order acknowledged.
        let ack = if deploy == Deploy::AnyOrder {
            String::new()
        } else {
            format!(
                "accept-deploy = {{ was = \"any-order\", now = \"{}\", reason = \"test\" }}",
                deploy.as_str()
            )
        };
        let cfg = config(tmp.path(), deploy, &ack);
        let cfg_arg = cfg.to_string_lossy().into_owned();
        let o = tuplet(&["compat", "--config", &cfg_arg, "--lock", &lock_arg]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}:\n{}",
            deploy.as_str(),
            text(&o)
        );
        assert!(
            text(&o).contains(&format!("tuplet compat ({}): compatible", deploy.as_str())),
            "{}",
            text(&o)
        );
        if deploy != Deploy::AnyOrder {
            // Unacknowledged, the switch fails, at `deploy`'s line.
            let cfg = config(tmp.path(), deploy, "");
            let cfg_arg = cfg.to_string_lossy().into_owned();
            let o = tuplet(&[
                "compat", "--config", &cfg_arg, "--lock", &lock_arg, "--format", "json",
            ]);
            assert_eq!(o.status.code(), Some(1), "{}", text(&o));
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let f = &v["findings"][0];
            assert_eq!(f["rule"], "deploy-changed", "{v}");
            assert_eq!(f["location"], "tuplet.toml:1", "{v}");
            assert_eq!(
                v["deploy"], "any-order",
                "judged under the lock's order: {v}"
            );
        }
    }
}

#[test]
fn the_committed_lock_is_what_tuplet_lock_writes() {
    let cfg = root().join("tuplet.toml");
    let cfg_arg = cfg.to_string_lossy().into_owned();
    let o = tuplet(&["lock", "--check", "--config", &cfg_arg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["fresh"], true);
    // The lock records the deploy order and the tuplet that last changed it.
    let lock = compat::read_lock(&root().join("tuplet.lock.json")).unwrap();
    assert_eq!(lock.format, compat::lock::FORMAT);
    assert!(lock.tuplet.is_some());
}

#[test]
fn a_stale_lock_and_errors_in_the_chosen_format() {
    let tmp = tempfile::tempdir().unwrap();
    let lock = tmp.path().join("tuplet.lock.json");
    let mut text_lock = std::fs::read_to_string(root().join("tuplet.lock.json")).unwrap();
    text_lock = text_lock.replacen(
        "\"deploy\": \"any-order\"",
        "\"deploy\": \"server-first\"",
        1,
    );
    std::fs::write(&lock, &text_lock).unwrap();
    let cfg = config(tmp.path(), Deploy::AnyOrder, "");
    let (cfg_arg, lock_arg) = (
        cfg.to_string_lossy().into_owned(),
        lock.to_string_lossy().into_owned(),
    );
    let o = tuplet(&[
        "lock", "--check", "--config", &cfg_arg, "--lock", &lock_arg, "--format", "github",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let line = text_lock
        .lines()
        .position(|l| l.contains("\"deploy\""))
        .unwrap()
        + 1;
    // Outside a git repository the file is the config's folder's path.
    assert!(
        out.contains(&format!("tuplet.lock.json,line={line},title=lock-stale")),
        "{out}"
    );
    // An exit-2 error (the lock merged) in JSON.
    std::fs::write(&lock, format!("<<<<<<< HEAD\n{text_lock}")).unwrap();
    let o = tuplet(&[
        "compat", "--config", &cfg_arg, "--lock", &lock_arg, "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["exit"], 2);
    let msg = v["errors"][0]["message"].as_str().unwrap();
    assert!(msg.contains("this is a merge of two locks"), "{msg}");
}

/// `accept-unmatched` once pointed at the struct and carried no fix in the machine
/// formats: its note points at the `accept` key (line and column) and every format says
/// the fix.
#[test]
fn accept_unmatched_notes_point_at_the_accept_key_and_carry_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let case = root().join("schema/tests/compat_cases/accept_unmatched");
    let krate = tmp.path().join("proto");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::copy(case.join("before.rs"), krate.join("src/lib.rs")).unwrap();
    let cfg = tmp.path().join("tuplet.toml");
    std::fs::write(
        &cfg,
        "deploy = \"any-order\"\n[schema]\ncrate = \"proto\"\n",
    )
    .unwrap();
    let cfg_arg = cfg.to_string_lossy().into_owned();
    let o = tuplet(&["lock", "--config", &cfg_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let after = std::fs::read_to_string(case.join("after.rs")).unwrap();
    std::fs::write(krate.join("src/lib.rs"), &after).unwrap();
    let (line, col) = after
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("accept(").map(|c| (i + 1, c + 1)))
        .unwrap();
    let o = tuplet(&["compat", "--config", &cfg_arg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let notes = v["notes"].as_array().expect("notes");
    let note = notes
        .iter()
        .find(|n| n["rule"] == "accept-unmatched")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(note["line"], line, "{note:#}");
    assert_eq!(note["column"], col, "{note:#}");
    assert!(
        note["file"].as_str().unwrap().ends_with("src/lib.rs"),
        "{note:#}"
    );
    let fix = note["fix"].as_str().expect("a fix");
    assert!(fix.contains("delete the acceptance"), "{fix}");
    let o = tuplet(&["compat", "--config", &cfg_arg, "--format", "github"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("line={line},col={col},")), "{out}");
    assert!(out.contains("%0A  fix: delete the acceptance"), "{out}");
    let o = tuplet(&["compat", "--config", &cfg_arg]);
    let out = text(&o);
    assert_eq!(
        out.matches("  fix: delete the acceptance").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains(&format!("--> src/lib.rs:{line}:{col}")),
        "{out}"
    );
}
