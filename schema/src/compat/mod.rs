//! Compatibility: the lock (`tuplet.lock.json`), the rules, and the check that compares a
//! schema with its lock under a deploy order. RULES.md (repository root) documents every
//! rule; the `tuplet lock` and `tuplet compat` commands and [`assert_compatible`] run it.
//!
//! - [`lock::Lock::from_schema`] builds the lock of a resolved schema;
//! - [`compare`] lists the changes between two locks, each named by its rule and judged per
//!   direction and [`Deploy`] order;
//! - [`check`] applies the acceptances written in the source (`accept(...)`) and flags the
//!   ones that match nothing: a [`Report`], readable ([`Report::text`]) or JSON
//!   ([`Report::json`]);
//! - [`check_with`] and [`relock_with`] do the same with a [`Judge`]: the deployed order
//!   (the base's, or the one the lock records) and `tuplet.toml`'s, so a change of `deploy`
//!   is a finding (`deploy-changed`) until acknowledged;
//! - [`relock`] and [`restart`] make the next lock, refusing unaccepted breaks;
//! - [`verdict`] adds the byte budgets, as `tuplet compat` checks them, and
//!   `project::assert_project_compatible` (feature `project`) runs it all in `cargo test` from
//!   `tuplet.toml`.

pub mod diff;
pub mod explain;
pub mod lock;
pub mod moved;
pub mod order;
pub mod project;
mod report;
pub mod rules;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use diff::{compare, compare_all, Finding};
pub use lock::{HistoryEntry, Lock, SourceAccept, WireDir};
pub use order::{Deploy, DeployAccept, Judge};
pub use report::{
    finding_body, finding_fix, finding_text, headline, Report, EXIT_BREAKING, EXIT_OK,
    EXIT_UNREADABLE,
};
pub use rules::{Category, Hurts, Rule};

use crate::loader::LoadErrors;
use crate::sizes::{budget_findings, BudgetFinding};

pub use crate::grammar::is_template_reason;

/// The rules of message-level changes: the only ones an acceptance on a dispatch enum
/// covers (a removed message has nowhere else to carry it).
pub const MESSAGE_LEVEL: &[&str] = &[
    rules::MESSAGE_REMOVED.name,
    rules::MESSAGE_RENAMED.name,
    rules::ID_CHANGED.name,
    rules::ID_REUSED.name,
    rules::NAME_REUSED.name,
    rules::RESERVATION_DROPPED.name,
    rules::DIRECTION_CHANGED.name,
];

fn accept_covers(a: &SourceAccept, f: &Finding) -> bool {
    if a.accept.rule != f.rule || a.accept.was != f.was || a.accept.now != f.now {
        return false;
    }
    if let Some(d) = a.dispatch {
        return MESSAGE_LEVEL.contains(&f.rule.as_str())
            && f.dir.is_some_and(|fd| d.includes(fd.ir()));
    }
    a.item == f.item
        && (a.member.is_empty()
            || f.member == a.member
            || f.member.starts_with(&format!("{}.", a.member)))
}

/// How an acceptance stands against the lock's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recorded {
    /// The history records it, and the lock still holds its `now`.
    Live,
    /// The history records it, but the member changed again since (reverted, or changed
    /// further): an acceptance left in the source would cover the next identical change.
    Undone,
    /// The history does not record it.
    No,
}

/// Whether the lock's history records the acceptance `a` and the change still stands:
/// `all` holds the changes under way (every order), one of which may change the member
/// away from the accepted `now`.
fn recorded(old: &Lock, a: &SourceAccept, all: &[Finding]) -> Recorded {
    let mut out = Recorded::No;
    for h in &old.history {
        if let HistoryEntry::Accepted {
            rule,
            dir,
            item,
            member,
            was,
            now,
            reason,
            superseded,
        } = h
        {
            if *rule != a.accept.rule
                || *was != a.accept.was
                || *now != a.accept.now
                || *reason != a.accept.reason
            {
                continue;
            }
            let undone =
                *superseded || all.iter().any(|f| changes_away(f, *dir, item, member, now));
            if !undone {
                return Recorded::Live;
            }
            out = Recorded::Undone;
        }
    }
    out
}

