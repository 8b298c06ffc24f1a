//! Where each `accept(...)` is written: the line and column of its `accept` key, by member,
//! in source order, so a finding about an acceptance points at the attribute itself.

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The `(line, column)` (both 1-based) of each `accept` key written on an item (member
/// `""`), its fields and flags (by name), its variants (by name) and a struct variant's
/// fields (`Variant.field`), each member's in source order.
pub fn accept_spans(input: &syn::DeriveInput) -> BTreeMap<String, Vec<(usize, usize)>> {
    let mut out = BTreeMap::new();
    put(&mut out, String::new(), &input.attrs);
    let fields = |out: &mut BTreeMap<_, _>, prefix: &str, fields: &syn::Fields| {
        for (i, f) in fields.iter().enumerate() {
            let name = f.ident.as_ref().map_or(i.to_string(), |id| id.to_string());
            put(out, format!("{prefix}{name}"), &f.attrs);
        }
    };
    match &input.data {
        syn::Data::Struct(s) => fields(&mut out, "", &s.fields),
        syn::Data::Enum(e) => {
            for v in &e.variants {
                put(&mut out, v.ident.to_string(), &v.attrs);
                fields(&mut out, &format!("{}.", v.ident), &v.fields);
            }
        }
        syn::Data::Union(_) => {}
    }
    out
}

/// Records the `accept` keys of `attrs` under `member`, if there are any.
fn put(out: &mut BTreeMap<String, Vec<(usize, usize)>>, member: String, attrs: &[syn::Attribute]) {
    let mut spans = Vec::new();
    for attr in attrs {
        if let syn::Meta::List(list) = &attr.meta {
            if list.path.is_ident("tuplet") {
                keys(list.tokens.clone(), &mut spans);
            } else if list.path.is_ident("cfg_attr") {
                nested_tuplet(list.tokens.clone(), &mut spans);
            }
        }
    }
    if !spans.is_empty() {
        out.insert(member, spans);
    }
}

/// The `accept` keys at the top level of a `tuplet(...)` list: an `accept` identifier
/// followed by a parenthesized group.
fn keys(tokens: TokenStream, spans: &mut Vec<(usize, usize)>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for pair in tokens.windows(2) {
        if let [TokenTree::Ident(i), TokenTree::Group(g)] = pair {
            if i == "accept" && g.delimiter() == Delimiter::Parenthesis {
                let start = i.span().start();
                spans.push((start.line, start.column + 1));
            }
        }
    }
}

/// The `accept` keys of every `tuplet(...)` inside a `cfg_attr(...)`.
fn nested_tuplet(tokens: TokenStream, spans: &mut Vec<(usize, usize)>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for pair in tokens.windows(2) {
        if let [TokenTree::Ident(i), TokenTree::Group(g)] = pair {
            if i == "tuplet" && g.delimiter() == Delimiter::Parenthesis {
                keys(g.stream(), spans);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_spans_point_at_each_accept_key() {
        let src = "#[tuplet(accept(rule = \"a\", reason = \"r\"))]\n\
                   struct S {\n    \
                   #[tuplet(len(max = 3), accept(rule = \"b\", reason = \"r\"))]\n    \
                   #[cfg_attr(all(), tuplet(accept(rule = \"c\", reason = \"r\")))]\n    \
                   name: String,\n    \
                   plain: u8,\n\
                   }\n";
        let input: syn::DeriveInput = syn::parse_str(src).unwrap();
        let spans = accept_spans(&input);
        assert_eq!(spans[""], vec![(1, 10)]);
        let col_b = src.lines().nth(2).unwrap().find("accept").unwrap() + 1;
        let col_c = src.lines().nth(3).unwrap().find("accept").unwrap() + 1;
        assert_eq!(spans["name"], vec![(3, col_b), (4, col_c)]);
        assert!(!spans.contains_key("plain"));
    }
}
