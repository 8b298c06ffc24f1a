//! The attribute grammar: a `syn::DeriveInput` with `#[tuplet(...)]` attributes -> the
//! per-item IR, checked. ATTRIBUTES.md documents every key; errors point at the offending
//! key (or type) and list the valid keys for unknown ones.
//!
//! The modules: the derives in `derive`, keywords in `symbol`, key parsers in `attr` (the
//! values with a syntax of their own in `value`), types in `ty` (the per-kind code of leaves
//! in `leaf`), items in `item` (their fields in `field`, enums in `enumeration`), error
//! collection in `ctxt`, the cross-field checks in `check`, and the interpolation keys
//! (`interp`, `draw`) in `interp`.

pub(crate) mod attr;
mod check;
pub(crate) mod constrain;
pub(crate) mod ctxt;
mod derive;
mod enumeration;
mod field;
mod interp;
pub(crate) mod item;
mod leaf;
pub(crate) mod lit;
pub(crate) mod spans;
pub(crate) mod symbol;
pub(crate) mod ty;
mod value;

use proc_macro2::TokenStream;

use crate::ir::Item;

pub use derive::Derive;
pub use value::is_template_reason;

/// Parses and checks one item. On failure every error found is reported, each at its own
/// span, combined into one `syn::Error`.
pub fn parse_item(input: &syn::DeriveInput, derive: Derive) -> Result<Item, syn::Error> {
    let cx = ctxt::Ctxt::new();
    let parsed = item::item(&cx, input, derive);
    if let Some((item, spans)) = &parsed {
        if !cx.has_errors() {
            check::check(&cx, item, spans);
        }
    }
    cx.finish()?;
    let (item, _) = parsed.expect("an item without errors was parsed");
    Ok(item)
}

/// [`parse_item`] on tokens (`quote!`/`parse_quote!` output, or a derive's input).
pub fn parse_item_tokens(tokens: TokenStream, derive: Derive) -> Result<Item, syn::Error> {
    let input: syn::DeriveInput = syn::parse2(tokens)?;
    parse_item(&input, derive)
}
