//! Encoding, as the Rust derive encodes, byte for byte: `X$write(w, v, named)` appends the
//! compact shape (trailing absent options trimmed, reserved slots nil) in straight-line code,
//! or the named one (legacy keys, arrays spread over their keys, quantized floats as natural
//! f64) through the runtime's `writeNamed` and the type's table (`table.rs`), checking every
//! value first (TupletError). `toWire` runs the same function on the runtime's
//! `ValueWriter`, which builds JS data instead of bytes (a named record's header is
//! `recordLen`, an object; a map field's `mapLen`, a `Map`).

use tuplet_schema::ir::{Enum, Field, Flags, IntPrim, Slot, TypeRef, VariantFields};

use super::common::{enum_num, enum_wide, lit, Out, MAX_SAFE};
use super::decode_enum::known_bits;
use super::generator::Gen;
use super::{leaf, table};
use tuplet_schema::plan::{Node, RecordPlan, TAG_MAX};

/// Statements writing the value `v` of `t` to `w` (the form is the runtime `named`).
pub fn write(g: &mut Gen, out: &mut Out, t: &TypeRef, v: &str) {
    match t.node() {
        Node::Option { inner } => {
            out.open(format!("if ({v} === undefined) w.nil();"));
            out.mid("else {");
            write(g, out, inner, v);
            out.close("}");
        }
        Node::Vec { inner, len } => {
            let (min, max) = len.bounds();
            let list = g.rt("vList");
            let a = g.fresh("a");
            let x = g.fresh("x");
            out.line(format!("const {a} = {list}({v}, {min}, {max});"));
            out.line(format!("w.arrayLen({a}.length);"));
            out.open(format!("for (const {x} of {a}) {{"));
            write(g, out, inner, &x);
            out.close("}");
        }
        Node::Array { inner, len } => {
            let fixed = g.rt("vFixed");
            let a = g.fresh("a");
            let x = g.fresh("x");
            out.line(format!("const {a} = {fixed}({v}, {len});"));
            out.line(format!("w.arrayLen({len});"));
            out.open(format!("for (const {x} of {a}) {{"));
            write(g, out, inner, &x);
            out.close("}");
        }
        Node::Map { key, value, len } => {
            let (min, max) = len.bounds();
            let vmap = g.rt("vMap");
            let sorted = g.rt("sorted");
            let m = g.fresh("m");
            let (k, x) = (g.fresh("k"), g.fresh("x"));
            out.line(format!("const {m} = {vmap}({v}, {min}, {max});"));
            out.line(format!("w.mapLen({m}.size);"));
            out.open(format!("for (const [{k}, {x}] of {sorted}({m})) {{"));
            write(g, out, key, &k);
            write(g, out, value, &x);
            out.close("}");
        }
        Node::Named { path } => {
            let f = g.fn_ref(path, "write");
            out.line(format!("{f}(w, {v}, named);"));
        }
        Node::Leaf(l) => leaf::write(g, out, l, v),
    }
}

/// The slots that must always be written: up to the last non-option field.
fn required(slots: &[Slot]) -> usize {
    RecordPlan::of_slots(slots).required
}

/// The compact length: `required`, or one past the last present option after it.
fn compact_len(out: &mut Out, slots: &[Slot], obj: &str, declare_fixed: bool) {
    let req = required(slots);
    let trailing: Vec<(usize, &Field)> = slots
        .iter()
        .enumerate()
        .skip(req)
        .filter_map(|(i, s)| match s {
            Slot::Field(f) => Some((i, f)),
            Slot::Reserved(_) => None,
        })
        .collect();
    if trailing.is_empty() {
        if declare_fixed {
            out.line(format!("const len = {req};"));
        }
        return;
    }
    out.line(format!("let len = {req};"));
    let mut first = true;
    for (i, f) in trailing.iter().rev() {
        let kw = if first { "if" } else { "else if" };
        first = false;
        out.line(format!(
            "{kw} ({obj}.{} !== undefined) len = {};",
            f.name,
            i + 1
        ));
    }
}

