//! Every leaf kind in the IR codec (`bool`, ints, floats, `String`, bytes): its natural
//! JSON, how it is written, read, sampled and made invalid, and the order of a map key. The
//! walks in `encode`, `decode`, `sample` and `mutate` handle the containers and hand each
//! [`Node::Leaf`](tuplet_schema::plan::Node::Leaf) here, so a new leaf kind's arms are all
//! in this file.

use serde_json::Value;
use tuplet::__private_0_1 as rt;
use tuplet::wire::{write, Reader};
use tuplet::{Error, SampleMode, SampleRng};
use tuplet_schema::ir::{FloatType, IntType, TypeRef};
use tuplet_schema::plan::{Form, Leaf, Quantized};

use super::common::{hex, unhex};

/// Writes the natural value `v` of `leaf` in `shape`; `checked` applies every check of the
/// derived encoder, else whatever the JSON says is written. `Ok(Err(expected))` when `v` is
/// not the JSON kind the leaf takes (the caller reports it, or writes it as it is).
pub(super) fn encode(
    leaf: Leaf<'_>,
    v: &Value,
    checked: bool,
    shape: Form,
    out: &mut Vec<u8>,
) -> Result<Result<(), &'static str>, Error> {
    match leaf {
        Leaf::Bool => match v {
            Value::Bool(b) => write::bool(out, *b),
            _ => return Ok(Err("bool")),
        },
        Leaf::Int(it) => return encode_int(it, v, checked, out),
        Leaf::Float(ft) => return encode_float(ft, v, checked, shape, out),
        Leaf::String(len) => {
            let Value::String(s) = v else {
                return Ok(Err("string"));
            };
            if checked {
                let (min, max) = len.bounds();
                rt::check_len(s.len(), min, max, "bytes")?;
            }
            write::str(out, s);
        }
        Leaf::Bytes(len) => {
            let Some(bytes) = v.as_str().and_then(unhex) else {
                return Ok(Err("hex string"));
            };
            if checked {
                let (min, max) = len.bounds();
                rt::check_len(bytes.len(), min, max, "bytes")?;
            }
            write::bin(out, &bytes);
        }
    }
    Ok(Ok(()))
}

fn encode_int(
    it: &IntType,
    v: &Value,
    checked: bool,
    out: &mut Vec<u8>,
) -> Result<Result<(), &'static str>, Error> {
    let Some(n) = json_int(v) else {
        if !checked {
            if let Some(x) = v.as_f64() {
                write::f64(out, x);
                return Ok(Ok(()));
            }
        }
        return Ok(Err("int"));
    };
    if checked {
        let (min, max) = it.bounds();
        rt::check_int(n, min, max)?;
    }
    write_i128(out, n);
    Ok(Ok(()))
}

fn encode_float(
    ft: &FloatType,
    v: &Value,
    checked: bool,
    shape: Form,
    out: &mut Vec<u8>,
) -> Result<Result<(), &'static str>, Error> {
    let Some(x) = v
        .as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    else {
        return Ok(Err("number"));
    };
    // The Rust field holds an f32: narrow first (widened again exactly below).
    let x = if ft.bits == 32 { x as f32 as f64 } else { x };
    if let Some(Quantized { scale, qmin, qmax }) = ft.quantized() {
        if !checked {
            match shape {
                Form::Compact => {
                    let w = (x * scale).round();
                    if w.abs() < 9.2e18 {
                        write::int(out, w as i64)
                    } else {
                        write::f64(out, w)
                    }
                }
                Form::Named => match rt::quant::quantize(x, scale, qmin, qmax) {
                    Ok(w) => write::f64(out, rt::quant::dequantize_f64(w, scale)),
                    Err(_) => write::f64(out, x),
                },
            }
            return Ok(Ok(()));
        }
        let w = rt::quant::quantize(x, scale, qmin, qmax)?;
        match shape {
            Form::Compact => write::int(out, w),
            Form::Named => write::f64(out, rt::quant::dequantize_f64(w, scale)),
        }
        return Ok(Ok(()));
    }
    if checked {
        let (min, max) = ft.value_bounds();
        if ft.bits == 32 {
            rt::check_f32(x as f32, min, max)?;
        } else {
            rt::check_f64(x, min, max)?;
        }
    }
    if ft.bits == 32 {
        write::f32(out, x as f32);
    } else {
        write::f64(out, x);
    }
    Ok(Ok(()))
}

