//! Records: their slots paired old to new, their order, each field's named-shape keys,
//! and an entity's key.

use super::finding::{At, Cx};
use super::show::show_slot;
use crate::compat::lock::LockSlot;
use crate::compat::rules::{self, Hurts};

impl Cx<'_> {
    /// Compares the slots of two records (or struct variants).
    pub(super) fn record(&mut self, old: &[LockSlot], new: &[LockSlot], at: &At) {
        // Pair: by name, then by a legacy alias naming an old field, then by position.
        let mut pair_new: Vec<Option<usize>> = vec![None; old.len()];
        let mut taken = vec![false; new.len()];
        for (i, o) in old.iter().enumerate() {
            if o.is_reserved() {
                continue;
            }
            if let Some(j) = new
                .iter()
                .position(|n| !n.is_reserved() && n.name == o.name)
            {
                pair_new[i] = Some(j);
                taken[j] = true;
            }
        }
        for (i, o) in old.iter().enumerate() {
            if o.is_reserved() || pair_new[i].is_some() {
                continue;
            }
            if let Some(j) = (0..new.len()).find(|&j| {
                !taken[j]
                    && !new[j].is_reserved()
                    && new[j].legacy.len() == 1
                    && new[j].legacy[0] == o.name
            }) {
                pair_new[i] = Some(j);
                taken[j] = true;
            }
        }
        for i in 0..old.len() {
            if pair_new[i].is_none() && i < new.len() && !taken[i] {
                pair_new[i] = Some(i);
                taken[i] = true;
            }
        }
        // Order.
        let mut last = None;
        let mut reordered = false;
        for j in pair_new.iter().flatten() {
            if last.is_some_and(|l| *j < l) {
                reordered = true;
            }
            last = Some(*j);
        }
        if reordered {
            let names = |s: &[LockSlot]| {
                s.iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            self.push(
                &rules::FIELDS_REORDERED,
                Hurts::Both,
                at,
                names(old),
                names(new),
            );
        }
        for (i, o) in old.iter().enumerate() {
            match pair_new[i] {
                None => self.push(
                    &rules::FIELD_REMOVED,
                    Hurts::Both,
                    &at.member(&o.name),
                    show_slot(o),
                    String::new(),
                ),
                Some(j) => self.slot(o, &new[j], at),
            }
        }
        self.key_collisions(old, new, &pair_new, at);
        for (j, n) in new.iter().enumerate() {
            if taken[j] {
                continue;
            }
            let fat = at.member(&n.name);
            let appended = j >= old.len();
            if n.is_reserved() {
                if !appended {
                    self.push(
                        &rules::OPTIONAL_FIELD_INSERTED,
                        Hurts::Both,
                        &fat,
                        String::new(),
                        format!("{} at {j}", show_slot(n)),
                    );
                }
            } else if !n.is_optional() {
                let hurts = if appended {
                    Hurts::OldToNew
                } else {
                    Hurts::Both
                };
                self.push(
                    &rules::REQUIRED_FIELD_ADDED,
                    hurts,
                    &fat,
                    String::new(),
                    format!("{} at {j}", show_slot(n)),
                );
            } else if !appended {
                self.push(
                    &rules::OPTIONAL_FIELD_INSERTED,
                    Hurts::Both,
                    &fat,
                    String::new(),
                    format!("{} at {j}", show_slot(n)),
                );
            }
        }
    }

    fn slot(&mut self, o: &LockSlot, n: &LockSlot, at: &At) {
        match (&o.ty, &n.ty) {
            (None, None) => {}
            (Some(_), None) => {
                if !o.is_optional() {
                    self.push(
                        &rules::REQUIRED_FIELD_RESERVED,
                        Hurts::NewToOld,
                        &at.member(&o.name),
                        show_slot(o),
                        show_slot(n),
                    );
                }
            }
            (None, Some(_)) => self.push(
                &rules::RESERVED_SLOT_REUSED,
                Hurts::Both,
                &at.member(&n.name),
                show_slot(o),
                show_slot(n),
            ),
            (Some(ot), Some(nt)) => {
                let fat = at.member(&n.name);
                if o.name != n.name {
                    self.push(
                        &rules::FIELD_RENAMED,
                        Hurts::Both,
                        &fat,
                        o.name.clone(),
                        n.name.clone(),
                    );
                }
                self.named_keys(o, n, &fat);
                self.ty(ot, nt, &fat);
            }
        }
    }

    /// A field whose named-shape key (its name, or a legacy alias) is one another field of
    /// the other version writes or accepts: each version reads the other's key into the
    /// wrong field, or rejects it as a duplicate.
    fn key_collisions(
        &mut self,
        old: &[LockSlot],
        new: &[LockSlot],
        pair_new: &[Option<usize>],
        at: &At,
    ) {
        let writes = |s: &LockSlot| -> Vec<String> {
            if s.legacy.is_empty() {
                vec![s.name.clone()]
            } else {
                s.legacy.clone()
            }
        };
        let accepts = |s: &LockSlot| -> Vec<String> {
            let mut keys = s.legacy.clone();
            keys.push(s.name.clone());
            keys
        };
        let meets = |a: &[String], b: &[String]| a.iter().find(|k| b.contains(k)).cloned();
        for (i, o) in old.iter().enumerate() {
            if o.is_reserved() {
                continue;
            }
            for (j, n) in new.iter().enumerate() {
                if n.is_reserved() || pair_new[i] == Some(j) {
                    continue;
                }
                let key = meets(&writes(n), &accepts(o)).or_else(|| meets(&writes(o), &accepts(n)));
                if let Some(key) = key {
                    self.push(
                        &rules::NAMED_KEY_REUSED,
                        Hurts::Both,
                        &at.member(&n.name),
                        format!("{} reads `{key}`", o.name),
                        format!("{} reads `{key}`", n.name),
                    );
                }
            }
        }
    }

    /// The named-shape keys: what each version writes, what each accepts.
    fn named_keys(&mut self, o: &LockSlot, n: &LockSlot, at: &At) {
        let writes = |s: &LockSlot| -> Vec<String> {
            if s.legacy.is_empty() {
                vec![s.name.clone()]
            } else {
                s.legacy.clone()
            }
        };
        let accepts =
            |s: &LockSlot, keys: &Vec<String>| *keys == s.legacy || *keys == vec![s.name.clone()];
        let (ow, nw) = (writes(o), writes(n));
        let new_to_old = !accepts(o, &nw);
        let old_to_new = !accepts(n, &ow);
        let hurts = match (new_to_old, old_to_new) {
            (false, false) => return,
            (true, false) => Hurts::NewToOld,
            (false, true) => Hurts::OldToNew,
            (true, true) => Hurts::Both,
        };
        let rule = match (o.legacy.is_empty(), n.legacy.is_empty()) {
            (true, true) => &rules::NAMED_KEY_CHANGED,
            (true, false) => &rules::LEGACY_KEY_ADDED,
            (false, true) => &rules::LEGACY_KEY_DROPPED,
            (false, false) => &rules::LEGACY_KEY_CHANGED,
        };
        self.push(rule, hurts, at, ow.join(", "), nw.join(", "));
    }

    /// An entity's key is judged by its position: renaming the key field alone is a source change
    /// (`field-renamed`), while another position, or `entity` turned on or off, changes the delta
    /// form.
    pub(super) fn entity_key(
        &mut self,
        (old, old_fields): (&Option<String>, &[LockSlot]),
        (new, new_fields): (&Option<String>, &[LockSlot]),
        at: &At,
    ) {
        let position = |key: &Option<String>, fields: &[LockSlot]| {
            key.as_ref()
                .map(|k| fields.iter().position(|s| &s.name == k))
        };
        if position(old, old_fields) == position(new, new_fields) {
            return;
        }
        let show = |key: &Option<String>| match key {
            Some(k) => format!("entity key {k}"),
            None => "not an entity".to_string(),
        };
        let at = match new.as_ref().or(old.as_ref()) {
            Some(key) => at.member(key),
            None => at.clone(),
        };
        self.push(
            &rules::ENTITY_KEY_CHANGED,
            Hurts::Both,
            &at,
            show(old),
            show(new),
        );
    }
}
