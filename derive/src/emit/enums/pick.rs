//! The sample of an enum: one of its variants, picked by the sample mode and the rng.

use proc_macro2::TokenStream;
use quote::quote;

use super::super::ty::rt;

/// A `match` over `mode` and `rng` picking one of the variants' expressions.
pub fn pick(arms: Vec<TokenStream>) -> TokenStream {
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
