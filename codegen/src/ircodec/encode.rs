//! Encoding: natural JSON -> bytes of either shape, as the derived encoders write them.
//!
//! The same walk serves [`encode`] (every check of the derive, failing at the first
//! problem in field order, with its path) and [`encode_unchecked`] (writes whatever the JSON
//! says, for building invalid inputs in tests: ints beyond their bounds, strings too long,
//! unknown enum numbers and names, stray flag bits, arrays of any length, wrong kinds of
//! value). The unchecked writer also understands two test-only forms:
//! `{"$raw": "<hex>"}` anywhere writes those bytes verbatim, and a record object's
//! `"$extra"` appends entries: in the named shape `[[key, value], ...]` (a value under a
//! field's name or alias is written as that field's type), in the compact shape
//! `[value, ...]` as extra trailing elements.

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::write;
use tuplet::Error;
use tuplet_schema::ir::{Enum, Field, ItemKind, Record, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::{Form as Shape, Node, RecordPlan, TAG_MAX};
use tuplet_schema::ResolvedSchema;

use super::common::{intern, json_type, names, unhex};
use super::leaf::{self, json_int, write_i128};

/// Encodes the natural value `value` of the message at `path` in `shape`, with every check
/// of the derived encoder.
pub fn encode(
    schema: &ResolvedSchema,
    path: &str,
    value: &Value,
    shape: Shape,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(64);
    Enc {
        schema,
        shape,
        checked: true,
    }
    .named(path, value, &mut out)?;
    Ok(out)
}

/// Writes `value` for the message at `path` in `shape` without any check: the bytes say
/// whatever the JSON says (see the module docs), for building invalid inputs.
pub fn encode_unchecked(
    schema: &ResolvedSchema,
    path: &str,
    value: &Value,
    shape: Shape,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    let _ = Enc {
        schema,
        shape,
        checked: false,
    }
    .named(path, value, &mut out);
    out
}

/// Writes the natural value `v` of type `ty` in the compact shape, with every check (the
/// delta encoder writes one field at a time).
pub(super) fn encode_compact_value(
    schema: &ResolvedSchema,
    ty: &TypeRef,
    v: &Value,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    Enc {
        schema,
        shape: Shape::Compact,
        checked: true,
    }
    .value(ty, v, out)
}

struct Enc<'s> {
    schema: &'s ResolvedSchema,
    shape: Shape,
    checked: bool,
}

