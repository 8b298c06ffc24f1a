//! The `#[tuplet(...)]` key parsers, one per position. Each branch is headed by the syntax it
//! accepts; the values with a syntax of their own are parsed in `value`. Unknown keys are
//! answered with the keys valid at that position; duplicate keys are errors; every key's
//! span is kept for the checks.

use std::collections::BTreeMap;

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt};

use super::ctxt::Ctxt;
use super::lit::{self, NumLit};
use super::symbol::*;
use super::value::{
    accept, dir, draw, entity, flag, flags_int, interp, legacy, len, non_empty, range, skip_value,
    unit,
};
use crate::ir::{Accept, Dir, Draw, IntPrim, Len, Quant};
use crate::suggest::did_you_mean;

pub(crate) use super::value::InterpAttr;

/// A key's value with the span of the key itself.
#[derive(Debug, Clone)]
pub(crate) struct Attr<T> {
    /// The span of the key (`range` in `range(0, 1)`).
    pub key: Span,
    /// The parsed value.
    pub value: T,
}

/// Key name -> span of the key, for every key seen at one position.
pub(crate) type Keys = BTreeMap<&'static str, Span>;

/// The keys of any container (which ones are valid depends on the derive).
#[derive(Default)]
pub(crate) struct Container {
    pub name: Option<Attr<String>>,
    pub id: Option<Attr<u32>>,
    pub dir: Option<Attr<Dir>>,
    pub budget: Option<Attr<u32>>,
    pub delta: bool,
    pub unreliable: bool,
    pub accept: Vec<Accept>,
    pub entity: Option<Attr<String>>,
    pub interp: Option<Attr<InterpAttr>>,
    pub open: bool,
    pub reserved: Option<Attr<Vec<(i128, Span)>>>,
    pub int: Option<Attr<IntPrim>>,
    pub reserved_ids: Vec<u32>,
    pub reserved_names: Vec<String>,
    pub keys: Keys,
}

/// The keys of a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `quant = "cm"` or `scale = N` (the key span is whichever was written).
    pub quant: Option<Attr<Quant>>,
    pub range: Option<Attr<(NumLit, NumLit)>>,
    pub len: Option<Attr<Len>>,
    pub item_len: Option<Attr<Len>>,
    pub key_len: Option<Attr<Len>>,
    /// The keys, and whether they were written as a list (`["x", "y"]`).
    pub legacy: Option<Attr<(Vec<String>, bool)>>,
    pub bigint: Option<Span>,
    pub draw: Option<Attr<Draw>>,
    pub reserved: Option<Attr<String>>,
    pub accept: Vec<Accept>,
    pub keys: Keys,
}

/// The keys of an enum variant.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub tag: Option<Attr<u32>>,
    pub unknown: Option<Span>,
    pub accept: Vec<Accept>,
    pub keys: Keys,
}

/// The keys of a flags field.
#[derive(Default)]
pub(crate) struct FlagAttrs {
    pub bit: Option<Attr<u8>>,
    pub rest: Option<Span>,
    pub keys: Keys,
}

