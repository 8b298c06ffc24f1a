//! Every format prints the same findings: a differential test over the printers, and the
//! escaping and path rules they rely on.

use super::*;

type Key = (String, String, Option<String>, Option<u64>);

/// (level, rule, file, line) of each finding a format printed, in order.
fn keys(format: CheckFormat, out: &str) -> Vec<Key> {
    let level = |error: bool| if error { "error" } else { "notice" }.to_string();
    match format {
        CheckFormat::Json => {
            let v: serde_json::Value = serde_json::from_str(out).unwrap();
            let list = v["findings"].as_array().unwrap().iter();
            list.map(|f| {
                let file = f["file"].as_str().map(str::to_string);
                let rule = f["rule"].as_str().unwrap().to_string();
                (
                    f["level"].as_str().unwrap().to_string(),
                    rule,
                    file,
                    f["line"].as_u64(),
                )
            })
            .collect()
        }
        CheckFormat::Sarif => {
            let v: serde_json::Value = serde_json::from_str(out).unwrap();
            let list = v["runs"][0]["results"].as_array().unwrap().iter();
            list.map(|r| {
                let loc = &r["locations"][0]["physicalLocation"];
                let file = loc["artifactLocation"]["uri"].as_str().map(str::to_string);
                let rule = r["ruleId"].as_str().unwrap().to_string();
                let error = r["level"] == "error";
                (
                    level(error),
                    rule,
                    file,
                    loc["region"]["startLine"].as_u64(),
                )
            })
            .collect()
        }
        CheckFormat::Github => out
            .lines()
            .map(|l| {
                let (kind, rest) = l[2..].split_once(' ').unwrap();
                let props = rest.split("::").next().unwrap();
                let prop = |k: &str| {
                    props
                        .split(',')
                        .find_map(|p| p.strip_prefix(k))
                        .map(str::to_string)
                };
                let title = prop("title=").unwrap();
                let rule = title.split([' ', '%']).next().unwrap().to_string();
                let line = prop("line=").map(|l| l.parse().unwrap());
                (kind.to_string(), rule, prop("file="), line)
            })
            .collect(),
        CheckFormat::Junit => out
            .split("<testcase ")
            .skip(1)
            .map(|case| {
                let name = case
                    .split(" name=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                let (rule, place) = name.split_once(" at ").unwrap();
                let (file, line) = match place.rsplit_once(':') {
                    Some((f, l)) => (Some(f.to_string()), l.parse().ok()),
                    None if place == "(no file)" => (None, None),
                    None => (Some(place.to_string()), None),
                };
                (
                    level(case.contains("<failure")),
                    rule.to_string(),
                    file,
                    line,
                )
            })
            .collect(),
        CheckFormat::Text => unreachable!(),
    }
}

/// The one printer: one finding list through every format, each carrying the same
/// findings (level, rule, file, line) in the same order, and the text every message.
#[test]
fn every_format_prints_the_same_findings() {
    let notes = vec![
        Note {
            level: Level::Error,
            rule: "len-narrowed".into(),
            title: "len-narrowed at crate::Say, `text`".into(),
            message: "error[len-narrowed]: <text> & 100% \"short\"\n  --> proto/src/lib.rs:7"
                .into(),
            file: Some("proto/src/lib.rs".into()),
            line: Some(7),
            column: Some(5),
            fix: None,
        },
        Note {
            level: Level::Notice,
            rule: "field-renamed".into(),
            title: "field-renamed at crate::Say".into(),
            message: "note[field-renamed]: a, b".into(),
            file: Some("game/proto/src/say.rs".into()),
            line: Some(12),
            ..Note::default()
        },
        Note {
            level: Level::Error,
            rule: "lock-stale".into(),
            title: "lock-stale: run `tuplet lock`".into(),
            message: "tuplet.lock.json is not what `tuplet lock` writes".into(),
            file: Some("tuplet.lock.json".into()),
            line: None,
            fix: Some("run `tuplet lock` and commit the lock".into()),
            ..Note::default()
        },
        error("compat", "no such ref"),
    ];
    let expected: Vec<Key> = notes
        .iter()
        .map(|n| {
            let level = if n.level == Level::Error {
                "error"
            } else {
                "notice"
            };
            let line = n.line.map(|l| l as u64);
            (level.to_string(), n.rule.clone(), n.file.clone(), line)
        })
        .collect();
    for format in [
        CheckFormat::Json,
        CheckFormat::Sarif,
        CheckFormat::Github,
        CheckFormat::Junit,
    ] {
        let out = render(format, "compat", &notes);
        assert_eq!(keys(format, &out), expected, "{format:?}:\n{out}");
    }
    let text = render(CheckFormat::Text, "compat", &notes);
    let mut at = 0;
    for n in &notes {
        let found = text[at..]
            .find(&n.message)
            .unwrap_or_else(|| panic!("{text}"));
        at += found + n.message.len();
    }
    assert!(
        text.contains("  fix: run `tuplet lock` and commit the lock"),
        "{text}"
    );
    // An empty list: JSON passes, JUnit still holds one passing case, GitHub nothing.
    assert!(render(CheckFormat::Json, "compat", &[]).contains("\"passes\": true"));
    assert!(render(CheckFormat::Junit, "compat", &[]).contains("tests=\"1\" failures=\"0\""));
    assert_eq!(render(CheckFormat::Github, "compat", &[]), "");
}

#[test]
fn github_escapes_and_sarif_locates() {
    let n = Note {
        level: Level::Error,
        rule: "len-narrowed".into(),
        title: "len-narrowed: a, b".into(),
        message: "100% wrong\nsecond line".into(),
        file: Some("proto/src/lib.rs".into()),
        line: Some(7),
        ..Note::default()
    };
    assert_eq!(
        github(std::slice::from_ref(&n)),
        "::error file=proto/src/lib.rs,line=7,title=len-narrowed%3A a%2C b::100%25 wrong%0Asecond line\n"
    );
    let v: serde_json::Value = serde_json::from_str(&sarif(&[n])).unwrap();
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "proto/src/lib.rs");
    assert_eq!(loc["region"]["startLine"], 7);
    assert_eq!(normal("a/./b/../c"), "a/c");
}
