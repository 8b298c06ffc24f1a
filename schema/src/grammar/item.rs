//! Structs and enums -> `ir::Item`, with the span side table the checks use.

use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Expr, Fields, Lit, UnOp};

use super::attr::{self, Container};
use super::constrain;
use super::ctxt::Ctxt;
use super::derive::Derive;
use super::interp;
use super::spans::{FieldSpans, ItemSpans, VariantSpans};
use super::symbol;
use super::ty::{self, describe};
use crate::ir::{
    Accept, Dispatch, DispatchVariant, Enum, Field, Flag, Flags, IntPrim, Item, ItemKind, Message,
    Record, Reserved, Slot, TypeRef, Variant, VariantFields,
};

/// Parses one item, recording every error in `cx`. `None` when its shape is wrong for the
/// derive (nothing further can be said about it).
pub(crate) fn item(cx: &Ctxt, input: &DeriveInput, derive: Derive) -> Option<(Item, ItemSpans)> {
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        cx.error_spanned(
            &input.generics,
            "tuplet types cannot be generic: the wire form of each type is fixed; \
             declare one concrete type per shape",
        );
    }
    let mut spans = ItemSpans::new(input.ident.span());
    let ident = input.ident.to_string();
    let kind = match (derive, &input.data) {
        (Derive::Message, Data::Struct(s)) => {
            let c = attr::container(cx, &input.attrs, symbol::MESSAGE);
            let mut record = record(cx, &s.fields, &mut spans)?;
            record.interp = c.interp.as_ref().and_then(|i| interp::message(cx, i));
            message(cx, input, c, record, &mut spans).map(|(m, a)| (ItemKind::Message(m), a))
        }
        (Derive::Record, Data::Struct(s)) => {
            let c = attr::container(cx, &input.attrs, symbol::RECORD);
            let mut record = record(cx, &s.fields, &mut spans)?;
            record.entity_key = c.entity.as_ref().map(|e| e.value.clone());
            record.interp = c
                .interp
                .as_ref()
                .and_then(|i| interp::record(cx, i, record.entity_key.as_deref()));
            Some((ItemKind::Record(record), finish_container(c, &mut spans)))
        }
        (Derive::Flags, Data::Struct(s)) => {
            let c = attr::container(cx, &input.attrs, symbol::FLAGS);
            let flags = flags(cx, &c, &s.fields, &mut spans)?;
            Some((ItemKind::Flags(flags), finish_container(c, &mut spans)))
        }
        (Derive::Enum, Data::Enum(e)) => {
            let c = attr::container(cx, &input.attrs, symbol::ENUM);
            let en = enumeration(cx, &c, e, &mut spans);
            Some((ItemKind::Enum(en), finish_container(c, &mut spans)))
        }
        (Derive::Dispatch, Data::Enum(e)) => {
            let c = attr::container(cx, &input.attrs, symbol::DISPATCH);
            dispatch(cx, input, c, e, &mut spans)
        }
        (_, _) => {
            cx.error(
                input.ident.span(),
                format!(
                    "`#[derive(tuplet::{derive:?})]` applies to {}",
                    derive.applies_to()
                ),
            );
            return None;
        }
    };
    let (kind, accept) = kind?;
    let item = Item {
        ident,
        doc: doc(&input.attrs),
        accept,
        kind,
    };
    Some((item, spans))
}

/// Moves the container key spans into the table and hands back the item's `accept` list.
fn finish_container(c: Container, spans: &mut ItemSpans) -> Vec<Accept> {
    spans.keys = c.keys;
    c.accept
}

fn message(
    cx: &Ctxt,
    input: &DeriveInput,
    c: Container,
    record: Record,
    spans: &mut ItemSpans,
) -> Option<(Message, Vec<Accept>)> {
    let missing: Vec<&str> = [
        ("name", c.name.is_none()),
        ("id", c.id.is_none()),
        ("dir", c.dir.is_none()),
    ]
    .iter()
    // A key written with a bad value was reported already.
    .filter(|(k, m)| *m && !c.keys.contains_key(k))
    .map(|(k, _)| *k)
    .collect();
    if c.name.is_none() || c.id.is_none() || c.dir.is_none() {
        if missing.is_empty() {
            return None;
        }
        cx.error(
            input.ident.span(),
            format!(
                "message `{}` is missing `{}`; a message declares \
                 `#[tuplet(name = \"...\", id = N, dir = \"c2s\")]`",
                input.ident,
                missing.join("`, `")
            ),
        );
        return None;
    }
    let msg = Message {
        name: c.name.as_ref()?.value.clone(),
        id: c.id.as_ref()?.value,
        dir: c.dir.as_ref()?.value,
        budget: c.budget.as_ref().map(|b| b.value),
        delta: c.delta,
        unreliable: c.unreliable,
        record,
    };
    let accept = finish_container(c, spans);
    Some((msg, accept))
}

