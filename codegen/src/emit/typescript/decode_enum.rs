//! Decoding of enums (unit and data) and flag sets: `X$read` with the derive's checks, codes
//! and paths, like the records in `decode`.

use tuplet_schema::ir::{Enum, Flags, IntPrim, VariantFields};
use tuplet_schema::plan::{TAG_MAX, VARIANT_NAME_MAX};

use super::common::{enum_num, lit, Out, MAX_SAFE};
use super::decode::{compact_body, named_body, read, Ctor, Form};
use super::generator::Gen;
use super::table::{record_table, variant_table};

/// `X$read` of an enum.
pub fn enum_fns(g: &mut Gen, ident: &str, e: &Enum) -> String {
    if e.is_unit() {
        unit_enum(g, ident, e)
    } else {
        data_enum(g, ident, e)
    }
}

fn unit_enum(g: &mut Gen, ident: &str, e: &Enum) -> String {
    let reader = g.rt_type("Reader");
    if g.walked_unit(e) {
        let f = g.rt("readUnit");
        return format!(
            "export function {ident}$read(r: {reader}): {ident} {{\n  return {f}(r, {ident}$numbers) as {ident};\n}}\n\n"
        );
    }
    let unknown_name = g.rt("unknownName");
    let unknown_number = if e.unknown.is_some() {
        String::new()
    } else {
        g.rt("unknownNumber")
    };
    let mut out = Out::at(0);
    let names = |out: &mut Out, s: &str| {
        out.open(format!("switch ({s}) {{"));
        for v in &e.variants {
            out.line(format!("case {0}:\n      return {0};", lit(&v.name)));
        }
        out.close("}");
    };
    let numbers = |out: &mut Out, b: &str| {
        // A `number` within ±(2^53−1), where it is exact; a `bigint` beyond, compared with the
        // wide variants' bigint literals, so no two numbers meet by rounding.
        out.line(format!(
            "const n = typeof {b} === \"number\" || {b} < -{MAX_SAFE}n || {b} > {MAX_SAFE}n ? {b} : Number({b});"
        ));
        out.open("switch (n) {");
        for v in &e.variants {
            out.line(format!(
                "case {}:\n      return {};",
                enum_num(v.number),
                lit(&v.name)
            ));
        }
        out.close("}");
        if e.unknown.is_some() {
            out.line("return n;");
        } else {
            out.line(format!("throw {unknown_number}(n);"));
        }
    };
    out.open(format!(
        "export function {ident}$read(r: {reader}): {ident} {{"
    ));
    // A positive fixint (the common variant number) in place; anything else by `readVariant`.
    out.line("const c = r.buf[r.pos]!;");
    out.line(format!(
        "const b = c < 0x80 ? ((r.pos += 1), c) : {}(r);",
        g.rt("readVariant")
    ));
    out.open("if (typeof b === \"string\") {");
    names(&mut out, "b");
    out.line(format!(
        "throw {unknown_name}(b, Object.keys({ident}$numbers));"
    ));
    out.close("}");
    numbers(&mut out, "b");
    out.close("}");
    out.line("");
    out.finish()
}

