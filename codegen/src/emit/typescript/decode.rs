//! Decoding, as the Rust derive decodes (same checks, same order, same codes and paths):
//! `X$read(r)` from bytes through the runtime `Reader`, one per record, enum and flag set.
//! `fromWire` needs no code of its own: the runtime packs the decoded JS value back into
//! msgpack and reads it with `X$read` (docs/frontend.md). Records accept either
//! shape (array: compact, map: named); trailing absent options may be missing, extra trailing
//! elements and unknown keys are skipped.

use tuplet_schema::ir::{Slot, TypeRef};
use tuplet_schema::plan::Node;

use super::common::{is_option, lit, Out};
use super::generator::Gen;
use super::leaf;
use super::table::record_table;
use super::types::{is_tuple, ts_type};

/// Which shape the enclosing record is read in (quantized floats differ).
pub use tuplet_schema::plan::Form;

/// An expression reading one `t` from the reader; statements it needs first go to `out`.
pub fn read(g: &mut Gen, out: &mut Out, t: &TypeRef, form: Form) -> String {
    match t.node() {
        Node::Leaf(l) => leaf::read(g, l, form),
        Node::Option { inner } => {
            let mut sub = Out::at(out.depth() + 1);
            let e = read(g, &mut sub, inner, form);
            if sub.is_empty() {
                format!("({}(r) ? undefined : {e})", g.rt("tryNil"))
            } else {
                let o = g.fresh("o");
                let ty = ts_type(g, inner);
                out.line(format!("let {o}: {ty} | undefined;"));
                out.open(format!("if (!{}(r)) {{", g.rt("tryNil")));
                out.append(sub);
                out.line(format!("{o} = {e};"));
                out.close("}");
                o
            }
        }
        Node::Vec { inner, len } => {
            let (min, max) = len.bounds();
            let read_list = g.rt("readList");
            let n = g.fresh("n");
            out.line(format!("const {n} = {read_list}(r, {min}, {max});"));
            list(g, out, inner, form, &n)
        }
        Node::Array { inner, len } => {
            let wrong = g.rt("wrongLength");
            let n = g.fresh("n");
            out.line(format!("const {n} = {}(r);", g.rt("readArrayLen")));
            out.line(format!("if ({n} !== {len}) throw {wrong}({n}, {len});"));
            let a = match unrolled(g, out, inner, form, len) {
                Some(a) => a,
                None => list(g, out, inner, form, &n),
            };
            if is_tuple(t) {
                format!("{a} as {}", ts_type(g, t))
            } else {
                a
            }
        }
        Node::Map { key, value, len } => {
            let (min, max) = len.bounds();
            let read_map = g.rt("readMap");
            let n = g.fresh("n");
            out.line(format!("const {n} = {read_map}(r, {min}, {max});"));
            let m = g.fresh("m");
            let j = g.fresh("j");
            let (kt, vt) = (ts_type(g, key), ts_type(g, value));
            out.line(format!("const {m} = new Map<{kt}, {vt}>();"));
            out.open(format!("for (let {j} = 0; {j} < {n}; {j}++) {{"));
            let k = g.fresh("k");
            let ke = map_key(g, out, key, form);
            out.line(format!("const {k} = {ke};"));
            map_entry(g, out, value, form, &m, &k);
            out.close("}");
            out.line(format!("{}(r);", g.rt("leave")));
            m
        }
        Node::Named { path } => format!("{}(r)", g.fn_ref(path, "read")),
    }
}

/// A map key: a leaf's through `leaf::read_key` (an int key also accepts its decimal
/// text), anything else as a value.
fn map_key(g: &mut Gen, out: &mut Out, t: &TypeRef, form: Form) -> String {
    match t.leaf() {
        Some(l) => leaf::read_key(g, l, form),
        None => read(g, out, t, form),
    }
}

/// The rest of a map entry once its key `k` is read: the duplicate check and the value
/// (errors at the key's path).
fn map_entry(g: &mut Gen, out: &mut Out, value: &TypeRef, form: Form, m: &str, k: &str) {
    let dup = g.rt("duplicate");
    let at_key = g.rt("atKey");
    out.line(format!("if ({m}.has({k})) throw {dup}({k}).inKey({k});"));
    let x = g.fresh("x");
    let vt = ts_type(g, value);
    out.line(format!("let {x}: {vt};"));
    out.open("try {");
    let e = read(g, out, value, form);
    out.line(format!("{x} = {e};"));
    out.mid("} catch (e) {");
    out.line(format!("throw {at_key}(e, {k});"));
    out.close("}");
    out.line(format!("{m}.set({k}, {x});"));
}

