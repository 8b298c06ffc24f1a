//! `tuplet_schema::compat::project::assert_project_compatible`, the `cargo test` form of `tuplet
//! compat`, against the binary: on scratch projects, for each deploy order written in
//! `tuplet.toml`, no change, a widened and a narrowed range and a blown byte budget, the function
//! panics exactly when `tuplet compat` exits nonzero, and its panic carries the report the
//! binary prints.

use std::path::Path;
use std::process::Command;

use tuplet_schema::compat::project::assert_project_compatible;
use tuplet_schema::compat::{assert_compatible, Deploy};

/// A c2s message with a ranged field, a budget and a bounded string: `{range}`, `{budget}`
/// and `{len}` are filled in per case.
const LIB: &str = r#"
/// A move.
#[derive(tuplet::Message)]
#[tuplet(name = "game:move", id = 1, dir = "c2s", budget = {budget})]
pub struct Move {
    #[tuplet(range({range}))]
    pub hp: u8,
    #[tuplet(len(max = {len}))]
    pub note: String,
}
"#;

fn lib(range: &str, budget: u32, len: u32) -> String {
    LIB.replace("{range}", range)
        .replace("{budget}", &budget.to_string())
        .replace("{len}", &len.to_string())
}

/// A project in `root/proj` whose schema crate is `root/proj/game`, locked on `locked`.
fn project(root: &Path, deploy: Option<&str>, locked: &str) {
    let proj = root.join("proj");
    std::fs::create_dir_all(proj.join("game/src")).unwrap();
    std::fs::write(
        proj.join("game/Cargo.toml"),
        "[package]\nname = \"game\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let deploy = deploy
        .map(|d| format!("deploy = \"{d}\"\n"))
        .unwrap_or_default();
    // Keys the check does not read (the CLI's) are fine.
    let toml = format!("{deploy}[schema]\ncrate = \"game\"\n[outputs]\nts = \"out/ts\"\n");
    std::fs::write(proj.join("tuplet.toml"), toml).unwrap();
    std::fs::write(proj.join("game/src/lib.rs"), locked).unwrap();
    let o = tuplet(&proj, &["lock"]);
    assert_eq!(o.0, Some(0), "{}", o.1);
}

/// `tuplet ARGS` in `dir`: the exit code and stdout + stderr.
fn tuplet(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tuplet"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), text)
}

/// `assert_project_compatible(start)`: `None` when it passes, else its panic message.
fn assert_project(start: &Path) -> Option<String> {
    let start = start.to_path_buf();
    std::panic::catch_unwind(move || assert_project_compatible(&start))
        .err()
        .map(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| e.downcast_ref::<&str>().unwrap_or(&"").to_string())
        })
}

#[test]
fn agrees_with_tuplet_compat_under_every_deploy_order() {
    let locked = lib("0, 100", 64, 20);
    let cases = [
        ("unchanged", locked.clone()),
        ("range widened", lib("0, 200", 64, 20)),
        ("range narrowed", lib("0, 50", 64, 20)),
        ("over budget", lib("0, 100", 16, 20)),
    ];
    let mut counts = (0, 0);
    for deploy in [
        None,
        Some("any-order"),
        Some("server-first"),
        Some("client-first"),
    ] {
        for (name, now) in &cases {
            let tmp = tempfile::tempdir().unwrap();
            project(tmp.path(), deploy, &locked);
            let proj = tmp.path().join("proj");
            std::fs::write(proj.join("game/src/lib.rs"), now).unwrap();
            let (code, cli) = tuplet(&proj, &["compat"]);
            // From the crate's own folder, as `env!("CARGO_MANIFEST_DIR")` gives it.
            let panic = assert_project(&proj.join("game"));
            let at = format!("{name} under {deploy:?}");
            match (code, &panic) {
                (Some(0), None) => counts.0 += 1,
                (Some(1), Some(msg)) => {
                    counts.1 += 1;
                    // The panic carries the report the binary prints (its paths are the
                    // same files, reached from another folder).
                    let summary = cli.lines().last().unwrap();
                    assert!(msg.contains(summary), "{at}: {msg}\n---\n{cli}");
                    for rule in [
                        "error[range-narrowed]",
                        "error[range-widened]",
                        "budget-exceeded: ",
                    ] {
                        assert_eq!(msg.contains(rule), cli.contains(rule), "{at}: {rule}");
                    }
                }
                _ => panic!("{at}: tuplet compat exit {code:?}, assert panicked: {panic:?}\n{cli}"),
            }
        }
    }
    eprintln!("{} passed and {} failed alike", counts.0, counts.1);
    // Widening what clients send breaks unless the server deploys first, narrowing it unless
    // clients do (no order is any-order: 3 settings each); the budget breaks always.
    assert_eq!(counts, (16 - 3 - 3 - 4, 3 + 3 + 4));
}