/// An int from JSON: a number (integral) or a decimal string.
pub(super) fn json_int(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .or_else(|| {
                let x = n.as_f64()?;
                (x.fract() == 0.0 && x.abs() < 1.8e19).then_some(x as i128)
            }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Writes an int of any width msgpack holds (beyond it, as a float).
pub(super) fn write_i128(out: &mut Vec<u8>, v: i128) {
    if let Ok(i) = i64::try_from(v) {
        write::int(out, i)
    } else if let Ok(u) = u64::try_from(v) {
        write::uint(out, u)
    } else {
        write::f64(out, v as f64)
    }
}

/// Reads one `leaf` in `form`, as the derived decoder reads it, into its natural JSON.
pub(super) fn decode(leaf: Leaf<'_>, form: Form, r: &mut Reader<'_>) -> Result<Value, Error> {
    Ok(match leaf {
        Leaf::Bool => Value::Bool(r.read_bool()?),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            let v = if it.prim.signed() {
                r.read_i64(min as i64, max as i64)? as i128
            } else {
                r.read_u64(min as u64, max as u64)? as i128
            };
            int_json(it, v)
        }
        Leaf::Float(ft) => decode_float(ft, form, r)?,
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            Value::String(r.read_str(min, max)?.to_owned())
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            Value::String(hex(r.read_bin(min, max)?))
        }
    })
}

fn decode_float(ft: &FloatType, form: Form, r: &mut Reader<'_>) -> Result<Value, Error> {
    let narrow = |x: f64| if ft.bits == 32 { x as f32 as f64 } else { x };
    if let Some(Quantized { scale, qmin, qmax }) = ft.quantized() {
        let wire = match form {
            Form::Compact => r.read_i64(qmin, qmax)?,
            Form::Named => rt::quant::quantize(r.read_f64()?, scale, qmin, qmax)?,
        };
        return Ok(f64_json(dequantize(ft, wire, scale)));
    }
    let x = if ft.bits == 32 {
        r.read_f32()? as f64
    } else {
        r.read_f64()?
    };
    if let Some(range) = ft.range {
        if ft.bits == 32 {
            rt::check_f32(x as f32, range.min, range.max)?;
        } else {
            rt::check_f64(x, range.min, range.max)?;
        }
    }
    Ok(f64_json(narrow(x)))
}

/// The natural value of wire integer `wire`, in the field's width.
pub(super) fn dequantize(ft: &FloatType, wire: i64, scale: f64) -> f64 {
    if ft.bits == 32 {
        rt::quant::dequantize_f32(wire, scale) as f64
    } else {
        rt::quant::dequantize_f64(wire, scale)
    }
}

/// An int's natural JSON: a number, or a decimal string for a `bigint` field.
pub(super) fn int_json(it: &IntType, v: i128) -> Value {
    if it.bigint {
        Value::String(v.to_string())
    } else if it.prim.signed() {
        Value::from(v as i64)
    } else {
        Value::from(v as u64)
    }
}

/// A float's natural JSON (`null` for a value JSON cannot hold).
pub(super) fn f64_json(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// A sample of `leaf`, drawn as the derive's `Wire::sample` draws it.
pub(super) fn sample(leaf: Leaf<'_>, rng: &mut SampleRng, mode: SampleMode) -> Value {
    match leaf {
        Leaf::Bool => Value::Bool(rt::sample_int(rng, mode, 0, 1) == 1),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            int_json(it, rt::sample_int(rng, mode, min, max))
        }
        Leaf::Float(ft) => f64_json(match ft.quantized() {
            Some(q) => dequantize(ft, rt::sample_q(rng, mode, q.qmin, q.qmax), q.scale),
            None => {
                let (min, max) = ft.value_bounds();
                if ft.bits == 32 {
                    rt::sample_f32(rng, mode, min, max) as f64
                } else {
                    rt::sample_f64(rng, mode, min, max)
                }
            }
        }),
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            Value::String(rt::sample_string(rng, mode, min, max))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            Value::String(hex(&rt::sample_bytes(rng, mode, min, max)))
        }
    }
}

/// The order of a map key (a string or an int leaf) as the derive's `BTreeMap` holds it:
/// ints numerically, strings by UTF-8 bytes.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum KeyOrd {
    /// An int key.
    Int(i128),
    /// A string key.
    Str(String),
}

