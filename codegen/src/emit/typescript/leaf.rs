//! Every leaf kind's code (`plan::Leaf`: `bool`, ints, floats, `String`, bytes) for each of
//! the emitter's walks: its TS type, the statement writing it (`X$write`), the expression
//! reading it (`X$read`, and as a map key), the checked value, and its table descriptor
//! (`table.rs`). `types.rs`, `encode.rs`, `decode.rs` and `table.rs` keep the containers and
//! references and hand a leaf here, so a new leaf kind is one arm per function of this file.

use tuplet_schema::plan::{Form, Leaf, Quantized};

use super::common::{int_lit, num, Out};
use super::generator::Gen;

/// The TS type of a value.
pub fn ts_type(leaf: Leaf) -> String {
    match leaf {
        Leaf::Bool => "boolean".into(),
        Leaf::Int(i) if i.bigint => "bigint".into(),
        Leaf::Int(_) | Leaf::Float(_) => "number".into(),
        Leaf::String(_) => "string".into(),
        Leaf::Bytes(_) => "Uint8Array".into(),
    }
}

/// Statements writing the value `v` to `w` (the form is the runtime `named`).
pub fn write(g: &mut Gen, out: &mut Out, leaf: Leaf, v: &str) {
    if let Leaf::Float(ft) = leaf {
        if ft.quant.is_some() {
            let Quantized { scale, qmin, qmax } = ft.quantized().expect("quantized");
            let f = g.rt("writeQuant");
            out.line(format!(
                "{f}(w, {v}, {}, {qmin}, {qmax}, {}, named);",
                num(scale),
                ft.bits == 32
            ));
            return;
        }
    }
    let e = checked(g, leaf, v);
    let m = match leaf {
        Leaf::Bool => "bool",
        Leaf::Int(i) if i.bigint => "bigInt",
        Leaf::Int(_) => "int",
        Leaf::Float(ft) if ft.bits == 32 => "f32",
        Leaf::Float(_) => "f64",
        Leaf::String(_) => "str",
        Leaf::Bytes(_) => "bin",
    };
    out.line(format!("w.{m}({e});"));
}

/// An expression: the value `v`, checked.
pub fn checked(g: &mut Gen, leaf: Leaf, v: &str) -> String {
    match leaf {
        Leaf::Bool => format!("{}({v})", g.rt("vBool")),
        Leaf::Int(i) => {
            let (min, max) = i.bounds();
            if i.bigint {
                let f = g.rt("vBigInt");
                format!("{f}({v}, {}, {})", int_lit(min, true), int_lit(max, true))
            } else {
                format!("{}({v}, {min}, {max})", g.rt("vInt"))
            }
        }
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { scale, qmin, qmax }) => {
                let f = g.rt("vQuant");
                format!(
                    "{f}({v}, {}, {qmin}, {qmax}, {}, named)",
                    num(scale),
                    ft.bits == 32
                )
            }
            None => {
                let (min, max) = ft.value_bounds();
                let f = g.rt(if ft.bits == 32 { "vF32" } else { "vF64" });
                format!("{f}({v}, {}, {})", num(min), num(max))
            }
        },
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            format!("{}({v}, {min}, {max})", g.rt("vStr"))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            format!("{}({v}, {min}, {max})", g.rt("vBin"))
        }
    }
}

/// An expression reading one value from the reader `r` in `form`.
pub fn read(g: &mut Gen, leaf: Leaf, form: Form) -> String {
    match leaf {
        Leaf::Bool => format!("{}(r)", g.rt("readBool")),
        Leaf::Int(i) => {
            let (min, max) = i.bounds();
            if i.bigint {
                format!(
                    "{}(r, {}, {})",
                    g.rt("readBigInt"),
                    int_lit(min, true),
                    int_lit(max, true)
                )
            } else if form == Form::Compact {
                super::inline::int(g, min, max)
            } else {
                format!("{}(r, {min}, {max})", g.rt("readInt"))
            }
        }
        Leaf::Float(ft) => {
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
                    let q = super::inline::int(g, qmin.into(), qmax.into());
                    format!("{deq}({q}, {})", num(scale))
                }
                (Some(Quantized { scale, qmin, qmax }), Form::Named) => {
                    let q = g.rt("quantize");
                    let s = num(scale);
                    format!(
                        "{deq}({q}({}(r), {s}, {qmin}, {qmax}), {s})",
                        g.rt("readF64")
                    )
                }
                (None, _) => {
                    let read = if ft.bits == 32 {
                        format!("{}(r)", g.rt("readF32"))
                    } else {
                        format!("{}(r)", g.rt("readF64"))
                    };
                    match ft.range {
                        Some(_) => {
                            let (min, max) = ft.value_bounds();
                            let f = g.rt(if ft.bits == 32 { "inF32" } else { "inF64" });
                            format!("{f}({read}, {}, {})", num(min), num(max))
                        }
                        None => read,
                    }
                }
            }
        }
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            format!("{}(r, {min}, {max})", g.rt("readStr"))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            format!("{}(r, {min}, {max})", g.rt("readBin"))
        }
    }
}

/// An expression reading a map key: an int key also accepts its canonical decimal text
/// where `fromWire` packed a plain object's keys (the reader's `textKeys`); any other leaf
/// as a value.
pub fn read_key(g: &mut Gen, leaf: Leaf, form: Form) -> String {
    match leaf {
        Leaf::Int(i) => {
            let (min, max) = i.bounds();
            if i.bigint {
                format!(
                    "{}(r, {}, {})",
                    g.rt("readBigIntKey"),
                    int_lit(min, true),
                    int_lit(max, true)
                )
            } else {
                format!("{}(r, {min}, {max})", g.rt("readIntKey"))
            }
        }
        Leaf::Bool | Leaf::Float(_) | Leaf::String(_) | Leaf::Bytes(_) => {
            // One expression (a key is read inside one): no inline statements.
            let hot = std::mem::replace(&mut g.hot, false);
            let e = read(g, leaf, form);
            g.hot = hot;
            e
        }
    }
}

/// The table descriptor (a `TNode` literal, `codegen/ts-runtime/table.ts`): the kind (a
/// runtime object, imported) and its bounds.
pub fn node(g: &mut Gen, leaf: Leaf) -> String {
    match leaf {
        Leaf::Bool => format!("[{}]", g.rt("kBool")),
        Leaf::Int(i) => {
            let (min, max) = i.bounds();
            let k = g.rt(if i.bigint { "kBig" } else { "kInt" });
            format!(
                "[{k},{},{}]",
                int_lit(min, i.bigint),
                int_lit(max, i.bigint)
            )
        }
        Leaf::Float(ft) => {
            let k = if ft.bits == 32 { "kF32" } else { "kF64" };
            match (ft.quantized(), ft.range) {
                (Some(Quantized { scale, qmin, qmax }), _) => format!(
                    "[{},{},{qmin},{qmax},{}]",
                    g.rt("kQuant"),
                    num(scale),
                    u8::from(ft.bits == 32)
                ),
                (None, Some(_)) => {
                    let (min, max) = ft.value_bounds();
                    format!("[{},{},{}]", g.rt(k), num(min), num(max))
                }
                (None, None) => format!("[{}]", g.rt(k)),
            }
        }
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            format!("[{},{min},{max}]", g.rt("kStr"))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            format!("[{},{min},{max}]", g.rt("kBin"))
        }
    }
}
