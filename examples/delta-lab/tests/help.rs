//! `delta-lab --help` prints the usage and exits 0; a wrong command says what to write;
//! `loss` on a short recording prints its table with no mirror error.

use std::process::Command;

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_delta-lab"))
        .args(args)
        .output()
        .expect("delta-lab runs")
}

#[test]
fn help_prints_the_usage() {
    for flag in ["--help", "-h", "help"] {
        let o = lab(&[flag]);
        assert!(o.status.success(), "{flag}: {o:?}");
        let text = String::from_utf8(o.stdout).unwrap();
        for line in [
            "Usage:",
            "delta-lab record",
            "delta-lab frames",
            "delta-lab time",
            "delta-lab loss",
        ] {
            assert!(text.contains(line), "{flag}: {text}");
        }
    }
}

#[test]
fn a_wrong_command_says_what_to_write() {
    for (args, want) in [
        (
            &["recrod"][..],
            "unknown command \"recrod\": write record, frames, time or loss",
        ),
        (&[][..], "no command: write record, frames, time or loss"),
    ] {
        let o = lab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(err.contains("delta-lab --help"), "{err}");
    }
}

#[test]
fn loss_prints_its_table_with_no_mirror_error() {
    let dir = std::env::temp_dir().join(format!("delta-lab-loss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    let rec = lab(&["record", "--seed", "3", "--ticks", "60"]);
    assert!(rec.status.success(), "{rec:?}");
    std::fs::write(&path, rec.stdout).unwrap();
    let o = lab(&["loss", path.to_str().unwrap(), "--rtt-ticks", "4"]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    for row in ["| 0% |", "| 2% |", "| 5% |"] {
        let line = text.lines().find(|l| l.starts_with(row)).expect(row);
        assert!(line.ends_with("| 0 |"), "mirror errors: {line}");
    }
}