#[test]
fn the_deploy_order_comes_from_tuplet_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let locked = lib("0, 100", 64, 20);
    project(tmp.path(), Some("client-first"), &locked);
    let proj = tmp.path().join("proj");
    std::fs::write(proj.join("game/src/lib.rs"), lib("0, 50", 64, 20)).unwrap();
    assert_eq!(
        assert_project(&proj),
        None,
        "client-first: the narrowing is safe"
    );
    // The explicit-order form judges by the order it is given.
    let (krate, lock) = (proj.join("game"), proj.join("tuplet.lock.json"));
    assert_compatible(&krate, &lock, Deploy::ClientFirst);
    let r = std::panic::catch_unwind(|| assert_compatible(&krate, &lock, Deploy::AnyOrder));
    assert!(r.is_err(), "any-order: the narrowing breaks");
    // An invalid order is the config's error, named as the CLI names it.
    std::fs::write(
        proj.join("tuplet.toml"),
        "deploy = \"servers-first\"\n[schema]\ncrate = \"game\"\n",
    )
    .unwrap();
    let msg = assert_project(&proj).expect("a bad deploy order fails");
    assert!(msg.contains("tuplet.toml"), "{msg}");
    assert!(
        msg.contains("server-first"),
        "lists the valid orders: {msg}"
    );
    let (code, cli) = tuplet(&proj, &["compat"]);
    assert_eq!(code, Some(2), "{cli}");
}

#[test]
fn the_explicit_order_form_checks_budgets_too() {
    let tmp = tempfile::tempdir().unwrap();
    project(tmp.path(), None, &lib("0, 100", 64, 20));
    let proj = tmp.path().join("proj");
    std::fs::write(proj.join("game/src/lib.rs"), lib("0, 100", 16, 20)).unwrap();
    let (krate, lock) = (proj.join("game"), proj.join("tuplet.lock.json"));
    let r = std::panic::catch_unwind(|| assert_compatible(&krate, &lock, Deploy::AnyOrder));
    let msg = r.err().and_then(|e| e.downcast_ref::<String>().cloned());
    let msg = msg.expect("over budget fails");
    assert!(msg.contains("budget-exceeded: "), "{msg}");
    assert!(
        msg.contains("NOT compatible; 0 breaking, 0 accepted, 0 note(s), 1 over budget"),
        "{msg}"
    );
}

#[test]
fn no_tuplet_toml_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let msg = assert_project(tmp.path()).expect("no config fails");
    assert!(msg.contains("tuplet.toml not found in"), "{msg}");
}

#[test]
fn a_switch_of_deploy_fails_both_until_acknowledged() {
    let tmp = tempfile::tempdir().unwrap();
    let locked = lib("0, 100", 64, 20);
    project(tmp.path(), Some("any-order"), &locked);
    let proj = tmp.path().join("proj");
    let toml = proj.join("tuplet.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("any-order", "client-first")).unwrap();
    let (code, cli) = tuplet(&proj, &["compat"]);
    assert_eq!(code, Some(1), "{cli}");
    assert!(cli.contains("error[deploy-changed]"), "{cli}");
    let panic = assert_project(&proj.join("game")).expect("the switch fails the assert too");
    assert!(panic.contains("error[deploy-changed]"), "{panic}");
    let ack = "accept-deploy = { was = \"any-order\", now = \"client-first\", reason = \"t\" }\n";
    std::fs::write(
        &toml,
        text.replace(
            "deploy = \"any-order\"\n",
            &format!("deploy = \"client-first\"\n{ack}"),
        ),
    )
    .unwrap();
    let (code, cli) = tuplet(&proj, &["compat"]);
    assert_eq!(code, Some(0), "{cli}");
    assert_eq!(assert_project(&proj.join("game")), None);
}