/// The slots of a struct (or struct variant) with named fields; a unit struct has none.
fn record(cx: &Ctxt, fields: &Fields, spans: &mut ItemSpans) -> Option<Record> {
    let (slots, field_spans) = record_fields(cx, fields)?;
    spans.fields = field_spans;
    Some(Record {
        entity_key: None,
        interp: None,
        slots,
    })
}

fn record_fields(cx: &Ctxt, fields: &Fields) -> Option<(Vec<Slot>, Vec<FieldSpans>)> {
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
fn slot(cx: &Ctxt, f: &syn::Field, name: String) -> Option<(Slot, FieldSpans)> {
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

fn enumeration(cx: &Ctxt, c: &Container, e: &DataEnum, spans: &mut ItemSpans) -> Enum {
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

fn flags(cx: &Ctxt, c: &Container, fields: &Fields, spans: &mut ItemSpans) -> Option<Flags> {
    let prim = c.int.as_ref().map_or(IntPrim::U32, |i| i.value);
    let Fields::Named(named) = fields else {
        cx.error_spanned(fields, "a flag set is a struct of named `bool` fields");
        return None;
    };
    let mut out = Flags {
        prim,
        open: c.open,
        reserved: Vec::new(),
        bits: Vec::new(),
        rest: None,
    };
    if let Some(r) = &c.reserved {
        for &(n, span) in &r.value {
            match u8::try_from(n) {
                Ok(n) => out.reserved.push(n),
                Err(_) => cx.error(span, "a reserved bit is a number from 0 to 63"),
            }
        }
    }
    for f in &named.named {
        let a = attr::flag_field(cx, &f.attrs);
        let ident = f.ident.as_ref().expect("named field");
        let name = ident.to_string();
        if let Some(span) = a.rest {
            let ok = matches!(ty::type_ref(&f.ty), Ok(TypeRef::Int(i)) if i.prim == prim);
            if !ok {
                cx.error_spanned(
                    &f.ty,
                    format!(
                        "the `rest` field holds the flags' wire int: `{}`",
                        prim.as_str()
                    ),
                );
            }
            if let Some(b) = &a.bit {
                cx.error(b.key, "the `rest` field has no bit of its own");
            }
            if out.rest.is_some() {
                cx.error(span, "a flag set has one `rest` field");
            }
            out.rest = Some(name);
            spans.rest = Some(span);
            continue;
        }
        if !matches!(ty::type_ref(&f.ty), Ok(TypeRef::Bool)) {
            cx.error_spanned(
                &f.ty,
                "a flags field is a `bool` (an open flag set adds one `#[tuplet(rest)]` int)",
            );
            continue;
        }
        let Some(bit) = &a.bit else {
            cx.error(
                ident.span(),
                format!("flag `{name}` needs its bit: `#[tuplet(bit = 0)]`"),
            );
            continue;
        };
        spans.fields.push(FieldSpans {
            ident: ident.span(),
            keys: a.keys.clone(),
        });
        out.bits.push(Flag {
            name,
            doc: doc(&f.attrs),
            bit: bit.value,
        });
    }
    Some(out)
}

fn dispatch(
    cx: &Ctxt,
    input: &DeriveInput,
    c: Container,
    e: &DataEnum,
    spans: &mut ItemSpans,
) -> Option<(ItemKind, Vec<Accept>)> {
    let mut variants = Vec::new();
    for v in &e.variants {
        attr::no_keys(cx, &v.attrs, symbol::DISPATCH_VARIANT);
        let path = match &v.fields {
            Fields::Unnamed(u) if u.unnamed.len() == 1 => match ty::type_ref(&u.unnamed[0].ty) {
                Ok(TypeRef::Named { path }) => Some(path),
                _ => None,
            },
            _ => None,
        };
        let Some(path) = path else {
            cx.error_spanned(
                v,
                format!(
                    "a dispatch variant holds one message type: `{}(PlayerMove)`",
                    v.ident
                ),
            );
            continue;
        };
        spans.variants.push(VariantSpans {
            number: v.ident.span(),
            fields: Vec::new(),
        });
        variants.push(DispatchVariant {
            name: v.ident.to_string(),
            path,
        });
    }
    let Some(dir) = c.dir.as_ref().map(|d| d.value) else {
        if c.keys.contains_key("dir") {
            return None; // written with a bad value: reported already
        }
        cx.error(
            input.ident.span(),
            format!(
                "dispatch `{}` is missing `dir`: add `#[tuplet(dir = \"c2s\")]`",
                input.ident
            ),
        );
        return None;
    };
    let d = Dispatch {
        dir,
        reserved_ids: c.reserved_ids.clone(),
        reserved_names: c.reserved_names.clone(),
        variants,
    };
    let accept = finish_container(c, spans);
    Some((ItemKind::Dispatch(d), accept))
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

impl Derive {
    /// What the derive applies to, for the wrong-shape error.
    fn applies_to(self) -> &'static str {
        match self {
            Derive::Message | Derive::Record => "a struct with named fields",
            Derive::Flags => "a struct of `bool` fields",
            Derive::Enum => "an enum",
            Derive::Dispatch => "an enum of newtype variants holding messages",
        }
    }
}
