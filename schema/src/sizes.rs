//! Message sizes from the resolved IR: per message the smallest and the largest possible
//! compact encoding (or why it is unbounded), the field that dominates the largest, and the
//! byte budgets (`#[tuplet(budget = N)]`) the largest size breaks.
//!
//! The largest size is computed exactly as the derive computes `Wire::MAX_SIZE` (a test in
//! `examples/village` checks they agree for every message); the smallest is the encoding
//! with every trailing option omitted, every number at its shortest encoding, every string,
//! bin, list and map at its shortest allowed length.

use crate::ir::{Dir, Enum, Field, ItemKind, Record, Slot, TypeRef, VariantFields};
use crate::plan::{EnumForm, EnumPlan, RecordPlan};
use crate::resolved::ResolvedSchema;

/// Why a size has no bound: the field path (`notes[].text`) and what is unbounded there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unbounded {
    /// The path from the message root, in canonical names (`[]` for any element).
    pub field: String,
    /// What has no limit (`String without len(max)`).
    pub reason: String,
}

/// One message's sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageSize {
    /// The wire name.
    pub name: String,
    /// The envelope id.
    pub id: u32,
    /// The direction it is listed in (`C2s` or `S2c`; a `both` message is listed twice).
    pub dir: Dir,
    /// The canonical path of the message type.
    pub path: String,
    /// Its source file, relative to the crate.
    pub file: String,
    /// The line of its identifier.
    pub line: usize,
    /// The declared byte budget.
    pub budget: Option<u32>,
    /// The smallest compact encoding in bytes.
    pub min: usize,
    /// The largest compact encoding in bytes, or why there is none.
    pub max: Result<usize, Unbounded>,
    /// The field whose largest encoding is the biggest share of the maximum (the
    /// unbounded one when the message is unbounded), with its largest size; `None` for a
    /// message without fields.
    pub dominant: Option<(String, Option<usize>)>,
}

/// A message whose largest possible size breaks its declared budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetFinding {
    /// The wire name.
    pub message: String,
    /// The direction.
    pub dir: Dir,
    /// The envelope id.
    pub id: u32,
    /// The declared budget, bytes.
    pub budget: u32,
    /// The largest possible compact size; `None` when unbounded.
    pub largest: Option<usize>,
    /// The field that dominates the largest size (the unbounded one when unbounded).
    pub field: String,
    /// Why it is unbounded, when it is.
    pub reason: Option<String>,
    /// The message's source file, relative to the crate.
    pub file: String,
    /// The line of the message's identifier.
    pub line: usize,
}

impl std::fmt::Display for BudgetFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.largest, &self.reason) {
            (Some(n), _) => write!(
                f,
                "{}:{}: {} ({}, id {}): up to {n} bytes, over its budget of {} bytes; the largest \
                 field is `{}`",
                self.file,
                self.line,
                self.message,
                self.dir.as_str(),
                self.id,
                self.budget,
                self.field
            ),
            (None, reason) => write!(
                f,
                "{}:{}: {} ({}, id {}): unbounded, but its budget is {} bytes: `{}` is {}",
                self.file,
                self.line,
                self.message,
                self.dir.as_str(),
                self.id,
                self.budget,
                self.field,
                reason.as_deref().unwrap_or("unbounded")
            ),
        }
    }
}

