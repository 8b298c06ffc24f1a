//! Code for enums: unit enums travel as their discriminant (named shape: the variant name,
//! `unit.rs`); enums with data as `[tag, ...fields]` (named shape: `{"Variant": {...}}`,
//! `data.rs`).

mod data;
mod pick;
mod unit;

use proc_macro2::TokenStream;
use tuplet_schema::ir::Enum;
use tuplet_schema::plan::{EnumForm, EnumPlan};

/// The `Wire` impl of an enum.
pub fn emit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    if EnumPlan::of(e).form == EnumForm::Unit {
        unit::emit(e, input, ir)
    } else {
        data::emit(e, input, ir)
    }
}
