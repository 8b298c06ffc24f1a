//! `cfg` and `cfg_attr` as the compiler applies them before a derive runs. rustc hands a
//! derive its item already configured: fields and variants under a false `#[cfg]` are gone
//! and every `#[cfg_attr(pred, attr)]` is `#[attr]` or nothing. The loader does the same for
//! the predicates whose value is the same in every build (`all(..)`, `any(..)`, `not(..)`
//! of those), so it sees what the derive sees. A predicate that depends on the build
//! (`feature = "x"`, `test`, `unix`, `debug_assertions`...) on a tuplet type, field or
//! variant, or guarding a `tuplet`, `derive` or `doc` attribute of one, is refused: the
//! generated TypeScript and the lock are made once, while the Rust codec would follow the
//! build.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Meta, Token};

use crate::grammar::Derive;

/// A refusal: where, and what to write instead.
pub(crate) type Refusal = (Span, String);

/// Source as written (tokens re-printed where the text is not at hand).
fn text(meta: &Meta) -> String {
    meta.span()
        .source_text()
        .unwrap_or_else(|| quote::ToTokens::to_token_stream(meta).to_string())
}

/// The value of a `cfg` predicate when it is the same in every build; `Err` with the
/// predicate as written when it depends on the build.
pub(crate) fn eval(pred: &Meta) -> Result<bool, String> {
    let written = || text(pred);
    let Meta::List(list) = pred else {
        return Err(written());
    };
    let args = list
        .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .map_err(|_| written())?;
    let args: Vec<Meta> = args.into_iter().collect();
    if list.path.is_ident("all") {
        // Every argument is evaluated, so a build-dependent one is refused even where a
        // false one decides (the compiler would not tell the two builds apart, a reader might).
        let mut all = true;
        for a in &args {
            all &= eval(a)?;
        }
        Ok(all)
    } else if list.path.is_ident("any") {
        let mut any = false;
        for a in &args {
            any |= eval(a)?;
        }
        Ok(any)
    } else if list.path.is_ident("not") && args.len() == 1 {
        Ok(!eval(&args[0])?)
    } else {
        Err(written())
    }
}

/// Whether an attribute is a `derive` naming a tuplet derive.
fn tuplet_derive_attr(attr: &Attribute) -> bool {
    attr.path().is_ident("derive") && tuplet_derive(std::slice::from_ref(attr)).is_some()
}

/// Whether an attribute is one the schema reads (so guarding it by the build would change
/// the schema): `tuplet`, `doc`, a `derive` naming a tuplet derive, `cfg`, `cfg_attr`.
fn schema_attr(attr: &Attribute) -> bool {
    let p = attr.path();
    p.is_ident("tuplet")
        || p.is_ident("doc")
        || p.is_ident("cfg")
        || p.is_ident("cfg_attr")
        || tuplet_derive_attr(attr)
}

/// Expands every `cfg_attr` whose predicate is the same in every build; keeps the others
/// unless they guard an attribute `guarded` picks (then refuses).
fn expand(
    attrs: &[Attribute],
    guarded: fn(&Attribute) -> bool,
    out: &mut Vec<Attribute>,
    errors: &mut Vec<Refusal>,
) {
    for attr in attrs {
        if !attr.path().is_ident("cfg_attr") {
            out.push(attr.clone());
            continue;
        }
        let parsed = attr.parse_args_with(|input: syn::parse::ParseStream| {
            let pred: Meta = input.parse()?;
            input.parse::<Token![,]>()?;
            let rest = Punctuated::<Meta, Token![,]>::parse_terminated(input)?;
            Ok((pred, rest))
        });
        let Ok((pred, inner)) = parsed else {
            // The compiler reports a malformed `cfg_attr`; nothing of the schema here.
            continue;
        };
        let inner: Vec<Attribute> = inner
            .into_iter()
            .map(|meta| Attribute {
                pound_token: attr.pound_token,
                style: attr.style,
                bracket_token: attr.bracket_token,
                meta,
            })
            .collect();
        match eval(&pred) {
            Ok(true) => expand(&inner, guarded, out, errors),
            Ok(false) => {}
            Err(written) => {
                if inner.iter().any(guarded) {
                    let what = inner
                        .iter()
                        .map(|a| text(&a.meta))
                        .collect::<Vec<_>>()
                        .join(", ");
                    errors.push((
                        attr.span(),
                        format!(
                            "`#[cfg_attr({written}, {what})]`: the schema would depend on the \
                             build (the Rust codec follows `{written}`, the generated \
                             TypeScript and the lock do not); write `#[{what}]` \
                             unconditionally, or remove it"
                        ),
                    ));
                } else {
                    out.push(attr.clone());
                }
            }
        }
    }
}