/// Parses the container keys valid at `pos`.
pub(crate) fn container(cx: &Ctxt, attrs: &[Attribute], pos: Position) -> Container {
    let mut c = Container::default();
    let mut keys = Keys::new();
    each_key(cx, attrs, pos, &mut keys, |key, meta| {
        let span = meta.path.span();
        match key {
            // #[tuplet(name = "player:move")]
            NAME => c.name = Some(attr(span, non_empty(meta.value()?.parse()?)?)),
            // #[tuplet(id = 1)]
            ID => c.id = Some(attr(span, meta.value()?.parse::<LitInt>()?.base10_parse()?)),
            // #[tuplet(dir = "c2s")]
            DIR => c.dir = Some(attr(span, dir(meta.value()?.parse()?)?)),
            // #[tuplet(budget = 48)]
            BUDGET => c.budget = Some(attr(span, meta.value()?.parse::<LitInt>()?.base10_parse()?)),
            // #[tuplet(delta)]
            DELTA => c.delta = flag(meta, key)?,
            // #[tuplet(unreliable)]
            UNRELIABLE => c.unreliable = flag(meta, key)?,
            // #[tuplet(accept(rule = "...", was = "...", now = "...", reason = "..."))]
            ACCEPT => c.accept.push(accept(meta)?),
            // #[tuplet(entity(key = "id"))]
            ENTITY => c.entity = Some(attr(span, entity(meta)?)),
            // #[tuplet(interp(key = "s", sent = "t"))], #[tuplet(interp(tick = "tick", rate = 20))]
            INTERP => c.interp = Some(attr(span, interp(meta)?)),
            // #[tuplet(open)]
            OPEN => c.open = flag(meta, key)?,
            // #[tuplet(reserved = [3, 4])]
            RESERVED => c.reserved = Some(attr(span, lit::int_list(meta.value()?)?)),
            // #[tuplet(int = "u8")]
            INT => c.int = Some(attr(span, flags_int(meta.value()?.parse()?)?)),
            // #[tuplet(reserved_ids = [5, 9])]
            RESERVED_IDS => {
                for (id, span) in lit::int_list(meta.value()?)? {
                    let id = u32::try_from(id)
                        .map_err(|_| syn::Error::new(span, "expected a u32 message id"))?;
                    c.reserved_ids.push(id);
                }
            }
            // #[tuplet(reserved_names = ["player:teleport"])]
            RESERVED_NAMES => {
                for name in lit::str_list(meta.value()?)? {
                    c.reserved_names.push(non_empty(name)?);
                }
            }
            _ => unreachable!("key listed in the position but not parsed"),
        }
        Ok(())
    });
    c.keys = keys;
    c
}

/// Parses the keys of a field.
pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut f = FieldAttrs::default();
    let mut keys = Keys::new();
    each_key(cx, attrs, FIELD, &mut keys, |key, meta| {
        let span = meta.path.span();
        match key {
            // #[tuplet(quant = "cm")]
            QUANT => {
                exclusive(&f.quant, span)?;
                f.quant = Some(attr(span, unit(meta.value()?.parse()?)?));
            }
            // #[tuplet(scale = 64)]
            SCALE => {
                exclusive(&f.quant, span)?;
                let n = lit::num(meta.value()?)?;
                let scale = n.num.as_f64();
                if !(scale > 0.0 && scale.is_finite()) {
                    return Err(syn::Error::new(
                        n.span,
                        "`scale` must be positive and finite",
                    ));
                }
                f.quant = Some(attr(span, Quant { unit: None, scale }));
            }
            // #[tuplet(range(MIN, MAX))]
            RANGE => f.range = Some(attr(span, range(meta)?)),
            // #[tuplet(len = N)] or #[tuplet(len(min = N, max = M))]
            LEN => f.len = Some(attr(span, len(meta, key)?)),
            // #[tuplet(item_len = N)] or #[tuplet(item_len(min = N, max = M))]
            ITEM_LEN => f.item_len = Some(attr(span, len(meta, key)?)),
            // #[tuplet(key_len = N)] or #[tuplet(key_len(min = N, max = M))]
            KEY_LEN => f.key_len = Some(attr(span, len(meta, key)?)),
            // #[tuplet(legacy = "alias")] or #[tuplet(legacy = ["x", "y", "z"])]
            LEGACY => f.legacy = Some(attr(span, legacy(meta)?)),
            // #[tuplet(bigint)]
            BIGINT => {
                flag(meta, key)?;
                f.bigint = Some(span);
            }
            // #[tuplet(draw = "linear" | "angle" | "hold")]
            DRAW => f.draw = Some(attr(span, draw(meta.value()?.parse()?)?)),
            // #[tuplet(reserved = "why it went")]
            RESERVED => f.reserved = Some(attr(span, non_empty(meta.value()?.parse()?)?)),
            // #[tuplet(accept(rule = "...", was = "...", now = "...", reason = "..."))]
            ACCEPT => f.accept.push(accept(meta)?),
            _ => unreachable!("key listed in the position but not parsed"),
        }
        Ok(())
    });
    f.keys = keys;
    f
}

