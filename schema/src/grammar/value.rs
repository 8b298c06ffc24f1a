//! The values of `#[tuplet(...)]` keys: one parser per key whose value has a syntax of its
//! own (`dir`, `quant`, `range`, `len`, `legacy`, `entity`, `draw`, `interp`, `accept`),
//! each headed by the syntax it accepts, and the helpers they share. `attr` calls them for
//! the key at each position.

use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{parenthesized, token, LitInt, LitStr, Token};

use super::lit::{self, NumLit};
use super::symbol::*;
use crate::ir::{Accept, Dir, Draw, IntPrim, Len, Quant, UNITS};
use crate::suggest::did_you_mean;

/// `interp(key = "...", sent = "..." | tick = "...", rate = N | arrival)`, as written; the
/// checks turn it into `ir::Interp` once the fields are known.
#[derive(Debug, Clone, Default)]
pub(crate) struct InterpAttr {
    /// `key = "s"`: the field naming the entity.
    pub key: Option<String>,
    /// `sent = "t"`: the sender's own ms.
    pub sent: Option<String>,
    /// `tick = "tick"`: a server tick.
    pub tick: Option<String>,
    /// `rate = 20`: ticks per second, with `tick`.
    pub rate: Option<u32>,
    /// `arrival`: stamped on arrival.
    pub arrival: bool,
}

/// Consumes `= value` or `(...)` after a key that was rejected.
pub(crate) fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(token::Paren) {
        let content;
        parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// A bare key (`open`): nothing may follow it.
pub(crate) fn flag(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<bool> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        Ok(true)
    } else {
        Err(meta.error(format!("`{key}` takes no value: write `#[tuplet({key})]`")))
    }
}

pub(crate) fn non_empty(lit: LitStr) -> syn::Result<String> {
    let s = lit.value();
    if s.is_empty() {
        return Err(syn::Error::new(lit.span(), "expected a non-empty string"));
    }
    Ok(s)
}

// dir = "c2s" | "s2c" | "both"
pub(crate) fn dir(lit: LitStr) -> syn::Result<Dir> {
    match lit.value().as_str() {
        "c2s" => Ok(Dir::C2s),
        "s2c" => Ok(Dir::S2c),
        "both" => Ok(Dir::Both),
        other => {
            let near = did_you_mean(other, ["c2s", "s2c", "both"]);
            Err(syn::Error::new(
                lit.span(),
                format!("unknown dir `{other}`; {near}expected one of: c2s, s2c, both"),
            ))
        }
    }
}

// quant = "cm" | "mm" | ...
pub(crate) fn unit(lit: LitStr) -> syn::Result<Quant> {
    let name = lit.value();
    match UNITS.iter().find(|(u, _)| *u == name) {
        Some(&(u, scale)) => Ok(Quant {
            unit: Some(u.to_owned()),
            scale,
        }),
        None => {
            let known: Vec<&str> = UNITS.iter().map(|(u, _)| *u).collect();
            let near = did_you_mean(&name, known.iter().copied());
            Err(syn::Error::new(
                lit.span(),
                format!(
                    "unknown quant unit `{name}`; {near}expected one of: {}, or write `scale = N`",
                    known.join(", ")
                ),
            ))
        }
    }
}

// int = "u8" | "u16" | "u32" | "u64"
pub(crate) fn flags_int(lit: LitStr) -> syn::Result<IntPrim> {
    match IntPrim::from_name(&lit.value()) {
        Some(p) if !p.signed() => Ok(p),
        _ => {
            let ints = ["u8", "u16", "u32", "u64"];
            let near = did_you_mean(&lit.value(), ints);
            Err(syn::Error::new(
                lit.span(),
                format!(
                    "unknown flags int `{}`; {near}expected one of: u8, u16, u32, u64",
                    lit.value()
                ),
            ))
        }
    }
}

// range(MIN, MAX)
pub(crate) fn range(meta: &ParseNestedMeta) -> syn::Result<(NumLit, NumLit)> {
    if empty_list(meta) {
        return Err(meta.error("`range()` is empty; write `range(MIN, MAX)`, e.g. `range(0, 100)`"));
    }
    let content;
    parenthesized!(content in meta.input);
    let inside = || -> syn::Result<(NumLit, NumLit)> {
        let min = lit::num(&content)?;
        content.parse::<Token![,]>()?;
        let max = lit::num(&content)?;
        content.parse::<Option<Token![,]>>()?;
        if !content.is_empty() {
            return Err(content.error("expected `range(MIN, MAX)`"));
        }
        Ok((min, max))
    };
    inside().map_err(|e| {
        if e.to_string().contains("range(MIN, MAX)") {
            e
        } else {
            syn::Error::new(
                e.span(),
                format!("malformed `range(...)`: {e}; write `range(MIN, MAX)`"),
            )
        }
    })
}

