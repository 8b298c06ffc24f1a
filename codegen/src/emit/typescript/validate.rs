//! `X$validate(v, path, issues)`: every issue of a natural value, each at its canonical path
//! (`p[1]`, `items[3].name`, `scores["ann"]`), as the Rust `validate_at` reports them, plus
//! the JS type checks (typia-style `typeof` guards) the Rust type system makes for free.

use tuplet_schema::ir::{Enum, Flags, Slot, TypeRef, VariantFields};

use super::encode::checked;
use super::{lit, num, Gen, Out};
use tuplet_schema::plan::Quantized;

/// Statements recording every issue of the value `v` of `t`.
pub fn validate(g: &mut Gen, out: &mut Out, t: &TypeRef, v: &str) {
    let check = g.rt("check");
    match t {
        TypeRef::Option { inner } => {
            let y = g.fresh("y");
            out.line(format!("const {y} = {v};"));
            out.open(format!("if ({y} !== undefined) {{"));
            validate(g, out, inner, &y);
            out.close("}");
        }
        TypeRef::Vec { inner, len } => {
            let arr = g.rt("vArr");
            out.open(format!("if ({check}(path, issues, () => {arr}({v}))) {{"));
            if !len.is_unbounded() {
                let (min, max) = len.bounds();
                let cl = g.rt("checkLen");
                out.line(format!(
                    "{check}(path, issues, () => {cl}({v}.length, {min}, {max}, \"elements\"));"
                ));
            }
            each(g, out, inner, v);
            out.close("}");
        }
        TypeRef::Array { inner, len } => {
            let fixed = g.rt("vFixed");
            out.open(format!(
                "if ({check}(path, issues, () => {fixed}({v}, {len}))) {{"
            ));
            each(g, out, inner, v);
            out.close("}");
        }
        TypeRef::Map { key, value, len } => {
            let mt = g.rt("vMapType");
            out.open(format!("if ({check}(path, issues, () => {mt}({v}))) {{"));
            if !len.is_unbounded() {
                let (min, max) = len.bounds();
                let cl = g.rt("checkLen");
                out.line(format!(
                    "{check}(path, issues, () => {cl}({v}.size, {min}, {max}, \"entries\"));"
                ));
            }
            let (k, x) = (g.fresh("k"), g.fresh("x"));
            out.open(format!("for (const [{k}, {x}] of {v}) {{"));
            out.line(format!("path.push({{ key: String({k}) }});"));
            validate(g, out, key, &k);
            validate(g, out, value, &x);
            out.line("path.pop();");
            out.close("}");
            out.close("}");
        }
        TypeRef::Named { path } => {
            let f = g.fn_ref(path, "validate");
            out.line(format!("{f}({v}, path, issues);"));
        }
        TypeRef::Float(ft) if ft.quant.is_some() => {
            let Quantized { scale, qmin, qmax } = ft.quantized().expect("quantized");
            let f = g.rt("vQuant");
            out.line(format!(
                "{check}(path, issues, () => {f}({v}, {}, {qmin}, {qmax}, {}, false));",
                num(scale),
                ft.bits == 32
            ));
        }
        leaf => {
            let e = checked(g, leaf, v);
            out.line(format!("{check}(path, issues, () => {e});"));
        }
    }
}

/// Every element of the list `v`, each at its index.
fn each(g: &mut Gen, out: &mut Out, inner: &TypeRef, v: &str) {
    let (i, x) = (g.fresh("i"), g.fresh("x"));
    out.line(format!("let {i} = 0;"));
    out.open(format!("for (const {x} of {v}) {{"));
    out.line(format!("path.push({i}++);"));
    validate(g, out, inner, &x);
    out.line("path.pop();");
    out.close("}");
}

fn fields(g: &mut Gen, out: &mut Out, slots: &[Slot], obj: &str) {
    for slot in slots {
        let Slot::Field(f) = slot else { continue };
        out.line(format!("path.push({});", lit(&f.name)));
        validate(g, out, &f.ty, &format!("{obj}.{}", f.name));
        out.line("path.pop();");
    }
}

fn head(g: &mut Gen, ident: &str) -> (Out, String) {
    let seg = g.rt_type("Seg");
    let issue = g.rt_type("Issue");
    let mut out = Out::at(0);
    out.open(format!(
        "export function {ident}$validate(v: {ident}, path: {seg}[], issues: {issue}[]): void {{"
    ));
    let check = g.rt("check");
    (out, check)
}

/// `X$validate` of a record.
pub fn record_fn(g: &mut Gen, ident: &str, slots: &[Slot]) -> String {
    g.reset();
    let (mut out, check) = head(g, ident);
    let obj = g.rt("vObject");
    out.line(format!(
        "if (!{check}(path, issues, () => {obj}(v))) return;"
    ));
    fields(g, &mut out, slots, "v");
    out.close("}");
    out.line("");
    out.finish()
}

/// `X$validate` of an enum.
pub fn enum_fn(g: &mut Gen, ident: &str, e: &Enum) -> String {
    g.reset();
    let (mut out, check) = head(g, ident);
    if e.is_unit() {
        out.line(format!("{check}(path, issues, () => {ident}$num(v));"));
        out.close("}");
        out.line("");
        return out.finish();
    }
    let obj = g.rt("vObject");
    let bad = g.rt("badVariant");
    out.line(format!(
        "if (!{check}(path, issues, () => {obj}(v))) return;"
    ));
    out.open("switch (v.kind) {");
    for v in &e.variants {
        out.open(format!("case {}: {{", lit(&v.name)));
        match &v.fields {
            VariantFields::Unit => {}
            VariantFields::Newtype { field } => validate(g, &mut out, &field.ty, "v.value"),
            VariantFields::Struct { record } => fields(g, &mut out, &record.slots, "v"),
        }
        out.line("return;");
        out.close("}");
    }
    if e.unknown.is_some() {
        let vint = g.rt("vInt");
        out.line("case \"unknown\":");
        out.line(format!(
            "  {check}(path, issues, () => {vint}(v.tag, 0, 4294967295));"
        ));
        out.line("  return;");
    }
    out.close("}");
    out.open(format!("{check}(path, issues, () => {{"));
    out.line(format!("throw {bad}((v as {{ kind: unknown }}).kind);"));
    out.close("});");
    out.close("}");
    out.line("");
    out.finish()
}

/// `X$validate` of a flag set.
pub fn flags_fn(g: &mut Gen, ident: &str, _f: &Flags) -> String {
    g.reset();
    let (mut out, check) = head(g, ident);
    out.line(format!("{check}(path, issues, () => {ident}$bits(v));"));
    out.close("}");
    out.line("");
    out.finish()
}