/// Reads a short fixed-size array of simple elements as one array literal (no growth of an
/// empty array, no loop; errors at the element's index), or `None` when a loop is better.
fn unrolled(g: &mut Gen, out: &mut Out, inner: &TypeRef, form: Form, len: u32) -> Option<String> {
    if len == 0 || len > 4 {
        return None;
    }
    let mut sub = Out::at(out.depth() + 1);
    let e = read(g, &mut sub, inner, form);
    let at_index = g.rt("atIndex");
    let (a, i) = (g.fresh("a"), g.fresh("i"));
    let t = ts_type(g, inner);
    let elems: Vec<String> = if sub.is_empty() {
        (0..len)
            .map(|j| match j {
                0 => e.clone(),
                _ => format!("({i} = {j}, {e})"),
            })
            .collect()
    } else {
        return None;
    };
    out.line(format!("let {i} = 0;"));
    out.line(format!("let {a}: {}[];", paren(&t)));
    out.open("try {");
    out.line(format!("{a} = [{}];", elems.join(", ")));
    out.mid("} catch (e) {");
    out.line(format!("throw {at_index}(e, {i});"));
    out.close("}");
    out.line(format!("{}(r);", g.rt("leave")));
    Some(a)
}

/// Reads `n` elements into a new array (errors at their index); returns its name.
fn list(g: &mut Gen, out: &mut Out, inner: &TypeRef, form: Form, n: &str) -> String {
    let at_index = g.rt("atIndex");
    let a = g.fresh("a");
    let i = g.fresh("i");
    let t = ts_type(g, inner);
    out.line(format!("const {a}: {}[] = [];", paren(&t)));
    out.line(format!("let {i} = 0;"));
    out.open("try {");
    out.open(format!("for (; {i} < {n}; {i}++) {{"));
    let e = read(g, out, inner, form);
    out.line(format!("{a}.push({e});"));
    out.close("}");
    out.mid("} catch (e) {");
    out.line(format!("throw {at_index}(e, {i});"));
    out.close("}");
    out.line(format!("{}(r);", g.rt("leave")));
    a
}

fn paren(t: &str) -> String {
    if t.contains(' ') {
        format!("({t})")
    } else {
        t.to_string()
    }
}

/// How a body builds its value: the TS type and, for an enum variant, its `kind`.
pub struct Ctor<'a> {
    /// The type annotation of the built object.
    pub ty: String,
    /// The variant name of a struct variant.
    pub kind: Option<&'a str>,
}

fn field_local(i: usize) -> String {
    format!("f{i}")
}

/// Builds the value from the field locals into `target`. In a hot type, a value with every
/// optional field present is one object literal (one allocation, one hidden class, no
/// properties added afterwards).
fn construct(out: &mut Out, slots: &[Slot], target: &str, ctor: &Ctor, hot: bool) {
    let mut parts = Vec::new();
    let mut all = Vec::new();
    if let Some(kind) = ctor.kind {
        parts.push(format!("kind: {}", lit(kind)));
        all.push(format!("kind: {}", lit(kind)));
    }
    let mut optional = Vec::new();
    for (i, slot) in slots.iter().enumerate() {
        let Slot::Field(f) = slot else { continue };
        let part = format!("{}: {}", f.name, field_local(i));
        if is_option(&f.ty) {
            optional.push((i, &f.name));
        } else {
            parts.push(part.clone());
        }
        all.push(part);
    }
    let literal = |parts: &[String]| {
        if parts.is_empty() {
            "{}".to_string()
        } else {
            format!("{{ {} }}", parts.join(", "))
        }
    };
    let obj = literal(&parts);
    if optional.is_empty() {
        out.line(format!("{target} = {obj};"));
        return;
    }
    if hot {
        let present: Vec<String> = optional
            .iter()
            .map(|(i, _)| format!("{} !== undefined", field_local(*i)))
            .collect();
        out.line(format!("let o: {};", ctor.ty));
        out.line(format!(
            "if ({}) o = {};",
            present.join(" && "),
            literal(&all)
        ));
        out.open("else {");
        out.line(format!("o = {obj};"));
    } else {
        out.line(format!("const o: {} = {obj};", ctor.ty));
    }
    for (i, name) in optional {
        let l = field_local(i);
        out.line(format!("if ({l} !== undefined) o.{name} = {l};"));
    }
    if hot {
        out.close("}");
    }
    out.line(format!("{target} = o;"));
}