/// Statements writing a record's compact array: `extra` leading elements written by
/// `prefix` (an enum tag).
fn write_compact(g: &mut Gen, out: &mut Out, slots: &[Slot], obj: &str, extra: u32, prefix: &str) {
    if required(slots) == slots.len() {
        // Every slot is written: the length is a constant.
        out.line(format!("w.arrayLen({});", slots.len() + extra as usize));
    } else {
        compact_len(out, slots, obj, true);
        if extra > 0 {
            out.line(format!("w.arrayLen(len + {extra});"));
        } else {
            out.line("w.arrayLen(len);");
        }
    }
    if extra > 0 {
        out.line(prefix);
    }
    let req = required(slots);
    for (i, slot) in slots.iter().enumerate() {
        let mut body = Out::at(out.depth() + usize::from(i >= req));
        match slot {
            Slot::Reserved(_) => body.line("w.nil();"),
            Slot::Field(f) => write(g, &mut body, &f.ty, &format!("{obj}.{}", f.name)),
        }
        if i < req {
            out.append(body);
        } else {
            out.open(format!("if (len > {i}) {{"));
            out.append(body);
            out.close("}");
        }
    }
}

/// `X$write` of a record.
pub fn record_fns(g: &mut Gen, ident: &str, slots: &[Slot]) -> String {
    let writer = g.rt_type("Writer");
    let mut out = Out::at(0);
    g.reset();
    out.open(format!(
        "export function {ident}$write(w: {writer}, v: {ident}, named: boolean): void {{"
    ));
    if g.walked(slots) {
        // A cold record (`[ts] hot`): the runtime walks its table, both shapes.
        let f = g.rt("writeRecord");
        out.line(format!("{f}(w, v, {}, named);", table::record_table(ident)));
        out.close("}");
        out.line("");
        return out.finish();
    }
    let obj = g.rt("vObject");
    out.line(format!("{obj}(v);"));
    let named = g.rt("writeNamed");
    out.line(format!(
        "if (named) return {named}(w, v, {});",
        table::record_table(ident)
    ));
    write_compact(g, &mut out, slots, "v", 0, "");
    out.close("}");
    out.line("");
    out.finish()
}

/// `X$write` of an enum (and `X$num` of a unit enum).
pub fn enum_fns(g: &mut Gen, ident: &str, e: &Enum) -> String {
    let writer = g.rt_type("Writer");
    if g.walked_unit(e) {
        // A cold closed unit enum (`[ts] hot`): the runtime looks it up in its `as const` object.
        let num = g.rt("unitNum");
        let put = g.rt("writeUnit");
        return format!(
            "export function {ident}$num(v: {ident}): number {{\n  return {num}(v, {ident}$numbers);\n}}\n\n\
             export function {ident}$write(w: {writer}, v: {ident}, named: boolean): void {{\n  {put}(w, v, {ident}$numbers, named);\n}}\n\n"
        );
    }
    let bad = g.rt("badVariant");
    let mut out = Out::at(0);
    g.reset();
    if e.is_unit() {
        let wide = enum_wide(e);
        let num_ty = if wide { "number | bigint" } else { "number" };
        out.open(format!(
            "export function {ident}$num(v: {ident}): {num_ty} {{"
        ));
        out.open("switch (v) {");
        for v in &e.variants {
            out.line(format!("case {}:", lit(&v.name)));
            out.line(format!("  return {};", enum_num(v.number)));
        }
        if e.unknown.is_none() {
            // In the switch: after an exhaustive one, the throw would be unreachable code.
            out.line("default:");
            out.line(format!("  throw {bad}(v, Object.keys({ident}$numbers));"));
        }
        out.close("}");
        if e.unknown.is_some() {
            let vint = g.rt("vInt");
            let vbig = g.rt("vBigInt");
            out.line(format!(
                "if (typeof v === \"number\") return {vint}(v, -{MAX_SAFE}, {MAX_SAFE});"
            ));
            out.line(format!(
                "if (typeof v === \"bigint\") return {vbig}(v, -9223372036854775808n, 9223372036854775807n);"
            ));
            out.line(format!("throw {bad}(v, Object.keys({ident}$numbers));"));
        }
        out.close("}");
        out.line("");
        out.open(format!(
            "export function {ident}$write(w: {writer}, v: {ident}, named: boolean): void {{"
        ));
        out.line(format!("const n = {ident}$num(v);"));
        out.line("if (named && typeof v === \"string\") w.str(v);");
        if wide {
            out.line("else if (typeof n === \"bigint\") w.bigInt(n);");
        }
        out.line("else w.int(n);");
        out.close("}");
        out.line("");
        return out.finish();
    }
    let obj = g.rt("vObject");
    // write
    out.open(format!(
        "export function {ident}$write(w: {writer}, v: {ident}, named: boolean): void {{"
    ));
    out.line(format!("{obj}(v);"));
    out.open("switch (v.kind) {");
    for v in &e.variants {
        let key = lit(&v.name);
        let tag = v.number;
        out.open(format!("case {key}: {{"));
        match &v.fields {
            VariantFields::Unit => {
                out.line(format!(
                    "if (named) {{ w.recordLen(1); w.str({key}); w.recordLen(0); }} else {{ w.arrayLen(1); w.int({tag}); }}"
                ));
            }
            VariantFields::Newtype { field } => {
                out.line(format!(
                    "if (named) {{ w.recordLen(1); w.str({key}); }} else {{ w.arrayLen(2); w.int({tag}); }}"
                ));
                write(g, &mut out, &field.ty, "v.value");
            }
            VariantFields::Struct { record } => {
                let named = g.rt("writeNamed");
                let t = table::variant_table(ident, tag);
                out.open("if (named) {");
                out.line(format!("w.recordLen(1); w.str({key});"));
                out.line(format!("{named}(w, v, {t});"));
                out.mid("} else {");
                write_compact(
                    g,
                    &mut out,
                    &record.slots,
                    "v",
                    1,
                    &format!("w.int({tag});"),
                );
                out.close("}");
            }
        }
        out.line("return;");
        out.close("}");
    }
    if e.unknown.is_some() {
        let vint = g.rt("vInt");
        out.line("case \"unknown\":");
        out.line("  w.arrayLen(1);");
        out.line(format!("  w.int({vint}(v.tag, 0, {TAG_MAX}));"));
        out.line("  return;");
    }
    // In the switch, not after it: after an exhaustive switch the throw is unreachable code
    // (TS7027 under `allowUnreachableCode: false`).
    out.line("default:");
    out.line(format!(
        "  throw {bad}((v as {{ kind: unknown }}).kind, {});",
        super::decode_enum::variant_names(g, ident)
    ));
    out.close("}");
    out.close("}");
    out.line("");
    out.finish()
}

