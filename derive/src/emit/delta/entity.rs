//! `impl Entity` for a record declared `entity(key = "...")`: its key, and its changes
//! against a baseline as a field mask and the changed fields.

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::{Record, Slot, TypeRef};

use super::super::common::ident;
use super::super::ty::{rt, Form};
use super::mask::{gen_for, in_field, mask_fields, probe_fn, skip_unknown, MaskField};

/// `impl Entity` for a record declared `entity(key = "...")`.
pub fn entity_impl(record: &Record, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let Some(key) = record.entity_key.as_deref() else {
        return quote!();
    };
    let Some(TypeRef::Int(kt)) = record.slots.iter().find_map(|s| match s {
        Slot::Field(f) if f.name == key => Some(&f.ty),
        _ => None,
    }) else {
        return quote!();
    };
    let key_ident = ident(key);
    let key_prim = ident(kt.prim.as_str());
    let write_key = if kt.prim.signed() {
        quote!(#rt::write::int(out, key as i64);)
    } else {
        quote!(#rt::write::uint(out, key as u64);)
    };
    let read_key = gen_for(input, key).decode(&TypeRef::Int(kt.clone()), Form::Compact);
    let (fields, known) = mask_fields(record, input, quote!(base), quote!(self));
    let mut marks = Vec::new();
    let mut writes = Vec::new();
    let mut applies = Vec::new();
    for MaskField {
        bit: m,
        field: f,
        eq,
        write: w,
        apply: a,
        ..
    } in &fields
    {
        let name = &f.name;
        marks.push(quote!(if !(#eq) { mask |= #m; }));
        writes.push(quote!(if mask & #m != 0 { #w }));
        let apply = in_field(name, a.clone());
        applies.push(quote!(if mask & #m != 0 { #apply }));
    }
    let skip = skip_unknown(known);
    let probe = probe_fn(
        &fields
            .iter()
            .map(|f| (f.b, f.probe.clone()))
            .collect::<Vec<_>>(),
    );
    quote!(
        #[automatically_derived]
        impl #rt::Entity for #ty {
            type Key = #key_prim;
            const KEY: &'static str = #key;

            #[inline]
            fn key(&self) -> #key_prim {
                self.#key_ident
            }

            #[inline]
            fn write_key(key: #key_prim, out: &mut #rt::Vec<u8>) {
                #write_key
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn read_key(r: &mut #rt::Reader<'_>) -> Result<#key_prim, #rt::Error> {
                Ok(#read_key)
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, unused_mut, clippy::all)]
            fn encode_changes(&self, base: &Self, out: &mut #rt::Vec<u8>) -> Result<u32, #rt::Error> {
                let mut mask = 0u64;
                #(#marks)*
                if mask == 0 {
                    return Ok(0);
                }
                #rt::write::uint(out, mask);
                #(#writes)*
                Ok(1 + mask.count_ones())
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn apply_changes(&mut self, mask: u64, r: &mut #rt::Reader<'_>) -> Result<(), #rt::Error> {
                #(#applies)*
                #skip
                Ok(())
            }

            #probe
        }
    )
}
