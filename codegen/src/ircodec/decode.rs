//! Decoding: bytes of either shape -> natural JSON, validating as it reads, with the
//! derive's checks in the derive's order and its error paths (built as errors unwind, with
//! the same `in_field` / `in_index` / `in_key` steps).

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::{Kind, Limits, Reader, Shape as WireShape};
use tuplet::Error;
use tuplet_schema::ir::{ItemKind, Record, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::{EnumForm, EnumPlan, Form, Node, RecordPlan, TAG_MAX, VARIANT_NAME_MAX};
use tuplet_schema::ResolvedSchema;

use super::common::{intern, names};
use super::leaf::{self, KeyOrd};
use super::lookup::message_with_id;

/// Decodes one whole message payload (either shape) of the message at `path`; bytes left
/// over are `trailing_bytes`.
pub fn decode(schema: &ResolvedSchema, path: &str, bytes: &[u8]) -> Result<Value, Error> {
    decode_with(schema, path, bytes, Limits::default())
}

/// [`decode`] with explicit decoder caps.
pub fn decode_with(
    schema: &ResolvedSchema,
    path: &str,
    bytes: &[u8],
    limits: Limits,
) -> Result<Value, Error> {
    let mut r = Reader::with_limits(bytes, limits);
    let v = Dec { schema }.named(path, &mut r)?;
    r.finish()?;
    Ok(v)
}

/// Decodes a binary envelope (the id as a msgpack uint, then the payload) of direction
/// `dir`: the message's canonical path and its natural value.
pub fn decode_envelope(
    schema: &ResolvedSchema,
    dir: tuplet_schema::ir::Dir,
    bytes: &[u8],
) -> Result<(String, Value), Error> {
    let mut r = Reader::new(bytes);
    let id = r.read_u64(0, TAG_MAX)? as u32;
    let Some(path) = message_with_id(schema, dir, id) else {
        return Err(rt::unknown_id(id));
    };
    let v = Dec { schema }.named(&path, &mut r)?;
    r.finish()?;
    Ok((path, v))
}

/// Reads one value of type `ty` in the compact shape (the delta reader reads one field at a
/// time).
pub(super) fn decode_compact_value(
    schema: &ResolvedSchema,
    ty: &TypeRef,
    r: &mut Reader<'_>,
) -> Result<Value, Error> {
    Dec { schema }.value(ty, Form::Compact, r)
}

/// Reads a compact record body of `slots` from the `avail` elements left in its array (a
/// keyframe's fields after its two leading elements).
pub(super) fn decode_compact_body(
    schema: &ResolvedSchema,
    slots: &[Slot],
    avail: u32,
    r: &mut Reader<'_>,
) -> Result<Map<String, Value>, Error> {
    Dec { schema }.compact_body(slots, avail, r)
}

struct Dec<'s> {
    schema: &'s ResolvedSchema,
}

