//! `--help` on every script of `scripts/` that a person runs: exit 0 and the script's own
//! header (its usage) on stdout, without doing anything else. The binaries have their own
//! tests (`tuplet`: codegen/tests/cli_args.rs; `delta-lab`: examples/delta-lab/tests/help.rs).

use std::path::Path;
use std::process::Command;

#[test]
fn every_script_prints_its_usage_on_help() {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    for (script, first) in [
        ("bench", "Runs the benchmarks outside the test command"),
        (
            "random-schemas",
            "The long run of the random-schema property test",
        ),
        (
            "own-protocol",
            "Follows the guide's \"Your own protocol\" chapter",
        ),
        ("test", "Runs every test of tuplet on a clean clone"),
        (
            "architecture-metrics",
            "Counts the numbers ARCHITECTURE.md quotes",
        ),
        ("check-links", "Checks every relative link"),
    ] {
        for flag in ["--help", "-h"] {
            let o = Command::new(scripts.join(script))
                .arg(flag)
                .output()
                .unwrap_or_else(|e| panic!("{script}: {e}"));
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "{script} {flag}: {o:?}");
            assert!(out.starts_with(first), "{script} {flag}: {out}");
            assert!(!out.contains("#!/usr/bin"), "{script} {flag}: {out}");
            assert!(
                o.stderr.is_empty(),
                "{script} {flag}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}
