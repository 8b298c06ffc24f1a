//! Delta code (WIRE.md, "Delta snapshots"): `Entity` for records declared
//! `entity(key = "...")` and `Delta` for messages declared `delta`. Which fields travel as
//! differences and which whole is `tuplet_schema::delta::change_of`, shared with the
//! TypeScript emitter.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::delta::{change_of, mask_slots, Change};
use tuplet_schema::ir::{Record, Slot, TypeRef};
use tuplet_schema::plan::Quantized;

use super::common::{field_span, slot_name, struct_fields};
use super::record::{self, Member};
use super::ty::{at, rt, Form, TyGen};

fn bit(b: u32) -> TokenStream {
    quote!((1u64 << #b))
}

/// Statements writing the difference of number `cur` from `base` (both `&T`).
fn write_difference(g: &TyGen, ty: &TypeRef, cur: &TokenStream, base: &TokenStream) -> TokenStream {
    let rt = rt();
    match ty {
        TypeRef::Float(ft) => {
            let Quantized { scale, qmin, qmax } = ft.quantized().unwrap_or(Quantized {
                scale: 1.0,
                qmin: 0,
                qmax: 0,
            });
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
fn apply_difference(ty: &TypeRef, held: &TokenStream) -> TokenStream {
    let rt = rt();
    match ty {
        TypeRef::Float(ft) => {
            let Quantized { scale, qmin, qmax } = ft.quantized().unwrap_or(Quantized {
                scale: 1.0,
                qmin: 0,
                qmax: 0,
            });
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
fn write_change(g: &TyGen, ty: &TypeRef, cur: &TokenStream, base: &TokenStream) -> TokenStream {
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
fn apply_change(g: &TyGen, ty: &TypeRef, held: &TokenStream) -> TokenStream {
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

fn id(name: &str) -> syn::Ident {
    syn::Ident::new(name, Span::call_site())
}

fn gen_for(input: &syn::DeriveInput, name: &str) -> TyGen {
    TyGen {
        span: struct_fields(input).map_or_else(Span::call_site, |f| field_span(f, name)),
    }
}

/// The unknown mask bits' values (a newer peer's fields) are skipped.
fn skip_unknown(known: u32) -> TokenStream {
    quote!(
        for b in #known..64u32 {
            if mask & (1u64 << b) != 0 { r.skip_value()?; }
        }
    )
}

/// One field of a record's change mask, with the code both `Entity` and `Delta` emit for it.
struct MaskField<'a> {
    /// The field's mask bit, `(1u64 << b)`.
    bit: TokenStream,
    /// The field.
    field: &'a tuplet_schema::ir::Field,
    /// The Rust field name.
    ident: syn::Ident,
    /// Whether `self`'s value encodes as `base`'s.
    eq: TokenStream,
    /// Statements writing the change of `self`'s value from `base`'s.
    write: TokenStream,
    /// Statements reading a change into `held.<field>`.
    apply: TokenStream,
}

/// The fields of `record`'s change mask in bit order (reserved slots keep their bit and
/// are left out), compared with and written against `base`, applied to `held`.
fn mask_fields<'a>(
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
            let ident = id(&field.name);
            let (cur, other) = (quote!((&self.#ident)), quote!((&#base.#ident)));
            Some(MaskField {
                bit: bit(b),
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

/// `impl Entity` for a record declared `entity(key = "...")`.
pub fn entity_impl(record: &Record, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ident = &input.ident;
    let Some(key) = record.entity_key.as_deref() else {
        return quote!();
    };
    let Some(TypeRef::Int(kt)) = record.slots.iter().find_map(|s| match s {
        Slot::Field(f) if f.name == key => Some(&f.ty),
        _ => None,
    }) else {
        return quote!();
    };
    let key_ident = id(key);
    let key_prim = id(kt.prim.as_str());
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
        applies.push(quote!(if mask & #m != 0 {
            let res: Result<(), #rt::Error> = (|| { #a Ok(()) })();
            res.map_err(|e| e.in_field(#name))?;
        }));
    }
    let skip = skip_unknown(known);
    quote!(
        #[automatically_derived]
        impl #rt::Entity for #ident {
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

            #[allow(unused_variables, clippy::all)]
            fn read_key(r: &mut #rt::Reader<'_>) -> Result<#key_prim, #rt::Error> {
                Ok(#read_key)
            }

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

            #[allow(unused_variables, clippy::all)]
            fn apply_changes(&mut self, mask: u64, r: &mut #rt::Reader<'_>) -> Result<(), #rt::Error> {
                #(#applies)*
                #skip
                Ok(())
            }
        }
    )
}

/// The element type of a `Vec<Named>` field (a candidate entity list).
fn list_elem(ty: &TypeRef) -> Option<(&str, &tuplet_schema::ir::Len)> {
    match ty {
        TypeRef::Vec { inner, len } => match &**inner {
            TypeRef::Named { path } => Some((path, len)),
            _ => None,
        },
        _ => None,
    }
}

fn elem_type(path: &str) -> TokenStream {
    let p: syn::Type = syn::parse_str(path).unwrap_or_else(|_| syn::parse_quote!(()));
    quote!(#p)
}

/// `impl Delta` for a message declared `delta`.
pub fn delta_impl(record: &Record, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ident = &input.ident;
    let (fields, known) = mask_fields(record, input, quote!(b), quote!(m));
    let mut changes = Vec::new();
    let mut sorts = Vec::new();
    let mut applies = Vec::new();
    for MaskField {
        bit: m,
        field: f,
        ident: fi,
        eq,
        write: whole,
        apply,
        ..
    } in &fields
    {
        let name = &f.name;
        let plain = quote!(if !(#eq) {
            #whole
            b.#fi = self.#fi.clone();
            mask |= #m;
            count += 1;
        });
        match list_elem(&f.ty) {
            Some((path, len)) => {
                let t = elem_type(path);
                let (min, max) = (len.min.unwrap_or(0), len.max.unwrap_or(u32::MAX));
                changes.push(quote!(
                    match (&#rt::EntityProbe::<#t>::new()).entities_encode(&self.#fi, &mut b.#fi, out) {
                        Some(res) => if res.map_err(|e| e.in_field(#name))? {
                            mask |= #m;
                            count += 1;
                        },
                        None => #plain
                    }
                ));
                sorts.push(quote!(
                    if let Some(res) = (&#rt::EntityProbe::<#t>::new()).entities_sort(&mut v.#fi) {
                        res.map_err(|e| e.in_field(#name))?;
                    }
                ));
                applies.push(quote!(if mask & #m != 0 {
                    let res: Result<(), #rt::Error> = (|| {
                        match (&#rt::EntityProbe::<#t>::new()).entities_apply(&mut m.#fi, r) {
                            Some(res) => res?,
                            None => { #apply }
                        }
                        #rt::check_len(m.#fi.len(), #min, #max, "elements")?;
                        Ok(())
                    })();
                    res.map_err(|e| e.in_field(#name))?;
                }));
            }
            None => {
                changes.push(plain);
                applies.push(quote!(if mask & #m != 0 {
                    let res: Result<(), #rt::Error> = (|| { #apply Ok(()) })();
                    res.map_err(|e| e.in_field(#name))?;
                }));
            }
        }
    }
    let members: Vec<Member> = record
        .slots
        .iter()
        .map(|slot| {
            let name = slot_name(slot);
            let fi = id(name);
            Member {
                slot,
                access: quote!((&v.#fi)),
                span: struct_fields(input).map_or_else(Span::call_site, |f| field_span(f, name)),
            }
        })
        .collect();
    let keyframe = record::encode_compact(
        &members,
        2,
        quote!(#rt::write::uint(out, seq as u64); #rt::write::nil(out);),
    );
    let decode = record::decode_compact(&members, quote!(n - 2), &quote!(Self));
    let skip = skip_unknown(known);
    quote!(
        #[automatically_derived]
        impl #rt::Delta for #ident {
            #[allow(unused_variables, unused_mut, unused_imports, clippy::all)]
            fn encode_delta(
                &self,
                base: &mut Option<Self>,
                keyframe: bool,
                seq: u8,
                out: &mut #rt::Vec<u8>,
            ) -> Result<bool, #rt::Error> {
                use #rt::{KeyedList as _, WholeList as _};
                let start = out.len();
                let res: Result<bool, #rt::Error> = (|| {
                    if let (false, Some(b)) = (keyframe, base.as_mut()) {
                        let mut mask = 0u64;
                        let mut count = 0u32;
                        #(#changes)*
                        if mask == 0 {
                            return Ok(false);
                        }
                        let mut header = #rt::Vec::with_capacity(10);
                        #rt::write::array_len(&mut header, count + 2);
                        #rt::write::uint(&mut header, seq as u64);
                        #rt::write::uint(&mut header, mask);
                        out.splice(start..start, header);
                        return Ok(true);
                    }
                    let mut v = self.clone();
                    #(#sorts)*
                    #keyframe
                    *base = Some(v);
                    Ok(true)
                })();
                if res.is_err() {
                    out.truncate(start);
                    *base = None;
                }
                res
            }

            #[allow(unused_variables, unused_mut, unused_imports, unreachable_code, clippy::all)]
            fn apply_delta(mirror: &mut Option<Self>, seq: u8, r: &mut #rt::Reader<'_>) -> Result<u8, #rt::Error> {
                use #rt::{KeyedList as _, WholeList as _};
                let n = r.read_array_len()?;
                if n < 2 {
                    return Err(#rt::mask_count(n, 2));
                }
                let got = r.read_u64(0, 127)? as u8;
                if r.try_nil()? {
                    let mut v = #decode;
                    r.leave();
                    #(#sorts)*
                    *mirror = Some(v);
                    return Ok(got);
                }
                let Some(m) = mirror.as_mut() else {
                    return Err(#rt::no_baseline("this delta (no keyframe yet)"));
                };
                if got != seq {
                    return Err(#rt::no_baseline(format_args!("delta {got} (expected {seq}: a message was missed)")));
                }
                let mask = r.read_u64(0, u64::MAX)?;
                if mask.count_ones() + 2 != n {
                    return Err(#rt::mask_count(n, mask.count_ones() + 2));
                }
                #(#applies)*
                #skip
                r.leave();
                Ok(got)
            }
        }
    )
}
