//! What every emitter uses: the runtime path, identifiers, directions, and the spans and
//! names of a struct's fields.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use tuplet_schema::ir::{Dir, Slot};

/// The private runtime module every emitted path goes through.
pub fn rt() -> TokenStream {
    quote!(::tuplet::__private_0_1)
}

/// The span of a named field's type in a list of syn fields (call site when not found).
pub fn field_span(fields: &syn::Fields, name: &str) -> Span {
    fields
        .iter()
        .find(|f| f.ident.as_ref().is_some_and(|i| i == name))
        .map_or_else(Span::call_site, |f| f.ty.span())
}

/// The fields of a struct (`None` for an enum or a union).
pub fn struct_fields(input: &syn::DeriveInput) -> Option<&syn::Fields> {
    match &input.data {
        syn::Data::Struct(s) => Some(&s.fields),
        _ => None,
    }
}

/// The Rust name of a slot: a field's, or a reserved slot's identifier.
pub fn slot_name(slot: &Slot) -> &str {
    match slot {
        Slot::Field(f) => &f.name,
        Slot::Reserved(r) => &r.ident,
    }
}

/// An identifier at the call site.
pub fn ident(name: &str) -> syn::Ident {
    syn::Ident::new(name, Span::call_site())
}

/// The runtime's `Dir` variant for `dir`.
pub fn dir_variant(dir: Dir) -> TokenStream {
    match dir {
        Dir::C2s => quote!(C2s),
        Dir::S2c => quote!(S2c),
        Dir::Both => quote!(Both),
    }
}

/// `Wire::sample` with `body` (an expression of type `Self`), emitted only under the
/// `sample` feature (the runtime's `sample` and `testkit` features turn it on): samples serve
/// tests, fuzzers and benchmarks, and a protocol crate built without them compiles no
/// sampling code.
pub fn sample_fn(body: TokenStream) -> TokenStream {
    if cfg!(feature = "sample") {
        let rt = rt();
        quote!(
            #[allow(unused_variables, clippy::all)]
            fn sample(rng: &mut #rt::SampleRng, mode: #rt::SampleMode) -> Self {
                #body
            }
        )
    } else {
        TokenStream::new()
    }
}