impl KeyOrd {
    /// The order of the natural key `k` of a map whose keys are `key`.
    pub(super) fn of(key: &TypeRef, k: &Value) -> KeyOrd {
        match k {
            Value::String(s) if !matches!(key.leaf(), Some(Leaf::Int(_))) => KeyOrd::Str(s.clone()),
            Value::String(s) => KeyOrd::Int(s.parse().unwrap_or_default()),
            other => KeyOrd::Int(
                other
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| other.as_u64().map(i128::from))
                    .unwrap_or_default(),
            ),
        }
    }

    /// The key as an error path shows it.
    pub(super) fn text(&self) -> String {
        match self {
            KeyOrd::Int(i) => i.to_string(),
            KeyOrd::Str(s) => s.clone(),
        }
    }
}

/// Mutations of a valid value of `leaf`: each `(what, replacement)`, then the value of the
/// wrong kind that the mutations common to every value use.
#[cfg(feature = "testkit")]
pub(super) fn mutations(leaf: Leaf<'_>) -> (Vec<(&'static str, Value)>, Value) {
    use serde_json::json;

    const NAN64: &str = "cb7ff8000000000000";
    const INF64: &str = "cb7ff0000000000000";
    const NAN32: &str = "ca7fc00000";
    const BIG64: &str = "cb7e37e43c8800759c"; // 1e300

    let mut edits = Vec::new();
    let mut edit = |what, v| edits.push((what, v));
    let wrong = match leaf {
        Leaf::Bool => json!(1),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            let over = max + 1;
            edit(
                "an int above its range",
                if over > i64::MAX as i128 {
                    json!(over.to_string())
                } else {
                    json!(over as i64)
                },
            );
            edit(
                "an int below its range",
                if min - 1 < i64::MIN as i128 {
                    json!((min - 1).to_string())
                } else {
                    json!((min - 1) as i64)
                },
            );
            edit("a fractional float", json!(0.5));
            edit("an integral float", raw("cb4000000000000000"));
            edit("NaN", raw(NAN64));
            edit("infinity", raw(INF64));
            json!("x")
        }
        Leaf::Float(ft) => {
            match ft.quantized() {
                Some(q) => {
                    let (qmin, qmax) = (q.qmin, q.qmax);
                    edit(
                        "a quantized float above its range",
                        json!(qmax as f64 / q.scale + 1.0),
                    );
                    edit(
                        "a quantized float below its range",
                        json!(qmin as f64 / q.scale - 1.0),
                    );
                    edit(
                        "a quantized float just above its range",
                        json!((qmax as f64 + 0.5) / q.scale),
                    );
                }
                None => {
                    if let Some(r) = ft.range {
                        edit(
                            "a float above its range",
                            json!(r.max + r.max.abs() * 0.5 + 1.0),
                        );
                        edit(
                            "a float below its range",
                            json!(r.min - r.min.abs() * 0.5 - 1.0),
                        );
                    }
                    if ft.bits == 32 {
                        edit("1e300 in an f32", raw(BIG64));
                    }
                }
            }
            edit("NaN", raw(NAN64));
            edit("float32 NaN", raw(NAN32));
            edit("infinity", raw(INF64));
            edit("an int", raw("05"));
            json!("x")
        }
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            if max < 70_000 {
                edit("a string too long", json!("a".repeat(max as usize + 1)));
            }
            if min > 0 {
                edit("a string too short", json!("a".repeat(min as usize - 1)));
            }
            edit("invalid utf-8", raw("a2c080"));
            edit("a lone surrogate", raw("a3eda080"));
            edit("bin instead of str", raw("c40161"));
            edit("a truncated string header", raw("db000000ff"));
            json!(5)
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            if max < 70_000 {
                edit("bytes too long", json!("ab".repeat(max as usize + 1)));
            }
            if min > 0 {
                edit("bytes too short", json!("ab".repeat(min as usize - 1)));
            }
            edit("str instead of bin", json!("not hex"));
            json!(5)
        }
    };
    (edits, wrong)
}

/// A value the unchecked encoder writes as these bytes verbatim.
#[cfg(feature = "testkit")]
pub(super) fn raw(hex: &str) -> Value {
    serde_json::json!({ "$raw": hex })
}
