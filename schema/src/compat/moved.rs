//! `schema-moved`: `[schema] crate` (or `tuplet.toml` itself) points at another folder than
//! the base's. The lock is judged against the crate the config names, so a pull request that
//! points it at an unchanged copy would hide every change of the real crate: like a switch of
//! `deploy`, a move is a finding until acknowledged (`accept-schema-move` in `tuplet.toml`).

use super::diff::Finding;
use super::rules::{self, Hurts};

/// The acknowledgement written in `tuplet.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveAccept {
    /// The base's folder, repository-relative.
    pub was: String,
    /// This one's.
    pub now: String,
    /// Why the new folder holds what deployed peers were built from.
    pub reason: String,
    /// Where it is written (`tuplet.toml:4`).
    pub location: String,
}

/// The findings of a move from `was` (the base's schema folder, repository-relative) to
/// `now`, `location` being `[schema] crate`'s line; `accept` the acknowledgement if any.
/// No move and no acknowledgement: nothing. An acknowledgement whose `now` is not the
/// folder the config names is stale (`accept-unmatched`); one naming the move in place
/// stays valid while the crate stays there.
pub fn findings(was: &str, now: &str, location: &str, accept: Option<&MoveAccept>) -> Vec<Finding> {
    let mut out = Vec::new();
    let matches = accept.filter(|a| a.now == now && (a.was == was || was == now));
    if was != now {
        let r = &rules::SCHEMA_MOVED;
        out.push(Finding {
            rule: r.name.to_string(),
            category: r.category,
            dir: None,
            hurts: Hurts::Both,
            breaks_under: Vec::new(),
            message: String::new(),
            item: "tuplet.toml".to_string(),
            member: "[schema] crate".to_string(),
            was: was.to_string(),
            now: now.to_string(),
            location: location.to_string(),
            breaking: true,
            accepted: matches.filter(|a| a.was == was).map(|a| a.reason.clone()),
            why: r.why.to_string(),
        });
    }
    if let Some(a) = accept {
        if matches.is_none() {
            out.push(super::unmatched(
                String::new(),
                String::new(),
                format!(
                    "accept-schema-move = {{ was = {:?}, now = {:?} }} (the schema crate is at \
                     {now:?}, moved from {was:?}; delete it, or name this move)",
                    a.was, a.now
                ),
                a.location.clone(),
            ));
        }
    }
    out
}

/// A repository-relative folder, lexically normal (`a/./b/../c` is `a/c`, the root `.`).
pub fn normal(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}