/// The compact body: `avail` elements remain; fields in slot order, a missing required field
/// is `missing_field`, extra elements skipped.
pub fn compact_body(
    g: &mut Gen,
    out: &mut Out,
    slots: &[Slot],
    avail: &str,
    target: &str,
    ctor: &Ctor,
) {
    let at = g.rt("at");
    out.line("let k: string | undefined;");
    out.open("try {");
    for (i, slot) in slots.iter().enumerate() {
        let l = field_local(i);
        match slot {
            Slot::Reserved(_) => {
                out.open(format!("if ({avail} > {i}) {{"));
                out.line("k = undefined;");
                out.line(format!("{}(r);", g.rt("skipValue")));
                out.close("}");
            }
            Slot::Field(f) if is_option(&f.ty) => {
                let TypeRef::Option { inner } = &f.ty else {
                    continue;
                };
                let ty = ts_type(g, inner);
                out.line(format!("let {l}: {ty} | undefined;"));
                out.open(format!("if ({avail} > {i}) {{"));
                out.line(format!("k = {};", lit(&f.name)));
                let e = read(g, out, &f.ty, Form::Compact);
                out.line(format!("{l} = {e};"));
                out.close("}");
            }
            Slot::Field(f) => {
                // `absent` has no path: the catch below puts it at `k`, the field's name.
                let absent = g.rt("absent");
                out.line(format!("k = {};", lit(&f.name)));
                out.line(format!("if ({avail} <= {i}) throw {absent}(k);"));
                let e = read(g, out, &f.ty, Form::Compact);
                out.line(format!("const {l} = {e};"));
            }
        }
    }
    let hot = g.hot;
    construct(out, slots, target, ctor, hot);
    out.mid("} catch (e) {");
    out.line(format!("throw {at}(e, k);"));
    out.close("}");
    // Extra elements, past the try: their errors are the record's, at no field.
    let skip = g.rt("skipValues");
    out.line(format!("{skip}(r, {avail} - {});", slots.len()));
}

/// The named body: `n` entries read by the runtime's `readNamed` along the record's table
/// `table` (`table.rs`; the cold path: the same checks in the same order as the derive: a
/// field's legacy alias or canonical name, spread arrays one key per element; duplicates
/// rejected, unknown keys skipped, then missing fields in slot order).
pub fn named_body(g: &mut Gen, out: &mut Out, n: &str, (target, table): (&str, &str), ctor: &Ctor) {
    let read_named = g.rt("readNamed");
    let kind = ctor
        .kind
        .map(|k| format!(", {}", lit(k)))
        .unwrap_or_default();
    out.line(format!(
        "{target} = {read_named}(r, {n}, {table}{kind}) as {};",
        ctor.ty
    ));
}

/// `X$read` of a record (message or nested record).
pub fn record_fns(g: &mut Gen, ident: &str, slots: &[Slot]) -> String {
    let reader = g.rt_type("Reader");
    if g.walked(slots) {
        // A cold record (`[ts] hot`): the runtime walks its table, both shapes.
        let f = g.rt("readRecord");
        return format!(
            "export function {ident}$read(r: {reader}): {ident} {{\n  return {f}(r, {}) as {ident};\n}}\n\n",
            record_table(ident)
        );
    }
    let entries = g.rt("mapEntries");
    let ctor = Ctor {
        ty: ident.to_string(),
        kind: None,
    };
    g.reset();
    super::inline::begin(g);
    let mut out = Out::at(0);
    out.open(format!(
        "export function {ident}$read(r: {reader}): {ident} {{"
    ));
    out.line(format!("const s = {}(r);", g.rt("readShape")));
    out.line(format!("let v: {ident};"));
    out.open("if (s >= 0) {");
    compact_body(g, &mut out, slots, "s", "v", &ctor);
    out.mid("} else {");
    out.line(format!("const n = {entries}(s);"));
    let table = record_table(ident);
    named_body(g, &mut out, "n", ("v", &table), &ctor);
    out.close("}");
    out.line(format!("{}(r);", g.rt("leave")));
    out.line("return v;");
    out.close("}");
    out.line("");
    super::inline::scratch(g, out.finish())
}
