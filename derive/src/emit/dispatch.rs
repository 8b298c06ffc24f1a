//! Code for a dispatch enum: decode by id and by name, the envelope, the name and id of a
//! value, `From` impls, and compile-time assertions that ids and names are unique in the
//! enum, avoid reserved ones, and travel in the enum's direction.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use tuplet_schema::ir::{Dir, Dispatch};

use super::ty::rt;

/// The `Dispatch` impl of an enum of messages.
pub fn emit(d: &Dispatch, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let enum_name = ty.to_string();
    let dir_str = d.dir.as_str();
    let dir = match d.dir {
        Dir::C2s => quote!(C2s),
        Dir::S2c => quote!(S2c),
        Dir::Both => quote!(Both),
    };
    let idents: Vec<syn::Ident> = d
        .variants
        .iter()
        .map(|v| syn::Ident::new(&v.name, Span::call_site()))
        .collect();
    let paths: Vec<syn::Type> = d
        .variants
        .iter()
        .map(|v| syn::parse_str(&v.path).unwrap_or_else(|_| syn::parse_quote!(())))
        .collect();
    let indices: Vec<usize> = (0..idents.len()).collect();
    // Assertion failures point at the variant that breaks them.
    let spans: Vec<Span> = match &input.data {
        syn::Data::Enum(e) => e.variants.iter().map(|v| v.ident.span()).collect(),
        _ => Vec::new(),
    };
    let span_of = |i: usize| spans.get(i).copied().unwrap_or_else(Span::call_site);
    let id_consts: Vec<syn::Ident> = indices
        .iter()
        .map(|i| quote::format_ident!("__ID{}", i))
        .collect();

    let var_paths: Vec<&str> = d.variants.iter().map(|v| v.path.as_str()).collect();
    // Each check names both messages and the value they share, and points at the later one.
    let dup_id_arms = indices.iter().map(|&i| {
        quote_spanned!(span_of(i)=> Some((a, #i)) => {
            let t = #rt::ConstText::new().str("tuplet: `").str(PATHS[#i]).str("` and `").str(PATHS[a])
                .str("` in `").str(#enum_name).str("` both have id ").num(IDS[#i] as u64)
                .str("; give one of them a new id (ids are unique per direction)");
            panic!("{}", t.as_str())
        })
    });
    let dup_name_arms = indices.iter().map(|&i| {
        quote_spanned!(span_of(i)=> Some((a, #i)) => {
            let t = #rt::ConstText::new().str("tuplet: `").str(PATHS[#i]).str("` and `").str(PATHS[a])
                .str("` in `").str(#enum_name).str("` are both named \"").str(NAMES[#i])
                .str("\"; rename one of them (names are unique per direction)");
            panic!("{}", t.as_str())
        })
    });
    let dir_asserts = d.variants.iter().zip(&paths).enumerate().map(|(i, (v, p))| {
        let msg = format!(
            "tuplet: `{}` does not travel {dir_str}, but it is in the {dir_str} dispatch enum `{enum_name}`",
            v.path
        );
        quote_spanned!(span_of(i)=> assert!(#rt::dir_fits(<#p as #rt::Message>::DIR, #rt::Dir::#dir), #msg);)
    });
    // A reserved id or name in use points at the variant of the message that uses it.
    let reserved_id_asserts = d.reserved_ids.iter().map(|rid| {
        let arms = indices.iter().map(|&i| {
            quote_spanned!(span_of(i)=> Some((#i, _)) => {
                let t = #rt::ConstText::new().str("tuplet: `").str(PATHS[#i]).str("` uses id ").num(#rid as u64)
                    .str(", reserved in `").str(#enum_name).str("` (a removed message); pick a new id");
                panic!("{}", t.as_str())
            })
        });
        quote!(match #rt::first_duplicate_id(&[#(<#paths as #rt::Message>::ID,)* #rid]) {
            #(#arms)*
            _ => {}
        })
    });
    let reserved_name_asserts = d.reserved_names.iter().map(|rn| {
        let shown = format!("{rn:?}");
        let arms = indices.iter().map(|&i| {
            quote_spanned!(span_of(i)=> Some((#i, _)) => {
                let t = #rt::ConstText::new().str("tuplet: `").str(PATHS[#i]).str("` is named ").str(#shown)
                    .str(", reserved in `").str(#enum_name).str("` (a removed message); pick a new name");
                panic!("{}", t.as_str())
            })
        });
        quote!(match #rt::first_duplicate_name(&[#(<#paths as #rt::Message>::NAME,)* #rn]) {
            #(#arms)*
            _ => {}
        })
    });

    quote!(
        const _: () = {
            // A message whose own derive failed has a stub (id 0, no name): its error is
            // the one to read, so these checks wait until it compiles.
            const FAILED: bool = false #(|| <#paths as #rt::Message>::DERIVE_FAILED)*;
            const IDS: &[u32] = &[#(<#paths as #rt::Message>::ID),*];
            const NAMES: &[&str] = &[#(<#paths as #rt::Message>::NAME),*];
            const PATHS: &[&str] = &[#(#var_paths),*];
            if !FAILED {
                // Direction first: a message of the other direction may share an id with
                // one of this direction, and the direction is the real mistake.
                #(#dir_asserts)*
                match #rt::first_duplicate_id(IDS) { #(#dup_id_arms)* _ => {} }
                match #rt::first_duplicate_name(NAMES) { #(#dup_name_arms)* _ => {} }
                #(#reserved_id_asserts)*
                #(#reserved_name_asserts)*
            }
        };

        #[automatically_derived]
        impl #rt::Dispatch for #ty {
            const DIR: #rt::Dir = #rt::Dir::#dir;
            const MESSAGES: &'static [(&'static str, u32)] =
                &[#((<#paths as #rt::Message>::NAME, <#paths as #rt::Message>::ID)),*];
            const MAX_SIZES: &'static [Option<usize>] = &[#(<#paths as #rt::Wire>::MAX_SIZE),*];

            fn index(&self) -> usize {
                match self { #(Self::#idents(_) => #indices,)* }
            }

            #[allow(unreachable_patterns)]
            fn decode_by_id(id: u32, r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                #(const #id_consts: u32 = <#paths as #rt::Message>::ID;)*
                Ok(match id {
                    #(#id_consts => Self::#idents(<#paths as #rt::Wire>::decode(r)?),)*
                    _ => return Err(#rt::unknown_id(id)),
                })
            }

            fn decode_by_name(name: &str, r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                // Names and ids are unique in the enum (asserted above): the message named
                // `name` is the one with its id, decoded by the one match over ids.
                match #rt::id_of_name(Self::MESSAGES, name) {
                    Some(id) => Self::decode_by_id(id, r),
                    None => Err(#rt::unknown_message_name(name)),
                }
            }

            fn encode_payload(&self, out: &mut #rt::Vec<u8>, encoding: #rt::Encoding) -> Result<(), #rt::Error> {
                match (self, encoding) {
                    #((Self::#idents(m), #rt::Encoding::Compact) => #rt::Wire::encode_compact(m, out),
                      (Self::#idents(m), #rt::Encoding::Named) => #rt::Wire::encode_named(m, out),)*
                }
            }

            fn sample_variant(index: usize, seed: u64, mode: #rt::SampleMode) -> Option<Self> {
                let rng = &mut #rt::SampleRng::new(seed);
                Some(match index {
                    #(#indices => Self::#idents(<#paths as #rt::Wire>::sample(rng, mode)),)*
                    _ => return None,
                })
            }

            fn validate(&self) -> #rt::Vec<#rt::Issue> {
                // `validate_at` directly: `validate::<M>` would be instantiated per message.
                let mut issues = #rt::Vec::new();
                let path = &mut #rt::Vec::new();
                match self { #(Self::#idents(m) => #rt::Wire::validate_at(m, path, &mut issues),)* }
                issues
            }
        }

        #(
            #[automatically_derived]
            impl ::core::convert::From<#paths> for #ty {
                fn from(m: #paths) -> Self { Self::#idents(m) }
            }
        )*
    )
}
