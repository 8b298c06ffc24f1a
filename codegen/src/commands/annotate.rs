//! The output CI tools read, shared by `tuplet compat`, `tuplet lock` and `tuplet gen
//! --check`: each problem as a [`Note`] at a file and line (relative to the repository
//! root), printed as GitHub Actions workflow commands (`::error file=...,line=...::...`), as
//! SARIF 2.1.0, or inside the command's JSON report; and an error that stops a command
//! (exit 2) in the same format as its report.

use std::path::{Component, Path, PathBuf};

use serde_json::json;

use super::base::Repo;
use crate::config::Config;
use crate::exit::Exit;

/// How `compat`, `lock` and `gen --check` print their report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Readable text.
    #[default]
    Text,
    /// JSON, for machines.
    Json,
    /// GitHub Actions workflow commands: an annotation per problem, at its file and line.
    Github,
    /// SARIF 2.1.0 (code scanning).
    Sarif,
}

/// How serious a note is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Fails the command.
    Error,
    /// Reported, passes (an accepted break, a source-API change).
    Notice,
}

/// One problem, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Its severity.
    pub level: Level,
    /// The rule or check (`range-narrowed`, `lock-stale`, `stale-output`, `error`).
    pub rule: String,
    /// One line.
    pub title: String,
    /// The whole message (may span lines).
    pub message: String,
    /// The file, relative to the repository root (or to the current folder outside git).
    pub file: Option<String>,
    /// The 1-based line.
    pub line: Option<usize>,
}

/// Maps paths relative to the config's folder to paths relative to the repository root.
pub struct Paths {
    /// The config's folder relative to the repository root (`/`-joined, empty or ending in
    /// `/`), or its path as given outside git.
    prefix: String,
    /// The schema crate relative to the config's folder.
    krate: PathBuf,
}

impl Paths {
    /// The paths of `config`'s project.
    pub fn of(config: &Config) -> Paths {
        let prefix = match Repo::find(config) {
            Some(r) => r.prefix,
            None => {
                let b = super::base::folder(config);
                let cwd = std::env::current_dir().unwrap_or_default();
                let b = b.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(b);
                if b == Path::new(".") || b.as_os_str().is_empty() {
                    String::new()
                } else {
                    format!("{}/", b.display())
                }
            }
        };
        Paths {
            prefix,
            krate: config.schema.krate.clone(),
        }
    }

    /// A path relative to the config's folder, relative to the repository root.
    pub fn config_relative(&self, rel: &str) -> String {
        normal(&format!("{}{rel}", self.prefix))
    }

    /// A path relative to the schema crate, relative to the repository root.
    pub fn crate_relative(&self, rel: &str) -> String {
        self.config_relative(&format!("{}/{rel}", self.krate.display()))
    }

    /// A finding's location (`src/a.rs:14`, `tuplet.lock.json:30`, `tuplet.toml:6`,
    /// `src/a.rs (removed)`) as a repository-relative file and line. Files named
    /// `config_files` (the lock, the config) are the config's folder's; others the crate's.
    pub fn locate(&self, location: &str, config_files: &[&str]) -> (String, Option<usize>) {
        let location = location.trim_end_matches(" (removed)");
        let (file, line) = match location.rsplit_once(':') {
            Some((f, l)) if l.parse::<usize>().is_ok() => (f, l.parse().ok()),
            _ => (location, None),
        };
        if config_files.contains(&file) {
            (self.config_relative(file), line)
        } else {
            (self.crate_relative(file), line)
        }
    }
}

/// `a/./b/../c` as `a/c`.
fn normal(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for c in Path::new(p).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            Component::Normal(s) => out.push(s.to_str().unwrap_or("")),
            Component::ParentDir => out.push(".."),
            Component::RootDir => out.push(""),
            Component::Prefix(_) => {}
        }
    }
    out.join("/")
}

/// A workflow command's data, escaped as GitHub's runner unescapes it.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The GitHub Actions workflow commands of `notes`, one line each.
pub fn github(notes: &[Note]) -> String {
    let mut s = String::new();
    for n in notes {
        let kind = match n.level {
            Level::Error => "error",
            Level::Notice => "notice",
        };
        let mut props = Vec::new();
        if let Some(f) = &n.file {
            props.push(format!("file={}", escape_property(f)));
        }
        if let Some(l) = n.line {
            props.push(format!("line={l}"));
        }
        props.push(format!("title={}", escape_property(&n.title)));
        s.push_str(&format!(
            "::{kind} {}::{}\n",
            props.join(","),
            escape_data(&n.message)
        ));
    }
    s
}

/// A SARIF 2.1.0 log of `notes`, pretty, with a trailing newline.
pub fn sarif(notes: &[Note]) -> String {
    let mut rules: Vec<&str> = notes.iter().map(|n| n.rule.as_str()).collect();
    rules.sort();
    rules.dedup();
    let results: Vec<_> = notes
        .iter()
        .map(|n| {
            let mut r = json!({
                "ruleId": n.rule,
                "level": match n.level { Level::Error => "error", Level::Notice => "note" },
                "message": { "text": n.message },
            });
            if let Some(f) = &n.file {
                let mut loc = json!({ "artifactLocation": { "uri": f } });
                if let Some(l) = n.line {
                    loc["region"] = json!({ "startLine": l });
                }
                r["locations"] = json!([{ "physicalLocation": loc }]);
            }
            r
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "tuplet",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({ "id": r })).collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

/// Prints `notes` in `format` (github or sarif; text and JSON are each command's own) to
/// stdout.
pub fn print(format: CheckFormat, notes: &[Note]) {
    match format {
        CheckFormat::Github => print!("{}", github(notes)),
        CheckFormat::Sarif => print!("{}", sarif(notes)),
        CheckFormat::Text | CheckFormat::Json => {}
    }
}

/// Reports an error that stops `command` (exit 2) in `format`: text on stderr, or on stdout
/// a JSON object `{command, exit: 2, errors: [{message, file, line}]}`, GitHub `::error`
/// lines, or a SARIF log. Returns [`Exit::BadInput`].
pub fn fail(format: CheckFormat, command: &str, errors: &[Note]) -> Exit {
    match format {
        CheckFormat::Text => {
            for e in errors {
                eprintln!("error: {}", e.message);
            }
        }
        CheckFormat::Json => {
            let list: Vec<_> = errors
                .iter()
                .map(|e| json!({ "message": e.message, "file": e.file, "line": e.line }))
                .collect();
            let v = json!({ "command": command, "exit": 2, "errors": list });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        CheckFormat::Github | CheckFormat::Sarif => print(format, errors),
    }
    Exit::BadInput
}

/// An error note without a place.
pub fn error(command: &str, message: impl Into<String>) -> Note {
    Note {
        level: Level::Error,
        rule: "error".into(),
        title: format!("tuplet {command} could not run"),
        message: message.into(),
        file: None,
        line: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escapes_and_sarif_locates() {
        let n = Note {
            level: Level::Error,
            rule: "len-narrowed".into(),
            title: "len-narrowed: a, b".into(),
            message: "100% wrong\nsecond line".into(),
            file: Some("proto/src/lib.rs".into()),
            line: Some(7),
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
}
