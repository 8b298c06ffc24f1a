//! `delta-lab --help` prints the usage and exits 0; a wrong command says what to write.

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
            "unknown command \"recrod\": write record, frames or time",
        ),
        (&[][..], "no command: write record, frames or time"),
    ] {
        let o = lab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(err.contains("delta-lab --help"), "{err}");
    }
}
