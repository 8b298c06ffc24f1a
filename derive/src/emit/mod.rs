//! Emission: a parsed, checked per-item IR becomes straight-line Rust impls of the
//! runtime's traits. Every path goes through `::tuplet::__private_0_1`.
//!
//! Every codec method is emitted with `#[cfg_attr(debug_assertions, inline)]`: in a dev
//! build an `#[inline]` function gets machine code only in a crate that calls it, so the
//! protocol crate compiles none of its codecs to machine code and a server only those it
//! uses; a release build compiles them once, here, as before (ARCHITECTURE.md).

mod common;
mod delta;
mod dispatch;
mod enums;
mod flags;
mod interp;
mod leaf;
mod members;
mod record;
mod slice;
mod steps;
mod ty;

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::{Item, ItemKind, Record, Slot};

use common::{dir_variant, rt};
use members::members_of;

/// The impls for one parsed, checked item.
pub fn item(item: &Item, input: &syn::DeriveInput) -> TokenStream {
    let ir = ir_const(item);
    match &item.kind {
        ItemKind::Message(m) => {
            let wire = record_impl(&m.record, input, &ir);
            let message = message_impl(m, input);
            let delta = if m.delta {
                delta::delta_impl(&m.record, input)
            } else {
                quote!()
            };
            let interp = interp::item(&m.record, input);
            quote!(#wire #message #delta #interp)
        }
        ItemKind::Record(r) => {
            let wire = record_impl(r, input, &ir);
            let entity = delta::entity_impl(r, input);
            let interp = interp::item(r, input);
            quote!(#wire #entity #interp)
        }
        ItemKind::Enum(e) => {
            let codec = enums::emit(e, input, &ir);
            let hold = if e.is_unit() {
                interp::unit_enum(e, input)
            } else {
                quote!()
            };
            quote!(#codec #hold)
        }
        ItemKind::Flags(f) => {
            let codec = flags::emit(f, input, &ir);
            let hold = interp::flags(f, input);
            quote!(#codec #hold)
        }
        ItemKind::Dispatch(d) => dispatch::emit(d, input),
    }
}

/// `Wire::IR`, the item's IR as JSON, for the test that the derive and the loader agree:
/// emitted only under the `testkit` feature (the runtime's `testkit` turns it on).
fn ir_const(item: &Item) -> TokenStream {
    if cfg!(feature = "testkit") {
        let ir = serde_json::to_string(item).unwrap_or_default();
        quote!(const IR: &'static str = #ir;)
    } else {
        TokenStream::new()
    }
}

fn record_impl(record: &Record, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    let rt = rt();
    let ident = &input.ident;
    let members = members_of(record, input, &quote!(self));
    let ctor = quote!(Self);
    let encode_compact =
        slice::compact_methods(&members, record::encode_compact(&members, 0, quote!()));
    let encode_named = record::encode_named(&members);
    let decode_compact = record::decode_compact(&members, quote!(n), &ctor);
    // The named shape is decoded out of line (a legacy path): merged with the compact one,
    // its optional locals would make the compact path build the value through the stack.
    let decode_named = record::decode_named(&members, quote!(n), &quote!(#ident));
    let validate = record::validate(&members);
    let wire_eq = record::wire_eq(&members, |m| {
        let ident = m.ident();
        quote!((&other.#ident))
    });
    let sample = record::sample(&members);
    let sample = common::sample_fn(quote!(Self { #sample }));
    let slots = record.slots.len();
    let max_size = record::max_size(&members);
    let min_size = record::min_size(&members);
    quote!(
        #[automatically_derived]
        impl #rt::Wire for #ident {
            #ir
            const MAX_SIZE: Option<usize> =
                #rt::size_add(Some(#rt::container_header(#slots)), #max_size);
            const MIN_SIZE: usize = 1 #min_size;

            #encode_compact

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #encode_named
                Ok(())
            }

            #[inline]
            #[allow(unused_variables, unused_mut, unreachable_code, clippy::all)]
            fn decode(r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                #[cold]
                #[cfg_attr(not(debug_assertions), inline(never))]
                #[cfg_attr(debug_assertions, inline)]
                #[allow(unused_variables, unused_mut, unreachable_code, clippy::all)]
                fn named(r: &mut #rt::Reader<'_>, n: u32) -> Result<#ident, #rt::Error> {
                    Ok(#decode_named)
                }
                let value = match r.read_shape()? {
                    #rt::Shape::Array(n) => #decode_compact,
                    #rt::Shape::Map(n) => named(r, n)?,
                };
                r.leave();
                Ok(value)
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn validate_at(&self, path: &mut #rt::Vec<#rt::Seg>, issues: &mut #rt::Vec<#rt::Issue>) {
                #validate
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn wire_eq(&self, other: &Self) -> bool {
                #wire_eq
            }

            #sample
        }
    )
}

fn message_impl(m: &tuplet_schema::ir::Message, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ident = &input.ident;
    let name = &m.name;
    let id = m.id;
    let dir = dir_variant(m.dir);
    let unreliable = m.unreliable;
    let fields = m.record.slots.iter().filter_map(|slot| {
        let Slot::Field(f) = slot else { return None };
        let name = &f.name;
        let key = f.legacy.first().unwrap_or(&f.name);
        let ty = ty::rust_name(&f.ty);
        Some(quote!(#rt::FieldInfo { name: #name, key: #key, ty: #ty }))
    });
    quote!(
        #[automatically_derived]
        impl #rt::Message for #ident {
            const NAME: &'static str = #name;
            const ID: u32 = #id;
            const DIR: #rt::Dir = #rt::Dir::#dir;
            const UNRELIABLE: bool = #unreliable;
            const FIELDS: &'static [#rt::FieldInfo] = &[#(#fields),*];
        }
    )
}
