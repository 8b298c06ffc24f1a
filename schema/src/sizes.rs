//! Message sizes from the resolved IR: per message the smallest and the largest possible
//! compact encoding (or why it is unbounded), the field that dominates the largest, and the
//! byte budgets (`#[tuplet(budget = N)]`) the largest size breaks.
//!
//! The largest size is computed exactly as the derive computes `Wire::MAX_SIZE` (a test in
//! `examples/village` checks they agree for every message); the smallest is the encoding
//! with every trailing option omitted, every number at its shortest encoding, every string,
//! bin, list and map at its shortest allowed length.

use crate::ir::{Dir, Enum, Field, ItemKind, Record, Slot, TypeRef, VariantFields};
use crate::plan::{EnumForm, EnumPlan, Node, RecordPlan};
use crate::resolved::ResolvedSchema;

mod report;

pub use report::{BudgetFinding, DeltaSize, Max, MessageSize, Unbounded};

pub use crate::plan::encoded::{
    bin_header, container_header, int_max, int_min, int_one, str_header,
};

/// Which lower bound of a size [`Sizer::floor`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floor {
    /// The smallest compact encoding.
    Compact,
    /// The fewest bytes in either shape, as the derive's `MIN_SIZE` counts them.
    Least,
}

fn join(path: &str, seg: &str) -> String {
    if path.is_empty() || seg.starts_with('[') {
        format!("{path}{seg}")
    } else {
        format!("{path}.{seg}")
    }
}

fn unbounded(path: &str, reason: &str) -> Max {
    Err(Unbounded {
        field: path.to_owned(),
        reason: reason.to_owned(),
    })
}

/// Sizes of types of one schema.
pub struct Sizer<'s> {
    schema: &'s ResolvedSchema,
}

impl<'s> Sizer<'s> {
    /// A sizer over `schema`.
    pub fn new(schema: &'s ResolvedSchema) -> Self {
        Sizer { schema }
    }

    /// The largest compact encoding of `ty`; `path` names it in an [`Unbounded`].
    pub fn max(&self, ty: &TypeRef, path: &str) -> Max {
        match ty.node() {
            Node::Leaf(leaf) => leaf.max_size().or_else(|reason| unbounded(path, reason)),
            Node::Option { inner } => Ok(self.max(inner, path)?.max(1)),
            Node::Vec { inner, len } => match len.max {
                Some(m) => {
                    let m = m as usize;
                    Ok(container_header(m) + self.max(inner, &join(path, "[]"))? * m)
                }
                None => unbounded(path, "a Vec without len(max)"),
            },
            Node::Array { inner, len } => {
                let n = len as usize;
                Ok(container_header(n) + self.max(inner, &join(path, "[]"))? * n)
            }
            Node::Map { key, value, len } => match len.max {
                Some(m) => {
                    let m = m as usize;
                    let k = self.max(key, &join(path, "[key]"))?;
                    let v = self.max(value, &join(path, "[]"))?;
                    Ok(container_header(m) + (k + v) * m)
                }
                None => unbounded(path, "a BTreeMap without len(max)"),
            },
            Node::Named { path: p } => self.named_max(p, path),
        }
    }

    fn named_max(&self, item: &str, path: &str) -> Max {
        let Some(it) = self.schema.get(item) else {
            return unbounded(path, "an unknown type");
        };
        match &it.item.kind {
            ItemKind::Message(m) => self.record_max(&m.record, 0, path),
            ItemKind::Record(r) => self.record_max(r, 0, path),
            ItemKind::Enum(e) => self.enum_max(e, path),
            ItemKind::Flags(f) => Ok(int_max(0, f.prim.bounds(true).1)),
            ItemKind::Dispatch(_) => unbounded(path, "a dispatch enum"),
        }
    }

    /// A record's slots plus its array header (`extra` leading elements, an enum's tag).
    fn record_max(&self, r: &Record, extra: usize, path: &str) -> Max {
        let mut total = container_header(r.slots.len() + extra);
        for slot in &r.slots {
            total += match slot {
                Slot::Field(f) => self.max(&f.ty, &join(path, &f.name))?,
                Slot::Reserved(_) => 1,
            };
        }
        Ok(total)
    }

