//! A unit enum: its explicit discriminant on the wire (named shape: the variant name); an
//! open enum keeps an unknown number in its catch-all variant.

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::Enum;
use tuplet_schema::plan::{EnumPlan, VARIANT_NAME_MAX};

use super::super::common::ident;
use super::super::ty::rt;
use super::pick::pick;

/// The `Wire` impl of a unit enum.
pub fn emit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let names: Vec<&str> = e.variants.iter().map(|v| v.name.as_str()).collect();
    let idents: Vec<syn::Ident> = names.iter().map(|n| ident(n)).collect();
    let numbers: Vec<i64> = e.variants.iter().map(|v| v.number).collect();
    let unknown = e.unknown.as_deref().map(ident);
    let (number_unknown, named_unknown, decode_unknown) = match &unknown {
        Some(u) => (
            quote!(Self::#u(n) => *n as i64,),
            quote!(Self::#u(n) => #rt::write::int(out, *n as i64),),
            quote!(other => Self::#u(other as _),),
        ),
        None => (
            quote!(),
            quote!(),
            quote!(other => return Err(#rt::unknown_number(other)),),
        ),
    };
    let plan = EnumPlan::of(e);
    let (min, max) = plan.number_range();
    let max_size = match plan.unknown_max_size() {
        Some(n) => quote!(Some(#n)),
        None => quote!(Some(#rt::int_size(#min, #max))),
    };
    let samples = idents.iter().map(|i| quote!(Self::#i)).collect();
    let sample = super::super::common::sample_fn(pick(samples));
    quote!(
        #[automatically_derived]
        impl #rt::Wire for #ty {
            #ir
            const MAX_SIZE: Option<usize> = #max_size;

            #[cfg_attr(debug_assertions, inline)]
            fn encode_compact(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #rt::encode_via_slice(self, out)
            }

            #[cfg_attr(debug_assertions, inline)]
            fn encode_compact_at(&self, buf: &mut [u8], p: usize) -> Result<usize, #rt::Error> {
                let n: i64 = match self { #(Self::#idents => #numbers,)* #number_unknown };
                Ok(#rt::put::int(buf, p, n))
            }

            #[cfg_attr(debug_assertions, inline)]
            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                match self { #(Self::#idents => #rt::write::str(out, #names),)* #named_unknown }
                Ok(())
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unreachable_code)]
            fn decode(r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                Ok(match r.peek_kind()? {
                    #rt::Kind::Str => {
                        let s = r.read_str(0, #VARIANT_NAME_MAX)?;
                        match s { #(#names => Self::#idents,)* _ => return Err(#rt::unknown_name(s, &[#(#names),*])), }
                    }
                    _ => match r.read_i64(i64::MIN, i64::MAX)? {
                        #(#numbers => Self::#idents,)*
                        #decode_unknown
                    },
                })
            }

            #[cfg_attr(debug_assertions, inline)]
            fn validate_at(&self, _path: &mut #rt::Vec<#rt::Seg>, _issues: &mut #rt::Vec<#rt::Issue>) {}

            #[cfg_attr(debug_assertions, inline)]
            fn wire_eq(&self, other: &Self) -> bool {
                let n = |v: &Self| -> i64 { match v { #(Self::#idents => #numbers,)* #number_unknown } };
                n(self) == n(other)
            }

            #sample
        }
    )
}
