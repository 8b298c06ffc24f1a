//! Writing a delta payload from natural JSON, as the derive's `Delta::encode_delta` writes
//! it: a keyframe (`[seq, nil, ...fields]`, entity lists in key order) or the changes against
//! the baseline (`[seq, mask, ...changed]`), entity lists entry by entry (WIRE.md, "Delta
//! snapshots").

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::{write, Reader};
use tuplet::Error;
use tuplet_schema::ResolvedSchema;

use super::super::encode::{encode, encode_compact_value};
use super::super::leaf::json_int;
use super::super::Shape;
use super::plan::{EntityPlan, FieldPlan, Form, MaskPlan, MessagePlan, Number};

/// The value of field `f` in `o` (an absent option is null).
pub(super) fn field_of<'v>(o: &'v Map<String, Value>, f: &FieldPlan) -> &'v Value {
    o.get(f.name).unwrap_or(&Value::Null)
}

/// Sets field `f` of `o` as the natural JSON holds it: an absent trailing option is left out.
pub(super) fn set_field(o: &mut Map<String, Value>, f: &FieldPlan, v: Value) {
    if v.is_null() && f.trimmable {
        o.remove(f.name);
    } else {
        o.insert(f.name.to_owned(), v);
    }
}

/// The key of entity `e` (its key field's int).
pub(super) fn key_of(ep: &EntityPlan, e: &Value) -> i128 {
    e.get(ep.key).and_then(json_int).unwrap_or_default()
}

/// Sorts an entity list by key; a key present twice is `duplicate_key` at the second one
/// (its position in the sorted list, as the derive's `sort_entities`).
pub(super) fn sort_entities(ep: &EntityPlan, list: &mut [Value]) -> Result<(), Error> {
    list.sort_by_key(|e| key_of(ep, e));
    for (i, w) in list.windows(2).enumerate() {
        let k = key_of(ep, &w[1]);
        if key_of(ep, &w[0]) == k {
            return Err(rt::duplicate(k).in_field(ep.key).in_index(i + 1));
        }
    }
    Ok(())
}

/// Sorts every keyed list of message value `v` by key.
pub(super) fn sort_lists(plan: &MessagePlan, v: &mut Value) -> Result<(), Error> {
    let Some(o) = v.as_object_mut() else {
        return Ok(());
    };
    for f in &plan.mask.fields {
        if let (Form::Keyed(ep, ..), Some(Value::Array(list))) = (&f.form, o.get_mut(f.name)) {
            sort_entities(ep, list).map_err(|e| e.in_field(f.name))?;
        }
    }
    Ok(())
}

/// Writes the keyframe of `value` (message `path`) numbered `seq`; returns what was sent,
/// its entity lists sorted.
pub(super) fn keyframe(
    schema: &ResolvedSchema,
    path: &str,
    plan: &MessagePlan,
    value: &Value,
    seq: u8,
    out: &mut Vec<u8>,
) -> Result<Value, Error> {
    let mut v = value.clone();
    sort_lists(plan, &mut v)?;
    let bytes = encode(schema, path, &v, Shape::Compact)?;
    let mut r = Reader::new(&bytes);
    let n = r.read_array_len()?;
    write::array_len(out, n + 2);
    write::uint(out, seq as u64);
    write::nil(out);
    out.extend_from_slice(&bytes[r.position()..]);
    Ok(v)
}

/// Writes the changes of `value` against `base` numbered `seq`, and makes `base` what was
/// sent. Returns false, writing nothing, when nothing changed on the wire.
pub(super) fn changes(
    schema: &ResolvedSchema,
    plan: &MessagePlan,
    value: &Value,
    base: &mut Value,
    seq: u8,
    out: &mut Vec<u8>,
) -> Result<bool, Error> {
    let empty = Map::new();
    let cur = value.as_object().unwrap_or(&empty);
    let Some(b) = base.as_object_mut() else {
        return Ok(false);
    };
    let mut body = Vec::new();
    let mut mask = 0u64;
    let mut count = 0u32;
    for f in &plan.mask.fields {
        let c = field_of(cur, f);
        if let Form::Keyed(ep, ..) = &f.form {
            let list: &[Value] = c.as_array().map_or(&[], Vec::as_slice);
            let mut held = match b.remove(f.name) {
                Some(Value::Array(a)) => a,
                _ => Vec::new(),
            };
            let wrote = encode_entities(schema, ep, list, &mut held, &mut body)
                .map_err(|e| e.in_field(f.name))?;
            b.insert(f.name.to_owned(), Value::Array(held));
            if wrote {
                mask |= 1u64 << f.bit;
                count += 1;
            }
            continue;
        }
        if let Some(bytes) = change(schema, f, c, field_of(b, f))? {
            body.extend_from_slice(&bytes);
            set_field(b, f, c.clone());
            mask |= 1u64 << f.bit;
            count += 1;
        }
    }
    if mask == 0 {
        return Ok(false);
    }
    write::array_len(out, count + 2);
    write::uint(out, seq as u64);
    write::uint(out, mask);
    out.extend_from_slice(&body);
    Ok(true)
}