    fn enum_max(&self, e: &Enum, path: &str) -> Max {
        let plan = EnumPlan::of(e);
        if plan.form == EnumForm::Unit {
            if let Some(n) = plan.unknown_max_size() {
                return Ok(n);
            }
            let (min, max) = plan.number_range();
            return Ok(int_max(min, max));
        }
        let mut best = plan.unknown_max_size().unwrap_or(0);
        for v in plan.variants {
            let tag = int_max(0, EnumPlan::tag(v) as i128);
            let here = join(path, &v.name);
            let size = match &v.fields {
                VariantFields::Unit => 1 + tag,
                VariantFields::Newtype { field } => 1 + tag + self.max(&field.ty, &here)?,
                VariantFields::Struct { record } => {
                    // The derive: header of slots + 1, plus the tag, plus the slots.
                    self.record_max(record, 1, &here)? + tag
                }
            };
            best = best.max(size);
        }
        Ok(best)
    }

    /// The largest payloads of the delta message `m` (keyframe, delta).
    pub fn delta_size(&self, m: &crate::ir::Message) -> DeltaSize {
        DeltaSize {
            keyframe: self.record_max(&m.record, 2, "").map(|n| n + 2),
            delta: self.delta_max(&m.record),
        }
    }

    /// `[seq, mask, ...changes]` with every field changed.
    fn delta_max(&self, r: &Record) -> Max {
        let (mask, k, changes) = self.changes_max(r, "", true)?;
        Ok(container_header(k + 2) + 1 + int_max(0, mask) + changes)
    }

    /// For the fields of `r`'s change mask: the mask with every bit set, the number of
    /// fields, and the sum of their largest changes. `top`: a delta message (its lists of
    /// entities are keyed).
    fn changes_max(
        &self,
        r: &Record,
        path: &str,
        top: bool,
    ) -> Result<(i128, usize, usize), Unbounded> {
        let (mut mask, mut k, mut total) = (0i128, 0usize, 0usize);
        for (bit, slot) in crate::delta::mask_slots(r) {
            let Slot::Field(f) = slot else { continue };
            mask |= 1i128 << bit;
            k += 1;
            let here = join(path, &f.name);
            total += match (top, self.keyed(&f.ty)) {
                (true, Some((entity, max))) => self.entities_max(entity, max, &here)?,
                _ => self.change_max(&f.ty, &here)?,
            };
        }
        Ok((mask, k, total))
    }

    /// A `Vec` of entities: the entity record and the list's largest length (`None`:
    /// unbounded).
    fn keyed(&self, ty: &TypeRef) -> Option<(&'s Record, Option<u32>)> {
        let TypeRef::Vec { inner, len } = ty else {
            return None;
        };
        let TypeRef::Named { path } = &**inner else {
            return None;
        };
        match &self.schema.get(path)?.item.kind {
            ItemKind::Record(r) if r.entity_key.is_some() => Some((r, len.max)),
            _ => None,
        }
    }

