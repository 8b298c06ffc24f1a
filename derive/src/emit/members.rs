//! The members of a struct record, as the record emitters walk them.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::ir::Record;

use super::common::{field_span, ident, slot_name, struct_fields};
use super::record::Member;

/// Members of a struct record, reached through `owner` (`self`, or a local holding the
/// record).
pub fn members_of<'a>(
    record: &'a Record,
    input: &syn::DeriveInput,
    owner: &TokenStream,
) -> Vec<Member<'a>> {
    record
        .slots
        .iter()
        .map(|slot| {
            let name = slot_name(slot);
            let ident = ident(name);
            Member {
                slot,
                access: quote!((&#owner.#ident)),
                span: struct_fields(input).map_or_else(Span::call_site, |f| field_span(f, name)),
            }
        })
        .collect()
}
