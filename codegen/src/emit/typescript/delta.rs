//! Delta tables (WIRE.md, "Delta snapshots"): `X$delta = entityDelta(...)` for a record
//! declared `entity(key = "...")` and `X$delta = deltaOf(...)` for a message declared `delta`,
//! one row per mask bit saying how that field changes (`tuplet_schema::delta::change_of`, the
//! rule the derive follows too). The runtime's `delta.ts` (`Tracker`, `Mirror`) does the rest,
//! so the generated code stays a few lines per type.

use tuplet_schema::delta::{change_of, mask_slots, Change};
use tuplet_schema::ir::{ItemKind, Record, Slot, TypeRef};
use tuplet_schema::plan::{Form, Quantized};

use super::common::{int_lit, lit, num, Out};
use super::generator::Gen;
use super::types::ts_type;
use super::{decode, encode};

/// `(mode, scale, min, max)` of a number that travels as a difference: mode 0 an int, 1 a
/// quantized f64, 2 a quantized f32.
fn number(t: &TypeRef) -> Option<(u8, String, String, String)> {
    match t {
        TypeRef::Float(ft) => {
            let Quantized { scale, qmin, qmax } = ft.quantized()?;
            let mode = if ft.bits == 32 { 2 } else { 1 };
            Some((mode, num(scale), qmin.to_string(), qmax.to_string()))
        }
        TypeRef::Int(it) => {
            let (min, max) = it.bounds();
            Some((0, "1".into(), min.to_string(), max.to_string()))
        }
        _ => None,
    }
}

/// Whether a value of `t` is a JS primitive whose identity is its wire value (a raw f32 is
/// not: two numbers may narrow to the same f32).
fn primitive(g: &Gen, t: &TypeRef) -> bool {
    match t {
        TypeRef::Bool | TypeRef::Int(_) | TypeRef::String { .. } => true,
        TypeRef::Float(ft) => ft.bits == 64,
        TypeRef::Option { inner } => primitive(g, inner),
        TypeRef::Named { path } => {
            matches!(&g.item_at(path).item.kind, ItemKind::Enum(e) if e.is_unit())
        }
        _ => false,
    }
}

/// The writer and reader of a field that changes whole: the type's own functions for a named
/// type, else two small arrow functions.
fn whole_fns(g: &mut Gen, t: &TypeRef) -> (String, String) {
    if let TypeRef::Named { path } = t {
        return (g.fn_ref(path, "write"), g.fn_ref(path, "read"));
    }
    let ty = ts_type(g, t);
    let writer = g.rt_type("Writer");
    let reader = g.rt_type("Reader");
    let mut w = Out::at(1);
    encode::write(g, &mut w, t, "v");
    let w = w.finish();
    let named = if w.contains("named") {
        "named"
    } else {
        "_named"
    };
    let write = format!("(w: {writer}, v: {ty}, {named}: boolean): void => {{\n{w}}}");
    let mut r = Out::at(1);
    let e = decode::read(g, &mut r, t, Form::Compact);
    let read = if r.is_empty() {
        format!("(r: {reader}): {ty} => {e}")
    } else {
        format!("(r: {reader}): {ty} => {{\n{}  return {e};\n}}", r.finish())
    };
    (write, read)
}

/// The element record of `t` when `t` is a list of entities (a keyed list).
fn entity_list<'a>(g: &Gen<'a>, t: &TypeRef) -> Option<(&'a str, u32, u32)> {
    let TypeRef::Vec { inner, len } = t else {
        return None;
    };
    let TypeRef::Named { path } = &**inner else {
        return None;
    };
    let item = g.item_at(path);
    match &item.item.kind {
        ItemKind::Record(r) if r.entity_key.is_some() => {
            let (min, max) = len.bounds();
            Some((item.path.as_str(), min, max))
        }
        _ => None,
    }
}

/// One row of a table: how the field at a mask bit changes. Each call is marked pure, so a
/// bundle that does not use the table drops it (and the Mirror code it reaches).
fn row(g: &mut Gen, slot: &Slot, keyed: bool) -> String {
    let f = match slot {
        Slot::Reserved(r) => return format!("/*@__PURE__*/ {}({})", g.rt("dSkip"), lit(&r.ident)),
        Slot::Field(f) => f,
    };
    let name = lit(&f.name);
    let num_row = |g: &mut Gen, t: &TypeRef, len: u32| {
        let (mode, scale, min, max) = number(t).expect("change_of says a number");
        format!(
            "/*@__PURE__*/ {}({name}, {mode}, {scale}, {min}, {max}, {len})",
            g.rt("dNum")
        )
    };
    match (change_of(&f.ty), &f.ty) {
        (Change::Difference, t) => num_row(g, t, 0),
        (Change::Differences(n), TypeRef::Array { inner, .. }) => num_row(g, inner, n),
        (_, t) => {
            if let Some((path, min, max)) = entity_list(g, t).filter(|_| keyed) {
                let table = g.fn_ref(path, "delta");
                return format!(
                    "/*@__PURE__*/ {}({name}, {table}, {min}, {max})",
                    g.rt("dList")
                );
            }
            let prim = primitive(g, t);
            let (write, read) = whole_fns(g, t);
            format!(
                "/*@__PURE__*/ {}({name}, {write}, {read}, {prim})",
                g.rt("dWhole")
            )
        }
    }
}

fn rows(g: &mut Gen, record: &Record, keyed: bool) -> String {
    let slots = mask_slots(record);
    let mut text = String::from("[\n");
    for (_, slot) in slots {
        g.reset();
        let r = row(g, slot, keyed);
        for line in r.lines() {
            text.push_str("  ");
            text.push_str(line);
            text.push('\n');
        }
        text.pop();
        text.push_str(",\n");
    }
    text.push(']');
    text
}

/// `X$delta` of an entity record (its key field must be an int).
pub fn entity(g: &mut Gen, ident: &str, record: &Record) -> String {
    let Some(key) = record.entity_key.as_deref() else {
        return String::new();
    };
    let Some(TypeRef::Int(kt)) = record.slots.iter().find_map(|s| match s {
        Slot::Field(f) if f.name == key => Some(&f.ty),
        _ => None,
    }) else {
        return String::new();
    };
    let (min, max) = kt.bounds();
    let ty = g.rt_type("EntityDelta");
    let f = g.rt("entityDelta");
    let rows = rows(g, record, false);
    format!(
        "/** How a `{ident}` changes in a delta (key `{key}`): the runtime's `Tracker` and `Mirror` read it. */\nexport const {ident}$delta: {ty}<{ident}> = /*@__PURE__*/ {f}({}, {}, {}, {rows}, {ident}$write, {ident}$read);\n\n",
        lit(key),
        int_lit(min, kt.bigint),
        int_lit(max, kt.bigint),
    )
}

/// `X$delta` of a message declared `delta`: what `new Tracker(X$delta, n)` and
/// `new Mirror(X$delta)` take.
pub fn message(g: &mut Gen, ident: &str, record: &Record) -> String {
    let ty = g.rt_type("DeltaCodec");
    let f = g.rt("deltaOf");
    let rows = rows(g, record, true);
    format!(
        "/**\n * The delta form of `{ident}`: a server sends it with one `new Tracker({ident}$delta, keyframeEvery)`\n * per client (`send(dir, client, msg, {{ tracker }})`), a dispatcher applies it to a `Mirror` and\n * hands its handler the full value (WIRE.md, \"Delta snapshots\").\n */\nexport const {ident}$delta: {ty}<{ident}> = /*@__PURE__*/ {f}({rows}, {ident}$write, {ident}$read);\n\n"
    )
}