/// The bytes of field `f`'s change from `base` to `cur` (a difference, differences or the
/// whole value), or `None` when both encode the same.
fn change(
    schema: &ResolvedSchema,
    f: &FieldPlan,
    cur: &Value,
    base: &Value,
) -> Result<Option<Vec<u8>>, Error> {
    let mut now = Vec::new();
    encode_compact_value(schema, &f.field.ty, cur, &mut now)?;
    let mut was = Vec::new();
    encode_compact_value(schema, &f.field.ty, base, &mut was)?;
    if now == was {
        return Ok(None);
    }
    Ok(Some(match &f.form {
        Form::Difference(n) => {
            let mut out = Vec::with_capacity(9);
            write::int(&mut out, difference(*n, cur, base)?);
            out
        }
        Form::Differences(len, n) => {
            let mut out = Vec::with_capacity(1 + 9 * *len as usize);
            write::array_len(&mut out, *len);
            let (xs, ys) = (cur.as_array(), base.as_array());
            for (x, y) in xs.into_iter().flatten().zip(ys.into_iter().flatten()) {
                write::int(&mut out, difference(*n, x, y)?);
            }
            out
        }
        Form::Whole | Form::Keyed(..) => now,
    }))
}

/// The difference of number `cur`'s wire int from `base`'s.
fn difference(n: Number, cur: &Value, base: &Value) -> Result<i64, Error> {
    Ok(match n {
        Number::Int(..) => {
            let (c, b) = (json_int(cur).unwrap_or(0), json_int(base).unwrap_or(0));
            (c - b) as i64
        }
        Number::Quant(ft, q) => {
            let narrow = |v: &Value| {
                let x = v.as_f64().unwrap_or(0.0);
                if ft.bits == 32 {
                    x as f32 as f64
                } else {
                    x
                }
            };
            let c = rt::quant::quantize(narrow(cur), q.scale, q.qmin, q.qmax)?;
            let b = rt::quant::quantize(narrow(base), q.scale, q.qmin, q.qmax)?;
            c - b
        }
    })
}

/// Writes an entity key as the derive's `Entity::write_key`.
fn write_key(ep: &EntityPlan, key: i128, out: &mut Vec<u8>) {
    if ep.key_type.prim.signed() {
        write::int(out, key as i64);
    } else {
        write::uint(out, key as u64);
    }
}

/// Appends the entries that turn `base` (sorted by key) into `cur` (any order) and makes
/// `base` a key-sorted copy of `cur`, as the derive's `encode_entities`. Returns whether any
/// entry was written (nothing is, not even the array header, when the lists encode alike).
fn encode_entities(
    schema: &ResolvedSchema,
    ep: &EntityPlan,
    cur: &[Value],
    base: &mut Vec<Value>,
    out: &mut Vec<u8>,
) -> Result<bool, Error> {
    let keys: Vec<i128> = cur.iter().map(|e| key_of(ep, e)).collect();
    let mut order: Vec<usize> = (0..cur.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    for w in order.windows(2) {
        if keys[w[0]] == keys[w[1]] {
            return Err(rt::duplicate(keys[w[1]]).in_field(ep.key).in_index(w[1]));
        }
    }
    let mut body = Vec::new();
    let mut count: u32 = 0;
    let mut next = Vec::with_capacity(cur.len());
    let mut old = std::mem::take(base).into_iter().peekable();
    let mut order = order.into_iter().peekable();
    loop {
        let step = match (order.peek(), old.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(&i), Some(o)) => keys[i].cmp(&key_of(ep, o)),
        };
        match step {
            std::cmp::Ordering::Less => {
                let Some(i) = order.next() else { break };
                let whole =
                    encode(schema, ep.path, &cur[i], Shape::Compact).map_err(|e| e.in_index(i))?;
                body.extend_from_slice(&whole);
                count += 1;
                next.push(cur[i].clone());
            }
            std::cmp::Ordering::Greater => {
                if let Some(o) = old.next() {
                    write_key(ep, key_of(ep, &o), &mut body);
                    write::uint(&mut body, 0);
                    count += 2;
                }
            }
            std::cmp::Ordering::Equal => {
                let (Some(i), Some(o)) = (order.next(), old.next()) else {
                    break;
                };
                match entity_changes(schema, &ep.mask, &cur[i], &o).map_err(|e| e.in_index(i))? {
                    None => next.push(o),
                    Some((mask, values, n)) => {
                        write_key(ep, keys[i], &mut body);
                        write::uint(&mut body, mask);
                        body.extend_from_slice(&values);
                        count += 2 + n;
                        next.push(cur[i].clone());
                    }
                }
            }
        }
    }
    *base = next;
    if count == 0 {
        return Ok(false);
    }
    write::array_len(out, count);
    out.extend_from_slice(&body);
    Ok(true)
}

/// An entity's changed-field mask, the changed values' bytes and their count, or `None`
/// when every field encodes as the baseline's.
fn entity_changes(
    schema: &ResolvedSchema,
    mask_plan: &MaskPlan,
    cur: &Value,
    base: &Value,
) -> Result<Option<(u64, Vec<u8>, u32)>, Error> {
    let empty = Map::new();
    let (c, b) = (
        cur.as_object().unwrap_or(&empty),
        base.as_object().unwrap_or(&empty),
    );
    let mut mask = 0u64;
    let mut values = Vec::new();
    let mut n = 0u32;
    for f in &mask_plan.fields {
        if let Some(bytes) = change(schema, f, field_of(c, f), field_of(b, f))? {
            mask |= 1u64 << f.bit;
            values.extend_from_slice(&bytes);
            n += 1;
        }
    }
    Ok((mask != 0).then_some((mask, values, n)))
}
