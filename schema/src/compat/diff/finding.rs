//! A finding, where it is, and the context the diff collects findings in.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::compat::lock::{Lock, WireDir};
use crate::compat::order::Deploy;
use crate::compat::rules::{Category, Hurts, Rule};

/// One change found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's name.
    pub rule: String,
    /// What it breaks.
    pub category: Category,
    /// The direction judged (none for an unmatched acceptance).
    pub dir: Option<WireDir>,
    /// Which pair of versions it hurts.
    pub hurts: Hurts,
    /// The deploy orders under which it breaks peers (empty for source-API notes).
    pub breaks_under: Vec<Deploy>,
    /// The message it was reached from (`c2s player:move`).
    pub message: String,
    /// The item's canonical path (the new one; the old one for a removal).
    pub item: String,
    /// The field, variant or flag (`p`, `Boat`, `Pet.name`); empty for the item itself.
    pub member: String,
    /// The old value, as `accept(was = ...)` names it; empty when there was none.
    pub was: String,
    /// The new value; empty for a removal.
    pub now: String,
    /// `file:line` of the new item, or the removed entry in the lock.
    pub location: String,
    /// Whether it fails the check under the deploy order judged (before acceptances).
    pub breaking: bool,
    /// The reason of the acceptance that covers it, if any.
    pub accepted: Option<String>,
    /// Why it breaks peers.
    pub why: String,
}

impl Finding {
    /// Whether it fails the check: breaking and not accepted.
    pub fn fails(&self) -> bool {
        self.breaking && self.accepted.is_none()
    }
}

/// Where a change is: item, member, location.
#[derive(Clone)]
pub(super) struct At {
    pub(super) item: String,
    pub(super) member: String,
    pub(super) location: String,
    /// Whether the item is in the new source (then a member's own line is looked up).
    pub(super) in_new: bool,
}

impl At {
    /// The same place, one member deeper (`Pet` then `Pet.name`).
    pub(super) fn member(&self, m: &str) -> At {
        let member = if self.member.is_empty() {
            m.to_string()
        } else {
            format!("{}.{m}", self.member)
        };
        At {
            member,
            ..self.clone()
        }
    }
}

/// What the diff of one direction works in: both locks, the direction, the message being
/// walked, the type pairs already judged, and the findings so far.
pub(super) struct Cx<'a> {
    pub(super) old: &'a Lock,
    pub(super) new: &'a Lock,
    pub(super) dir: WireDir,
    pub(super) via: String,
    pub(super) seen: BTreeSet<(String, String, WireDir)>,
    pub(super) out: Vec<Finding>,
}

impl Cx<'_> {
    /// Records a finding of `rule` at `at`, with the deploy orders it breaks under.
    pub(super) fn push(&mut self, rule: &Rule, hurts: Hurts, at: &At, was: String, now: String) {
        let breaks_under = if rule.category == Category::Source {
            Vec::new()
        } else {
            Deploy::ALL
                .into_iter()
                .filter(|d| d.breaks(self.dir, hurts))
                .collect()
        };
        self.out.push(Finding {
            rule: rule.name.to_string(),
            category: rule.category,
            dir: Some(self.dir),
            hurts,
            breaks_under,
            message: self.via.clone(),
            item: at.item.clone(),
            member: at.member.clone(),
            was,
            now,
            location: self.location(at),
            breaking: false,
            accepted: None,
            why: rule.why.to_string(),
        });
    }

    /// Where a finding points: the member's line when the member (or the one enclosing it)
    /// is in the new source, else the item's.
    fn location(&self, at: &At) -> String {
        if at.in_new && !at.member.is_empty() {
            if let Some(l) = self.new.member_location(&at.item, &at.member) {
                return l.to_string();
            }
        }
        at.location.clone()
    }

    /// The place of an item of the new lock.
    pub(super) fn new_at(&self, path: &str) -> At {
        let file = self
            .new
            .types
            .get(path)
            .map(|t| t.file.as_str())
            .or_else(|| {
                self.new
                    .messages
                    .values()
                    .flat_map(|m| m.values())
                    .find(|m| m.ty == path)
                    .map(|m| m.file.as_str())
            })
            .unwrap_or("");
        At {
            item: path.to_string(),
            member: String::new(),
            location: self.new.location(path, file),
            in_new: true,
        }
    }
}