fn data_enum(g: &mut Gen, ident: &str, e: &Enum) -> String {
    let reader = g.rt_type("Reader");
    let missing = g.rt("missing");
    let entries = g.rt("mapEntries");
    let not_one = g.rt("notOneKey");
    let unknown_name = g.rt("unknownName");
    let unknown_number = if e.unknown.is_some() {
        String::new()
    } else {
        g.rt("unknownNumber")
    };
    let mut out = Out::at(0);
    g.reset();
    super::inline::begin(g);
    out.open(format!(
        "export function {ident}$read(r: {reader}): {ident} {{"
    ));
    out.line(format!("const s = {}(r);", g.rt("readShape")));
    out.line(format!("let v: {ident};"));
    out.open("if (s >= 0) {");
    out.line(format!("if (s === 0) throw {missing}(\"tag\");"));
    out.line(format!("const tag = {}(r, 0, {TAG_MAX});", g.rt("readInt")));
    out.open("switch (tag) {");
    for v in &e.variants {
        out.open(format!("case {}: {{", v.number));
        let kind = lit(&v.name);
        match &v.fields {
            VariantFields::Unit => {
                out.line(format!("{}(r, s - 1);", g.rt("skipValues")));
                out.line(format!("v = {{ kind: {kind} }};"));
            }
            VariantFields::Newtype { field } => {
                out.line(format!("if (s < 2) throw {missing}(\"0\");"));
                let x = read(g, &mut out, &field.ty, Form::Compact);
                out.line(format!("const x = {x};"));
                out.line(format!("{}(r, s - 2);", g.rt("skipValues")));
                out.line(format!("v = {{ kind: {kind}, value: x }};"));
            }
            VariantFields::Struct { record } => {
                let ctor = variant_ctor(ident, &v.name);
                compact_body(g, &mut out, &record.slots, "s - 1", "v", &ctor);
            }
        }
        out.line("break;");
        out.close("}");
    }
    out.line("default:");
    if e.unknown.is_some() {
        out.line(format!("  {}(r, s - 1);", g.rt("skipValues")));
        out.line("  v = { kind: \"unknown\", tag };");
    } else {
        out.line(format!("  throw {unknown_number}(tag);"));
    }
    out.close("}");
    out.mid("} else {");
    out.line(format!("const n = {entries}(s);"));
    out.line(format!("if (n !== 1) throw {not_one}(n);"));
    out.line(format!(
        "const name = {}(r, 0, {VARIANT_NAME_MAX});",
        g.rt("readStr")
    ));
    out.open("switch (name) {");
    for v in &e.variants {
        out.open(format!("case {}: {{", lit(&v.name)));
        let kind = lit(&v.name);
        match &v.fields {
            VariantFields::Unit => {
                out.line(format!("{}(r);", g.rt("skipValue")));
                out.line(format!("v = {{ kind: {kind} }};"));
            }
            VariantFields::Newtype { field } => {
                let x = read(g, &mut out, &field.ty, Form::Named);
                out.line(format!("v = {{ kind: {kind}, value: {x} }};"));
            }
            VariantFields::Struct { record } => {
                let ctor = variant_ctor(ident, &v.name);
                out.line(format!("const t = {}(r);", g.rt("readShape")));
                out.open("if (t >= 0) {");
                compact_body(g, &mut out, &record.slots, "t", "v", &ctor);
                out.mid("} else {");
                out.line(format!("const m = {entries}(t);"));
                let table = variant_table(ident, v.number);
                named_body(g, &mut out, "m", ("v", &table), &ctor);
                out.close("}");
                out.line(format!("{}(r);", g.rt("leave")));
            }
        }
        out.line("break;");
        out.close("}");
    }
    out.line("default:");
    out.line(format!(
        "  throw {unknown_name}(name, {});",
        variant_names(g, ident)
    ));
    out.close("}");
    out.close("}");
    out.line(format!("{}(r);", g.rt("leave")));
    out.line("return v;");
    out.close("}");
    out.line("");
    super::inline::scratch(g, out.finish())
}

fn variant_ctor<'a>(ident: &str, name: &'a str) -> Ctor<'a> {
    Ctor {
        ty: format!("Extract<{ident}, {{ kind: {} }}>", lit(name)),
        kind: Some(name),
    }
}

/// The mask of a flag set's known bits.
pub fn known_bits(f: &Flags) -> u64 {
    f.bits.iter().fold(0u64, |a, b| a | (1u64 << b.bit))
}

/// `X$read` of a flag set: one uint, unknown bits rejected (or kept as `rest`).
pub fn flags_fns(g: &mut Gen, ident: &str, f: &Flags) -> String {
    let reader = g.rt_type("Reader");
    let unknown = g.rt("unknownFlags");
    let big = f.prim == IntPrim::U64;
    let width_max = f.prim.bounds(true).1;
    let known = known_bits(f);
    let mask = (width_max as u64) & !known;
    let mut body = Out::at(1);
    if big {
        body.line(format!("const u = b & {mask}n;"));
        if f.rest.is_none() {
            body.line(format!("if (u !== 0n) throw {unknown}(u);"));
        }
    } else {
        body.line(format!("const u = (b & {mask}) >>> 0;"));
        if f.rest.is_none() {
            body.line(format!("if (u !== 0) throw {unknown}(u);"));
        }
    }
    let bits: Vec<String> = f
        .bits
        .iter()
        .map(|b| {
            if big {
                format!("{}: (b & {}n) !== 0n", b.name, 1u64 << b.bit)
            } else {
                format!("{}: (b & {}) !== 0", b.name, 1u64 << b.bit)
            }
        })
        .collect();
    match &f.rest {
        Some(rest) => {
            body.line(format!("const v: {ident} = {{ {} }};", bits.join(", ")));
            let zero = if big { "0n" } else { "0" };
            body.line(format!("if (u !== {zero}) v.{rest} = u;"));
            body.line("return v;");
        }
        None => body.line(format!("return {{ {} }};", bits.join(", "))),
    }
    let body = body.finish();
    let read = if big {
        format!("{}(r, 0n, {width_max}n)", g.rt("readBigInt"))
    } else {
        format!("{}(r, 0, {width_max})", g.rt("readInt"))
    };
    format!(
        "export function {ident}$read(r: {reader}): {ident} {{\n  const b = {read};\n{body}}}\n\n"
    )
}

/// The variant names of a data enum, for `unknown_variant`'s message: read from its table
/// (`X$t`, which validation needs anyway), not written out again.
pub fn variant_names(g: &mut Gen, ident: &str) -> String {
    format!("{}({})", g.rt("variantNames"), record_table(ident))
}