/// Whether a key's list is empty: `key()`.
fn empty_list(meta: &ParseNestedMeta) -> bool {
    let fork = meta.input.fork();
    let empty = || -> syn::Result<bool> {
        let content;
        parenthesized!(content in fork);
        Ok(content.is_empty())
    };
    empty().unwrap_or(false)
}

/// `meta.parse_nested_meta` for the list of `key`, whose form is `write`: an empty list
/// (`key()`) or one syn cannot read (`key(min)`, `key("x")`) is answered with that form, not
/// only syn's `expected nested attribute`. Errors that already say what to write stay as they are.
fn nested(
    meta: &ParseNestedMeta,
    key: &str,
    write: &str,
    logic: impl FnMut(ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    if empty_list(meta) {
        return Err(meta.error(format!("`{key}()` is empty; write {write}")));
    }
    meta.parse_nested_meta(logic).map_err(|e| {
        if e.to_string().contains("write") || e.to_string().contains("expected one of") {
            e
        } else {
            syn::Error::new(
                e.span(),
                format!("malformed `{key}(...)`: {e}; write {write}"),
            )
        }
    })
}

// len = N | len(min = N) | len(max = M) | len(min = N, max = M)
pub(crate) fn len(meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Len> {
    if meta.input.peek(Token![=]) {
        let n: u32 = meta.value()?.parse::<LitInt>()?.base10_parse()?;
        return Ok(Len {
            min: Some(n),
            max: Some(n),
        });
    }
    let mut out = Len::default();
    let write = format!("`{key} = N`, `{key}(max = M)` or `{key}(min = N, max = M)`");
    nested(meta, &key.to_string(), &write, |inner| {
        let n = || -> syn::Result<u32> { inner.value()?.parse::<LitInt>()?.base10_parse() };
        if inner.path == MIN {
            out.min = Some(n()?);
        } else if inner.path == MAX {
            out.max = Some(n()?);
        } else {
            return Err(inner.error(format!("unknown `{key}` key; expected one of: min, max")));
        }
        Ok(())
    })?;
    if out.is_unbounded() {
        return Err(meta.error(format!("`{key}` needs `min`, `max` or both")));
    }
    Ok(out)
}

// legacy = "alias" | legacy = ["x", "y", "z"]
pub(crate) fn legacy(meta: &ParseNestedMeta) -> syn::Result<(Vec<String>, bool)> {
    let value = meta.value()?;
    if value.peek(token::Bracket) {
        let lits = lit::str_list(value)?;
        if lits.len() < 2 {
            return Err(meta.error(
                "a legacy key list spreads a fixed array over one key per element and needs \
                 two or more keys; for one alias write `legacy = \"name\"`",
            ));
        }
        let keys = lits
            .into_iter()
            .map(non_empty)
            .collect::<syn::Result<_>>()?;
        Ok((keys, true))
    } else {
        Ok((vec![non_empty(value.parse()?)?], false))
    }
}

// entity(key = "id"); a bare `entity` or `entity()` gives the empty key, which the checks
// answer with the record's int fields (they are not known here).
pub(crate) fn entity(meta: &ParseNestedMeta) -> syn::Result<String> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) || empty_list(meta) {
        skip_value(meta)?;
        return Ok(String::new());
    }
    let mut key = None;
    nested(meta, "entity", "`entity(key = \"<int field>\")`", |inner| {
        if inner.path == KEY {
            key = Some(non_empty(inner.value()?.parse()?)?);
            Ok(())
        } else {
            let written = inner.path.to_token_stream().to_string().replace(' ', "");
            let near = did_you_mean(&written, [KEY.0]);
            Err(inner.error(format!(
                "unknown `entity` key `{written}`; {near}write `entity(key = \"<int field>\")`"
            )))
        }
    })?;
    Ok(key.unwrap_or_default())
}