/// Whether `f` changes the member `item`/`member` of `dir` away from the value `from`.
fn changes_away(f: &Finding, dir: WireDir, item: &str, member: &str, from: &str) -> bool {
    f.dir == Some(dir) && f.item == item && f.member == member && f.was == from
}

/// Compares `new` (built from the source, with its acceptances) with the `old` lock under
/// `deploy`, applies the acceptances, and flags each acceptance that matches no change and
/// is not already recorded in the lock's history. [`check_with`] with one order.
pub fn check(old: &Lock, new: &Lock, deploy: Deploy) -> Report {
    check_with(old, new, &Judge::same(deploy))
}

/// [`check`] with the deploy orders of [`Judge`]: a change of `deploy` is a
/// `deploy-changed` finding (failing unless acknowledged, or a switch to `any-order`), and
/// the schema's changes are judged by [`Judge::effective`]. An acceptance is used when it
/// names a change under any order (a change harmless under this one included); one that
/// names none is `accept-unmatched` unless the lock's history records it and its change
/// still stands.
pub fn check_with(old: &Lock, new: &Lock, judge: &Judge) -> Report {
    let deploy = judge.effective();
    let all = diff::compare_all(old, new);
    let mut findings = diff::under(all.clone(), deploy);
    for f in &mut findings {
        if let Some(a) = new.accepts.iter().find(|a| accept_covers(a, f)) {
            f.accepted = Some(a.accept.reason.clone());
        }
    }
    if judge.was != judge.now {
        let r = &rules::DEPLOY_CHANGED;
        findings.push(Finding {
            rule: r.name.to_string(),
            category: r.category,
            dir: None,
            hurts: Hurts::Both,
            breaks_under: Vec::new(),
            message: String::new(),
            item: "tuplet.toml".to_string(),
            member: "deploy".to_string(),
            was: judge.was.as_str().to_string(),
            now: judge.now.as_str().to_string(),
            location: judge.location.clone(),
            breaking: judge.loosened(),
            accepted: judge
                .acknowledged()
                .then(|| judge.accept.as_ref().map(|a| a.reason.clone()))
                .flatten(),
            why: r.why.to_string(),
        });
    }
    if let Some(a) = &judge.accept {
        let live = old.history.iter().any(|h| {
            matches!(h, HistoryEntry::DeployChanged { was, now, reason, superseded: false }
                if *was == a.was && *now == a.now && *reason == a.reason
                    && !(judge.was != judge.now && judge.was == a.now))
        });
        if !judge.acknowledged() && !live {
            findings.push(unmatched(
                String::new(),
                String::new(),
                format!(
                    "accept-deploy = {{ was = {:?}, now = {:?} }} (the change of `deploy` \
                     this names is not under way: `deploy` was {:?})",
                    a.was.as_str(),
                    a.now.as_str(),
                    judge.was.as_str()
                ),
                a.location.clone(),
            ));
        }
    }
    for a in &new.accepts {
        if all.iter().any(|f| accept_covers(a, f)) {
            continue;
        }
        let state = recorded(old, a, &all);
        if state == Recorded::Live {
            continue;
        }
        let known = if rules::by_name(&a.accept.rule).is_some() {
            ""
        } else {
            " (no such rule; `tuplet explain` lists them)"
        };
        let undone = if state == Recorded::Undone {
            " (the lock's history records it, but the member changed again since: the \
             acceptance is stale; delete it)"
        } else {
            ""
        };
        findings.push(unmatched(
            a.item.clone(),
            a.member.clone(),
            format!(
                "accept(rule = {:?}, was = {:?}, now = {:?}){known}{undone}",
                a.accept.rule, a.accept.was, a.accept.now
            ),
            a.location.clone(),
        ));
    }
    findings.sort_by(|a, b| {
        let key = |f: &Finding| {
            (
                !f.fails(),
                f.accepted.is_some(),
                f.category == Category::Source && !f.breaking,
            )
        };
        key(a).cmp(&key(b)).then_with(|| a.cmp(b))
    });
    Report {
        deploy,
        compatible: !findings.iter().any(Finding::fails),
        findings,
        history: old.history.clone(),
    }
}

