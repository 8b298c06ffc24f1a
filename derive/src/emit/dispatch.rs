//! Code for a dispatch enum: decode by id and by name, the envelope, the name and id of a
//! value, `From` impls, and compile-time assertions that ids and names are unique in the
//! enum, avoid reserved ones, and travel in the enum's direction.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use tuplet_schema::ir::Dispatch;

use super::common::{dir_variant, ident};
use super::ty::rt;

/// The `Dispatch` impl of an enum of messages, its compile-time checks and `From` impls.
pub fn emit(d: &Dispatch, input: &syn::DeriveInput) -> TokenStream {
    let v = Variants::of(d, input);
    let checks = checks(d, &v, &input.ident.to_string());
    let dispatch = dispatch_impl(d, &v, &input.ident);
    let from = from_impls(&v, &input.ident);
    quote!(#checks #dispatch #from)
}

/// The variants of a dispatch enum: identifiers, message types, and the spans assertion
/// failures point at.
struct Variants<'a> {
    /// The variant identifiers.
    idents: Vec<syn::Ident>,
    /// The message type each variant holds.
    paths: Vec<syn::Type>,
    /// The message type paths as written, for the checks' text.
    var_paths: Vec<&'a str>,
    /// `0..len`, the variant indices.
    indices: Vec<usize>,
    /// The span of each variant's identifier.
    spans: Vec<Span>,
}

impl<'a> Variants<'a> {
    fn of(d: &'a Dispatch, input: &syn::DeriveInput) -> Self {
        let idents: Vec<syn::Ident> = d.variants.iter().map(|v| ident(&v.name)).collect();
        let paths = d
            .variants
            .iter()
            .map(|v| syn::parse_str(&v.path).unwrap_or_else(|_| syn::parse_quote!(())))
            .collect();
        let indices = (0..idents.len()).collect();
        let spans = match &input.data {
            syn::Data::Enum(e) => e.variants.iter().map(|v| v.ident.span()).collect(),
            _ => Vec::new(),
        };
        Variants {
            idents,
            paths,
            var_paths: d.variants.iter().map(|v| v.path.as_str()).collect(),
            indices,
            spans,
        }
    }

    /// The span of variant `i` (the call site when unknown).
    fn span(&self, i: usize) -> Span {
        self.spans.get(i).copied().unwrap_or_else(Span::call_site)
    }
}

