//! A [`Report`] as text and JSON, and one finding as the block `tuplet compat` prints:
//! where, what, why, and the fix (or the acceptance to write).

use std::fmt::Write as _;

use serde::Serialize;

use super::diff::Finding;
use super::explain;
use super::lock::{HistoryEntry, WireDir};
use super::order::Deploy;
use super::rules::{self, Category, Hurts};

/// The outcome of a check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The deploy order judged by.
    pub deploy: Deploy,
    /// Whether nothing fails (exit 0).
    pub compatible: bool,
    /// Every finding: failing ones first, then accepted ones, then source-API notes.
    pub findings: Vec<Finding>,
    /// The lock's history (accepted breaks, restarts), oldest first.
    pub history: Vec<HistoryEntry>,
}

/// Exit code: compatible.
pub const EXIT_OK: u8 = 0;
/// Exit code: a change breaks peers (unaccepted), or an acceptance matches nothing.
pub const EXIT_BREAKING: u8 = 1;
/// Exit code: the schema or the lock cannot be read.
pub const EXIT_UNREADABLE: u8 = 2;

impl Report {
    /// The exit code: [`EXIT_OK`] or [`EXIT_BREAKING`].
    pub fn exit_code(&self) -> u8 {
        if self.compatible {
            EXIT_OK
        } else {
            EXIT_BREAKING
        }
    }

    /// Failing findings.
    pub fn failures(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.fails())
    }

    /// The JSON report (pretty, trailing newline).
    pub fn json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report always serializes");
        s.push('\n');
        s
    }

    /// The readable report: [`Report::findings_text`], then [`Report::summary`].
    pub fn text(&self) -> String {
        self.findings_text() + &self.summary(0)
    }

    /// The summary line. `over_budget` counts the messages over their byte budget (checked
    /// apart, see `tuplet_schema::sizes`): any makes the line say "NOT compatible", as the
    /// exit code does.
    pub fn summary(&self, over_budget: usize) -> String {
        let fails = self.failures().count();
        let accepted = self
            .findings
            .iter()
            .filter(|f| f.accepted.is_some())
            .count();
        let notes = self.findings.len() - fails - accepted;
        let budgets = if over_budget > 0 {
            format!(", {over_budget} over budget")
        } else {
            String::new()
        };
        format!(
            "tuplet compat ({}): {}; {fails} breaking, {accepted} accepted, {notes} \
             note(s){budgets}\n",
            self.deploy.as_str(),
            if self.compatible && over_budget == 0 {
                "compatible"
            } else {
                "NOT compatible"
            }
        )
    }

    /// `note: the lock was restarted: <reason>`, a line per restart in the history.
    pub fn restart_notes(&self) -> String {
        let mut s = String::new();
        for h in &self.history {
            if let HistoryEntry::Restart { reason } = h {
                let _ = writeln!(s, "note: the lock was restarted: {reason}");
            }
        }
        s
    }

    /// Every finding, readable, without the summary line.
    pub fn findings_text(&self) -> String {
        let mut s = self.restart_notes();
        for f in &self.findings {
            s.push_str(&finding_text(f));
        }
        s
    }
}

/// One finding, readable: `error[rule]: ...`, where, what, why, and the fix or the
/// acceptance (a block of `tuplet compat`'s report; GitHub annotations carry it).
pub fn finding_text(f: &Finding) -> String {
    let mut s = String::new();
    let label = if f.fails() {
        "error"
    } else if f.accepted.is_some() {
        "accepted"
    } else {
        "note"
    };
    let _ = writeln!(s, "{label}[{}]: {}", f.rule, headline(f));
    let _ = writeln!(s, "  --> {}", f.location);
    let mut subject = f.item.clone();
    if !f.member.is_empty() {
        subject = format!("{subject}, `{}`", f.member);
    }
    if !f.message.is_empty() {
        subject = format!("{subject} (in {})", f.message);
    }
    if !subject.is_empty() {
        let _ = writeln!(s, "  at:  {subject}");
    }
    let _ = writeln!(s, "  was: {}", or_none(&f.was));
    let _ = writeln!(s, "  now: {}", or_none(&f.now));
    let _ = writeln!(s, "  why: {}", f.why);
    if let Some(reason) = &f.accepted {
        let _ = writeln!(s, "  accepted: {reason}");
    } else if let Some(fix) = finding_fix(f) {
        let _ = writeln!(s, "  fix: {fix}");
        let _ = writeln!(s, "  rule: {}", explain::pointer(&f.rule));
    }
    s
}

