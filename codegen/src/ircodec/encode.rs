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
//!
//! Records and values are encoded here, enums in `encode_enum`.

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::write;
use tuplet::Error;
use tuplet_schema::ir::{Field, ItemKind, Record, Slot, TypeRef};
use tuplet_schema::plan::{Form as Shape, Node, RecordPlan};
use tuplet_schema::ResolvedSchema;

use super::common::{intern, json_type, unhex};
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

pub(super) struct Enc<'s> {
    schema: &'s ResolvedSchema,
    pub(super) shape: Shape,
    pub(super) checked: bool,
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
pub(super) fn raw(v: &Value) -> Option<Vec<u8>> {
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
    pub(super) fn fail<T>(&self, e: Error) -> Result<T, Error> {
        Err(e)
    }

    /// A JSON value of the wrong kind: an error (checked) or written as it is (unchecked).
    pub(super) fn mismatch(
        &self,
        expected: &str,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
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
    pub(super) fn compact_body(
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

    pub(super) fn named_body(
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

    pub(super) fn value(&self, ty: &TypeRef, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
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