/// The msgpack header size of an array or map of up to `n` elements.
pub fn container_header(n: usize) -> usize {
    if n < 16 {
        1
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The msgpack header size of a str of `n` bytes.
pub fn str_header(n: usize) -> usize {
    if n < 32 {
        1
    } else if n <= u8::MAX as usize {
        2
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The msgpack header size of a bin of `n` bytes.
pub fn bin_header(n: usize) -> usize {
    if n <= u8::MAX as usize {
        2
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The encoded size of one int.
pub fn int_one(v: i128) -> usize {
    if v >= 0 {
        match v {
            0..=127 => 1,
            128..=0xff => 2,
            0x100..=0xffff => 3,
            0x1_0000..=0xffff_ffff => 5,
            _ => 9,
        }
    } else if v >= -32 {
        1
    } else if v >= i8::MIN as i128 {
        2
    } else if v >= i16::MIN as i128 {
        3
    } else if v >= i32::MIN as i128 {
        5
    } else {
        9
    }
}

/// The largest encoding of an int in `min..=max` (as the derive computes it).
pub fn int_max(min: i128, max: i128) -> usize {
    int_one(min).max(int_one(max))
}

/// The smallest encoding of an int in `min..=max`.
pub fn int_min(min: i128, max: i128) -> usize {
    if min <= 0 && max >= 0 {
        1
    } else if min > 0 {
        int_one(min)
    } else {
        int_one(max)
    }
}

type Max = Result<usize, Unbounded>;

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
        match ty {
            TypeRef::Bool => Ok(1),
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                Ok(int_max(min, max))
            }
            TypeRef::Float(ft) => Ok(match ft.quantized() {
                Some(q) => int_max(q.qmin as i128, q.qmax as i128),
                None if ft.bits == 32 => 5,
                None => 9,
            }),
            TypeRef::String { len } => match len.max {
                Some(m) => Ok(str_header(m as usize) + m as usize),
                None => unbounded(path, "a String without len(max)"),
            },
            TypeRef::Bytes { len } => match len.max {
                Some(m) => Ok(bin_header(m as usize) + m as usize),
                None => unbounded(path, "bytes without len(max)"),
            },
            TypeRef::Option { inner } => Ok(self.max(inner, path)?.max(1)),
            TypeRef::Vec { inner, len } => match len.max {
                Some(m) => {
                    let m = m as usize;
                    Ok(container_header(m) + self.max(inner, &join(path, "[]"))? * m)
                }
                None => unbounded(path, "a Vec without len(max)"),
            },
            TypeRef::Array { inner, len } => {
                let n = *len as usize;
                Ok(container_header(n) + self.max(inner, &join(path, "[]"))? * n)
            }
            TypeRef::Map { key, value, len } => match len.max {
                Some(m) => {
                    let m = m as usize;
                    let k = self.max(key, &join(path, "[key]"))?;
                    let v = self.max(value, &join(path, "[]"))?;
                    Ok(container_header(m) + (k + v) * m)
                }
                None => unbounded(path, "a BTreeMap without len(max)"),
            },
            TypeRef::Named { path: p } => self.named_max(p, path),
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

    /// The smallest compact encoding of `ty`.
    pub fn min(&self, ty: &TypeRef) -> usize {
        match ty {
            TypeRef::Bool => 1,
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                int_min(min, max)
            }
            TypeRef::Float(ft) => match ft.quantized() {
                Some(q) => int_min(q.qmin as i128, q.qmax as i128),
                None if ft.bits == 32 => 5,
                None => 9,
            },
            TypeRef::String { len } => {
                let m = len.min.unwrap_or(0) as usize;
                str_header(m) + m
            }
            TypeRef::Bytes { len } => {
                let m = len.min.unwrap_or(0) as usize;
                bin_header(m) + m
            }
            TypeRef::Option { .. } => 1,
            TypeRef::Vec { inner, len } => {
                let m = len.min.unwrap_or(0) as usize;
                container_header(m) + m * self.min(inner)
            }
            TypeRef::Array { inner, len } => {
                container_header(*len as usize) + *len as usize * self.min(inner)
            }
            TypeRef::Map { key, value, len } => {
                let m = len.min.unwrap_or(0) as usize;
                container_header(m) + m * (self.min(key) + self.min(value))
            }
            TypeRef::Named { path } => match self.schema.get(path).map(|i| &i.item.kind) {
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
            },
        }
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
        match ty {
            TypeRef::Option { inner } => self.inner_fields(inner, path),
            TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => {
                self.inner_fields(inner, &join(path, "[]"))
            }
            TypeRef::Map { value, .. } => self.inner_fields(value, &join(path, "[]")),
            TypeRef::Named { path: p } => {
                let rec = match &self.schema.get(p)?.item.kind {
                    ItemKind::Record(r) => r,
                    ItemKind::Message(m) => &m.record,
                    _ => return None,
                };
                Some((
                    fields_of(rec).into_iter().cloned().collect(),
                    path.to_owned(),
                ))
            }
            _ => None,
        }
    }
}

fn fields_of(r: &Record) -> Vec<&Field> {
    r.slots
        .iter()
        .filter_map(|s| match s {
            Slot::Field(f) => Some(f),
            Slot::Reserved(_) => None,
        })
        .collect()
}

/// The sizes of every message, client-to-server first, each direction by id.
pub fn message_sizes(schema: &ResolvedSchema) -> Vec<MessageSize> {
    let sizer = Sizer::new(schema);
    let mut out = Vec::new();
    for dir in [Dir::C2s, Dir::S2c] {
        for (item, m) in schema.messages(dir) {
            let max = sizer.record_max(&m.record, 0, "");
            let min = sizer.record_min(&m.record, 0);
            let dominant = sizer.dominant(&fields_of(&m.record), "");
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
            let (largest, reason) = match &s.max {
                Ok(n) if *n <= budget as usize => return None,
                Ok(n) => (Some(*n), None),
                Err(u) => (None, Some(u.reason.clone())),
            };
            let field = match (&s.max, &s.dominant) {
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
