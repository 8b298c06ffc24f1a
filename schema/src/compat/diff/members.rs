//! Numbered members: an enum's variants (by discriminant or tag) and a flag set's flags (by
//! bit). One diff serves both, with each kind's rules: members pair by name, then by number;
//! a member gone, renumbered, renamed, reused or added, and the set closed, each has a rule.

use std::collections::BTreeSet;

use super::finding::{At, Cx};
use crate::compat::lock::{LockFlag, LockVariant};
use crate::compat::rules::{self, Hurts, Rule};

/// A member with a name and a number on the wire.
trait Numbered {
    fn name(&self) -> &str;
    fn number(&self) -> i64;
}

impl Numbered for LockVariant {
    fn name(&self) -> &str {
        &self.name
    }
    fn number(&self) -> i64 {
        self.number
    }
}

impl Numbered for LockFlag {
    fn name(&self) -> &str {
        &self.name
    }
    fn number(&self) -> i64 {
        self.bit.into()
    }
}

/// One kind of numbered member: its rules, and how `was` and `now` spell a number.
struct Kind {
    closed: &'static Rule,
    renumbered: &'static Rule,
    renamed: &'static Rule,
    removed: &'static Rule,
    reused: &'static Rule,
    added: &'static Rule,
    /// A member one version of an open set lacks, when the named shape writes members by
    /// name (variants; flags are booleans by name, and a reader ignores one it lacks).
    name_unknown: Option<&'static Rule>,
    /// `3` for a variant, `bit 3` for a flag.
    number: fn(i64) -> String,
}

const VARIANTS: Kind = Kind {
    closed: &rules::ENUM_CLOSED,
    renumbered: &rules::VARIANT_RENUMBERED,
    renamed: &rules::VARIANT_RENAMED,
    removed: &rules::VARIANT_REMOVED,
    reused: &rules::VARIANT_REUSED,
    added: &rules::ENUM_VALUE_ADDED,
    name_unknown: Some(&rules::VARIANT_NAME_UNKNOWN),
    number: |n| n.to_string(),
};

const FLAGS: Kind = Kind {
    closed: &rules::FLAGS_CLOSED,
    renumbered: &rules::FLAG_BIT_MOVED,
    renamed: &rules::FLAG_RENAMED,
    removed: &rules::FLAG_BIT_REMOVED,
    reused: &rules::FLAG_BIT_REUSED,
    added: &rules::FLAG_BIT_ADDED,
    name_unknown: None,
    number: |n| format!("bit {n}"),
};

/// One version of a numbered set: whether it is open, its reserved numbers, its members.
struct Set<'a, M> {
    open: bool,
    reserved: Vec<i64>,
    members: &'a [M],
}

impl Cx<'_> {
    /// Compares two versions of a set; `pair` judges the data of each paired member.
    fn numbered<M: Numbered>(
        &mut self,
        kind: &Kind,
        old: Set<M>,
        new: Set<M>,
        at: &At,
        mut pair: impl FnMut(&mut Self, &M, &M, &At),
    ) {
        let show = |m: &M| format!("{} = {}", m.name(), (kind.number)(m.number()));
        let reserved = |n: i64| format!("{} reserved", (kind.number)(n));
        if old.open && !new.open {
            self.push(
                kind.closed,
                Hurts::OldToNew,
                at,
                "open".into(),
                "closed".into(),
            );
        }
        let mut matched = BTreeSet::new();
        for o in old.members {
            let mat = at.member(o.name());
            if let Some(n) = new.members.iter().find(|n| n.name() == o.name()) {
                matched.insert(n.number());
                if n.number() != o.number() {
                    self.push(kind.renumbered, Hurts::Both, &mat, show(o), show(n));
                }
                pair(self, o, n, &mat);
            } else if let Some(n) = new.members.iter().find(|n| {
                n.number() == o.number() && !old.members.iter().any(|x| x.name() == n.name())
            }) {
                matched.insert(n.number());
                let nat = at.member(n.name());
                self.push(
                    kind.renamed,
                    Hurts::Both,
                    &nat,
                    o.name().to_string(),
                    n.name().to_string(),
                );
                pair(self, o, n, &nat);
            } else {
                let is_reserved = new.reserved.contains(&o.number());
                let hurts = if !is_reserved {
                    Some(Hurts::Both)
                } else if !new.open {
                    Some(Hurts::OldToNew)
                } else {
                    None
                };
                if let Some(h) = hurts {
                    let now = if is_reserved {
                        reserved(o.number())
                    } else {
                        String::new()
                    };
                    self.push(kind.removed, h, &mat, show(o), now);
                } else if let Some(rule) = kind.name_unknown {
                    self.push(rule, Hurts::OldToNew, &mat, show(o), reserved(o.number()));
                }
            }
        }
        for n in new.members {
            if matched.contains(&n.number()) {
                continue;
            }
            let mat = at.member(n.name());
            if old.reserved.contains(&n.number())
                || old.members.iter().any(|o| o.number() == n.number())
            {
                self.push(
                    kind.reused,
                    Hurts::Both,
                    &mat,
                    reserved(n.number()),
                    show(n),
                );
            } else if !old.open {
                self.push(kind.added, Hurts::NewToOld, &mat, String::new(), show(n));
            } else if let Some(rule) = kind.name_unknown {
                self.push(rule, Hurts::NewToOld, &mat, String::new(), show(n));
            }
        }
    }

    /// Compares two versions of an enum, and the data of each paired variant.
    pub(super) fn enumeration(&mut self, old: EnumParts, new: EnumParts, at: &At) {
        fn set((open, reserved, members): EnumParts) -> Set<LockVariant> {
            Set {
                open,
                reserved: reserved.to_vec(),
                members,
            }
        }
        self.numbered(&VARIANTS, set(old), set(new), at, Cx::variant_data);
    }

    /// Compares two versions of a flag set.
    pub(super) fn flags(&mut self, old: FlagParts, new: FlagParts, at: &At) {
        fn set((open, reserved, members): FlagParts) -> Set<LockFlag> {
            Set {
                open,
                reserved: reserved.iter().map(|&b| b.into()).collect(),
                members,
            }
        }
        self.numbered(&FLAGS, set(old), set(new), at, |_, _, _, _| {});
    }

    fn variant_data(&mut self, o: &LockVariant, n: &LockVariant, at: &At) {
        if o.shape != n.shape {
            self.push(
                &rules::TYPE_CHANGED,
                Hurts::Both,
                at,
                format!("{} variant", o.shape),
                format!("{} variant", n.shape),
            );
            return;
        }
        if o.shape != "unit" {
            self.record(&o.fields, &n.fields, at);
        }
    }
}

/// An enum's parts: open, reserved numbers, variants.
pub(super) type EnumParts<'a> = (bool, &'a [i64], &'a [LockVariant]);

/// A flag set's parts: open, reserved bits, flags.
pub(super) type FlagParts<'a> = (bool, &'a [u8], &'a [LockFlag]);