/// An `accept-unmatched` finding.
pub(crate) fn unmatched(item: String, member: String, now: String, location: String) -> Finding {
    let r = &rules::ACCEPT_UNMATCHED;
    Finding {
        rule: r.name.to_string(),
        category: r.category,
        dir: None,
        hurts: Hurts::Both,
        breaks_under: Deploy::ALL.to_vec(),
        message: String::new(),
        item,
        member,
        was: String::new(),
        now,
        location,
        breaking: true,
        accepted: None,
        why: r.why.to_string(),
    }
}

/// The lock to write after `old`: `new` with `old`'s history plus every accepted break of
/// the check (consumed into the history). `Err` with the report when the check fails: an
/// unaccepted break, a removed entry, an acceptance matching nothing. [`relock_with`] with
/// one order.
pub fn relock(old: &Lock, new: &Lock, deploy: Deploy) -> Result<(Lock, Report), Report> {
    relock_with(old, new, &Judge::same(deploy))
}

/// [`relock`] with the deploy orders of [`Judge`]. The lock written records `judge.now` as
/// its deploy order, every change an acceptance covers (under any order), an acknowledged
/// switch of `deploy`, and marks `superseded` each recorded acceptance whose member changes
/// again (so one left in the source is reported as stale from then on). `tuplet` is kept
/// from `old`: the caller sets it when the lock's content changes.
pub fn relock_with(old: &Lock, new: &Lock, judge: &Judge) -> Result<(Lock, Report), Report> {
    let report = check_with(old, new, judge);
    if !report.compatible {
        return Err(report);
    }
    let all = diff::compare_all(old, new);
    let mut next = new.clone();
    next.tuplet = old.tuplet.clone();
    next.deploy = Some(judge.now);
    next.history = old.history.clone();
    for h in &mut next.history {
        match h {
            HistoryEntry::Accepted {
                dir,
                item,
                member,
                now,
                superseded,
                ..
            } if !*superseded => {
                *superseded = all.iter().any(|f| changes_away(f, *dir, item, member, now));
            }
            HistoryEntry::DeployChanged {
                now, superseded, ..
            } if !*superseded => {
                *superseded = judge.was != judge.now && *now == judge.was;
            }
            _ => {}
        }
    }
    for f in &all {
        let Some(dir) = f.dir else { continue };
        let Some(a) = new.accepts.iter().find(|a| accept_covers(a, f)) else {
            continue;
        };
        let entry = HistoryEntry::Accepted {
            rule: f.rule.clone(),
            dir,
            item: f.item.clone(),
            member: f.member.clone(),
            was: f.was.clone(),
            now: f.now.clone(),
            reason: a.accept.reason.clone(),
            superseded: false,
        };
        if !next.history.contains(&entry) {
            next.history.push(entry);
        }
    }
    if judge.was != judge.now {
        if let Some(a) = judge.accept.as_ref().filter(|_| judge.acknowledged()) {
            let entry = HistoryEntry::DeployChanged {
                was: a.was,
                now: a.now,
                reason: a.reason.clone(),
                superseded: false,
            };
            if !next.history.contains(&entry) {
                next.history.push(entry);
            }
        }
    }
    Ok((next, report))
}

