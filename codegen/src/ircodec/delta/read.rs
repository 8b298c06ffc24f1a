//! Reading a delta payload: what it carries ([`Payload`]), and, given a mirror, applying it
//! as the derive's `Delta::apply_delta` does, with its checks in its order and its error
//! codes and paths (WIRE.md, "Delta snapshots").

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::{Kind, Reader};
use tuplet::{Code, Error};
use tuplet_schema::ir::TypeRef;
use tuplet_schema::ResolvedSchema;

use super::super::decode::{decode_compact_body, decode_compact_value};
use super::super::leaf::{dequantize, f64_json, int_json, json_int};
use super::encode::{field_of, key_of, set_field, sort_lists};
use super::payload::{Change, Entry, FieldChange, Payload, PayloadForm};
use super::plan::{EntityPlan, FieldPlan, Form, MaskPlan, MessagePlan, Number};

/// A mirror to apply a payload to: the value held (none before the first keyframe) and the
/// number the next delta must carry.
pub(super) struct Target<'m> {
    /// The value held.
    pub(super) value: &'m mut Option<Value>,
    /// The number expected.
    pub(super) seq: u8,
}

/// One payload read from `buf` (the bytes `r` reads).
pub(super) struct Walk<'a, 's> {
    pub(super) schema: &'s ResolvedSchema,
    pub(super) buf: &'a [u8],
}

impl Walk<'_, '_> {
    /// Reads one payload of the message `plan`, and applies it to `mirror` when given. A
    /// keyframe replaces the mirror whatever its number; a delta needs a mirror holding a
    /// value and the expected number (else `no_baseline`). Bytes after the payload are left
    /// to the caller.
    pub(super) fn payload(
        &self,
        plan: &MessagePlan,
        r: &mut Reader<'_>,
        mirror: Option<Target<'_>>,
    ) -> Result<Payload, Error> {
        let n = r.read_array_len()?;
        if n < 2 {
            return Err(rt::mask_count(n, 2));
        }
        let got = r.read_u64(0, 127)? as u8;
        if r.try_nil()? {
            let body = decode_compact_body(self.schema, &plan.record.slots, n - 2, r)?;
            r.leave();
            let mut v = Value::Object(body);
            sort_lists(plan, &mut v)?;
            if let Some(t) = mirror {
                *t.value = Some(v.clone());
            }
            return Ok(Payload {
                seq: got,
                form: PayloadForm::Keyframe(v),
            });
        }
        let mut held = None;
        if let Some(t) = mirror {
            let Some(v) = t.value.as_mut() else {
                return Err(rt::no_baseline("this delta (no keyframe yet)"));
            };
            if got != t.seq {
                return Err(rt::no_baseline(format_args!(
                    "delta {got} (expected {}: a message was missed)",
                    t.seq
                )));
            }
            held = v.as_object_mut();
        }
        let mask = r.read_u64(0, u64::MAX)?;
        if mask.count_ones() + 2 != n {
            return Err(rt::mask_count(n, mask.count_ones() + 2));
        }
        let fields = self.fields(&plan.mask, mask, r, held)?;
        r.leave();
        Ok(Payload {
            seq: got,
            form: PayloadForm::Delta(fields),
        })
    }

    /// Reads the values announced by `mask`, applying each to `held` when given; values
    /// under bits this version does not know are skipped.
    fn fields(
        &self,
        plan: &MaskPlan,
        mask: u64,
        r: &mut Reader<'_>,
        mut held: Option<&mut Map<String, Value>>,
    ) -> Result<Vec<FieldChange>, Error> {
        let mut out = Vec::new();
        for f in &plan.fields {
            if mask & (1u64 << f.bit) == 0 {
                continue;
            }
            let change = self
                .change(f, r, held.as_deref_mut())
                .map_err(|e| e.in_field(f.name))?;
            out.push(FieldChange {
                bit: f.bit,
                field: Some(f.field.name.clone()),
                change,
            });
        }
        for bit in plan.known..64 {
            if mask & (1u64 << bit) != 0 {
                let start = r.position();
                r.skip_value()?;
                out.push(FieldChange {
                    bit,
                    field: None,
                    change: Change::Unknown(self.buf[start..r.position()].to_vec()),
                });
            }
        }
        Ok(out)
    }

