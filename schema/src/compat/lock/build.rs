//! Building the lock of a resolved schema: each item's entry (a message per direction, a
//! type body, a dispatch enum's reservations), the acceptances written in the source, and
//! the directions every type is reached from.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{
    Lock, LockFlag, LockLen, LockMessage, LockSlot, LockVariant, ReservedIds, SourceAccept, Ty,
    TypeBody, WireDir, FORMAT,
};
use crate::ir::{self, Dir, Enum, Flags, Item, ItemKind, Message, Slot, TypeRef, VariantFields};
use crate::plan::Quantized;
use crate::resolved::{ResolvedItem, ResolvedSchema};

/// Converts an IR type (canonical paths) to a lock type.
pub fn ty_of(t: &TypeRef) -> Ty {
    match t {
        TypeRef::Bool => Ty::Bool,
        TypeRef::Int(i) => {
            let (min, max) = i.bounds();
            Ty::Int {
                prim: i.prim.as_str().to_string(),
                min,
                max,
                bigint: i.bigint,
            }
        }
        TypeRef::Float(f) => match (&f.quant, f.quantized()) {
            (Some(q), Some(Quantized { scale, qmin, qmax })) => Ty::Quant {
                bits: f.bits,
                scale,
                unit: q.unit.clone(),
                qmin,
                qmax,
                range: f.range.map(|r| [r.min, r.max]),
            },
            _ => Ty::Float {
                bits: f.bits,
                min: f.range.map(|r| r.min),
                max: f.range.map(|r| r.max),
            },
        },
        TypeRef::String { len } => Ty::String { len: len_of(len) },
        TypeRef::Bytes { len } => Ty::Bytes { len: len_of(len) },
        TypeRef::Option { inner } => Ty::Option {
            inner: Box::new(ty_of(inner)),
        },
        TypeRef::Vec { inner, len } => Ty::Vec {
            inner: Box::new(ty_of(inner)),
            len: len_of(len),
        },
        TypeRef::Array { inner, len } => Ty::Array {
            inner: Box::new(ty_of(inner)),
            len: *len,
        },
        TypeRef::Map { key, value, len } => Ty::Map {
            key: Box::new(ty_of(key)),
            value: Box::new(ty_of(value)),
            len: len_of(len),
        },
        TypeRef::Named { path } => Ty::Named { path: path.clone() },
    }
}

fn len_of(l: &ir::Len) -> LockLen {
    LockLen {
        min: l.min,
        max: l.max,
    }
}

fn slots_of(slots: &[Slot]) -> Vec<LockSlot> {
    slots
        .iter()
        .map(|s| match s {
            Slot::Field(f) => LockSlot {
                name: f.name.clone(),
                ty: Some(ty_of(&f.ty)),
                legacy: f.legacy.clone(),
                reserved: None,
            },
            Slot::Reserved(r) => LockSlot {
                name: r.ident.clone(),
                ty: None,
                legacy: Vec::new(),
                reserved: Some(r.note.clone()),
            },
        })
        .collect()
}

/// The paths named anywhere in a type.
fn named_in(t: &Ty, out: &mut Vec<String>) {
    match t {
        Ty::Named { path } => out.push(path.clone()),
        Ty::Option { inner } | Ty::Vec { inner, .. } | Ty::Array { inner, .. } => {
            named_in(inner, out)
        }
        Ty::Map { key, value, .. } => {
            named_in(key, out);
            named_in(value, out);
        }
        _ => {}
    }
}

fn named_in_slots(slots: &[LockSlot], out: &mut Vec<String>) {
    for s in slots {
        if let Some(t) = &s.ty {
            named_in(t, out);
        }
    }
}

/// A lock being built, item by item.
#[derive(Default)]
struct Builder {
    messages: BTreeMap<WireDir, BTreeMap<String, LockMessage>>,
    reserved: BTreeMap<WireDir, ReservedIds>,
    /// Every type body with its file, reached or not.
    types: BTreeMap<String, (String, TypeBody)>,
    accepts: Vec<SourceAccept>,
    lines: BTreeMap<String, usize>,
    member_locations: BTreeMap<String, BTreeMap<String, String>>,
    /// The directions each type is reached from.
    reach: BTreeMap<String, BTreeSet<WireDir>>,
}

