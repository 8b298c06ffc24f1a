//! `tuplet lock` and `tuplet compat`: the compatibility lock and the check against it
//! (RULES.md). The logic is `tuplet_schema::compat`; this file reads the config, the schema
//! and the lock (or the base, `--against`), prints, writes, and picks the exit code.
//!
//! Exit codes: 0 compatible (lock written, or fresh with `--check`); 1 a change breaks peers
//! under the deploy order and is not accepted, an acceptance matches nothing, a budget is
//! exceeded, or (`lock --check`) the lock is not what `tuplet lock` writes (`lock` writes
//! nothing); 2 unreadable input (config, schema, lock, base) or bad arguments.
//!
//! `tuplet lock` overwrites only a tuplet lock: one it reads, or with `--restart` one it
//! cannot read but that is a tuplet lock (another format); any other file is refused.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{json, Value};
use tuplet_schema::compat::{self, Lock, Report};

use super::annotate::{self, CheckFormat, Level, Note};
use super::project::Project;
use super::{base, budget};
use crate::config::Config;
use crate::exit::Exit;

/// `tuplet lock`.
#[derive(Debug, Args)]
pub struct LockArgs {
    /// Write nothing; exit 1 when the lock is not what `tuplet lock` writes (stale, edited by
    /// hand, or a break `tuplet lock` would refuse).
    #[arg(long, conflicts_with = "restart")]
    pub check: bool,
    /// Start the lock over from the schema as it is (the history is kept); needs `--reason`.
    #[arg(long)]
    pub restart: bool,
    /// Why the lock starts over; every later `tuplet compat` prints it.
    #[arg(long, value_name = "TEXT", requires = "restart")]
    pub reason: Option<String>,
    /// The report's format (a refusal, `--check`'s finding, an error that stops the command).
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// The lock file (default: tuplet.lock.json beside tuplet.toml).
    #[arg(long, value_name = "PATH")]
    pub lock: Option<PathBuf>,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// `tuplet compat`.
#[derive(Debug, Args)]
pub struct CompatArgs {
    /// The report's format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Judge against a base instead of the lock in the working tree: a git ref (`origin/main`,
    /// a tag, a commit), whose lock, `deploy` and schema are read with `git show`, or a lock
    /// file written `path:FILE` (a file named like a ref is never read in its place).
    #[arg(long, value_name = "REF|path:FILE")]
    pub against: Option<String>,
    /// The lock file (default: tuplet.lock.json beside tuplet.toml).
    #[arg(long, value_name = "PATH")]
    pub lock: Option<PathBuf>,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// The lock file: `explicit`, else tuplet.lock.json beside the config.
pub fn lock_path(config: &Config, explicit: Option<&Path>) -> PathBuf {
    match explicit {
        Some(p) => p.to_path_buf(),
        None => config.base.join(compat::lock::FILE_NAME),
    }
}

/// The lock `tuplet lock` writes: the outcome, or the exit when it refuses or cannot run.
enum Next {
    /// The lock's text, and the existing file's text if any.
    Write(Box<Lock>, Option<String>),
    /// A refusal (exit 1), with the report.
    Refused(Box<Report>),
}

/// What `tuplet lock` would write, without writing.
fn next_lock(p: &Project, args: &LockArgs, path: &Path, command: &str) -> Result<Next, Exit> {
    let format = args.format;
    let new = Lock::from_schema(&p.schema);
    let current = std::fs::read_to_string(path).ok();
    let old = if path.exists() {
        match compat::read_lock(path) {
            Ok(l) => Some(l),
            Err(e) if args.restart && is_a_lock(path) => {
                eprintln!("warning: {e}; starting over without its history");
                None
            }
            Err(e) if args.restart => {
                let msg = format!(
                    "{e}\n{} is not a tuplet lock (a JSON object with `format` and \
                     `messages`), and tuplet overwrites only its own lock: move the file away, \
                     or name another with `--lock PATH`",
                    path.display()
                );
                return Err(annotate::fail(
                    format,
                    command,
                    &[annotate::error(command, msg)],
                ));
            }
            Err(e) => {
                return Err(annotate::fail(
                    format,
                    command,
                    &[annotate::error(command, e.to_string())],
                ))
            }
        }
    } else {
        None
    };
    let mut next = if args.restart {
        let reason = args.reason.as_deref().unwrap_or("").trim();
        if reason.is_empty() {
            let msg = "`tuplet lock --restart` needs `--reason \"...\"`: the lock keeps it and \
                       every later `tuplet compat` prints it";
            return Err(annotate::fail(
                format,
                command,
                &[annotate::error(command, msg)],
            ));
        }
        let mut n = compat::restart(old.as_ref(), &new, reason);
        n.deploy = Some(p.config.deploy);
        n
    } else if let Some(old) = &old {
        let was = old.deploy.unwrap_or(p.config.deploy);
        match compat::relock_with(old, &new, &p.judge(was)) {
            Ok((next, report)) => {
                if !report.findings.is_empty() && format == CheckFormat::Text && !args.check {
                    eprint!("{}", report.text());
                }
                next
            }
            Err(report) => return Ok(Next::Refused(Box::new(report))),
        }
    } else {
        let mut n = new;
        n.deploy = Some(p.config.deploy);
        n
    };
    // The version of tuplet that last changed the lock: kept while the content is the same.
    next.tuplet = old.as_ref().and_then(|o| o.tuplet.clone());
    if old.as_ref().is_none_or(|o| o.to_json() != next.to_json()) {
        next.tuplet = Some(env!("CARGO_PKG_VERSION").to_string());
    }
    Ok(Next::Write(Box::new(next), current))
}

/// `tuplet lock`: writes the lock, refusing unaccepted breaks and dropped entries; with
/// `--check`, writes nothing and fails when the lock is not what it would write.
pub fn lock_command(args: &LockArgs) -> Exit {
    let command = if args.check { "lock --check" } else { "lock" };
    let format = args.format;
    let p = match Project::open(args.config.as_deref(), format, command) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let path = lock_path(&p.config, args.lock.as_deref());
    let lock_name = base::lock_name(&path);
    let (next, current) = match next_lock(&p, args, &path, command) {
        Ok(Next::Write(n, c)) => (n, c),
        Ok(Next::Refused(report)) => {
            let hint = format!(
                "tuplet {command}: `tuplet lock` refuses; {} unchanged. Make the change safely \
                 (RULES.md), or accept each break in the source with the `accept(...)` its \
                 finding prints. (`tuplet lock --restart` rewrites the lock, but CI judges a \
                 pull request against the base's lock, so a restart does not make a break \
                 pass there.)",
                path.display()
            );
            let notes: Vec<Note> = report
                .findings
                .iter()
                .map(|f| p.note(f, &lock_name, false))
                .collect();
            match format {
                CheckFormat::Text => {
                    eprint!("{}", report.text());
                    eprintln!("{hint}");
                }
                CheckFormat::Json => {
                    let mut v: Value = serde_json::to_value(&report).unwrap_or_default();
                    v["command"] = json!(command);
                    v["notes"] = annotate::json_list(&notes);
                    v["refused"] = json!(hint);
                    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
                }
                _ => {
                    annotate::print(format, command, &notes);
                    eprintln!("{hint}");
                }
            }
            return Exit::Failed;
        }
        Err(code) => return code,
    };
    let text = next.to_json();
    let messages: usize = next.messages.values().map(|m| m.len()).sum();
    let summary = format!("{messages} message(s), {} type(s)", next.types.len());
    if args.check {
        return super::lock_check::lock_check(
            &p,
            format,
            &path,
            &text,
            current.as_deref(),
            &summary,
        );
    }
    if current.as_deref() == Some(text.as_str()) {
        eprintln!("tuplet lock: {} unchanged ({summary})", path.display());
        return Exit::Ok;
    }
    if let Err(e) = crate::writer::write_atomic(&path, text.as_bytes()) {
        let msg = format!("{}: {e}", path.display());
        return annotate::fail(format, command, &[annotate::error(command, msg)]);
    }
    eprintln!("tuplet lock: wrote {} ({summary})", path.display());
    Exit::Ok
}

/// Whether the file at `path` is a tuplet lock, readable or not by this tuplet: a JSON
/// object with `format` and `messages` (`tuplet lock --restart` overwrites only such a file).
fn is_a_lock(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|v| v.get("format").is_some() && v.get("messages").is_some())
}

/// `tuplet compat`: compares the schema with the lock (or the base `--against` names);
/// prints the report.
pub fn compat_command(args: &CompatArgs) -> Exit {
    let command = "compat";
    let format = args.format;
    let p = match Project::open(args.config.as_deref(), format, command) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let path = lock_path(&p.config, args.lock.as_deref());
    let lock_name = base::lock_name(&path);
    let new = Lock::from_schema(&p.schema);
    let mut base_krate = None;
    let (old, was, against) = match &args.against {
        Some(r) => match base::read(&p.config, r, &lock_name, &p.config_name) {
            Ok(b) => {
                let lock = b.lock.unwrap_or_else(base::empty_lock);
                base_krate = b.krate;
                (lock, b.deploy, Some((b.label, b.schema, b.deploy)))
            }
            Err(e) => return annotate::fail(format, command, &[annotate::error(command, e)]),
        },
        None => match compat::read_lock(&path) {
            Ok(l) => {
                let was = l.deploy.unwrap_or(p.config.deploy);
                (l, was, None)
            }
            Err(e) => {
                return annotate::fail(format, command, &[annotate::error(command, e.to_string())])
            }
        },
    };
    let base_has_lock = !old.messages.is_empty() || !old.types.is_empty();
    let mut report = compat::check_with(&old, &new, &p.judge(was));
    if let Some(was_krate) = &base_krate {
        let moved = p.moves(was_krate);
        report.compatible &= !moved.iter().any(|f| f.fails());
        for f in moved {
            let first_passing = report.findings.iter().position(|g| !g.fails());
            let at = match f.fails() {
                true => 0,
                false => first_passing.unwrap_or(report.findings.len()),
            };
            report.findings.insert(at, f);
        }
    }
    let notes_of = |report: &Report| -> Vec<Note> {
        report
            .findings
            .iter()
            .map(|f| p.note(f, &lock_name, against.is_some()))
            .collect()
    };
    let mut notes = notes_of(&report);
    if let Some((label, _, _)) = &against {
        let name = label.split(' ').next().unwrap_or(label);
        for f in &mut report.findings {
            if f.location.starts_with(&lock_name) {
                f.location = format!("{name}:{}", f.location);
            }
        }
        // The notes keep the file and line located above; their text names the base.
        for (n, f) in notes.iter_mut().zip(&report.findings) {
            n.message = compat::finding_body(f).trim_end().to_string();
        }
    }
    let budgets = tuplet_schema::sizes::budget_findings(&p.schema);
    let krate = p.config.schema.krate.to_string_lossy().into_owned();
    let mut budget_out = Vec::new();
    for f in &budgets {
        let grew = match &against {
            Some((label, Some(base_schema), _)) => budget::growth(base_schema, &p.schema, f, label),
            _ => String::new(),
        };
        let line = budget::line(&krate, f, &grew);
        notes.push(Note {
            level: Level::Error,
            rule: "budget-exceeded".into(),
            title: format!(
                "budget-exceeded: {} over its budget of {} bytes",
                f.message, f.budget
            ),
            message: line.clone(),
            file: Some(p.paths.crate_relative(&f.file)),
            line: Some(f.line),
            column: None,
            fix: Some(format!(
                "{} says how to make it safely",
                compat::explain::pointer(compat::rules::BUDGET_EXCEEDED.name)
            )),
        });
        budget_out.push((f, grew, line));
    }
    let passes = report.compatible && budgets.is_empty();
    let header = match &against {
        Some((label, _, deploy)) => {
            let lock = if base_has_lock {
                format!("its {lock_name}")
            } else {
                format!("no {lock_name} there, so every message is new")
            };
            format!(
                "tuplet compat: against {label}: {lock}, its deploy order {} (the working tree's \
                 lock is not read: a pull request's own `tuplet lock`, `--restart` or edit of \
                 the lock does not change the verdict)\n",
                deploy.as_str()
            )
        }
        None => String::new(),
    };
    match format {
        CheckFormat::Text => {
            print!("{header}{}", report.restart_notes());
            print!("{}", annotate::text(&notes));
            print!("{}", report.summary(budgets.len()));
        }
        CheckFormat::Json => {
            let mut json: Value = serde_json::to_value(&report).unwrap_or_default();
            json["notes"] = annotate::json_list(&notes);
            let list: Vec<Value> = budget_out
                .iter()
                .map(|(f, grew, _)| budget_json(&p, f, grew))
                .collect();
            json["budgets"] = Value::Array(list);
            json["compatible"] = json!(passes);
            if let Some((label, _, deploy)) = &against {
                json["against"] =
                    json!({"base": label, "deploy": deploy.as_str(), "lock": base_has_lock});
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            );
        }
        _ => {
            annotate::print(format, command, &notes);
            eprint!("{header}{}", report.summary(budgets.len()));
        }
    }
    Exit::failed_unless(passes)
}

/// One budget finding for the JSON report.
fn budget_json(p: &Project, f: &tuplet_schema::sizes::BudgetFinding, grew: &str) -> Value {
    json!({
        "rule": "budget-exceeded",
        "message": f.message,
        "dir": f.dir.as_str(),
        "id": f.id,
        "budget": f.budget,
        "largest": f.largest,
        "field": f.field,
        "reason": f.reason,
        "grew": grew,
        "location": format!("{}:{}", p.paths.crate_relative(&f.file), f.line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "#[derive(tuplet::Message)]\n#[tuplet(name = \"m:up\", id = 1, dir = \"c2s\")]\npub struct Up {\n    #[tuplet(range(0, 100))]\n    pub hp: u8,\n}\n";

    fn setup(deploy: &str) -> (tempfile::TempDir, Config) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("s/src")).unwrap();
        std::fs::write(tmp.path().join("s/src/lib.rs"), BEFORE).unwrap();
        let toml = format!("deploy = \"{deploy}\"\n[schema]\ncrate = \"s\"\n");
        std::fs::write(tmp.path().join("tuplet.toml"), toml).unwrap();
        let config = Config::read(&tmp.path().join("tuplet.toml")).unwrap();
        (tmp, config)
    }

    fn lock_args(config: &Config, restart: Option<&str>) -> LockArgs {
        LockArgs {
            check: false,
            restart: restart.is_some(),
            reason: restart.map(str::to_string),
            format: CheckFormat::Text,
            lock: None,
            config: Some(config.base.join("tuplet.toml")),
        }
    }

    fn compat_args(config: &Config) -> CompatArgs {
        CompatArgs {
            format: CheckFormat::Json,
            against: None,
            lock: None,
            config: Some(config.base.join("tuplet.toml")),
        }
    }

    #[test]
    fn lock_compat_exit_codes() {
        let (tmp, config) = setup("server-first");
        let lock_file = tmp.path().join("tuplet.lock.json");
        // No lock yet: unreadable input.
        assert_eq!(compat_command(&compat_args(&config)), Exit::BadInput);
        assert_eq!(lock_command(&lock_args(&config, None)), Exit::Ok);
        let first = std::fs::read_to_string(&lock_file).unwrap();
        assert_eq!(lock_command(&lock_args(&config, None)), Exit::Ok);
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), first);
        assert_eq!(compat_command(&compat_args(&config)), Exit::Ok);
        // Narrowing what clients send breaks under server-first; lock refuses.
        let src = tmp.path().join("s/src/lib.rs");
        std::fs::write(&src, BEFORE.replace("range(0, 100)", "range(0, 50)")).unwrap();
        assert_eq!(compat_command(&compat_args(&config)), Exit::Failed);
        assert_eq!(lock_command(&lock_args(&config, None)), Exit::Failed);
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), first);
        // A restart needs a reason, then passes.
        assert_eq!(lock_command(&lock_args(&config, Some(" "))), Exit::BadInput);
        assert_eq!(lock_command(&lock_args(&config, Some("2.0"))), Exit::Ok);
        assert_eq!(compat_command(&compat_args(&config)), Exit::Ok);
        // A schema that does not load: unreadable input.
        std::fs::write(&src, "#[derive(tuplet::Message)]\npub struct Up {}\n").unwrap();
        assert_eq!(compat_command(&compat_args(&config)), Exit::BadInput);
        // A broken lock: unreadable input.
        std::fs::write(&src, BEFORE).unwrap();
        std::fs::write(&lock_file, "{").unwrap();
        assert_eq!(compat_command(&compat_args(&config)), Exit::BadInput);
        // A file that is not a tuplet lock is never overwritten, not even by a restart.
        for not_a_lock in ["{", "{\"name\": \"my-app\"}\n", "notes\n"] {
            std::fs::write(&lock_file, not_a_lock).unwrap();
            assert_eq!(lock_command(&lock_args(&config, None)), Exit::BadInput);
            assert_eq!(
                lock_command(&lock_args(&config, Some("2.0"))),
                Exit::BadInput
            );
            assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), not_a_lock);
        }
        // A tuplet lock of a format this tuplet does not read: a restart replaces it.
        std::fs::write(&lock_file, "{\"format\": 99, \"messages\": {}}\n").unwrap();
        assert_eq!(lock_command(&lock_args(&config, None)), Exit::BadInput);
        assert_eq!(lock_command(&lock_args(&config, Some("3.0"))), Exit::Ok);
        assert_eq!(compat_command(&compat_args(&config)), Exit::Ok);
    }
}
