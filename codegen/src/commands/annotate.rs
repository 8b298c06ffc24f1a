//! The one finding model and its one printer, shared by `tuplet compat`, `tuplet lock` and
//! `tuplet gen --check`: each problem is a [`Note`] (rule, file and line relative to the
//! repository root, column, message, fix), and [`render`] prints a list of them in every
//! format: the readable report, JSON, GitHub Actions workflow commands (`::error
//! file=...,line=...::...`), SARIF 2.1.0 and JUnit XML. An error that stops a command
//! (exit 2) is a note too, printed the same way.

use std::path::{Component, Path, PathBuf};

use serde_json::json;
use tuplet_schema::compat::{explain, rules};

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
    /// JUnit XML: a test case per finding, for CI systems other than GitHub.
    Junit,
}

/// How serious a note is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Level {
    /// Fails the command.
    #[default]
    Error,
    /// Reported, passes (an accepted break, a source-API change).
    Notice,
}

/// One finding, located: what every format prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// The 1-based column, when known.
    pub column: Option<usize>,
    /// What to change, in one line, when the message does not end with it.
    pub fix: Option<String>,
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
        let (file, line, _) = self.locate_at(location, config_files);
        (file, line)
    }

    /// [`Paths::locate`] of a `file:line:column` location too: the file, line and column.
    pub fn locate_at(
        &self,
        location: &str,
        config_files: &[&str],
    ) -> (String, Option<usize>, Option<usize>) {
        let location = location.trim_end_matches(" (removed)");
        let number = |s: &str| s.parse::<usize>().ok();
        let (file, line, column) = match location.rsplit_once(':') {
            Some((rest, c)) if number(c).is_some() => match rest.rsplit_once(':') {
                Some((f, l)) if number(l).is_some() => (f, number(l), number(c)),
                _ => (rest, number(c), None),
            },
            _ => (location, None, None),
        };
        if config_files.contains(&file) {
            (self.config_relative(file), line, column)
        } else {
            (self.crate_relative(file), line, column)
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
        if let (Some(_), Some(c)) = (n.line, n.column) {
            props.push(format!("col={c}"));
        }
        // The title starts with the rule, so an annotation names it whatever its title.
        let title = match n.title.starts_with(&n.rule) {
            true => n.title.clone(),
            false => format!("{}: {}", n.rule, n.title),
        };
        props.push(format!("title={}", escape_property(&title)));
        s.push_str(&format!(
            "::{kind} {}::{}\n",
            props.join(","),
            escape_data(whole(n).trim_end())
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
                "message": { "text": whole(n).trim_end() },
            });
            if let Some(f) = &n.file {
                let mut loc = json!({ "artifactLocation": { "uri": f } });
                if let Some(l) = n.line {
                    loc["region"] = json!({ "startLine": l });
                    if let Some(c) = n.column {
                        loc["region"]["startColumn"] = json!(c);
                    }
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

/// The readable report of `notes`: each one [`whole`].
pub fn text(notes: &[Note]) -> String {
    notes.iter().map(whole).collect()
}

/// One note as a reader takes it in: its message, then its fix when it has one, and after a
/// fix the rule's `tuplet explain` pointer when the rule has an entry and the message does
/// not already give it on a `rule:` line.
pub fn whole(n: &Note) -> String {
    let mut s = format!("{}\n", n.message.trim_end());
    if let Some(fix) = &n.fix {
        s.push_str(&format!("  fix: {fix}\n"));
        if rules::by_name(&n.rule).is_some() && !n.message.contains("\n  rule: ") {
            s.push_str(&format!("  rule: {}\n", explain::pointer(&n.rule)));
        }
    }
    s
}

/// The JSON list of `notes`: `[{level, rule, title, file, line, column, message, fix}]`.
pub fn json_list(notes: &[Note]) -> serde_json::Value {
    let list: Vec<_> = notes
        .iter()
        .map(|n| {
            json!({
                "level": match n.level { Level::Error => "error", Level::Notice => "notice" },
                "rule": n.rule, "title": n.title, "file": n.file, "line": n.line,
                "column": n.column, "message": n.message, "fix": n.fix,
            })
        })
        .collect();
    serde_json::Value::Array(list)
}

/// `&`, `<`, `>` and `"` as XML entities.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A JUnit XML report of `notes` for `command`: a test case per note (a failure for an
/// error), one passing case when there is none.
pub fn junit(command: &str, notes: &[Note]) -> String {
    let failures = notes.iter().filter(|n| n.level == Level::Error).count();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&format!(
        "<testsuites name=\"tuplet\">\n  <testsuite name=\"tuplet {}\" tests=\"{}\" failures=\"{failures}\">\n",
        xml(command),
        notes.len().max(1)
    ));
    if notes.is_empty() {
        s.push_str(&format!(
            "    <testcase classname=\"tuplet\" name=\"{}\"/>\n",
            xml(command)
        ));
    }
    for n in notes {
        let place = match (&n.file, n.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            (Some(f), None) => f.clone(),
            _ => "(no file)".into(),
        };
        let class = n.file.clone().unwrap_or_else(|| "tuplet".into());
        let name = format!("{} at {place}", n.rule);
        s.push_str(&format!(
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
            xml(&class),
            xml(&name),
            xml(&class)
        ));
        match n.level {
            Level::Error => s.push_str(&format!(
                ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                xml(&n.rule),
                xml(&n.title),
                xml(&text(std::slice::from_ref(n)))
            )),
            Level::Notice => s.push_str(&format!(
                ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                xml(&text(std::slice::from_ref(n)))
            )),
        }
    }
    s.push_str("  </testsuite>\n</testsuites>\n");
    s
}

/// The one printer: `notes` of `command` in `format`. Text is [`text`]; JSON an object
/// `{command, passes, findings}` ([`json_list`]); GitHub, SARIF and JUnit their own.
pub fn render(format: CheckFormat, command: &str, notes: &[Note]) -> String {
    match format {
        CheckFormat::Text => text(notes),
        CheckFormat::Json => {
            let passes = notes.iter().all(|n| n.level != Level::Error);
            let v = json!({ "command": command, "passes": passes, "findings": json_list(notes) });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        CheckFormat::Github => github(notes),
        CheckFormat::Sarif => sarif(notes),
        CheckFormat::Junit => junit(command, notes),
    }
}

/// Prints `notes` in `format` to stdout: [`render`] for GitHub, SARIF and JUnit (text and
/// JSON reports carry more than the notes, and each command prints them itself through
/// [`text`] and [`json_list`]).
pub fn print(format: CheckFormat, command: &str, notes: &[Note]) {
    match format {
        CheckFormat::Text | CheckFormat::Json => {}
        _ => print!("{}", render(format, command, notes)),
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
        _ => print(format, command, errors),
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
        ..Note::default()
    }
}

#[cfg(test)]
mod tests;
