//! The fields of a struct or struct variant -> `ir::Slot`s: each field's keys, its type
//! constrained by them, or a reserved placeholder; and the doc comments items keep.

use syn::spanned::Spanned;
use syn::{Expr, Fields, Lit};

use super::attr;
use super::constrain;
use super::ctxt::Ctxt;
use super::spans::FieldSpans;
use super::ty::{self, describe};
use crate::ir::{Field, Reserved, Slot};

/// The slots of named fields (none for a unit struct), with their spans.
pub(crate) fn record_fields(cx: &Ctxt, fields: &Fields) -> Option<(Vec<Slot>, Vec<FieldSpans>)> {
    let named = match fields {
        Fields::Named(n) => &n.named,
        Fields::Unit => return Some((Vec::new(), Vec::new())),
        Fields::Unnamed(_) => {
            cx.error_spanned(
                fields,
                "tuple structs are not supported: name the fields \
                 (`struct Hit { pub target: u32 }`); the named shape needs a key per field",
            );
            return None;
        }
    };
    let mut slots = Vec::new();
    let mut spans = Vec::new();
    for f in named {
        let name = f.ident.as_ref().expect("named field").to_string();
        if let Some((s, sp)) = slot(cx, f, name) {
            slots.push(s);
            spans.push(sp);
        }
    }
    Some((slots, spans))
}

/// One field: a live field, or a reserved placeholder.
pub(crate) fn slot(cx: &Ctxt, f: &syn::Field, name: String) -> Option<(Slot, FieldSpans)> {
    let attrs = attr::field(cx, &f.attrs);
    let spans = FieldSpans {
        ident: f.ident.as_ref().map_or_else(|| f.ty.span(), |i| i.span()),
        keys: attrs.keys.clone(),
    };
    if ty::is_reserved(&f.ty) {
        let Some(r) = &attrs.reserved else {
            cx.error_spanned(
                &f.ty,
                "a `tuplet::Reserved` slot needs the reason its field went: \
                 `#[tuplet(reserved = \"colour: moved to player:join in 1.4\")]`",
            );
            return None;
        };
        for (key, span) in &attrs.keys {
            if *key != "reserved" {
                cx.error(
                    *span,
                    format!("a reserved slot takes only `reserved`; drop `{key}`"),
                );
            }
        }
        let slot = Slot::Reserved(Reserved {
            ident: name,
            note: r.value.clone(),
        });
        return Some((slot, spans));
    }
    let mut ty = match ty::type_ref(&f.ty) {
        Ok(t) => t,
        Err(e) => {
            cx.syn_error(e);
            return None;
        }
    };
    if let Some(r) = &attrs.reserved {
        cx.error(
            r.key,
            format!(
                "`reserved` marks a removed field, whose type must be `tuplet::Reserved`; \
                 found `{}`",
                describe(&ty)
            ),
        );
        return None;
    }
    constrain::apply(cx, &attrs, &mut ty);
    let field = Field {
        name,
        doc: doc(&f.attrs),
        ty,
        legacy: attrs.legacy.map(|l| l.value.0).unwrap_or_default(),
        draw: attrs.draw.map(|d| d.value),
        accept: attrs.accept,
    };
    Some((Slot::Field(field), spans))
}

/// The doc comment: one line per `///`, one leading space trimmed, joined with `\n`.
pub(crate) fn doc(attrs: &[syn::Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                let value = s.value();
                for line in value.split('\n') {
                    lines.push(line.strip_prefix(' ').unwrap_or(line).to_owned());
                }
            }
        }
    }
    lines.join("\n")
}
