//! `tuplet lock` and `tuplet compat`: the compatibility lock and the check against it
//! (RULES.md). The logic is `tuplet_schema::compat`; this file reads the config, the schema
//! and the lock, prints, writes, and picks the exit code.
//!
//! Exit codes: 0 compatible (lock written); 1 a change breaks peers under the deploy order and
//! is not accepted, or an acceptance matches nothing (`lock` writes nothing); 2 unreadable
//! input (config, schema, lock) or bad arguments.
//!
//! `tuplet lock` overwrites only a tuplet lock: one it reads, or with `--restart` one it
//! cannot read but that is a tuplet lock (another format); any other file is refused.

use std::path::{Path, PathBuf};

use clap::Args;
use tuplet_schema::compat::{self, Lock};

use super::shared;
use crate::config::Config;
use crate::exit::Exit;

/// `tuplet lock`.
#[derive(Debug, Args)]
pub struct LockArgs {
    /// Start the lock over from the schema as it is (the history is kept); needs `--reason`.
    #[arg(long)]
    pub restart: bool,
    /// Why the lock starts over; every later `tuplet compat` prints it.
    #[arg(long, value_name = "TEXT", requires = "restart")]
    pub reason: Option<String>,
    /// The lock file (default: tuplet.lock.json beside tuplet.toml).
    #[arg(long, value_name = "PATH")]
    pub lock: Option<PathBuf>,
    /// The config file (default: tuplet.toml in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

pub use super::Format;

/// `tuplet compat`.
#[derive(Debug, Args)]
pub struct CompatArgs {
    /// The report's format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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

/// Loads the schema crate into a lock, printing loader errors.
fn schema_lock(config: &Config, command: &str) -> Result<Lock, Exit> {
    shared::load(config, command).map(|schema| Lock::from_schema(&schema))
}

/// `tuplet lock`: writes the lock, refusing unaccepted breaks and dropped entries.
pub fn lock(config: &Config, args: &LockArgs) -> Exit {
    let path = lock_path(config, args.lock.as_deref());
    let new = match schema_lock(config, "lock") {
        Ok(l) => l,
        Err(code) => return code,
    };
    let old = if path.exists() {
        match compat::read_lock(&path) {
            Ok(l) => Some(l),
            Err(e) if args.restart && is_a_lock(&path) => {
                eprintln!("warning: {e}; starting over without its history");
                None
            }
            Err(e) if args.restart => {
                eprintln!(
                    "error: {e}\nerror: {} is not a tuplet lock (a JSON object with `format` \
                     and `messages`), and tuplet overwrites only its own lock: move the file \
                     away, or name another with `--lock PATH`",
                    path.display()
                );
                return Exit::BadInput;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::BadInput;
            }
        }
    } else {
        None
    };
    let next = if args.restart {
        let reason = args.reason.as_deref().unwrap_or("").trim();
        if reason.is_empty() {
            eprintln!(
                "error: `tuplet lock --restart` needs `--reason \"...\"`: the lock keeps it and \
                 every later `tuplet compat` prints it"
            );
            return Exit::BadInput;
        }
        compat::restart(old.as_ref(), &new, reason)
    } else if let Some(old) = &old {
        match compat::relock(old, &new, config.deploy_order()) {
            Ok((next, report)) => {
                if !report.findings.is_empty() {
                    eprint!("{}", report.text());
                }
                next
            }
            Err(report) => {
                eprint!("{}", report.text());
                eprintln!(
                    "tuplet lock: refused; {} unchanged. Make the change safely (RULES.md), \
                     accept each break in the source with `accept(rule, was, now, reason)`, or \
                     start over with `tuplet lock --restart --reason \"...\"`",
                    path.display()
                );
                return Exit::Failed;
            }
        }
    } else {
        new
    };
    let text = next.to_json();
    let messages: usize = next.messages.values().map(|m| m.len()).sum();
    let summary = format!("{messages} message(s), {} type(s)", next.types.len());
    if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        eprintln!("tuplet lock: {} unchanged ({summary})", path.display());
        return Exit::Ok;
    }
    if let Err(e) = crate::writer::write_atomic(&path, text.as_bytes()) {
        eprintln!("error: {}: {e}", path.display());
        return Exit::BadInput;
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

/// `tuplet compat`: compares the schema with the lock; prints the report.
pub fn compat(config: &Config, args: &CompatArgs) -> Exit {
    let path = lock_path(config, args.lock.as_deref());
    let new = match schema_lock(config, "compat") {
        Ok(l) => l,
        Err(code) => return code,
    };
    let old = match compat::read_lock(&path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    let report = compat::check(&old, &new, config.deploy_order());
    match args.format {
        Format::Text => {
            print!("{}", report.findings_text());
            let Ok(schema) = crate::load(config) else {
                return Exit::BadInput;
            };
            let over = print_budgets(config, &schema);
            print!("{}", report.summary(over));
            Exit::failed_unless(report.compatible && over == 0)
        }
        Format::Json => {
            let Ok(schema) = crate::load(config) else {
                return Exit::BadInput;
            };
            let findings = tuplet_schema::sizes::budget_findings(&schema);
            let mut json: serde_json::Value =
                serde_json::from_str(&report.json()).unwrap_or_default();
            if let Some(obj) = json.as_object_mut() {
                let list = findings.iter().map(|f| budget_json(config, f)).collect();
                obj.insert("budgets".into(), serde_json::Value::Array(list));
                if !findings.is_empty() {
                    obj.insert("compatible".into(), false.into());
                }
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            );
            let budget_code = if findings.is_empty() {
                Exit::Ok
            } else {
                Exit::Failed
            };
            Exit::failed_unless(report.compatible).max(budget_code)
        }
    }
}

/// One budget finding for the JSON report.
fn budget_json(config: &Config, f: &tuplet_schema::sizes::BudgetFinding) -> serde_json::Value {
    serde_json::json!({
        "rule": "budget-exceeded",
        "message": f.message,
        "dir": f.dir.as_str(),
        "id": f.id,
        "budget": f.budget,
        "largest": f.largest,
        "field": f.field,
        "reason": f.reason,
        "location": format!("{}:{}", config.schema_crate().join(&f.file).display(), f.line),
    })
}

/// Byte budgets (`#[tuplet(budget = N)]`, see `tuplet_schema::sizes`): prints every message
/// whose largest possible size exceeds its budget, naming the field that dominates, each with
/// its `tuplet explain` pointer (the JSON report carries them as `budgets`); returns how many.
fn print_budgets(config: &Config, schema: &tuplet_schema::ResolvedSchema) -> usize {
    let findings = tuplet_schema::sizes::budget_findings(schema);
    print!(
        "{}",
        tuplet_schema::compat::budget_lines(&config.schema_crate(), &findings)
    );
    findings.len()
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

    fn lock_args(restart: Option<&str>) -> LockArgs {
        LockArgs {
            restart: restart.is_some(),
            reason: restart.map(str::to_string),
            lock: None,
            config: None,
        }
    }

    fn compat_args() -> CompatArgs {
        CompatArgs {
            format: Format::Json,
            lock: None,
            config: None,
        }
    }

    #[test]
    fn lock_compat_exit_codes() {
        let (tmp, config) = setup("server-first");
        let lock_file = tmp.path().join("tuplet.lock.json");
        // No lock yet: unreadable input.
        assert_eq!(compat(&config, &compat_args()), Exit::BadInput);
        assert_eq!(lock(&config, &lock_args(None)), Exit::Ok);
        let first = std::fs::read_to_string(&lock_file).unwrap();
        assert_eq!(lock(&config, &lock_args(None)), Exit::Ok);
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), first);
        assert_eq!(compat(&config, &compat_args()), Exit::Ok);
        // Narrowing what clients send breaks under server-first; lock refuses.
        let src = tmp.path().join("s/src/lib.rs");
        std::fs::write(&src, BEFORE.replace("range(0, 100)", "range(0, 50)")).unwrap();
        assert_eq!(compat(&config, &compat_args()), Exit::Failed);
        assert_eq!(lock(&config, &lock_args(None)), Exit::Failed);
        assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), first);
        // A restart needs a reason, then passes.
        assert_eq!(lock(&config, &lock_args(Some(" "))), Exit::BadInput);
        assert_eq!(lock(&config, &lock_args(Some("2.0"))), Exit::Ok);
        assert_eq!(compat(&config, &compat_args()), Exit::Ok);
        // A schema that does not load: unreadable input.
        std::fs::write(&src, "#[derive(tuplet::Message)]\npub struct Up {}\n").unwrap();
        assert_eq!(compat(&config, &compat_args()), Exit::BadInput);
        // A broken lock: unreadable input.
        std::fs::write(&src, BEFORE).unwrap();
        std::fs::write(&lock_file, "{").unwrap();
        assert_eq!(compat(&config, &compat_args()), Exit::BadInput);
        // A file that is not a tuplet lock is never overwritten, not even by a restart.
        for not_a_lock in ["{", "{\"name\": \"my-app\"}\n", "notes\n"] {
            std::fs::write(&lock_file, not_a_lock).unwrap();
            assert_eq!(lock(&config, &lock_args(None)), Exit::BadInput);
            assert_eq!(lock(&config, &lock_args(Some("2.0"))), Exit::BadInput);
            assert_eq!(std::fs::read_to_string(&lock_file).unwrap(), not_a_lock);
        }
        // A tuplet lock of a format this tuplet does not read: a restart replaces it.
        std::fs::write(&lock_file, "{\"format\": 99, \"messages\": {}}\n").unwrap();
        assert_eq!(lock(&config, &lock_args(None)), Exit::BadInput);
        assert_eq!(lock(&config, &lock_args(Some("3.0"))), Exit::Ok);
        assert_eq!(compat(&config, &compat_args()), Exit::Ok);
    }
}
