//! The delta form of a field: how a changed field of a delta message, or of an entity in one
//! of its keyed lists, travels in a delta payload (WIRE.md, "Delta snapshots"). A receiver
//! reads the value by its own version's form, so any change of form misreads every delta:
//! a difference read as a value, or a value added to the baseline.

use super::finding::{At, Cx};
use super::show::show;
use crate::compat::lock::{Lock, LockSlot, Ty, TypeBody};
use crate::compat::rules::{self, Hurts};

/// How a changed field travels: the lock's reading of `tuplet_schema::delta::change_of`,
/// plus the keyed entity list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// The difference of its wire int from the baseline's.
    Difference,
    /// Every element's difference, in an array of `N`.
    Differences(u32),
    /// An entity list of the entity at this path: entries by key.
    Keyed(String),
    /// The new value, whole, in the compact shape.
    Whole,
}

impl Form {
    /// As `was` and `now` spell it.
    fn show(&self) -> String {
        match self {
            Form::Difference => "difference".into(),
            Form::Differences(n) => format!("{n} differences"),
            Form::Keyed(_) => "entity list".into(),
            Form::Whole => "whole".into(),
        }
    }
}

/// A number whose difference travels: a quantized float or an int of at most 32 bits.
fn number(ty: &Ty) -> bool {
    match ty {
        Ty::Quant { .. } => true,
        Ty::Int { prim, .. } => prim != "u64" && prim != "i64",
        _ => false,
    }
}

/// The form of a field of type `ty` in a delta message of `lock`.
pub(crate) fn form_of(lock: &Lock, ty: &Ty) -> Form {
    match ty {
        Ty::Array { inner, len } if number(inner) => Form::Differences(*len),
        Ty::Vec { inner, .. } => match &**inner {
            Ty::Named { path } if entity_fields(lock, path).is_some() => Form::Keyed(path.clone()),
            _ => Form::Whole,
        },
        t if number(t) => Form::Difference,
        _ => Form::Whole,
    }
}

/// The fields of the entity record at `path` (none if it is not an entity).
fn entity_fields<'a>(lock: &'a Lock, path: &str) -> Option<&'a [LockSlot]> {
    match &lock.types.get(path)?.body {
        TypeBody::Record {
            entity: Some(_),
            fields,
        } => Some(fields),
        _ => None,
    }
}

/// The new slot paired with `o`: same name, or a legacy alias naming it.
fn paired<'a>(o: &LockSlot, new: &'a [LockSlot]) -> Option<&'a LockSlot> {
    new.iter()
        .filter(|n| !n.is_reserved())
        .find(|n| n.name == o.name)
        .or_else(|| {
            new.iter()
                .find(|n| !n.is_reserved() && n.legacy.len() == 1 && n.legacy[0] == o.name)
        })
}

impl Cx<'_> {
    /// Compares the forms of a delta message's fields, and of the fields of the entities its
    /// keyed lists hold (both versions delta).
    pub(super) fn delta_forms(&mut self, old: &[LockSlot], new: &[LockSlot], at: &At) {
        self.forms(old, new, at, true);
    }

    fn forms(&mut self, old: &[LockSlot], new: &[LockSlot], at: &At, top: bool) {
        for o in old {
            let (Some(ot), Some(n)) = (&o.ty, paired(o, new)) else {
                continue;
            };
            let Some(nt) = &n.ty else { continue };
            // Inside an entity, a list of entities travels whole.
            let form = |lock, ty| match form_of(lock, ty) {
                Form::Keyed(_) if !top => Form::Whole,
                f => f,
            };
            let (of, nf) = (form(self.old, ot), form(self.new, nt));
            if let (true, Form::Keyed(op), Form::Keyed(np)) = (top, &of, &nf) {
                if let (Some(oe), Some(ne)) =
                    (entity_fields(self.old, op), entity_fields(self.new, np))
                {
                    let eat = self.new_at(np);
                    self.forms(oe, ne, &eat, false);
                }
                continue;
            }
            if of != nf {
                self.push(
                    &rules::DELTA_FORM_CHANGED,
                    Hurts::Both,
                    &at.member(&n.name),
                    format!("{} ({})", show(ot), of.show()),
                    format!("{} ({})", show(nt), nf.show()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delta::{change_of, Change};
    use crate::ir::{ItemKind, Slot};

    /// The lock's reading of a field's form agrees with the rule every back end uses, on
    /// every field of every compat fixture and of the village.
    #[test]
    fn the_lock_form_is_the_back_ends_change_form() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut schemas = vec![crate::load(&root.join("../examples/village")).unwrap()];
        for e in std::fs::read_dir(root.join("tests/compat_cases")).unwrap() {
            let dir = e.unwrap().path();
            for f in ["before.rs", "after.rs"] {
                schemas.push(crate::load_from(&dir, &dir.join(f)).unwrap());
            }
        }
        let mut fields = 0;
        for schema in &schemas {
            let lock = Lock::from_schema(schema);
            for (path, ri) in &schema.items {
                let record = match &ri.item.kind {
                    ItemKind::Message(m) => &m.record,
                    ItemKind::Record(r) => r,
                    _ => continue,
                };
                for s in &record.slots {
                    let Slot::Field(f) = s else { continue };
                    let want = match change_of(&f.ty) {
                        Change::Difference => Form::Difference,
                        Change::Differences(n) => Form::Differences(n),
                        Change::Whole => Form::Whole,
                    };
                    let got = match form_of(&lock, &crate::compat::lock::ty_of(&f.ty)) {
                        Form::Keyed(_) => Form::Whole,
                        f => f,
                    };
                    assert_eq!(got, want, "{path}.{}", f.name);
                    fields += 1;
                }
            }
        }
        assert!(fields > 500, "only {fields} fields seen");
    }
}