/// What to change for a failing, unaccepted finding: the first line as `fix:` prints it,
/// each further line indented to follow it (the acceptance to write). `None` when the
/// finding does not fail or is accepted.
pub fn finding_fix(f: &Finding) -> Option<String> {
    if f.accepted.is_some() || !f.fails() {
        return None;
    }
    const MORE: &str = "\n       ";
    let fix = if f.rule == rules::DEPLOY_CHANGED.name {
        format!(
            "the changes are judged under {} until the switch is acknowledged; if every peer \
             now deploys {}, write in tuplet.toml:{MORE}accept-deploy = {{ was = {:?}, now = \
             {:?}, reason = \"...\" }}",
            f.was, f.now, f.was, f.now
        )
    } else if f.rule == rules::ACCEPT_UNMATCHED.name {
        "delete the acceptance (a stale one too); or copy `rule`, `was` and `now` from the \
         finding it is meant for"
            .to_string()
    } else if f.rule == rules::SCHEMA_MOVED.name {
        format!(
            "point `[schema] crate` back at {:?}; or, if {:?} now holds the schema the deployed \
             peers were built from, write in tuplet.toml:{MORE}accept-schema-move = {{ was = \
             {:?}, now = {:?}, reason = \"<why>\" }}",
            f.was, f.now, f.was, f.now
        )
    } else {
        let first = match reservation(f) {
            Some(reserve) => format!("{reserve}{MORE}or accept the removal:"),
            None => format!(
                "{} says how to make it safely; or accept it:",
                explain::pointer(&f.rule)
            ),
        };
        format!(
            "{first}{MORE}on {}: #[tuplet(accept(rule = {:?}, was = {:?}, now = {:?}, reason = \
             \"...\"))]",
            accept_site(f),
            f.rule,
            f.was,
            f.now
        )
    };
    Some(fix)
}

/// One finding without its fix and rule lines (`fix:` and `rule:`): what a located note
/// carries beside [`finding_fix`].
pub fn finding_body(f: &Finding) -> String {
    let text = finding_text(f);
    match finding_fix(f) {
        Some(fix) => {
            let tail = format!("  fix: {fix}\n  rule: {}\n", explain::pointer(&f.rule));
            text.strip_suffix(&tail).unwrap_or(&text).to_string()
        }
        None => text,
    }
}

/// For `message-removed`: the dispatch enum attribute that reserves what is still free of
/// the removed message (its id, its name or both), read from the finding's `was`
/// (`name (id N)`, plus which one is already reserved).
fn reservation(f: &Finding) -> Option<String> {
    if f.rule != rules::MESSAGE_REMOVED.name {
        return None;
    }
    let dir = f.dir?.as_str();
    let (name, rest) = f.was.split_once(" (id ")?;
    let id: u32 = rest.split(')').next()?.parse().ok()?;
    let mut keys = Vec::new();
    if !rest.contains("its id is reserved") {
        keys.push(format!("reserved_ids = [{id}]"));
    }
    if !rest.contains("its name is reserved") {
        keys.push(format!("reserved_names = [{name:?}]"));
    }
    Some(format!(
        "reserve it on the {dir} dispatch enum (beside any ids and names already there), so \
         no later message takes it: #[tuplet(dir = {dir:?}, {})]",
        keys.join(", ")
    ))
}

fn or_none(s: &str) -> &str {
    if s.is_empty() {
        "(none)"
    } else {
        s
    }
}

/// A finding's first line after its label: category, direction, who it hurts, the orders.
pub fn headline(f: &Finding) -> String {
    let mut h = f.category.label().to_string();
    if let Some(d) = f.dir {
        h.push_str(", ");
        h.push_str(d.as_str());
        if f.category != Category::Source {
            let (client, server) = ("client", "server");
            let (new_side, old_side) = match d {
                WireDir::C2s => (client, server),
                WireDir::S2c => (server, client),
            };
            let pair = match f.hurts {
                Hurts::NewToOld => format!("a new {new_side} sending to an old {old_side}"),
                Hurts::OldToNew => format!("an old {new_side} sending to a new {old_side}"),
                Hurts::Both => "old and new peers, either way".to_string(),
            };
            let orders: Vec<&str> = f.breaks_under.iter().map(|d| d.as_str()).collect();
            let _ = write!(h, ": hurts {pair}; breaks under {}", orders.join(", "));
        }
    }
    h
}

fn accept_site(f: &Finding) -> String {
    match f.rule.as_str() {
        "message-removed" | "reservation-dropped" => {
            let d = f.dir.map(|d| d.as_str()).unwrap_or("");
            format!("the {d} dispatch enum")
        }
        _ if f.member.is_empty() => format!("`{}`", f.item),
        // The member is gone: the acceptance goes on what still holds it.
        "field-removed" | "variant-removed" | "flag-bit-removed" => match f.member.rsplit_once('.')
        {
            Some((holder, _)) => format!(
                "`{holder}` of `{}` (`{}` is gone; an acceptance there covers its fields)",
                f.item, f.member
            ),
            None => format!(
                "`{}` itself (`{}` is gone; an acceptance on the type covers its members)",
                f.item, f.member
            ),
        },
        _ => format!("`{}` of `{}`", f.member, f.item),
    }
}
