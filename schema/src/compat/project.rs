//! The check `tuplet compat` runs, as a library: a schema crate against its lock under a
//! deploy order, and the byte budgets ([`crate::sizes::budget_findings`]), with the same
//! readable report. [`Project`] reads what it needs from `tuplet.toml` (feature `project`),
//! so `cargo test` judges by the same deploy order as the CLI.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{check, explain, read_lock, CompatError, Deploy, Lock, Report};
use crate::sizes::{budget_findings, BudgetFinding};

/// The outcome of the whole check: the rules' report and the messages over their budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The findings of the rules against the lock.
    pub report: Report,
    /// The messages whose largest size exceeds their budget (or that are unbounded).
    pub budgets: Vec<BudgetFinding>,
    /// The schema crate, which the budget lines' files are relative to.
    pub crate_dir: PathBuf,
}

impl Verdict {
    /// Whether `tuplet compat` exits 0: compatible, and every budget kept.
    pub fn passes(&self) -> bool {
        self.report.compatible && self.budgets.is_empty()
    }

    /// The report `tuplet compat` prints: the findings, the budget lines, the summary line.
    pub fn text(&self) -> String {
        self.report.findings_text()
            + &budget_lines(&self.crate_dir, &self.budgets)
            + &self.report.summary(self.budgets.len())
    }
}

/// The budget lines of `tuplet compat`: `budget-exceeded: <file>:<line>: ...` (the file under
/// `crate_dir`), each followed by its `tuplet explain` pointer.
pub fn budget_lines(crate_dir: &Path, findings: &[BudgetFinding]) -> String {
    let mut s = String::new();
    for f in findings {
        let file = crate_dir.join(&f.file).display().to_string();
        let line = format!("budget-exceeded: {f}").replacen(&f.file, &file, 1);
        let _ = writeln!(s, "{line}");
        let _ = writeln!(s, "  rule: {}", explain::pointer("budget-exceeded"));
    }
    s
}

/// Checks the crate at `crate_dir` (root `src/lib.rs`) against the lock at `lock_path` under
/// `deploy`, and its byte budgets: everything `tuplet compat` checks.
pub fn verdict(crate_dir: &Path, lock_path: &Path, deploy: Deploy) -> Result<Verdict, CompatError> {
    let schema = crate::loader::load(crate_dir).map_err(CompatError::Schema)?;
    let old = read_lock(lock_path)?;
    Ok(Verdict {
        report: check(&old, &Lock::from_schema(&schema), deploy),
        budgets: budget_findings(&schema),
        crate_dir: crate_dir.to_path_buf(),
    })
}

/// A project as `tuplet.toml` describes it to the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The `tuplet.toml` read.
    pub config: PathBuf,
    /// The schema crate (`[schema] crate`, relative to the file's folder).
    pub crate_dir: PathBuf,
    /// The lock: `tuplet.lock.json` beside the file, as `tuplet compat` finds it.
    pub lock: PathBuf,
    /// `deploy` (`any-order` when absent).
    pub deploy: Deploy,
}

#[cfg(feature = "project")]
mod read {
    use super::*;

    /// The keys of `tuplet.toml` the check reads; the others are the CLI's.
    #[derive(serde::Deserialize)]
    struct Toml {
        #[serde(default)]
        deploy: Deploy,
        schema: Schema,
    }

    #[derive(serde::Deserialize)]
    struct Schema {
        #[serde(rename = "crate")]
        krate: PathBuf,
    }

    impl Project {
        /// Reads the `tuplet.toml` at `config`.
        pub fn read(config: &Path) -> Result<Project, CompatError> {
            let err = |m: String| CompatError::Config(format!("{}: {m}", config.display()));
            let text =
                std::fs::read_to_string(config).map_err(|e| err(format!("cannot read: {e}")))?;
            let toml: Toml = toml::from_str(&text).map_err(|e| err(e.to_string()))?;
            let base = config.parent().unwrap_or(Path::new(""));
            Ok(Project {
                config: config.to_path_buf(),
                crate_dir: base.join(toml.schema.krate),
                lock: base.join(crate::compat::lock::FILE_NAME),
                deploy: toml.deploy,
            })
        }

        /// Reads the `tuplet.toml` in `start` or the nearest folder above it that has one, as
        /// the CLI finds it from the current folder.
        pub fn discover(start: &Path) -> Result<Project, CompatError> {
            for dir in start.ancestors() {
                let candidate = dir.join(FILE_NAME);
                if candidate.is_file() {
                    return Project::read(&candidate);
                }
            }
            Err(CompatError::Config(format!(
                "{FILE_NAME} not found in {} or any folder above it",
                start.display()
            )))
        }
    }

    /// The config file's name.
    const FILE_NAME: &str = "tuplet.toml";

    /// The check for `cargo test`, as `tuplet compat` runs it: finds `tuplet.toml` in
    /// `start` or the nearest folder above (pass `env!("CARGO_MANIFEST_DIR")`), checks its
    /// schema crate against the lock beside it under its `deploy` order, and the byte
    /// budgets; panics with the report `tuplet compat` prints when it would exit nonzero.
    ///
    /// ```no_run
    /// tuplet_schema::compat::assert_project_compatible(env!("CARGO_MANIFEST_DIR"));
    /// ```
    pub fn assert_project_compatible(start: impl AsRef<Path>) {
        let project = match Project::discover(start.as_ref()) {
            Ok(p) => p,
            Err(e) => panic!("tuplet compat could not run: {e}"),
        };
        match verdict(&project.crate_dir, &project.lock, project.deploy) {
            Ok(v) if v.passes() => {}
            Ok(v) => panic!(
                "the schema at {} fails `tuplet compat` ({}):\n{}",
                project.crate_dir.display(),
                project.config.display(),
                v.text()
            ),
            Err(e) => panic!("tuplet compat could not run: {e}"),
        }
    }
}

#[cfg(feature = "project")]
pub use read::assert_project_compatible;
