//! `scripts/bench` rewrites only its own sections of BENCHMARKS.md: run on a scratch copy
//! with a fake part, it replaces that part's section and keeps the rest, and it refuses
//! (changing nothing) when the file holds text outside every section, which it would drop.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch repository: `scripts/bench`, one part (`10-fake.sh`) printing `body`, and
/// BENCHMARKS.md holding `benchmarks`.
fn scratch(name: &str, body: &str, benchmarks: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("scripts/bench.d")).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    fs::copy(repo.join("scripts/bench"), root.join("scripts/bench")).unwrap();
    let part = root.join("scripts/bench.d/10-fake.sh");
    fs::write(&part, format!("#!/bin/sh\nprintf '%s\\n' '{body}'\n")).unwrap();
    Command::new("chmod").arg("+x").arg(&part).status().unwrap();
    fs::write(root.join("BENCHMARKS.md"), benchmarks).unwrap();
    root
}

fn bench(root: &Path) -> Output {
    Command::new(root.join("scripts/bench"))
        .arg("fake")
        .output()
        .unwrap()
}

const HEAD: &str = "# Benchmarks\n\nWritten by hand, above the sections.\n";
const OLD: &str = "<!-- bench:fake -->\n## Fake\nold\n<!-- /bench:fake -->\n";

#[test]
fn bench_replaces_its_section_and_keeps_the_head() {
    let root = scratch(
        "bench-keeps-head",
        "## Fake\nnew row",
        &format!("{HEAD}\n{OLD}"),
    );
    let o = bench(&root);
    assert!(o.status.success(), "{o:?}");
    let text = fs::read_to_string(root.join("BENCHMARKS.md")).unwrap();
    assert!(text.starts_with(HEAD), "{text}");
    assert!(
        text.contains("<!-- bench:fake -->\n## Fake\nnew row\n"),
        "{text}"
    );
    assert!(!text.contains("old"), "{text}");
    assert!(text.ends_with("<!-- /bench:fake -->\n"), "{text}");
}

#[test]
fn bench_refuses_to_drop_text_outside_the_sections() {
    let before = format!("{HEAD}\n{OLD}\nA paragraph written by hand after the section.\n");
    let root = scratch("bench-keeps-stray", "## Fake\nnew row", &before);
    let o = bench(&root);
    assert!(!o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("text outside"), "{err}");
    assert!(err.contains("A paragraph written by hand"), "{err}");
    assert_eq!(
        fs::read_to_string(root.join("BENCHMARKS.md")).unwrap(),
        before
    );
}
