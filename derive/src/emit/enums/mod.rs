//! Code for enums: unit enums travel as their discriminant (named shape: the variant name,
//! `unit.rs`); enums with data as `[tag, ...fields]` (named shape: `{"Variant": {...}}`,
//! `data.rs`).

mod data;
mod unit;

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::Enum;
use tuplet_schema::plan::{EnumForm, EnumPlan};

use super::ty::rt;

/// The `Wire` impl of an enum.
pub fn emit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    if EnumPlan::of(e).form == EnumForm::Unit {
        unit::emit(e, input, ir)
    } else {
        data::emit(e, input, ir)
    }
}

/// A `match` over `mode` and `rng` picking one of the variants' expressions.
fn pick(arms: Vec<TokenStream>) -> TokenStream {
    let rt = rt();
    let n = arms.len();
    let last = n.saturating_sub(1);
    let cases = arms.iter().enumerate().map(|(i, arm)| {
        if i == last {
            quote!(_ => #arm,)
        } else {
            quote!(#i => #arm,)
        }
    });
    quote!({
        let pick = match mode {
            #rt::SampleMode::Min => 0,
            #rt::SampleMode::Max => #last,
            _ => rng.below(#n),
        };
        match pick { #(#cases)* }
    })
}