impl Lock {
    /// Builds the lock of a resolved schema (empty history).
    pub fn from_schema(schema: &ResolvedSchema) -> Lock {
        let mut b = Builder::default();
        for d in WireDir::ALL {
            b.messages.entry(d).or_default();
        }
        for (path, ri) in &schema.items {
            b.lines.insert(path.clone(), ri.line);
            let members = ri
                .member_lines
                .iter()
                .map(|(m, line)| (m.clone(), format!("{}:{line}", ri.file)))
                .collect();
            b.member_locations.insert(path.clone(), members);
            b.accepts.extend(accepts_of(path, ri));
            let file = ri.file.clone();
            match &ri.item.kind {
                ItemKind::Message(m) => b.message(path, &file, m),
                ItemKind::Record(r) => {
                    let body = TypeBody::Record {
                        entity: r.entity_key.clone(),
                        fields: slots_of(&r.slots),
                    };
                    b.types.insert(path.clone(), (file, body));
                }
                ItemKind::Enum(e) => {
                    b.types.insert(path.clone(), (file, enum_body(e)));
                }
                ItemKind::Flags(f) => {
                    b.types.insert(path.clone(), (file, flags_body(f)));
                }
                ItemKind::Dispatch(d) => {
                    for wd in WireDir::ALL {
                        if d.dir.includes(wd.ir()) {
                            let r = b.reserved.entry(wd).or_default();
                            r.ids.extend(d.reserved_ids.iter().copied());
                            r.names.extend(d.reserved_names.iter().cloned());
                        }
                    }
                }
            }
        }
        b.reach_through_types();
        b.finish()
    }
}

impl Builder {
    /// A message's entry, under each direction it travels in; the types its fields name are
    /// reached from those directions.
    fn message(&mut self, path: &str, file: &str, m: &Message) {
        let entry = LockMessage {
            id: m.id,
            dir: m.dir,
            ty: path.to_string(),
            file: file.to_string(),
            budget: m.budget,
            delta: m.delta,
            fields: slots_of(&m.record.slots),
        };
        for d in WireDir::ALL {
            if m.dir.includes(d.ir()) {
                let mut named = Vec::new();
                named_in_slots(&entry.fields, &mut named);
                for n in named {
                    self.reach.entry(n).or_default().insert(d);
                }
                self.messages
                    .entry(d)
                    .or_default()
                    .insert(m.name.clone(), entry.clone());
            }
        }
    }

    /// Directions each type is reached from: a fixed point over references.
    fn reach_through_types(&mut self) {
        let mut changed = true;
        while changed {
            changed = false;
            for (path, (_, body)) in &self.types {
                let Some(dirs) = self.reach.get(path).cloned() else {
                    continue;
                };
                let mut named = Vec::new();
                match body {
                    TypeBody::Record { fields, .. } => named_in_slots(fields, &mut named),
                    TypeBody::Enum { variants, .. } => {
                        for v in variants {
                            named_in_slots(&v.fields, &mut named);
                        }
                    }
                    TypeBody::Flags { .. } => {}
                }
                for n in named {
                    let e = self.reach.entry(n).or_default();
                    for d in &dirs {
                        changed |= e.insert(*d);
                    }
                }
            }
        }
    }

    /// The lock: only the types a message reaches, only directions with reservations.
    fn finish(mut self) -> Lock {
        let reach = &self.reach;
        let types = self
            .types
            .into_iter()
            .filter_map(|(path, (file, body))| {
                let dirs: Vec<WireDir> = reach.get(&path)?.iter().copied().collect();
                Some((path, super::model::LockType { dirs, file, body }))
            })
            .collect();
        self.reserved
            .retain(|_, r| !r.ids.is_empty() || !r.names.is_empty());
        Lock {
            format: FORMAT,
            tuplet: None,
            deploy: None,
            messages: self.messages,
            reserved: self.reserved,
            types,
            history: Vec::new(),
            accepts: self.accepts,
            lines: self.lines,
            member_locations: self.member_locations,
            lock_lines: BTreeMap::new(),
        }
    }
}

