//! `fromWire` for one value: reading an already-decoded JS value (what msgpackr or
//! @msgpack/msgpack give for our bytes: ints `number | bigint`, nil `null | undefined`, bin
//! `Uint8Array`, maps plain objects or `Map`s) with the checks and errors of the byte decoder.

use tuplet_schema::ir::TypeRef;

use super::decode::{list, map_entry, Form};
use super::types::{is_tuple, ts_type};
use super::{int_lit, num, Gen, Out};
use tuplet_schema::plan::Quantized;

/// An expression reading one `t` from the JS value `src` (a simple expression, evaluated
/// more than once); statements it needs first go to `out`.
pub fn value(g: &mut Gen, out: &mut Out, t: &TypeRef, form: Form, src: &str) -> String {
    match t {
        TypeRef::Bool => format!("{}({src})", g.rt("wBool")),
        TypeRef::Int(i) => {
            let (min, max) = i.bounds();
            if i.bigint {
                let w = g.rt("wBigInt");
                format!("{w}({src}, {}, {})", int_lit(min, true), int_lit(max, true))
            } else {
                format!("{}({src}, {min}, {max})", g.rt("wInt"))
            }
        }
        TypeRef::Float(ft) => {
            let deq = if ft.bits == 32 {
                "dequantizeF32"
            } else {
                "dequantize"
            };
            if ft.quant.is_some() {
                g.rt(deq);
            }
            match (ft.quantized(), form) {
                (Some(Quantized { scale, qmin, qmax }), Form::Compact) => {
                    let w = g.rt("wInt");
                    format!("{deq}({w}({src}, {qmin}, {qmax}), {})", num(scale))
                }
                (Some(Quantized { scale, qmin, qmax }), Form::Named) => {
                    let q = g.rt("quantize");
                    let w = g.rt("wF64");
                    let s = num(scale);
                    format!("{deq}({q}({w}({src}), {s}, {qmin}, {qmax}), {s})")
                }
                (None, _) => {
                    let w = g.rt(if ft.bits == 32 { "wF32" } else { "wF64" });
                    match ft.range {
                        Some(_) => {
                            let (min, max) = ft.value_bounds();
                            let f = g.rt(if ft.bits == 32 { "inF32" } else { "inF64" });
                            format!("{f}({w}({src}), {}, {})", num(min), num(max))
                        }
                        None => format!("{w}({src})"),
                    }
                }
            }
        }
        TypeRef::String { len } => {
            let (min, max) = len.bounds();
            format!("{}({src}, {min}, {max})", g.rt("wStr"))
        }
        TypeRef::Bytes { len } => {
            let (min, max) = len.bounds();
            format!("{}({src}, {min}, {max})", g.rt("wBin"))
        }
        TypeRef::Option { inner } => {
            let is_nil = g.rt("isNil");
            let mut sub = Out::at(out.depth() + 1);
            let e = value(g, &mut sub, inner, form, src);
            if sub.is_empty() {
                format!("({is_nil}({src}) ? undefined : {e})")
            } else {
                let o = g.fresh("o");
                let ty = ts_type(g, inner);
                out.line(format!("let {o}: {ty} | undefined;"));
                out.open(format!("if (!{is_nil}({src})) {{"));
                out.append(sub);
                out.line(format!("{o} = {e};"));
                out.close("}");
                o
            }
        }
        TypeRef::Vec { inner, len } => {
            let (min, max) = len.bounds();
            let w = g.rt("wArray");
            let check = g.rt("checkLen");
            let arr = g.fresh("v");
            out.line(format!("const {arr} = {w}({src});"));
            out.line(format!(
                "{check}({arr}.length, {min}, {max}, \"elements\");"
            ));
            list(g, out, inner, form, &format!("{arr}.length"), Some(&arr))
        }
        TypeRef::Array { inner, len } => {
            let w = g.rt("wArray");
            let wrong = g.rt("wrongLength");
            let arr = g.fresh("v");
            out.line(format!("const {arr} = {w}({src});"));
            out.line(format!(
                "if ({arr}.length !== {len}) throw {wrong}({arr}.length, {len});"
            ));
            let a = list(g, out, inner, form, &format!("{arr}.length"), Some(&arr));
            if is_tuple(t) {
                format!("{a} as {}", ts_type(g, t))
            } else {
                a
            }
        }
        TypeRef::Map {
            key,
            value: val,
            len,
        } => {
            let (min, max) = len.bounds();
            let w = g.rt("wEntries");
            let check = g.rt("checkLen");
            let es = g.fresh("e");
            out.line(format!("const {es} = {w}({src});"));
            out.line(format!("{check}({es}.length, {min}, {max}, \"entries\");"));
            let m = g.fresh("m");
            let (kt, vt) = (ts_type(g, key), ts_type(g, val));
            out.line(format!("const {m} = new Map<{kt}, {vt}>();"));
            let k0 = g.fresh("k");
            let x0 = g.fresh("x");
            out.open(format!("for (const [{k0}, {x0}] of {es}) {{"));
            let k = g.fresh("k");
            let ke = key_value(g, key, &k0);
            out.line(format!("const {k} = {ke};"));
            map_entry(g, out, val, form, &m, &k, Some(&x0));
            out.close("}");
            m
        }
        TypeRef::Named { path } => format!("{}({src})", g.fn_ref(path, "from")),
    }
}

/// A map key from a decoded map: a string, or an int (a plain object's keys are strings:
/// canonical decimal text is accepted for int keys).
fn key_value(g: &mut Gen, key: &TypeRef, src: &str) -> String {
    match key {
        TypeRef::Int(i) => {
            let (min, max) = i.bounds();
            if i.bigint {
                let w = g.rt("wBigIntKey");
                format!("{w}({src}, {}, {})", int_lit(min, true), int_lit(max, true))
            } else {
                format!("{}({src}, {min}, {max})", g.rt("wIntKey"))
            }
        }
        TypeRef::String { len } => {
            let (min, max) = len.bounds();
            format!("{}({src}, {min}, {max})", g.rt("wStr"))
        }
        other => {
            let mut out = Out::at(0);
            value(g, &mut out, other, Form::Compact, src)
        }
    }
}