/// Parses the keys of an enum variant.
pub(crate) fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut v = VariantAttrs::default();
    let mut keys = Keys::new();
    each_key(cx, attrs, VARIANT, &mut keys, |key, meta| {
        let span = meta.path.span();
        match key {
            // #[tuplet(tag = 3)]
            TAG => v.tag = Some(attr(span, meta.value()?.parse::<LitInt>()?.base10_parse()?)),
            // #[tuplet(unknown)]
            UNKNOWN => {
                flag(meta, key)?;
                v.unknown = Some(span);
            }
            // #[tuplet(accept(rule = "...", was = "...", now = "...", reason = "..."))]
            ACCEPT => v.accept.push(accept(meta)?),
            _ => unreachable!("key listed in the position but not parsed"),
        }
        Ok(())
    });
    v.keys = keys;
    v
}

/// Parses the keys of a flags field.
pub(crate) fn flag_field(cx: &Ctxt, attrs: &[Attribute]) -> FlagAttrs {
    let mut f = FlagAttrs::default();
    let mut keys = Keys::new();
    each_key(cx, attrs, FLAG, &mut keys, |key, meta| {
        let span = meta.path.span();
        match key {
            // #[tuplet(bit = 0)]
            BIT => f.bit = Some(attr(span, meta.value()?.parse::<LitInt>()?.base10_parse()?)),
            // #[tuplet(rest)]
            REST => {
                flag(meta, key)?;
                f.rest = Some(span);
            }
            _ => unreachable!("key listed in the position but not parsed"),
        }
        Ok(())
    });
    f.keys = keys;
    f
}

/// Rejects any key at a position that takes none (dispatch variants).
pub(crate) fn no_keys(cx: &Ctxt, attrs: &[Attribute], pos: Position) {
    each_key(cx, attrs, pos, &mut Keys::new(), |_, _| Ok(()));
}

/// Runs `f` on every known key of every `#[tuplet(...)]` in `attrs`; reports unknown and
/// duplicate keys (only `accept` repeats) and goes on with the next key.
fn each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    pos: Position,
    seen: &mut Keys,
    mut f: impl FnMut(Symbol, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path() == &TUPLET) {
        let res = attr.parse_nested_meta(|meta| {
            let Some(key) = pos.keys.iter().copied().find(|k| meta.path == *k) else {
                let written = meta.path.to_token_stream().to_string().replace(' ', "");
                let near = did_you_mean(&written, pos.keys.iter().map(|k| k.0));
                cx.error_spanned(
                    &meta.path,
                    format!(
                        "unknown tuplet {} key `{written}`; {near}{}",
                        pos.what,
                        pos.expected()
                    ),
                );
                return skip_value(&meta);
            };
            let span = meta.path.span();
            if seen.insert(key.0, span).is_some() && key != ACCEPT {
                cx.error(span, format!("duplicate tuplet key `{key}`"));
                return skip_value(&meta);
            }
            f(key, &meta)
        });
        if let Err(err) = res {
            cx.syn_error(err);
        }
    }
}

fn attr<T>(key: Span, value: T) -> Attr<T> {
    Attr { key, value }
}

fn exclusive(quant: &Option<Attr<Quant>>, span: Span) -> syn::Result<()> {
    match quant {
        Some(_) => Err(syn::Error::new(
            span,
            "`quant` and `scale` are exclusive: `quant` names a unit, `scale` gives the number",
        )),
        None => Ok(()),
    }
}