/// Whether attributes (already expanded) keep their item: every `#[cfg]` true. A
/// build-dependent `cfg` is refused with `what` naming the item (`field \`hp\``).
fn kept(attrs: &[Attribute], what: &str, errors: &mut Vec<Refusal>) -> bool {
    let mut keep = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        let Ok(pred) = attr.parse_args::<Meta>() else {
            continue;
        };
        match eval(&pred) {
            Ok(v) => keep &= v,
            Err(written) => errors.push((
                attr.span(),
                format!(
                    "`#[cfg({written})]` on {what}: it exists in some builds only, so the Rust \
                     codec, the generated TypeScript and the lock could each see another \
                     schema; declare it unconditionally (an `Option` field for a value some \
                     builds leave unset) and gate its uses instead"
                ),
            )),
        }
    }
    keep
}

/// Applies `cfg_attr` and `cfg` to attributes, dropping the `cfg`s that hold.
fn configure(attrs: &[Attribute], what: &str, errors: &mut Vec<Refusal>) -> Option<Vec<Attribute>> {
    let mut out = Vec::new();
    expand(attrs, schema_attr, &mut out, errors);
    let keep = kept(&out, what, errors);
    out.retain(|a| !a.path().is_ident("cfg"));
    keep.then_some(out)
}

fn fields(fields: &mut syn::Fields, prefix: &str, errors: &mut Vec<Refusal>) {
    let list = match fields {
        syn::Fields::Named(f) => &mut f.named,
        syn::Fields::Unnamed(f) => &mut f.unnamed,
        syn::Fields::Unit => return,
    };
    let old = std::mem::take(list);
    for (i, mut field) in old.into_iter().enumerate() {
        let name = field
            .ident
            .as_ref()
            .map(|i| i.to_string())
            .unwrap_or_else(|| i.to_string());
        let what = format!("field `{prefix}{name}`");
        if let Some(attrs) = configure(&field.attrs, &what, errors) {
            field.attrs = attrs;
            list.push(field);
        }
    }
}

/// What the loader sees of an item: the item as the derive would get it, `Ok(None)` when a
/// `cfg` that holds in no build removes it, or the refusals. Only a tuplet item (one with a
/// tuplet derive) is configured member by member; another item is only kept or dropped.
pub(crate) fn item(mut input: syn::DeriveInput) -> Result<Option<syn::DeriveInput>, Vec<Refusal>> {
    let mut errors = Vec::new();
    let mut attrs = Vec::new();
    expand(&input.attrs, tuplet_derive_attr, &mut attrs, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    if tuplet_derive(&attrs).is_none() {
        // Not a tuplet item: only a `cfg` false in every build removes it.
        let gone = attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .filter_map(|a| a.parse_args::<Meta>().ok())
            .any(|p| eval(&p) == Ok(false));
        input.attrs = attrs;
        return Ok((!gone).then_some(input));
    }
    attrs.clear();
    expand(&input.attrs, schema_attr, &mut attrs, &mut errors);
    let what = format!("the tuplet type `{}`", input.ident);
    let keep = kept(&attrs, &what, &mut errors);
    attrs.retain(|a| !a.path().is_ident("cfg"));
    input.attrs = attrs;
    match &mut input.data {
        syn::Data::Struct(s) => fields(&mut s.fields, "", &mut errors),
        syn::Data::Enum(e) => {
            let old = std::mem::take(&mut e.variants);
            for mut v in old {
                let what = format!("variant `{}`", v.ident);
                if let Some(attrs) = configure(&v.attrs, &what, &mut errors) {
                    v.attrs = attrs;
                    fields(&mut v.fields, &format!("{}.", v.ident), &mut errors);
                    e.variants.push(v);
                }
            }
        }
        syn::Data::Union(_) => {}
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(keep.then_some(input))
}

/// A module's `#[cfg]`: `Some(true)` when it holds in every build (or there is none),
/// `Some(false)` when in none, `None` when it depends on the build.
pub(crate) fn module(attrs: &[Attribute]) -> Option<bool> {
    let mut keep = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        let pred = attr.parse_args::<Meta>().ok()?;
        keep &= eval(&pred).ok()?;
    }
    Some(keep)
}

/// The tuplet derive on an item, if any: `tuplet::Message` or a bare `Message` (etc.).
pub(crate) fn tuplet_derive(attrs: &[Attribute]) -> Option<Derive> {
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let Ok(paths) = attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
        else {
            continue;
        };
        for p in paths {
            let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
            let last = match segs.as_slice() {
                [last] => last,
                [krate, last] if krate == "tuplet" => last,
                _ => continue,
            };
            let derive = match last.as_str() {
                "Message" => Derive::Message,
                "Record" => Derive::Record,
                "Enum" => Derive::Enum,
                "Flags" => Derive::Flags,
                "Dispatch" => Derive::Dispatch,
                _ => continue,
            };
            return Some(derive);
        }
    }
    None
}