/// `X$bits` and `X$write` of a flag set.
pub fn flags_fns(g: &mut Gen, ident: &str, f: &Flags) -> String {
    let writer = g.rt_type("Writer");
    let obj = g.rt("vObject");
    let vflag = g.rt("vFlag");
    let big = f.prim == IntPrim::U64;
    let (ty, zero) = if big {
        ("bigint", "0n")
    } else {
        ("number", "0")
    };
    let known = known_bits(f);
    let width_max = f.prim.bounds(true).1;
    let mut out = Out::at(0);
    out.open(format!("export function {ident}$bits(v: {ident}): {ty} {{"));
    out.line(format!("{obj}(v);"));
    out.line(format!("let b = {zero};"));
    for bit in &f.bits {
        let m = 1u64 << bit.bit;
        let name = lit(&bit.name);
        if big {
            out.line(format!("if ({vflag}(v, {name})) b |= {m}n;"));
        } else {
            out.line(format!("if ({vflag}(v, {name})) b += {m};"));
        }
    }
    if let Some(rest) = &f.rest {
        let unknown = g.rt("unknownFlags");
        if big {
            let vb = g.rt("vBigInt");
            out.line(format!(
                "const rest = {vb}(v.{rest} ?? 0n, 0n, {width_max}n);"
            ));
            out.line(format!(
                "if ((rest & {known}n) !== 0n) throw {unknown}(rest & {known}n);"
            ));
            out.line("b |= rest;");
        } else {
            let vi = g.rt("vInt");
            out.line(format!("const rest = {vi}(v.{rest} ?? 0, 0, {width_max});"));
            out.line(format!(
                "if (((rest & {known}) >>> 0) !== 0) throw {unknown}((rest & {known}) >>> 0);"
            ));
            out.line("b += rest;");
        }
    }
    out.line("return b;");
    out.close("}");
    out.line("");
    let put = if big { "bigInt" } else { "int" };
    out.open(format!(
        "export function {ident}$write(w: {writer}, v: {ident}, _named: boolean): void {{"
    ));
    out.line(format!("w.{put}({ident}$bits(v));"));
    out.close("}");
    out.line("");
    out.finish()
}
