//! Code for flag sets: a struct of bools travels as one uint of its declared width.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::ir::Flags;

use super::ty::rt;

/// The `Wire` impl of a flag set.
pub fn emit(f: &Flags, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let idents: Vec<syn::Ident> = f
        .bits
        .iter()
        .map(|b| syn::Ident::new(&b.name, Span::call_site()))
        .collect();
    let masks: Vec<u64> = f.bits.iter().map(|b| 1u64 << b.bit).collect();
    let known: u64 = masks.iter().fold(0, |a, m| a | m);
    let width_max = f.prim.bounds(true).1 as u64;
    let prim = syn::Ident::new(f.prim.as_str(), Span::call_site());
    let rest = f
        .rest
        .as_deref()
        .map(|r| syn::Ident::new(r, Span::call_site()));
    let (rest_bits, rest_check, rest_init, rest_sample) = match &rest {
        Some(r) => (
            quote!(self.#r as u64),
            quote!(if (self.#r as u64) & #known != 0 {
                return Err(#rt::unknown_flags(self.#r as u64 & #known));
            }),
            quote!(#r: (bits & !#known) as #prim,),
            quote!(#r: match mode {
                #rt::SampleMode::Random => (rng.next_u64() & #width_max & !#known) as #prim,
                _ => 0,
            },),
        ),
        None => (quote!(0u64), quote!(), quote!(), quote!()),
    };
    let unknown = if rest.is_some() {
        quote!()
    } else {
        quote!(if bits & !#known != 0 { return Err(#rt::unknown_flags(bits & !#known)); })
    };
    let sample = super::common::sample_fn(quote!(Self {
        #(#idents: match mode {
            #rt::SampleMode::Min => false,
            #rt::SampleMode::Max => true,
            _ => rng.coin(),
        },)*
        #rest_sample
    }));
    quote!(
        #[automatically_derived]
        impl #rt::Wire for #ty {
            #ir
            const MAX_SIZE: Option<usize> = Some(#rt::int_size(0, #width_max as i128));

            #[cfg_attr(debug_assertions, inline)]
            fn encode_compact(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #rt::encode_via_slice(self, out)
            }

            #[cfg_attr(debug_assertions, inline)]
            fn encode_compact_at(&self, buf: &mut [u8], p: usize) -> Result<usize, #rt::Error> {
                Ok(#rt::put::uint(buf, p, self.__tuplet_bits()?))
            }

            #[cfg_attr(debug_assertions, inline)]
            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                self.encode_compact(out)
            }

            #[cfg_attr(debug_assertions, inline)]
            fn decode(r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                let bits = r.read_u64(0, #width_max)?;
                #unknown
                Ok(Self { #(#idents: bits & #masks != 0,)* #rest_init })
            }

            #[cfg_attr(debug_assertions, inline)]
            fn validate_at(&self, path: &mut #rt::Vec<#rt::Seg>, issues: &mut #rt::Vec<#rt::Issue>) {
                if let Err(e) = self.__tuplet_bits() {
                    #rt::report(path, issues, e);
                }
            }

            #[cfg_attr(debug_assertions, inline)]
            fn wire_eq(&self, other: &Self) -> bool {
                self.__tuplet_bits().ok() == other.__tuplet_bits().ok()
            }

            #sample
        }

        impl #ty {
            /// The wire integer: named bits plus any kept unknown bits.
            #[cfg_attr(debug_assertions, inline)]
            #[doc(hidden)]
            #[allow(unused_mut, clippy::all)]
            fn __tuplet_bits(&self) -> Result<u64, #rt::Error> {
                #rest_check
                let mut bits: u64 = #rest_bits;
                #(if self.#idents { bits |= #masks; })*
                Ok(bits)
            }
        }
    )
}