/// The lock to write when starting over: `new`, keeping `old`'s history (if any) and adding
/// a restart with its reason, which every later check prints.
pub fn restart(old: Option<&Lock>, new: &Lock, reason: &str) -> Lock {
    let mut next = new.clone();
    next.history = old.map(|o| o.history.clone()).unwrap_or_default();
    next.history.push(HistoryEntry::Restart {
        reason: reason.to_string(),
    });
    next
}

/// Why a check could not run: exit [`EXIT_UNREADABLE`].
#[derive(Debug)]
pub enum CompatError {
    /// The schema crate does not load.
    Schema(LoadErrors),
    /// The lock cannot be read or parsed.
    Lock(String),
    /// `tuplet.toml` cannot be found, read or parsed.
    Config(String),
}

impl std::fmt::Display for CompatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompatError::Schema(e) => write!(f, "{e}"),
            CompatError::Lock(e) => write!(f, "{e}"),
            CompatError::Config(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CompatError {}

/// Reads a lock file.
pub fn read_lock(path: &Path) -> Result<Lock, CompatError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CompatError::Lock(format!(
            "{}: cannot read the lock: {e} (write one with `tuplet lock`)",
            path.display()
        ))
    })?;
    Lock::from_json(&text).map_err(|e| CompatError::Lock(format!("{}: {e}", path.display())))
}

/// Checks the crate at `crate_dir` (root `src/lib.rs`) against the lock at `lock_path`: the
/// rules only ([`verdict`] adds the byte budgets, as `tuplet compat` checks them).
pub fn check_crate(
    crate_dir: &Path,
    lock_path: &Path,
    deploy: Deploy,
) -> Result<Report, CompatError> {
    let schema = crate::loader::load(crate_dir).map_err(CompatError::Schema)?;
    let old = read_lock(lock_path)?;
    Ok(check(&old, &Lock::from_schema(&schema), deploy))
}

/// The check for `cargo test` with the deploy order given here: panics with the report
/// `tuplet compat` prints when the schema crate at `crate_dir` breaks the lock at `lock_path`
/// under `deploy`, or exceeds a byte budget (or when either cannot be read).
/// `project::assert_project_compatible` (feature `project`) reads the order from `tuplet.toml` instead,
/// as `tuplet compat` does.
///
/// ```no_run
/// # use std::path::Path;
/// # use tuplet_schema::compat::{assert_compatible, Deploy};
/// assert_compatible(
///     Path::new(env!("CARGO_MANIFEST_DIR")),
///     &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tuplet.lock.json"),
///     Deploy::AnyOrder,
/// );
/// ```
pub fn assert_compatible(crate_dir: &Path, lock_path: &Path, deploy: Deploy) {
    match verdict(crate_dir, lock_path, deploy) {
        Ok(v) if v.passes() => {}
        Ok(v) => panic!(
            "the schema at {} breaks the lock {}:\n{}",
            crate_dir.display(),
            lock_path.display(),
            v.text()
        ),
        Err(e) => panic!("tuplet compat could not run: {e}"),
    }
}

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

/// [`verdict`] as `tuplet compat` judges a project: `deploy` is `tuplet.toml`'s, compared with
/// the order the lock records (a change is `deploy-changed`, acknowledged by `accept`, with
/// `location` where `deploy` is written).
pub fn verdict_recorded(
    crate_dir: &Path,
    lock_path: &Path,
    deploy: Deploy,
    accept: Option<DeployAccept>,
    location: &str,
) -> Result<Verdict, CompatError> {
    let schema = crate::loader::load(crate_dir).map_err(CompatError::Schema)?;
    let old = read_lock(lock_path)?;
    let judge = Judge {
        was: old.deploy.unwrap_or(deploy),
        now: deploy,
        accept,
        location: location.to_string(),
    };
    Ok(Verdict {
        report: check_with(&old, &Lock::from_schema(&schema), &judge),
        budgets: budget_findings(&schema),
        crate_dir: crate_dir.to_path_buf(),
    })
}