// draw = "linear" | "angle" | "hold"
pub(crate) fn draw(lit: LitStr) -> syn::Result<Draw> {
    match lit.value().as_str() {
        "linear" => Ok(Draw::Linear),
        "angle" => Ok(Draw::Angle),
        "hold" => Ok(Draw::Hold),
        other => {
            let near = did_you_mean(other, ["linear", "angle", "hold"]);
            Err(syn::Error::new(
                lit.span(),
                format!(
                    "unknown draw `{other}`; {near}expected one of: linear (positions, speeds), \
                     angle (headings in radians), hold (enums, ids, flags)"
                ),
            ))
        }
    }
}

// interp | interp(key = "s", sent = "t") | interp(tick = "tick", rate = 20) |
// interp(key = "horse", arrival); which combinations are valid is checked with the fields.
pub(crate) fn interp(meta: &ParseNestedMeta) -> syn::Result<InterpAttr> {
    let mut out = InterpAttr::default();
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(out);
    }
    let keys = [KEY.0, SENT.0, TICK.0, RATE.0, ARRIVAL.0];
    meta.parse_nested_meta(|inner| {
        let field = || -> syn::Result<String> { non_empty(inner.value()?.parse()?) };
        if inner.path == KEY {
            out.key = Some(field()?);
        } else if inner.path == SENT {
            out.sent = Some(field()?);
        } else if inner.path == TICK {
            out.tick = Some(field()?);
        } else if inner.path == RATE {
            let lit = inner.value()?.parse::<LitInt>()?;
            let rate: u32 = lit.base10_parse()?;
            if !(1..=1000).contains(&rate) {
                return Err(syn::Error::new(
                    lit.span(),
                    "`rate` is ticks per second, from 1 to 1000",
                ));
            }
            out.rate = Some(rate);
        } else if inner.path == ARRIVAL {
            out.arrival = flag(&inner, ARRIVAL)?;
        } else {
            let written = inner.path.to_token_stream().to_string().replace(' ', "");
            let near = did_you_mean(&written, keys);
            return Err(inner.error(format!(
                "unknown `interp` key `{written}`; {near}expected one of: {}",
                keys.join(", ")
            )));
        }
        Ok(())
    })?;
    Ok(out)
}

// accept(rule = "...", was = "...", now = "...", reason = "...")
pub(crate) fn accept(meta: &ParseNestedMeta) -> syn::Result<Accept> {
    let (mut rule, mut was, mut now, mut reason) = (None, None, None, None);
    let mut reason_span = None;
    let write = "`accept(rule = \"<rule>\", was = \"...\", now = \"...\", reason = \"<why>\")`";
    nested(meta, "accept", write, |inner| {
        let slot = if inner.path == RULE {
            &mut rule
        } else if inner.path == WAS {
            &mut was
        } else if inner.path == NOW {
            &mut now
        } else if inner.path == REASON {
            &mut reason
        } else {
            return Err(
                inner.error("unknown `accept` key; expected one of: rule, was, now, reason")
            );
        };
        let lit = inner.value()?.parse::<LitStr>()?;
        if inner.path == REASON {
            reason_span = Some(lit.span());
        }
        *slot = Some(lit.value());
        Ok(())
    })?;
    let rule = rule.filter(|s| !s.is_empty());
    let reason = reason.filter(|s| !s.is_empty());
    if let (Some(r), Some(span)) = (&reason, reason_span) {
        if is_template_reason(r) {
            return Err(syn::Error::new(
                span,
                "`reason = \"...\"` is the report's template: write why this break hurts no \
                 deployed peer (who was asked, what was measured), so the history records it",
            ));
        }
    }
    match (rule, reason) {
        (Some(rule), Some(reason)) => Ok(Accept {
            rule,
            was: was.unwrap_or_default(),
            now: now.unwrap_or_default(),
            reason,
        }),
        _ => Err(meta.error(
            "`accept` needs a `rule` and a `reason`: \
             `accept(rule = \"...\", was = \"...\", now = \"...\", reason = \"...\")`",
        )),
    }
}

/// Whether a `reason` is the placeholder the report's `fix:` lines print (`"..."`), which
/// an acceptance or `accept-deploy` must replace with the real reason.
pub fn is_template_reason(reason: &str) -> bool {
    let r = reason.trim();
    r.is_empty() || r.chars().all(|c| c == '.' || c == '\u{2026}')
}
