//! Enums -> `ir::Enum`: each variant's number (a discriminant, or a tag when the enum has
//! data), its fields, and an open enum's catch-all.

use syn::spanned::Spanned;
use syn::{DataEnum, Expr, Fields, Lit, UnOp};

use super::attr::{self, Container};
use super::ctxt::Ctxt;
use super::field::{doc, record_fields, slot};
use super::spans::{FieldSpans, ItemSpans, VariantSpans};
use super::ty;
use crate::ir::{Enum, IntPrim, Record, Slot, TypeRef, Variant, VariantFields};

/// The enum's variants, numbered and checked, and its reserved numbers.
pub(crate) fn enumeration(cx: &Ctxt, c: &Container, e: &DataEnum, spans: &mut ItemSpans) -> Enum {
    let parsed: Vec<_> = e
        .variants
        .iter()
        .map(|v| (attr::variant(cx, &v.attrs), v))
        .collect();
    let has_data = parsed
        .iter()
        .any(|(a, v)| a.unknown.is_none() && !matches!(v.fields, Fields::Unit));
    let mut out = Enum {
        open: c.open,
        reserved: Vec::new(),
        variants: Vec::new(),
        unknown: None,
    };
    if let Some(r) = &c.reserved {
        for &(n, span) in &r.value {
            match i64::try_from(n) {
                Ok(n) => out.reserved.push(n),
                Err(_) => cx.error(span, "a reserved number must fit an i64"),
            }
        }
    }
    // Every number written in the enum (discriminants, tags, reserved), so a missing one's
    // suggestion is a number still free.
    let mut taken: Vec<i64> = out.reserved.clone();
    taken.extend(
        parsed
            .iter()
            .filter_map(|(a, v)| match (&a.tag, &v.discriminant) {
                (Some(t), _) if has_data => Some(i64::from(t.value)),
                (_, Some((_, d))) if !has_data => discriminant(d),
                _ => None,
            }),
    );
    let free = (1..).find(|n| !taken.contains(n)).unwrap_or(1);
    for (a, v) in parsed {
        let name = v.ident.to_string();
        if let Some(span) = a.unknown {
            catch_all(cx, v, has_data);
            if out.unknown.is_some() {
                cx.error(span, "an open enum has one `unknown` variant");
            }
            out.unknown = Some(name);
            spans.unknown = Some(span);
            continue;
        }
        if c.open && has_data {
            check_open_variant_name(cx, v);
        }
        let (number, number_span) = if has_data {
            if let Some((_, d)) = &v.discriminant {
                cx.error_spanned(
                    d,
                    "an enum with data numbers its variants with `#[tuplet(tag = N)]`, \
                     not a discriminant",
                );
            }
            match &a.tag {
                Some(t) => (i64::from(t.value), t.key),
                None => {
                    cx.error(
                        v.ident.span(),
                        format!("variant `{name}` needs its tag: `#[tuplet(tag = {free})]`"),
                    );
                    continue;
                }
            }
        } else {
            if let Some(t) = &a.tag {
                cx.error(
                    t.key,
                    "`tag` is for enums with data; a unit enum numbers its variants with \
                     discriminants (`Sparrow = 1`)",
                );
            }
            match &v.discriminant {
                Some((_, d)) => match discriminant(d) {
                    Some(n) => (n, d.span()),
                    None => {
                        cx.error_spanned(d, "a discriminant must be an integer literal");
                        continue;
                    }
                },
                None => {
                    cx.error(
                        v.ident.span(),
                        format!(
                            "variant `{name}` needs an explicit discriminant (`{name} = {free}`): \
                             its number on the wire must never change"
                        ),
                    );
                    continue;
                }
            }
        };
        let (fields, field_spans) = match variant_fields(cx, &v.fields) {
            Some(f) => f,
            None => continue,
        };
        spans.variants.push(VariantSpans {
            number: number_span,
            fields: field_spans,
        });
        out.variants.push(Variant {
            name,
            doc: doc(&v.attrs),
            number,
            fields,
            accept: a.accept,
        });
    }
    out
}

/// The data of a variant: unit, newtype or struct-like.
fn variant_fields(cx: &Ctxt, fields: &Fields) -> Option<(VariantFields, Vec<FieldSpans>)> {
    match fields {
        Fields::Unit => Some((VariantFields::Unit, Vec::new())),
        Fields::Named(_) => {
            let (slots, spans) = record_fields(cx, fields)?;
            let record = Record {
                entity_key: None,
                interp: None,
                slots,
            };
            Some((VariantFields::Struct { record }, spans))
        }
        Fields::Unnamed(u) if u.unnamed.len() == 1 => {
            let f = &u.unnamed[0];
            match slot(cx, f, "0".to_owned())? {
                (Slot::Field(field), spans) => Some((
                    VariantFields::Newtype {
                        field: Box::new(field),
                    },
                    vec![spans],
                )),
                (Slot::Reserved(_), _) => {
                    cx.error_spanned(
                        &f.ty,
                        "a variant's value cannot be reserved; reserve the tag",
                    );
                    None
                }
            }
        }
        Fields::Unnamed(_) => {
            cx.error_spanned(
                fields,
                "a variant holds one value or named fields; name the fields \
                 (`Hit { target: u32, damage: u16 }`)",
            );
            None
        }
    }
}

/// A variant of an open enum with data is not named `unknown`: in TypeScript (and in the
/// natural JSON of `tuplet decode`) a tag this version does not know reads as
/// `{ kind: "unknown", tag }`, so such a variant could not be told from it.
fn check_open_variant_name(cx: &Ctxt, v: &syn::Variant) {
    if v.ident == "unknown" {
        cx.error(
            v.ident.span(),
            "a variant of an open enum with data cannot be named `unknown`: TypeScript reads a \
             tag this version does not know as `{ kind: \"unknown\", tag }`; rename the variant",
        );
    }
}

/// Checks the shape of an open enum's catch-all: `Unknown(i64)` (unit) or `Unknown(u32)`.
fn catch_all(cx: &Ctxt, v: &syn::Variant, has_data: bool) {
    let want = if has_data { IntPrim::U32 } else { IntPrim::I64 };
    let ok = match &v.fields {
        Fields::Unnamed(u) if u.unnamed.len() == 1 => matches!(
            ty::type_ref(&u.unnamed[0].ty),
            Ok(TypeRef::Int(i)) if i.prim == want
        ),
        _ => false,
    };
    if !ok {
        cx.error(
            v.ident.span(),
            format!(
                "the `unknown` variant of an open {} holds the number: `{}({})`",
                if has_data {
                    "enum with data"
                } else {
                    "unit enum"
                },
                v.ident,
                want.as_str()
            ),
        );
    }
    if let Some((_, d)) = &v.discriminant {
        cx.error_spanned(d, "the `unknown` variant has no number of its own");
    }
}

/// `3` or `-3`.
fn discriminant(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse().ok(),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => discriminant(&u.expr).map(|n| -n),
        Expr::Group(g) => discriminant(&g.expr),
        Expr::Paren(p) => discriminant(&p.expr),
        _ => None,
    }
}
