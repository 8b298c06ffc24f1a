//! Stub impls emitted beside a derive's errors: the type still implements the traits, so
//! uses of it elsewhere compile and the user sees the one real error. The stubs are never
//! run: the crate does not compile.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;
use tuplet_schema::Derive;

/// The stub impls for `input` under `derive`. None for `Dispatch`: its trait is still
/// growing, and a stale stub would add the cascade it is meant to prevent.
pub(crate) fn stubs(input: &DeriveInput, derive: Derive) -> TokenStream {
    if derive == Derive::Dispatch {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let ir = if cfg!(feature = "testkit") {
        quote!(
            const IR: &'static str = "";
        )
    } else {
        quote!()
    };
    let sample = if cfg!(feature = "sample") {
        quote!(
            fn sample(
                _: &mut ::tuplet::__private_0_1::SampleRng,
                _: ::tuplet::__private_0_1::SampleMode,
            ) -> Self {
                ::core::panic!("tuplet derive failed")
            }
        )
    } else {
        quote!()
    };
    let wire = quote! {
        #[automatically_derived]
        impl #impl_generics ::tuplet::__private_0_1::Wire for #ident #ty_generics #where_clause {
            #ir
            const MAX_SIZE: ::core::option::Option<usize> = ::core::option::Option::None;

            fn encode_compact(
                &self,
                _: &mut ::tuplet::__private_0_1::Vec<u8>,
            ) -> ::core::result::Result<(), ::tuplet::__private_0_1::Error> {
                ::core::panic!("tuplet derive failed")
            }
            fn encode_named(
                &self,
                _: &mut ::tuplet::__private_0_1::Vec<u8>,
            ) -> ::core::result::Result<(), ::tuplet::__private_0_1::Error> {
                ::core::panic!("tuplet derive failed")
            }
            fn decode(
                _: &mut ::tuplet::__private_0_1::Reader<'_>,
            ) -> ::core::result::Result<Self, ::tuplet::__private_0_1::Error> {
                ::core::panic!("tuplet derive failed")
            }
            fn validate_at(
                &self,
                _: &mut ::tuplet::__private_0_1::Vec<::tuplet::__private_0_1::Seg>,
                _: &mut ::tuplet::__private_0_1::Vec<::tuplet::__private_0_1::Issue>,
            ) {
                ::core::panic!("tuplet derive failed")
            }
            fn wire_eq(&self, _: &Self) -> bool {
                ::core::panic!("tuplet derive failed")
            }
            #sample
        }
    };
    if derive != Derive::Message {
        return wire;
    }
    quote! {
        #wire
        #[automatically_derived]
        impl #impl_generics ::tuplet::__private_0_1::Message for #ident #ty_generics #where_clause {
            const NAME: &'static str = "";
            const ID: u32 = 0;
            const DIR: ::tuplet::__private_0_1::Dir = ::tuplet::__private_0_1::Dir::C2s;
            const FIELDS: &'static [::tuplet::__private_0_1::FieldInfo] = &[];
            const DERIVE_FAILED: bool = true;
        }
    }
}