/// Writes any JSON value as the closest msgpack value.
fn generic(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => write::nil(out),
        Value::Bool(b) => write::bool(out, *b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                write::int(out, i)
            } else if let Some(u) = n.as_u64() {
                write::uint(out, u)
            } else {
                write::f64(out, n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => write::str(out, s),
        Value::Array(a) => {
            write::array_len(out, a.len() as u32);
            for x in a {
                generic(x, out);
            }
        }
        Value::Object(o) => {
            if let Some(bytes) = raw(v) {
                out.extend_from_slice(&bytes);
                return;
            }
            write::map_len(out, o.len() as u32);
            for (k, x) in o {
                write::str(out, k);
                generic(x, out);
            }
        }
    }
}

/// The bytes of a `{"$raw": "<hex>"}` value.
fn raw(v: &Value) -> Option<Vec<u8>> {
    let o = v.as_object()?;
    if o.len() != 1 {
        return None;
    }
    unhex(o.get("$raw")?.as_str()?)
}

/// Whether a field has a value in the object (an option's null is absent).
fn present(o: &Map<String, Value>, f: &Field) -> bool {
    match o.get(&f.name) {
        None => false,
        Some(Value::Null) => !matches!(f.ty, TypeRef::Option { .. }),
        Some(_) => true,
    }
}

impl Enc<'_> {
    fn fail<T>(&self, e: Error) -> Result<T, Error> {
        Err(e)
    }

    /// A JSON value of the wrong kind: an error (checked) or written as it is (unchecked).
    fn mismatch(&self, expected: &str, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        if self.checked {
            return Err(json_type(expected, v));
        }
        generic(v, out);
        Ok(())
    }

    fn named(&self, path: &str, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        let item = self
            .schema
            .get(path)
            .unwrap_or_else(|| panic!("tuplet ircodec: no item {path} in the schema"));
        match &item.item.kind {
            ItemKind::Message(m) => self.record(&m.record, v, out),
            ItemKind::Record(r) => self.record(r, v, out),
            ItemKind::Enum(e) if e.is_unit() => self.unit_enum(e, v, out),
            ItemKind::Enum(e) => self.data_enum(e, v, out),
            ItemKind::Flags(f) => {
                let Value::Object(o) = v else {
                    return self.mismatch("object of flags", v, out);
                };
                let known = f.bits.iter().fold(0u64, |a, b| a | (1u64 << b.bit));
                let width_max = f.prim.bounds(true).1 as u64;
                let mut bits = 0u64;
                for b in &f.bits {
                    match o.get(&b.name) {
                        // Every flag is written out, as a record's required field.
                        None if self.checked => return Err(rt::missing(intern(&b.name))),
                        None | Some(Value::Bool(false)) => {}
                        Some(Value::Bool(true)) => bits |= 1u64 << b.bit,
                        Some(other) if self.checked => {
                            return Err(json_type("bool", other).in_field(intern(&b.name)))
                        }
                        Some(_) => {}
                    }
                }
                let rest = match o.get("rest") {
                    None => 0,
                    Some(r) => match json_int(r) {
                        Some(x) => x,
                        None if self.checked => return Err(json_type("int", r)),
                        None => 0,
                    },
                };
                if self.checked {
                    if rest < 0 || rest > width_max as i128 {
                        return Err(rt::check_int(rest, 0, width_max as i128).unwrap_err());
                    }
                    let rest = rest as u64;
                    if f.rest.is_none() && rest != 0 {
                        return Err(rt::unknown_flags(rest));
                    }
                    if rest & known != 0 {
                        return Err(rt::unknown_flags(rest & known));
                    }
                    write::uint(out, bits | rest);
                } else {
                    write_i128(out, bits as i128 | rest);
                }
                Ok(())
            }
            ItemKind::Dispatch(_) => panic!("tuplet ircodec: {path} is a dispatch enum"),
        }
    }

    fn record(&self, rec: &Record, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Some(bytes) = raw(v).filter(|_| !self.checked) {
            out.extend_from_slice(&bytes);
            return Ok(());
        }
        let Value::Object(o) = v else {
            return self.mismatch("object", v, out);
        };
        match self.shape {
            Shape::Compact => self.compact_body(&rec.slots, o, None, out),
            Shape::Named => self.named_body(&rec.slots, o, out),
        }
    }

    /// The compact array; `tag` is an enum's leading element.
    fn compact_body(
        &self,
        slots: &[Slot],
        o: &Map<String, Value>,
        tag: Option<u64>,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let plan = RecordPlan::of_slots(slots);
        let required = plan.required;
        let last_present = plan
            .slots
            .iter()
            .rposition(|s| s.field.is_some_and(|f| present(o, f)))
            .map_or(0, |i| i + 1);
        let len = if self.checked {
            for (s, f) in plan.fields() {
                if s.index < required && !s.trimmable && !present(o, f) {
                    return Err(rt::missing(intern(&f.name)));
                }
            }
            required.max(last_present)
        } else {
            last_present
        };
        let extra = match o.get("$extra") {
            Some(Value::Array(a)) if !self.checked => a.as_slice(),
            _ => &[],
        };
        let lead = tag.is_some() as u32;
        write::array_len(out, len as u32 + lead + extra.len() as u32);
        if let Some(t) = tag {
            write::uint(out, t);
        }
        for s in &plan.slots[..len] {
            match s.field {
                Some(f) => match o.get(&f.name) {
                    Some(x) => self
                        .value(&f.ty, x, out)
                        .map_err(|e| e.in_field(intern(&f.name)))?,
                    None => write::nil(out),
                },
                None => write::nil(out),
            }
        }
        for x in extra {
            generic(x, out);
        }
        Ok(())
    }

    fn named_body(
        &self,
        slots: &[Slot],
        o: &Map<String, Value>,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let plan = RecordPlan::of_slots(slots);
        let mut count = 0u32;
        for (s, f) in plan.fields() {
            if self.checked && !s.trimmable && !present(o, f) {
                return Err(rt::missing(intern(&f.name)));
            }
            if !present(o, f) {
                continue;
            }
            match s.legacy.spread() {
                Some((keys, _)) => {
                    let n = o.get(&f.name).and_then(Value::as_array).map_or(0, Vec::len);
                    count += if self.checked {
                        keys.len()
                    } else {
                        n.min(keys.len())
                    } as u32;
                }
                None => count += 1,
            }
        }
        let extra = match o.get("$extra") {
            Some(Value::Array(a)) if !self.checked => a.as_slice(),
            _ => &[],
        };
        write::map_len(out, count + extra.len() as u32);
        for (s, f) in plan.fields() {
            if !present(o, f) {
                continue;
            }
            let name = intern(&f.name);
            let x = &o[&f.name];
            let key = match (s.named_key(), &f.ty) {
                (Some(key), _) => key,
                (None, TypeRef::Array { inner, len }) => {
                    let Some(a) = x.as_array() else {
                        if self.checked {
                            return Err(json_type("array", x).in_field(name));
                        }
                        continue;
                    };
                    if self.checked && a.len() != *len as usize {
                        return Err(rt::wrong_length(a.len() as u32, *len).in_field(name));
                    }
                    for (i, (key, e)) in f.legacy.iter().zip(a).enumerate() {
                        write::str(out, key);
                        self.value(inner, e, out)
                            .map_err(|err| err.in_index(i).in_field(name))?;
                    }
                    continue;
                }
                (None, _) => unreachable!("only arrays are spread"),
            };
            write::str(out, key);
            let ty = match &f.ty {
                TypeRef::Option { inner } => inner,
                ty => ty,
            };
            self.value(ty, x, out).map_err(|e| e.in_field(name))?;
        }
        let arms = plan.key_arms();
        for entry in extra {
            let (k, x) = match entry.as_array().map(Vec::as_slice) {
                Some([k, x]) => (k, x),
                _ => {
                    write::str(out, "$extra");
                    generic(entry, out);
                    continue;
                }
            };
            generic(k, out);
            let target = k.as_str().and_then(|k| {
                let arm = arms.iter().find(|a| a.key == k)?;
                Some((plan.slots[arm.slot].field?, arm.elem.is_some()))
            });
            match target {
                Some((f, true)) => match &f.ty {
                    TypeRef::Array { inner, .. } => self.value(inner, x, out)?,
                    _ => generic(x, out),
                },
                Some((f, false)) => {
                    let ty = match &f.ty {
                        TypeRef::Option { inner } => inner,
                        ty => ty,
                    };
                    self.value(ty, x, out)?
                }
                None => generic(x, out),
            }
        }
        Ok(())
    }

    fn unit_enum(&self, e: &Enum, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        match v {
            Value::String(s) => match e.variants.iter().find(|x| &x.name == s) {
                Some(x) => match self.shape {
                    Shape::Compact => write::int(out, x.number),
                    Shape::Named => write::str(out, &x.name),
                },
                None if self.checked => return self.fail(rt::unknown_name(s, &names(&e.variants))),
                None => write::str(out, s),
            },
            Value::Number(_) => {
                let Some(n) = json_int(v) else {
                    return self.mismatch("variant name or number", v, out);
                };
                if !self.checked {
                    write_i128(out, n);
                    return Ok(());
                }
                let Ok(n) = i64::try_from(n) else {
                    return self
                        .fail(rt::check_int(n, i64::MIN as i128, i64::MAX as i128).unwrap_err());
                };
                match e.variants.iter().find(|x| x.number == n) {
                    Some(x) => match self.shape {
                        Shape::Compact => write::int(out, x.number),
                        Shape::Named => write::str(out, &x.name),
                    },
                    None if e.unknown.is_some() => write::int(out, n),
                    None => return self.fail(rt::unknown_number(n)),
                }
            }
            _ => return self.mismatch("variant name", v, out),
        }
        Ok(())
    }

    fn data_enum(&self, e: &Enum, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        if let Some(bytes) = raw(v).filter(|_| !self.checked) {
            out.extend_from_slice(&bytes);
            return Ok(());
        }
        let Some(o) = v.as_object() else {
            return self.mismatch("object with a kind", v, out);
        };
        let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some(var) = e.variants.iter().find(|x| x.name == kind) else {
            if kind == "unknown" {
                let tag = o.get("tag").and_then(json_int);
                match tag {
                    Some(t) if !self.checked => {
                        write::array_len(out, 1);
                        write_i128(out, t);
                        return Ok(());
                    }
                    Some(t) if (0..=TAG_MAX as i128).contains(&t) => {
                        if e.unknown.is_none() || e.variants.iter().any(|x| x.number as i128 == t) {
                            return self.fail(rt::unknown_number(t as i64));
                        }
                        write::array_len(out, 1);
                        write::uint(out, t as u64);
                        return Ok(());
                    }
                    Some(t) => {
                        return self.fail(rt::check_int(t, 0, TAG_MAX as i128).unwrap_err());
                    }
                    None => return self.mismatch("tag", v, out),
                }
            }
            if self.checked {
                return self.fail(rt::unknown_name(kind, &names(&e.variants)));
            }
            match self.shape {
                Shape::Compact => {
                    write::array_len(out, 1);
                    write::str(out, kind);
                }
                Shape::Named => {
                    write::map_len(out, 1);
                    write::str(out, kind);
                    write::map_len(out, 0);
                }
            }
            return Ok(());
        };
        let tag = var.number as u64;
        match (&var.fields, self.shape) {
            (VariantFields::Unit, Shape::Compact) => {
                write::array_len(out, 1);
                write::uint(out, tag);
            }
            (VariantFields::Unit, Shape::Named) => {
                write::map_len(out, 1);
                write::str(out, &var.name);
                write::map_len(out, 0);
            }
            (VariantFields::Newtype { field }, shape) => {
                let x = match o.get("value") {
                    Some(x) => x,
                    None if self.checked => return self.fail(rt::missing("value")),
                    None => &Value::Null,
                };
                match shape {
                    Shape::Compact => {
                        write::array_len(out, 2);
                        write::uint(out, tag);
                    }
                    Shape::Named => {
                        write::map_len(out, 1);
                        write::str(out, &var.name);
                    }
                }
                self.value(&field.ty, x, out)?;
            }
            (VariantFields::Struct { record }, Shape::Compact) => {
                self.compact_body(&record.slots, o, Some(tag), out)?;
            }
            (VariantFields::Struct { record }, Shape::Named) => {
                write::map_len(out, 1);
                write::str(out, &var.name);
                self.named_body(&record.slots, o, out)?;
            }
        }
        Ok(())
    }

    fn value(&self, ty: &TypeRef, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        if !self.checked {
            if let Some(bytes) = raw(v) {
                out.extend_from_slice(&bytes);
                return Ok(());
            }
        }
        match ty.node() {
            Node::Leaf(leaf) => {
                if let Err(expected) = leaf::encode(leaf, v, self.checked, self.shape, out)? {
                    return self.mismatch(expected, v, out);
                }
            }
            Node::Option { inner } => match v {
                Value::Null => write::nil(out),
                _ => self.value(inner, v, out)?,
            },
            Node::Vec { inner, len } => {
                let Value::Array(a) = v else {
                    return self.mismatch("array", v, out);
                };
                if self.checked {
                    let (min, max) = len.bounds();
                    rt::check_len(a.len(), min, max, "elements")?;
                }
                write::array_len(out, a.len() as u32);
                for (i, x) in a.iter().enumerate() {
                    self.value(inner, x, out).map_err(|e| e.in_index(i))?;
                }
            }
            Node::Array { inner, len } => {
                let Value::Array(a) = v else {
                    return self.mismatch("array", v, out);
                };
                if self.checked && a.len() != len as usize {
                    return self.fail(rt::wrong_length(a.len() as u32, len));
                }
                write::array_len(out, a.len() as u32);
                for (i, x) in a.iter().enumerate() {
                    self.value(inner, x, out).map_err(|e| e.in_index(i))?;
                }
            }
            Node::Map { key, value, len } => self.map(key, value, len, v, out)?,
            Node::Named { path } => self.named(path, v, out)?,
        }
        Ok(())
    }

    fn map(
        &self,
        key: &TypeRef,
        value: &TypeRef,
        len: &tuplet_schema::ir::Len,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let pairs: Vec<(Value, &Value)> = match v {
            Value::Array(a) => {
                let mut pairs = Vec::with_capacity(a.len());
                for p in a {
                    match p.as_array().map(Vec::as_slice) {
                        Some([k, x]) => pairs.push((k.clone(), x)),
                        _ => return self.mismatch("[key, value] pair", p, out),
                    }
                }
                pairs
            }
            Value::Object(o) if self.checked || raw(v).is_none() => o
                .iter()
                .map(|(k, x)| (Value::String(k.clone()), x))
                .collect(),
            _ => return self.mismatch("array of [key, value] pairs", v, out),
        };
        if !self.checked {
            write::map_len(out, pairs.len() as u32);
            for (k, x) in &pairs {
                self.value(key, k, out)?;
                self.value(value, x, out)?;
            }
            return Ok(());
        }
        let (min, max) = len.bounds();
        rt::check_len(pairs.len(), min, max, "entries")?;
        // Key order as the derive's BTreeMap: ints numerically, strings by UTF-8 bytes.
        let int_keys = matches!(key, TypeRef::Int(_));
        let mut keyed = Vec::with_capacity(pairs.len());
        for (k, x) in pairs {
            let ord = if int_keys {
                match json_int(&k) {
                    Some(i) => (i, String::new()),
                    None => return Err(json_type("int key", &k)),
                }
            } else {
                match &k {
                    Value::String(s) => (0, s.clone()),
                    _ => return Err(json_type("string key", &k)),
                }
            };
            keyed.push((ord, k, x));
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        write::map_len(out, keyed.len() as u32);
        for w in 0..keyed.len() {
            let ((i, s), k, x) = &keyed[w];
            let text = if int_keys { i.to_string() } else { s.clone() };
            if w > 0 && keyed[w - 1].0 == keyed[w].0 {
                return Err(rt::duplicate(&text).in_key(&text));
            }
            self.value(key, k, out)?;
            self.value(value, x, out).map_err(|e| e.in_key(&text))?;
        }
        Ok(())
    }
}
