//! Comparing two locks: every change, named by its rule, judged per direction and deploy
//! order.
//!
//! Messages pair by direction and wire name; fields by name (or a legacy alias naming the
//! old field), then by position; referenced types pair through the fields that use them,
//! whatever their path, so moving a type to another module is no change. A type reached
//! from both directions is judged once per direction.
//!
//! One file per thing judged: [`messages`] (ids, names, directions, reservations, the
//! delta form), [`records`] (slots, their order, named-shape keys, entity keys), [`types`]
//! (a field's type: ints, floats, quantization, lengths, options, named types) and
//! [`members`] (the numbered members of enums and flag sets, one diff for both).

mod delta;
mod deploy;
mod finding;
mod members;
mod messages;
mod records;
mod show;
mod types;

use std::collections::BTreeSet;

pub use super::order::Deploy;
pub use finding::Finding;
pub use show::show;

use super::lock::{Lock, WireDir};
use super::rules::Category;
use finding::Cx;

/// Compares an old lock with a new one (built from the source) under a deploy order: every
/// change that breaks peers under that order (`breaking`), and every source-API change (a
/// note, never breaking). Wire changes harmless under the order are left out. Acceptances
/// are not applied here (see [`super::check`]).
pub fn compare(old: &Lock, new: &Lock, deploy: Deploy) -> Vec<Finding> {
    under(compare_all(old, new), deploy)
}

/// The findings of [`compare_all`] that a check under `deploy` reports: each wire change
/// that breaks under it (marked `breaking`), and every source-API note.
pub fn under(all: Vec<Finding>, deploy: Deploy) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for mut f in all {
        if f.category != Category::Source {
            f.breaking = f.breaks_under.contains(&deploy);
            if !f.breaking {
                continue;
            }
        }
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Every change between two locks, whatever the deploy order (each lists the orders it
/// breaks under; `breaking` is left false): what an acceptance may name, and what
/// supersedes an acceptance recorded in the lock's history.
pub fn compare_all(old: &Lock, new: &Lock) -> Vec<Finding> {
    let mut all = Vec::new();
    for dir in WireDir::ALL {
        let mut cx = Cx {
            old,
            new,
            dir,
            via: String::new(),
            seen: BTreeSet::new(),
            out: Vec::new(),
        };
        cx.messages();
        all.extend(cx.out);
    }
    let mut seen_source = BTreeSet::new();
    let mut out: Vec<Finding> = Vec::new();
    for f in all {
        if f.category == Category::Source
            && !seen_source.insert((
                f.rule.clone(),
                f.item.clone(),
                f.member.clone(),
                f.was.clone(),
                f.now.clone(),
            ))
        {
            continue;
        }
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}