impl Dec<'_> {
    /// A named item: record or message, enum, flags.
    fn named(&self, path: &str, r: &mut Reader<'_>) -> Result<Value, Error> {
        let item = self
            .schema
            .get(path)
            .unwrap_or_else(|| panic!("tuplet ircodec: no item {path} in the schema"));
        match &item.item.kind {
            ItemKind::Message(m) => self.record(&m.record, r),
            ItemKind::Record(rec) => self.record(rec, r),
            ItemKind::Enum(e) => match EnumPlan::of(e) {
                p if p.form == EnumForm::Unit => self.unit_enum(p, r),
                p => self.data_enum(p, r),
            },
            ItemKind::Flags(f) => {
                let width_max = f.prim.bounds(true).1 as u64;
                let known = f.bits.iter().fold(0u64, |a, b| a | (1u64 << b.bit));
                let bits = r.read_u64(0, width_max)?;
                if f.rest.is_none() && bits & !known != 0 {
                    return Err(rt::unknown_flags(bits & !known));
                }
                let mut o = Map::new();
                for b in &f.bits {
                    o.insert(b.name.clone(), Value::Bool(bits & (1u64 << b.bit) != 0));
                }
                if f.rest.is_some() && bits & !known != 0 {
                    o.insert("rest".into(), Value::from(bits & !known));
                }
                Ok(Value::Object(o))
            }
            ItemKind::Dispatch(_) => panic!("tuplet ircodec: {path} is a dispatch enum"),
        }
    }

    fn record(&self, rec: &Record, r: &mut Reader<'_>) -> Result<Value, Error> {
        let v = match r.read_shape()? {
            WireShape::Array(n) => self.compact_body(&rec.slots, n, r)?,
            WireShape::Map(n) => self.named_body(&rec.slots, n, r)?,
        };
        r.leave();
        Ok(Value::Object(v))
    }

    /// The compact body: `avail` elements remain in the array.
    fn compact_body(
        &self,
        slots: &[Slot],
        avail: u32,
        r: &mut Reader<'_>,
    ) -> Result<Map<String, Value>, Error> {
        let mut o = Map::new();
        for s in RecordPlan::of_slots(slots).slots {
            let present = avail > s.index as u32;
            match s.field {
                Some(f) => {
                    let name = intern(&f.name);
                    if present {
                        let v = self
                            .value(&f.ty, Form::Compact, r)
                            .map_err(|e| e.in_field(name))?;
                        if !v.is_null() || !s.trimmable {
                            o.insert(f.name.clone(), v);
                        }
                    } else if !s.trimmable {
                        return Err(rt::missing(name));
                    }
                }
                None => {
                    if present {
                        r.skip_value()?;
                    }
                }
            }
        }
        for _ in slots.len() as u32..avail {
            r.skip_value()?;
        }
        Ok(o)
    }

    /// The named body: `n` entries; unknown keys skipped, duplicates rejected.
    fn named_body(
        &self,
        slots: &[Slot],
        n: u32,
        r: &mut Reader<'_>,
    ) -> Result<Map<String, Value>, Error> {
        let plan = RecordPlan::of_slots(slots);
        let arms = plan.key_arms();
        let mut whole: Vec<Option<Value>> = vec![None; plan.slots.len()];
        let mut elems: Vec<Vec<Option<Value>>> = plan
            .slots
            .iter()
            .map(|s| vec![None; s.legacy.spread().map_or(0, |(keys, _)| keys.len())])
            .collect();
        for _ in 0..n {
            let key = r.read_str(0, u32::MAX)?;
            let Some(arm) = arms.iter().find(|a| a.key == key) else {
                r.skip_value()?;
                continue;
            };
            let (si, s) = (arm.slot, &plan.slots[arm.slot]);
            let Some(f) = s.field else { continue };
            let name = intern(&f.name);
            match (arm.elem, s.legacy.spread()) {
                (Some(e), Some((_, inner))) => {
                    if whole[si].is_some() || elems[si][e].is_some() {
                        return Err(rt::duplicate(key).in_field(name));
                    }
                    let v = self
                        .value(inner, Form::Named, r)
                        .map_err(|err| err.in_index(e).in_field(name))?;
                    elems[si][e] = Some(v);
                }
                _ => {
                    if whole[si].is_some() || elems[si].iter().any(Option::is_some) {
                        return Err(rt::duplicate(key).in_field(name));
                    }
                    let v = self
                        .value(&f.ty, Form::Named, r)
                        .map_err(|e| e.in_field(name))?;
                    whole[si] = Some(v);
                }
            }
        }
        let mut o = Map::new();
        for (s, f) in plan.fields() {
            let name = intern(&f.name);
            match whole[s.index].take() {
                Some(v) => {
                    if !v.is_null() || !s.trimmable {
                        o.insert(f.name.clone(), v);
                    }
                }
                None if s.legacy.spread().is_some() => {
                    let mut parts = Vec::new();
                    for (e, x) in elems[s.index].iter_mut().enumerate() {
                        match x.take() {
                            Some(x) => parts.push(x),
                            None => return Err(rt::missing_index(name, e)),
                        }
                    }
                    o.insert(f.name.clone(), Value::Array(parts));
                }
                None if s.trimmable => {}
                None => return Err(rt::missing(name)),
            }
        }
        Ok(o)
    }

    fn unit_enum(&self, e: EnumPlan, r: &mut Reader<'_>) -> Result<Value, Error> {
        if r.peek_kind()? == Kind::Str {
            let s = r.read_str(0, VARIANT_NAME_MAX)?;
            return match e.by_name(s) {
                Some(v) => Ok(Value::String(v.name.clone())),
                None => Err(rt::unknown_name(s, &names(e.variants))),
            };
        }
        let n = r.read_i64(i64::MIN, i64::MAX)?;
        match e.by_number(n) {
            Some(v) => Ok(Value::String(v.name.clone())),
            None if e.open() => Ok(Value::from(n)),
            None => Err(rt::unknown_number(n)),
        }
    }

    fn data_enum(&self, e: EnumPlan, r: &mut Reader<'_>) -> Result<Value, Error> {
        let mut o = Map::new();
        match r.read_shape()? {
            WireShape::Array(n) => {
                if n == 0 {
                    return Err(rt::missing("tag"));
                }
                let tag = r.read_u64(0, TAG_MAX)?;
                match e.by_tag(tag) {
                    Some(v) => {
                        o.insert("kind".into(), Value::String(v.name.clone()));
                        match &v.fields {
                            VariantFields::Unit => {
                                for _ in 1..n {
                                    r.skip_value()?;
                                }
                            }
                            VariantFields::Newtype { field } => {
                                if n < 2 {
                                    return Err(rt::missing("0"));
                                }
                                let x = self.value(&field.ty, Form::Compact, r)?;
                                for _ in 2..n {
                                    r.skip_value()?;
                                }
                                o.insert("value".into(), x);
                            }
                            VariantFields::Struct { record } => {
                                o.extend(self.compact_body(&record.slots, n - 1, r)?);
                            }
                        }
                    }
                    None if e.open() => {
                        for _ in 1..n {
                            r.skip_value()?;
                        }
                        o.insert("kind".into(), Value::String("unknown".into()));
                        o.insert("tag".into(), Value::from(tag));
                    }
                    None => return Err(rt::unknown_number(tag as i64)),
                }
            }
            WireShape::Map(n) => {
                if n != 1 {
                    return Err(rt::not_one_key(n));
                }
                let name = r.read_str(0, VARIANT_NAME_MAX)?;
                let Some(v) = e.by_name(name) else {
                    return Err(rt::unknown_name(name, &names(e.variants)));
                };
                o.insert("kind".into(), Value::String(v.name.clone()));
                match &v.fields {
                    VariantFields::Unit => r.skip_value()?,
                    VariantFields::Newtype { field } => {
                        let x = self.value(&field.ty, Form::Named, r)?;
                        o.insert("value".into(), x);
                    }
                    VariantFields::Struct { record } => {
                        let body = match r.read_shape()? {
                            WireShape::Array(m) => self.compact_body(&record.slots, m, r)?,
                            WireShape::Map(m) => self.named_body(&record.slots, m, r)?,
                        };
                        r.leave();
                        o.extend(body);
                    }
                }
            }
        }
        r.leave();
        Ok(Value::Object(o))
    }

    fn value(&self, ty: &TypeRef, form: Form, r: &mut Reader<'_>) -> Result<Value, Error> {
        Ok(match ty.node() {
            Node::Leaf(leaf) => leaf::decode(leaf, form, r)?,
            Node::Option { inner } => {
                if r.try_nil()? {
                    Value::Null
                } else {
                    self.value(inner, form, r)?
                }
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let n = r.read_array_len()? as usize;
                rt::check_len(n, min, max, "elements")?;
                let mut v = Vec::with_capacity(n);
                for i in 0..n {
                    v.push(self.value(inner, form, r).map_err(|e| e.in_index(i))?);
                }
                r.leave();
                Value::Array(v)
            }
            Node::Array { inner, len } => {
                let n = r.read_array_len()?;
                if n != len {
                    return Err(rt::wrong_length(n, len));
                }
                let mut v = Vec::with_capacity(n as usize);
                for i in 0..n as usize {
                    v.push(self.value(inner, form, r).map_err(|e| e.in_index(i))?);
                }
                r.leave();
                Value::Array(v)
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let n = r.read_map_len()? as usize;
                rt::check_len(n, min, max, "entries")?;
                let mut m: BTreeMap<KeyOrd, (Value, Value)> = BTreeMap::new();
                for _ in 0..n {
                    let k = self.value(key, form, r)?;
                    let ord = KeyOrd::of(key, &k);
                    let text = ord.text();
                    if m.contains_key(&ord) {
                        return Err(rt::duplicate(&text).in_key(&text));
                    }
                    let x = self.value(value, form, r).map_err(|e| e.in_key(&text))?;
                    m.insert(ord, (k, x));
                }
                r.leave();
                Value::Array(
                    m.into_values()
                        .map(|(k, x)| Value::Array(vec![k, x]))
                        .collect(),
                )
            }
            Node::Named { path } => self.named(path, r)?,
        })
    }
}