/// The compile-time checks: every message travels in the enum's direction, ids and names
/// are unique, reserved ones are unused. The runtime's `dispatch_problem` finds the first
/// broken rule and its text (naming the messages and the value they share); a panic in the
/// arm of that message's variant points the error at it.
fn checks(d: &Dispatch, v: &Variants, enum_name: &str) -> TokenStream {
    let rt = rt();
    let dir = dir_variant(d.dir);
    let Variants {
        paths, var_paths, ..
    } = v;
    let reserved_ids = &d.reserved_ids;
    let reserved_names = &d.reserved_names;
    let reserved_shown = d.reserved_names.iter().map(|n| format!("{n:?}"));
    let arms = v
        .indices
        .iter()
        .map(|&i| quote_spanned!(v.span(i)=> Some((#i, text)) => panic!("{}", text.as_str()),));
    quote!(
        const _: () = {
            const PROBLEM: Option<(usize, #rt::ConstText)> = #rt::dispatch_problem(&#rt::DispatchRules {
                enum_name: #enum_name,
                dir: #rt::Dir::#dir,
                failed: &[#(<#paths as #rt::Message>::DERIVE_FAILED),*],
                dirs: &[#(<#paths as #rt::Message>::DIR),*],
                ids: &[#(<#paths as #rt::Message>::ID),*],
                names: &[#(<#paths as #rt::Message>::NAME),*],
                paths: &[#(#var_paths),*],
                reserved_ids: &[#(#reserved_ids),*],
                reserved_names: &[#(#reserved_names),*],
                reserved_shown: &[#(#reserved_shown),*],
            });
            match &PROBLEM {
                #(#arms)*
                _ => {}
            }
        };
    )
}

/// `impl Dispatch`: decode by id and by name, encode, sample and validate by variant.
fn dispatch_impl(d: &Dispatch, v: &Variants, ty: &syn::Ident) -> TokenStream {
    let rt = rt();
    let dir = dir_variant(d.dir);
    let Variants {
        idents,
        paths,
        indices,
        ..
    } = v;
    let id_consts: Vec<syn::Ident> = indices
        .iter()
        .map(|i| quote::format_ident!("__ID{}", i))
        .collect();
    // Under the `sample` feature only, as `Wire::sample` (see `common::sample_fn`).
    let sample_variant = if cfg!(feature = "sample") {
        quote!(
            fn sample_variant(index: usize, seed: u64, mode: #rt::SampleMode) -> Option<Self> {
                let rng = &mut #rt::SampleRng::new(seed);
                Some(match index {
                    #(#indices => Self::#idents(<#paths as #rt::Wire>::sample(rng, mode)),)*
                    _ => return None,
                })
            }
        )
    } else {
        quote!()
    };
    quote!(
        #[automatically_derived]
        impl #rt::Dispatch for #ty {
            const DIR: #rt::Dir = #rt::Dir::#dir;
            const MESSAGES: &'static [(&'static str, u32)] =
                &[#((<#paths as #rt::Message>::NAME, <#paths as #rt::Message>::ID)),*];
            const MAX_SIZES: &'static [Option<usize>] = &[#(<#paths as #rt::Wire>::MAX_SIZE),*];
            const UNRELIABLE: &'static [bool] = &[#(<#paths as #rt::Message>::UNRELIABLE),*];

            #[cfg_attr(debug_assertions, inline)]
            fn index(&self) -> usize {
                match self { #(Self::#idents(_) => #indices,)* }
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unreachable_patterns, unused_imports)]
            fn decode_by_id_with(
                id: u32,
                r: &mut #rt::Reader<'_>,
                mirrors: Option<&mut #rt::Mirrors>,
            ) -> Result<Self, #rt::Error> {
                // A delta message reads through its mirror (`DeltaDispatch`), any other
                // with its decoder (`PlainDispatch`): picked at compile time.
                use #rt::{DeltaDispatch as _, PlainDispatch as _};
                #(const #id_consts: u32 = <#paths as #rt::Message>::ID;)*
                Ok(match id {
                    #(#id_consts => Self::#idents((&#rt::DispatchProbe::<#paths>::new()).dispatch_read(r, mirrors)?),)*
                    _ => return Err(#rt::unknown_id(id)),
                })
            }

            #[cfg_attr(debug_assertions, inline)]
            fn encode_payload(&self, out: &mut #rt::Vec<u8>, encoding: #rt::Encoding) -> Result<(), #rt::Error> {
                match (self, encoding) {
                    #((Self::#idents(m), #rt::Encoding::Compact) => #rt::Wire::encode_compact(m, out),
                      (Self::#idents(m), #rt::Encoding::Named) => #rt::Wire::encode_named(m, out),)*
                }
            }

            #sample_variant

            #[cfg_attr(debug_assertions, inline)]
            fn validate(&self) -> #rt::Vec<#rt::Issue> {
                // `validate_at` directly: `validate::<M>` would be instantiated per message.
                let mut issues = #rt::Vec::new();
                let path = &mut #rt::Vec::new();
                match self { #(Self::#idents(m) => #rt::Wire::validate_at(m, path, &mut issues),)* }
                issues
            }
        }

    )
}

/// `From<Message>` for the enum, one per variant.
fn from_impls(v: &Variants, ty: &syn::Ident) -> TokenStream {
    let Variants { idents, paths, .. } = v;
    quote!(
        #(
            #[automatically_derived]
            impl ::core::convert::From<#paths> for #ty {
                fn from(m: #paths) -> Self { Self::#idents(m) }
            }
        )*
    )
}
