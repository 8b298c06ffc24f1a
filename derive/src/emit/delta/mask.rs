//! What `Entity` and `Delta` both emit per field of a change mask: the mask bits, the
//! differences and whole values written and applied, unknown bits skipped.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::delta::{change_of, mask_slots, Change};
use tuplet_schema::ir::{Field, FloatType, Record, Slot, TypeRef};
use tuplet_schema::plan::Quantized;

use super::super::common::{field_span, ident, struct_fields};
use super::super::ty::{at, rt, Form, TyGen};

pub(super) fn bit(b: u32) -> TokenStream {
    quote!((1u64 << #b))
}

/// The quantization of a float that travels as differences (every such float is
/// quantized: `change_of`).
pub(super) fn quantized(ft: &FloatType) -> Quantized {
    ft.quantized().unwrap_or(Quantized {
        scale: 1.0,
        qmin: 0,
        qmax: 0,
    })
}

/// Statements writing the difference of number `cur` from `base` (both `&T`).
pub(super) fn write_difference(
    g: &TyGen,
    ty: &TypeRef,
    cur: &TokenStream,
    base: &TokenStream,
) -> TokenStream {
    let rt = rt();
    match ty {
        TypeRef::Float(ft) => {
            let Quantized { scale, qmin, qmax } = quantized(ft);
            quote!(#rt::write::int(out,
                #rt::quant::quantize(*#cur as f64, #scale, #qmin, #qmax)?
                    - #rt::quant::quantize(*#base as f64, #scale, #qmin, #qmax)?);)
        }
        _ => {
            let check = g.check(ty, cur);
            quote!(#check #rt::write::int(out, (*#cur as i64) - (*#base as i64));)
        }
    }
}

/// Statements reading a difference and applying it to the place `held` (an lvalue).
pub(super) fn apply_difference(ty: &TypeRef, held: &TokenStream) -> TokenStream {
    let rt = rt();
    match ty {
        TypeRef::Float(ft) => {
            let Quantized { scale, qmin, qmax } = quantized(ft);
            let deq = if ft.bits == 32 {
                quote!(dequantize_f32)
            } else {
                quote!(dequantize_f64)
            };
            quote!({
                let d = r.read_i64(i64::MIN, i64::MAX)?;
                #held = #rt::quant::#deq(#rt::add_q(#held as f64, d, #scale, #qmin, #qmax)?, #scale);
            })
        }
        TypeRef::Int(it) => {
            let (min, max) = it.bounds();
            let (min, max) = (
                proc_macro2::Literal::i128_unsuffixed(min),
                proc_macro2::Literal::i128_unsuffixed(max),
            );
            let prim = syn::Ident::new(it.prim.as_str(), Span::call_site());
            quote!({
                let d = r.read_i64(i64::MIN, i64::MAX)?;
                #held = #rt::add_int(#held as i128, d, #min, #max)? as #prim;
            })
        }
        _ => quote!(),
    }
}

/// Statements writing field `ty`'s change of `cur` from `base`.
pub(super) fn write_change(
    g: &TyGen,
    ty: &TypeRef,
    cur: &TokenStream,
    base: &TokenStream,
) -> TokenStream {
    let rt = rt();
    match (change_of(ty), ty) {
        (Change::Difference, _) => write_difference(g, ty, cur, base),
        (Change::Differences(n), TypeRef::Array { inner, .. }) => {
            let one = write_difference(g, inner, &quote!(x), &quote!(y));
            quote!(
                #rt::write::array_len(out, #n);
                for (x, y) in #cur.iter().zip(#base.iter()) { #one }
            )
        }
        _ => g.encode(ty, cur, Form::Compact),
    }
}

/// Statements reading field `ty`'s change into the place `held`.
pub(super) fn apply_change(g: &TyGen, ty: &TypeRef, held: &TokenStream) -> TokenStream {
    let rt = rt();
    match (change_of(ty), ty) {
        (Change::Difference, _) => apply_difference(ty, held),
        (Change::Differences(n), TypeRef::Array { inner, .. }) => {
            let one = apply_difference(inner, &quote!(held[i]));
            let one = at(quote!(in_index(i)), quote!({ #one }));
            quote!({
                let n = r.read_array_len()?;
                if n != #n { return Err(#rt::wrong_length(n, #n)); }
                let held = &mut #held;
                for i in 0..#n as usize { #one }
                r.leave();
            })
        }
        _ => {
            let read = g.decode(ty, Form::Compact);
            quote!(#held = #read;)
        }
    }
}

/// Statements reading field `ty`'s change as a probe does: against no baseline, applying
/// nothing (differences as ints of at most 2^53 - 1, whole values with the type's decoder).
pub(super) fn probe_change(g: &TyGen, ty: &TypeRef) -> TokenStream {
    let rt = rt();
    match (change_of(ty), ty) {
        (Change::Difference, _) => quote!(#rt::probe_difference(r)?;),
        (Change::Differences(n), TypeRef::Array { .. }) => quote!({
            let n = r.read_array_len()?;
            if n != #n { return Err(#rt::wrong_length(n, #n)); }
            for _ in 0..#n { #rt::probe_difference(r)?; }
            r.leave();
        }),
        _ => {
            let read = g.decode(ty, Form::Compact);
            quote!({ let _ = #read; })
        }
    }
}

/// `probe_changes` (of `Entity` and `Delta`): each value the mask announces read as its
/// field's change (`probes`: bit and statements), any other bit's value skipped. The mask is
/// at most 2^53 - 1 (`probe_mask`), as in TypeScript.
pub(super) fn probe_fn(probes: &[(u32, TokenStream)]) -> TokenStream {
    let rt = rt();
    let (bits, code): (Vec<u32>, Vec<&TokenStream>) = probes.iter().map(|(b, c)| (*b, c)).unzip();
    quote!(
        #[cfg_attr(debug_assertions, inline)]
        #[allow(unused_variables, unused_imports, unreachable_code, clippy::all)]
        fn probe_changes(mask: u64, r: &mut #rt::Reader<'_>) -> Result<(), #rt::Error> {
            use #rt::{KeyedList as _, WholeList as _};
            for b in 0..53u32 {
                if mask & (1u64 << b) == 0 {
                    continue;
                }
                match b {
                    #(#bits => { #code })*
                    _ => r.skip_value()?,
                }
            }
            Ok(())
        }
    )
}

pub(super) fn gen_for(input: &syn::DeriveInput, name: &str) -> TyGen {
    TyGen {
        span: struct_fields(input).map_or_else(Span::call_site, |f| field_span(f, name)),
    }
}

/// The unknown mask bits' values (a newer peer's fields) are skipped.
pub(super) fn skip_unknown(known: u32) -> TokenStream {
    quote!(
        for b in #known..64u32 {
            if mask & (1u64 << b) != 0 { r.skip_value()?; }
        }
    )
}

/// One field of a record's change mask, with the code both `Entity` and `Delta` emit for it.
pub(super) struct MaskField<'a> {
    /// The field's mask bit, `(1u64 << b)`.
    pub(super) bit: TokenStream,
    /// The bit's number `b`.
    pub(super) b: u32,
    /// The field.
    pub(super) field: &'a Field,
    /// The Rust field name.
    pub(super) ident: syn::Ident,
    /// Whether `self`'s value encodes as `base`'s.
    pub(super) eq: TokenStream,
    /// Statements writing the change of `self`'s value from `base`'s.
    pub(super) write: TokenStream,
    /// Statements reading a change into `held.<field>`.
    pub(super) apply: TokenStream,
    /// Statements reading a change as a probe does (`probe_change`).
    pub(super) probe: TokenStream,
}

/// The fields of `record`'s change mask in bit order (reserved slots keep their bit and
/// are left out), compared with and written against `base`, applied to `held`.
pub(super) fn mask_fields<'a>(
    record: &'a Record,
    input: &syn::DeriveInput,
    base: TokenStream,
    held: TokenStream,
) -> (Vec<MaskField<'a>>, u32) {
    let slots = mask_slots(record);
    let known = slots.len() as u32;
    let fields = slots
        .iter()
        .filter_map(|&(b, slot)| {
            let Slot::Field(field) = slot else {
                return None;
            };
            let gen = gen_for(input, &field.name);
            let ident = ident(&field.name);
            let (cur, other) = (quote!((&self.#ident)), quote!((&#base.#ident)));
            Some(MaskField {
                bit: bit(b),
                b,
                probe: probe_change(&gen, &field.ty),
                eq: gen.wire_eq(&field.ty, &cur, &other),
                write: write_change(&gen, &field.ty, &cur, &other),
                apply: apply_change(&gen, &field.ty, &quote!(#held.#ident)),
                field,
                ident,
            })
        })
        .collect();
    (fields, known)
}

/// Statements running `body` (statements that may return an error with `?`) and putting
/// field `name` on the path of its error.
pub(super) fn in_field(name: &str, body: TokenStream) -> TokenStream {
    let rt = rt();
    quote!(
        let res: Result<(), #rt::Error> = (|| { #body Ok(()) })();
        res.map_err(|e| e.in_field(#name))?;
    )
}