    /// Reads field `f`'s change, applying it to `held` when given.
    fn change(
        &self,
        f: &FieldPlan,
        r: &mut Reader<'_>,
        held: Option<&mut Map<String, Value>>,
    ) -> Result<Change, Error> {
        Ok(match &f.form {
            Form::Difference(n) => {
                let d = r.read_i64(i64::MIN, i64::MAX)?;
                if let Some(o) = held {
                    let v = add(*n, field_of(o, f), d)?;
                    set_field(o, f, v);
                }
                Change::Difference(d)
            }
            Form::Differences(len, n) => {
                let k = r.read_array_len()?;
                if k != *len {
                    return Err(rt::wrong_length(k, *len));
                }
                let mut elems = held.and_then(|o| o.get_mut(f.name)?.as_array_mut());
                let mut ds = Vec::with_capacity(*len as usize);
                for i in 0..*len as usize {
                    let mut one = || -> Result<i64, Error> {
                        let d = r.read_i64(i64::MIN, i64::MAX)?;
                        if let Some(x) = elems.as_deref_mut().and_then(|a| a.get_mut(i)) {
                            *x = add(*n, x, d)?;
                        }
                        Ok(d)
                    };
                    ds.push(one().map_err(|e| e.in_index(i))?);
                }
                r.leave();
                Change::Differences(ds)
            }
            Form::Whole => {
                let v = decode_compact_value(self.schema, &f.field.ty, r)?;
                if let Some(o) = held {
                    set_field(o, f, v.clone());
                }
                Change::Whole(v)
            }
            Form::Keyed(ep, min, max) => {
                let mut list = held.map(|o| {
                    let slot = o
                        .entry(f.name.to_owned())
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if !slot.is_array() {
                        *slot = Value::Array(Vec::new());
                    }
                    slot
                });
                let entries =
                    self.entities(ep, r, list.as_deref_mut().and_then(Value::as_array_mut))?;
                if let Some(Value::Array(a)) = list {
                    rt::check_len(a.len(), *min, *max, "elements")?;
                }
                Change::Entities(entries)
            }
        })
    }

    /// Reads one entity list's entries, applying them to `mirror` (sorted by key) when
    /// given: a whole record enters or replaces, `key, mask, values…` changes, `key, 0`
    /// removes; a change or removal of a key the mirror lacks is `no_baseline`.
    fn entities(
        &self,
        ep: &EntityPlan,
        r: &mut Reader<'_>,
        mut mirror: Option<&mut Vec<Value>>,
    ) -> Result<Vec<Entry>, Error> {
        let record = TypeRef::Named {
            path: ep.path.to_owned(),
        };
        let n = r.read_array_len()?;
        let mut entries = Vec::new();
        let mut i = 0u32;
        while i < n {
            let at = i as usize;
            if r.peek_kind()? == Kind::Array {
                let e =
                    decode_compact_value(self.schema, &record, r).map_err(|e| e.in_index(at))?;
                if let Some(list) = mirror.as_deref_mut() {
                    let k = key_of(ep, &e);
                    match list.binary_search_by_key(&k, |x| key_of(ep, x)) {
                        Ok(p) => list[p] = e.clone(),
                        Err(p) => list.insert(p, e.clone()),
                    }
                }
                entries.push(Entry::Entered(e));
                i += 1;
                continue;
            }
            if n - i < 2 {
                return Err(entry_cut(n));
            }
            let key = read_key(ep, r).map_err(|e| e.in_index(at))?;
            let mask = r.read_u64(0, u64::MAX).map_err(|e| e.in_index(at + 1))?;
            i += 2;
            let p = match mirror.as_deref() {
                Some(list) => Some(
                    list.binary_search_by_key(&key, |x| key_of(ep, x))
                        .map_err(|_| rt::no_baseline(format_args!("entity {key}")).in_index(at))?,
                ),
                None => None,
            };
            if mask == 0 {
                if let (Some(list), Some(p)) = (mirror.as_deref_mut(), p) {
                    list.remove(p);
                }
                entries.push(Entry::Removed { key });
                continue;
            }
            if n - i < mask.count_ones() {
                return Err(entry_cut(n));
            }
            let held = match (mirror.as_deref_mut(), p) {
                (Some(list), Some(p)) => list[p].as_object_mut(),
                _ => None,
            };
            let fields = self
                .fields(&ep.mask, mask, r, held)
                .map_err(|e| e.in_index(at + 2))?;
            entries.push(Entry::Changed { key, fields });
            i += mask.count_ones();
        }
        r.leave();
        Ok(entries)
    }
}

/// Reads an entity key as the derive's `Entity::read_key`: an int in the key field's range.
fn read_key(ep: &EntityPlan, r: &mut Reader<'_>) -> Result<i128, Error> {
    let (min, max) = ep.key_type.bounds();
    Ok(if ep.key_type.prim.signed() {
        r.read_i64(min as i64, max as i64)? as i128
    } else {
        r.read_u64(min as u64, max as u64)? as i128
    })
}

/// Number `held` after difference `d`, checked against the field's range.
fn add(n: Number, held: &Value, d: i64) -> Result<Value, Error> {
    Ok(match n {
        Number::Int(it, min, max) => {
            int_json(it, rt::add_int(json_int(held).unwrap_or(0), d, min, max)?)
        }
        Number::Quant(ft, q) => {
            let x = held.as_f64().unwrap_or(0.0);
            let wire = rt::add_q(x, d, q.scale, q.qmin, q.qmax)?;
            f64_json(dequantize(ft, wire, q.scale))
        }
    })
}

/// An entity list whose element count ends inside an entry.
#[cold]
fn entry_cut(n: u32) -> Error {
    Error::new(
        Code::WrongLength,
        format!("{n} elements end inside an entry"),
    )
}