/// Every `accept(...)` written on an item: on the item itself, then on its fields, its
/// variants and their fields, in source order.
fn accepts_of(path: &str, ri: &ResolvedItem) -> Vec<SourceAccept> {
    let item: &Item = &ri.item;
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut push = |a: &ir::Accept, member: String, dispatch: Option<Dir>| {
        let nth = seen.entry(member.clone()).or_default();
        let span = ri.accept_spans.get(&member).and_then(|s| s.get(*nth));
        *nth += 1;
        let location = match span {
            Some((line, col)) => format!("{}:{line}:{col}", ri.file),
            None => format!("{}:{}", ri.file, ri.line),
        };
        out.push(SourceAccept {
            accept: a.clone(),
            item: path.to_string(),
            member,
            dispatch,
            location,
        })
    };
    let dispatch_dir = match &item.kind {
        ItemKind::Dispatch(d) => Some(d.dir),
        _ => None,
    };
    for a in &item.accept {
        push(a, String::new(), dispatch_dir);
    }
    let fields = |slots: &[Slot], prefix: &str, push: &mut dyn FnMut(&ir::Accept, String)| {
        for s in slots {
            if let Slot::Field(f) = s {
                for a in &f.accept {
                    push(a, format!("{prefix}{}", f.name));
                }
            }
        }
    };
    match &item.kind {
        ItemKind::Message(m) => fields(&m.record.slots, "", &mut |a, m| push(a, m, None)),
        ItemKind::Record(r) => fields(&r.slots, "", &mut |a, m| push(a, m, None)),
        ItemKind::Enum(e) => {
            for v in &e.variants {
                for a in &v.accept {
                    push(a, v.name.clone(), None);
                }
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field } => {
                        for a in &field.accept {
                            push(a, format!("{}.0", v.name), None);
                        }
                    }
                    VariantFields::Struct { record } => {
                        let prefix = format!("{}.", v.name);
                        fields(&record.slots, &prefix, &mut |a, m| push(a, m, None));
                    }
                }
            }
        }
        ItemKind::Flags(_) | ItemKind::Dispatch(_) => {}
    }
    out
}

/// An enum's body: variants by number, reserved numbers sorted once each.
fn enum_body(e: &Enum) -> TypeBody {
    let mut variants: Vec<LockVariant> = e
        .variants
        .iter()
        .map(|v| {
            let (shape, fields) = match &v.fields {
                VariantFields::Unit => ("unit", Vec::new()),
                VariantFields::Newtype { field } => {
                    ("newtype", slots_of(&[Slot::Field((**field).clone())]))
                }
                VariantFields::Struct { record } => ("struct", slots_of(&record.slots)),
            };
            LockVariant {
                name: v.name.clone(),
                number: v.number,
                shape: shape.to_string(),
                fields,
            }
        })
        .collect();
    variants.sort_by_key(|v| v.number);
    let mut reserved = e.reserved.clone();
    reserved.sort();
    reserved.dedup();
    TypeBody::Enum {
        data: !e.is_unit(),
        open: e.open,
        reserved,
        variants,
    }
}

/// A flag set's body: flags by bit, reserved bits sorted once each.
fn flags_body(f: &Flags) -> TypeBody {
    let mut bits: Vec<LockFlag> = f
        .bits
        .iter()
        .map(|b| LockFlag {
            name: b.name.clone(),
            bit: b.bit,
        })
        .collect();
    bits.sort_by_key(|b| b.bit);
    let mut reserved = f.reserved.clone();
    reserved.sort();
    reserved.dedup();
    TypeBody::Flags {
        int: f.prim.as_str().to_string(),
        open: f.open,
        reserved,
        bits,
    }
}
