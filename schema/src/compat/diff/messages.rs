//! Messages: their ids, names, directions and delta form, and the reservations of removed
//! ones, per direction.

use std::collections::{BTreeMap, BTreeSet};

use super::finding::{At, Cx};
use crate::compat::lock::{self, LockMessage};
use crate::compat::rules::{self, Hurts};

const EMPTY: &BTreeMap<String, LockMessage> = &BTreeMap::new();

impl Cx<'_> {
    pub(super) fn messages(&mut self) {
        let d = self.dir;
        let old = self.old.messages.get(&d).unwrap_or(EMPTY);
        let new = self.new.messages.get(&d).unwrap_or(EMPTY);
        let old_other = self.old.messages.get(&d.other()).unwrap_or(EMPTY);
        let new_other = self.new.messages.get(&d.other()).unwrap_or(EMPTY);
        let empty = Default::default();
        let old_res = self.old.reserved.get(&d).unwrap_or(&empty);
        let new_res = self.new.reserved.get(&d).unwrap_or(&empty);
        let mut claimed: BTreeSet<&str> = BTreeSet::new();
        for (name, om) in old {
            self.via = format!("{} {name}", d.as_str());
            if let Some(nm) = new.get(name) {
                let at = self.new_at(&nm.ty);
                if om.id != nm.id {
                    self.push(
                        &rules::ID_CHANGED,
                        Hurts::Both,
                        &at,
                        om.id.to_string(),
                        nm.id.to_string(),
                    );
                }
                if om.delta != nm.delta {
                    self.push(
                        &rules::DELTA_TOGGLED,
                        Hurts::Both,
                        &at,
                        delta_form(om.delta).to_string(),
                        delta_form(nm.delta).to_string(),
                    );
                }
                self.type_renamed(&om.ty, &nm.ty, &at);
                self.record(&om.fields, &nm.fields, &at);
                if om.delta && nm.delta {
                    self.delta_forms(&om.fields, &nm.fields, &at);
                }
                continue;
            }
            let renamed = new
                .iter()
                .find(|(n, m)| m.id == om.id && !old.contains_key(*n));
            if let Some((new_name, nm)) = renamed {
                claimed.insert(new_name);
                let at = self.new_at(&nm.ty);
                self.push(
                    &rules::MESSAGE_RENAMED,
                    Hurts::Both,
                    &at,
                    name.clone(),
                    new_name.clone(),
                );
                self.type_renamed(&om.ty, &nm.ty, &at);
                self.record(&om.fields, &nm.fields, &at);
                if om.delta && nm.delta {
                    self.delta_forms(&om.fields, &nm.fields, &at);
                }
                continue;
            }
            let moved = new_other.get(name).filter(|nm| {
                nm.dir != om.dir
                    && !matches!(old_other.get(name), Some(o) if o.dir != crate::ir::Dir::Both)
            });
            if let Some(nm) = moved {
                let at = self.new_at(&nm.ty);
                self.push(
                    &rules::DIRECTION_CHANGED,
                    Hurts::Both,
                    &at,
                    om.dir.as_str().to_string(),
                    nm.dir.as_str().to_string(),
                );
                continue;
            }
            if new_res.ids.contains(&om.id) && new_res.names.contains(name) {
                continue;
            }
            let at = self.removed_at(&format!("messages/{}/{name}", d.as_str()), &om.ty, &om.file);
            let missing = match (new_res.ids.contains(&om.id), new_res.names.contains(name)) {
                (true, false) => " (its id is reserved, its name is not)",
                (false, true) => " (its name is reserved, its id is not)",
                _ => "",
            };
            self.push(
                &rules::MESSAGE_REMOVED,
                Hurts::Both,
                &at,
                format!("{name} (id {}){missing}", om.id),
                String::new(),
            );
        }
        for (name, nm) in new {
            if old.contains_key(name) || claimed.contains(name.as_str()) {
                continue;
            }
            self.via = format!("{} {name}", d.as_str());
            let at = self.new_at(&nm.ty);
            if let Some((other, _)) = old.iter().find(|(n, m)| m.id == nm.id && *n != name) {
                self.push(
                    &rules::ID_REUSED,
                    Hurts::Both,
                    &at,
                    format!("{} ({other})", nm.id),
                    format!("{} ({name})", nm.id),
                );
            } else if old_res.ids.contains(&nm.id) {
                self.push(
                    &rules::ID_REUSED,
                    Hurts::Both,
                    &at,
                    format!("{} (reserved)", nm.id),
                    format!("{} ({name})", nm.id),
                );
            }
            if old_res.names.contains(name) {
                self.push(
                    &rules::NAME_REUSED,
                    Hurts::Both,
                    &at,
                    format!("{name} (reserved)"),
                    format!("{name} (id {})", nm.id),
                );
            }
        }
        self.via = String::new();
        for id in &old_res.ids {
            if !new_res.ids.contains(id) && !new.values().any(|m| m.id == *id) {
                let at = self.removed_at(&format!("reserved/{}/ids", d.as_str()), "", "");
                self.push(
                    &rules::RESERVATION_DROPPED,
                    Hurts::Both,
                    &at,
                    format!("id {id}"),
                    String::new(),
                );
            }
        }
        for name in &old_res.names {
            if !new_res.names.contains(name) && !new.contains_key(name) {
                let at = self.removed_at(&format!("reserved/{}/names", d.as_str()), "", "");
                self.push(
                    &rules::RESERVATION_DROPPED,
                    Hurts::Both,
                    &at,
                    format!("name {name}"),
                    String::new(),
                );
            }
        }
    }

    /// The location of something gone: its entry in the lock file.
    pub(super) fn removed_at(&self, key: &str, item: &str, file: &str) -> At {
        let location = match self.old.lock_line(key) {
            Some(l) => format!("{}:{l}", lock::FILE_NAME),
            None if !file.is_empty() => format!("{file} (removed)"),
            None => lock::FILE_NAME.to_string(),
        };
        At {
            item: item.to_string(),
            member: String::new(),
            location,
            in_new: false,
        }
    }

    pub(super) fn type_renamed(&mut self, old: &str, new: &str, at: &At) {
        if ident(old) != ident(new) {
            self.push(
                &rules::TYPE_RENAMED,
                Hurts::Both,
                at,
                ident(old).to_string(),
                ident(new).to_string(),
            );
        }
    }
}

pub(super) fn ident(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

fn delta_form(delta: bool) -> &'static str {
    if delta {
        "delta"
    } else {
        "full"
    }
}