    /// The largest change of one field: a difference, differences, or the whole value.
    fn change_max(&self, ty: &TypeRef, path: &str) -> Max {
        use crate::delta::{change_of, Change};
        let diff = |t: &TypeRef| match t {
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                int_max(min - max, max - min)
            }
            TypeRef::Float(ft) => ft.quantized().map_or(9, |q| {
                int_max((q.qmin - q.qmax) as i128, (q.qmax - q.qmin) as i128)
            }),
            _ => 9,
        };
        Ok(match (change_of(ty), ty) {
            (Change::Difference, t) => diff(t),
            (Change::Differences(n), TypeRef::Array { inner, .. }) => {
                container_header(n as usize) + n as usize * diff(inner)
            }
            _ => return self.max(ty, path),
        })
    }

    /// The largest entries of a list of at most `max` entities `e`: each entity replaced
    /// (`key, 0` and the new one whole) or changed in every field (`key, mask, ...`).
    fn entities_max(&self, e: &Record, max: Option<u32>, path: &str) -> Max {
        let Some(l) = max else {
            return unbounded(path, "a Vec without len(max)");
        };
        let l = l as usize;
        let key = e
            .fields()
            .find(|f| Some(&f.name) == e.entity_key.as_ref())
            .map_or(Ok(9), |f| self.max(&f.ty, path))?;
        let whole = self.record_max(e, 0, &join(path, "[]"))?;
        let (mask, k, changes) = self.changes_max(e, &join(path, "[]"), false)?;
        let changed = key + int_max(0, mask) + changes;
        let replaced = key + 1 + whole;
        // Entities changed or replaced: the larger of the two per entity, and the array
        // header of the larger entry count (all changed: key, mask, k values; all replaced:
        // key, 0, the whole).
        let entries = (l * (2 + k)).max(3 * l);
        Ok(container_header(entries) + l * changed.max(replaced))
    }

    /// The smallest compact encoding of `ty`.
    pub fn min(&self, ty: &TypeRef) -> usize {
        self.floor(ty, Floor::Compact)
    }

    /// The fewest bytes any encoding of `ty` takes, in the compact or the named shape (a
    /// lower bound: a number counts one byte, a record one byte of key per named field, an
    /// enum or flag set one byte). The derive's `Wire::MIN_SIZE` computes the same.
    pub fn least(&self, ty: &TypeRef) -> usize {
        self.floor(ty, Floor::Least)
    }

    fn floor(&self, ty: &TypeRef, floor: Floor) -> usize {
        match ty.node() {
            Node::Leaf(leaf) => match floor {
                Floor::Compact => leaf.min_size(),
                Floor::Least => leaf.least_size(),
            },
            Node::Option { .. } => 1,
            Node::Vec { inner, len } => {
                let m = len.min.unwrap_or(0) as usize;
                container_header(m) + m * self.floor(inner, floor)
            }
            Node::Array { inner, len } => {
                container_header(len as usize) + len as usize * self.floor(inner, floor)
            }
            Node::Map { key, value, len } => {
                let m = len.min.unwrap_or(0) as usize;
                container_header(m) + m * (self.floor(key, floor) + self.floor(value, floor))
            }
            Node::Named { path } => match floor {
                Floor::Compact => self.named_min(path),
                Floor::Least => self.named_least(path),
            },
        }
    }

    fn named_min(&self, path: &str) -> usize {
        match self.schema.get(path).map(|i| &i.item.kind) {
            Some(ItemKind::Message(m)) => self.record_min(&m.record, 0),
            Some(ItemKind::Record(r)) => self.record_min(r, 0),
            Some(ItemKind::Enum(e)) if e.is_unit() => e
                .variants
                .iter()
                .map(|v| int_one(v.number as i128))
                .min()
                .unwrap_or(1),
            Some(ItemKind::Enum(e)) => e
                .variants
                .iter()
                .map(|v| {
                    let tag = int_one(EnumPlan::tag(v) as i128);
                    match &v.fields {
                        VariantFields::Unit => 1 + tag,
                        VariantFields::Newtype { field } => 1 + tag + self.min(&field.ty),
                        VariantFields::Struct { record } => self.record_min(record, 1) + tag,
                    }
                })
                .min()
                .unwrap_or(2),
            _ => 1,
        }
    }

    /// A record's least encoding: its header plus every field that is not an `Option` (the
    /// compact shape writes them all; the named shape each under a key of at least one
    /// byte); anything else, one byte.
    fn named_least(&self, path: &str) -> usize {
        let record = match self.schema.get(path).map(|i| &i.item.kind) {
            Some(ItemKind::Message(m)) => &m.record,
            Some(ItemKind::Record(r)) => r,
            _ => return 1,
        };
        1 + record
            .fields()
            .filter(|f| !matches!(f.ty, TypeRef::Option { .. }))
            .map(|f| self.least(&f.ty))
            .sum::<usize>()
    }

    /// A record with its trailing options omitted.
    fn record_min(&self, r: &Record, extra: usize) -> usize {
        let plan = RecordPlan::of(r);
        let required = plan.required;
        let body: usize = plan.slots[..required]
            .iter()
            .map(|s| s.field.map_or(1, |f| self.min(&f.ty)))
            .sum();
        container_header(required + extra) + body
    }

    /// The field of `fields` with the largest maximum, descending into records and
    /// elements to name the part that dominates (`birds[].pos`); an unbounded field wins.
    fn dominant(&self, fields: &[&Field], path: &str) -> Option<(String, Option<usize>)> {
        let mut best: Option<(&Field, Max)> = None;
        for f in fields {
            let m = self.max(&f.ty, &join(path, &f.name));
            let better = match (&best, &m) {
                (None, _) => true,
                (Some((_, Ok(b))), Ok(x)) => x > b,
                (Some((_, Ok(_))), Err(_)) => true,
                (Some((_, Err(_))), _) => false,
            };
            if better {
                best = Some((f, m));
            }
        }
        let (f, m) = best?;
        let here = join(path, &f.name);
        match m {
            Err(u) => Some((u.field, None)),
            Ok(n) => {
                // Descend while one nested field holds most of this one.
                let deeper = self.inner_fields(&f.ty, &here).and_then(|(fs, p)| {
                    let refs: Vec<&Field> = fs.iter().collect();
                    self.dominant(&refs, &p)
                });
                match deeper {
                    Some((p, Some(k))) if k * 2 > n => Some((p, Some(k))),
                    _ => Some((here, Some(n))),
                }
            }
        }
    }

    /// The fields of the record a type holds (through options, lists, arrays and map
    /// values), with the path prefix to them.
    fn inner_fields(&self, ty: &TypeRef, path: &str) -> Option<(Vec<Field>, String)> {
        match ty.node() {
            Node::Option { inner } => self.inner_fields(inner, path),
            Node::Vec { inner, .. } | Node::Array { inner, .. } => {
                self.inner_fields(inner, &join(path, "[]"))
            }
            Node::Map { value, .. } => self.inner_fields(value, &join(path, "[]")),
            Node::Named { path: p } => {
                let rec = match &self.schema.get(p)?.item.kind {
                    ItemKind::Record(r) => r,
                    ItemKind::Message(m) => &m.record,
                    _ => return None,
                };
                Some((rec.fields().cloned().collect(), path.to_owned()))
            }
            Node::Leaf(_) => None,
        }
    }
}

