//! Source spans inside an item's derive input, so an error points at what was written.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

/// The span of the first type path written as `written` in the item (its ident if none).
pub(crate) fn type_span(input: &syn::DeriveInput, written: &str) -> Span {
    fn in_type(t: &syn::Type, written: &str) -> Option<Span> {
        match t {
            syn::Type::Path(tp) => {
                let s = tp.path.to_token_stream().to_string().replace(' ', "");
                if s == written {
                    return Some(tp.span());
                }
                tp.path
                    .segments
                    .iter()
                    .find_map(|seg| match &seg.arguments {
                        syn::PathArguments::AngleBracketed(a) => {
                            a.args.iter().find_map(|arg| match arg {
                                syn::GenericArgument::Type(t) => in_type(t, written),
                                _ => None,
                            })
                        }
                        _ => None,
                    })
            }
            syn::Type::Array(a) => in_type(&a.elem, written),
            syn::Type::Group(g) => in_type(&g.elem, written),
            syn::Type::Paren(p) => in_type(&p.elem, written),
            _ => None,
        }
    }
    let fields: Vec<&syn::Field> = match &input.data {
        syn::Data::Struct(s) => s.fields.iter().collect(),
        syn::Data::Enum(e) => e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        syn::Data::Union(u) => u.fields.named.iter().collect(),
    };
    fields
        .iter()
        .find_map(|f| in_type(&f.ty, written))
        .unwrap_or_else(|| input.ident.span())
}

/// The span of a `key` inside the item's `#[tuplet(...)]` attributes (its ident if absent).
pub(crate) fn key_span(input: &syn::DeriveInput, key: &str) -> Span {
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("tuplet")) {
        if let syn::Meta::List(list) = &attr.meta {
            let mut prev_comma = true;
            for tt in list.tokens.clone() {
                match &tt {
                    proc_macro2::TokenTree::Ident(i) if prev_comma && i == key => {
                        return i.span();
                    }
                    proc_macro2::TokenTree::Punct(p) => prev_comma = p.as_char() == ',',
                    _ => prev_comma = false,
                }
            }
        }
    }
    input.ident.span()
}
