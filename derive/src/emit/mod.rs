//! Emission: per-item IR -> Rust impls. (Being written; placeholder emits nothing.)

use proc_macro2::TokenStream;
use tuplet_schema::ir::Item;

/// The impls for one parsed, checked item.
pub fn item(_item: &Item, _input: &syn::DeriveInput) -> TokenStream {
    TokenStream::new()
}