/// The sizes of every message, client-to-server first, each direction by id.
pub fn message_sizes(schema: &ResolvedSchema) -> Vec<MessageSize> {
    let sizer = Sizer::new(schema);
    let mut out = Vec::new();
    for dir in [Dir::C2s, Dir::S2c] {
        for (item, m) in schema.messages(dir) {
            let max = sizer.record_max(&m.record, 0, "");
            let min = sizer.record_min(&m.record, 0);
            let dominant = sizer.dominant(&m.record.fields().collect::<Vec<_>>(), "");
            out.push(MessageSize {
                name: m.name.clone(),
                id: m.id,
                dir,
                path: item.path.clone(),
                file: item.file.clone(),
                line: item.line,
                budget: m.budget,
                min,
                max,
                dominant,
                delta: m.delta.then(|| sizer.delta_size(m)),
            });
        }
    }
    out
}

/// Every message whose largest possible compact size exceeds its declared budget (or is
/// unbounded while it has one), naming the field that dominates.
pub fn budget_findings(schema: &ResolvedSchema) -> Vec<BudgetFinding> {
    message_sizes(schema)
        .into_iter()
        .filter_map(|s| {
            let budget = s.budget?;
            let (largest, reason) = match &s.largest() {
                Ok(n) if *n <= budget as usize => return None,
                Ok(n) => (Some(*n), None),
                Err(u) => (None, Some(u.reason.clone())),
            };
            let field = match (&s.largest(), &s.dominant) {
                (Err(u), _) => u.field.clone(),
                (_, Some((f, _))) => f.clone(),
                _ => String::new(),
            };
            Some(BudgetFinding {
                message: s.name,
                dir: s.dir,
                id: s.id,
                budget,
                largest,
                field,
                reason,
                file: s.file,
                line: s.line,
            })
        })
        .collect()
}
