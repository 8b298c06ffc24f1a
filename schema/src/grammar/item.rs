//! Structs and enums -> `ir::Item`, with the span side table the checks use: messages,
//! records, flag sets and dispatch enums here; fields in `field`, enums in `enumeration`.

use syn::{Data, DataEnum, DeriveInput, Fields};

use super::attr::{self, Container};
use super::ctxt::Ctxt;
use super::derive::Derive;
use super::enumeration::enumeration;
use super::field::{doc, record_fields};
use super::interp;
use super::spans::{FieldSpans, ItemSpans, VariantSpans};
use super::symbol;
use super::ty;
use crate::ir::{
    Accept, Dispatch, DispatchVariant, Flag, Flags, IntPrim, Item, ItemKind, Message, Record,
    TypeRef,
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
