//! The compact encoder through the runtime's slice writer (`put`): statements that write one
//! value at the cursor `p` of `buf: &mut [u8]` and advance it. Used for types whose compact
//! encoding has a largest size (`Wire::MAX_SIZE`), where the output is sized once up front;
//! the checks are those of the `Vec` encoder in `ty.rs` (same functions, same order), so the
//! errors are the same.

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::{Slot, TypeRef, Variant, VariantFields};
use tuplet_schema::plan::Quantized;

use super::record::Member;
use super::ty::{rt, TyGen};

/// Whether a type's compact encoding has a largest size, as far as the derive can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Bounded by its own declaration.
    Fixed,
    /// Unbounded (a string, bin, list or map without a maximum).
    Open,
    /// Bounded if the named types it uses are (known to the compiler, not the derive).
    Depends,
}

impl Bound {
    fn and(self, other: Bound) -> Bound {
        match (self, other) {
            (Bound::Open, _) | (_, Bound::Open) => Bound::Open,
            (Bound::Depends, _) | (_, Bound::Depends) => Bound::Depends,
            _ => Bound::Fixed,
        }
    }

    /// The bound of a type.
    pub fn of(ty: &TypeRef) -> Bound {
        match ty {
            TypeRef::Bool | TypeRef::Int(_) | TypeRef::Float(_) => Bound::Fixed,
            TypeRef::String { len } | TypeRef::Bytes { len } => Bound::max(len.max),
            TypeRef::Option { inner } | TypeRef::Array { inner, .. } => Bound::of(inner),
            TypeRef::Vec { inner, len } => Bound::max(len.max).and(Bound::of(inner)),
            TypeRef::Map { key, value, len } => Bound::max(len.max)
                .and(Bound::of(key))
                .and(Bound::of(value)),
            TypeRef::Named { .. } => Bound::Depends,
        }
    }

    /// The bound of an enum's variants together.
    pub fn of_variants(variants: &[Variant]) -> Bound {
        variants.iter().fold(Bound::Fixed, |b, v| match &v.fields {
            VariantFields::Unit => b,
            VariantFields::Newtype { field } => b.and(Bound::of(&field.ty)),
            VariantFields::Struct { record } => record
                .slots
                .iter()
                .filter_map(|s| match s {
                    Slot::Field(f) => Some(Bound::of(&f.ty)),
                    Slot::Reserved(_) => None,
                })
                .fold(b, Bound::and),
        })
    }

    fn max<T>(max: Option<T>) -> Bound {
        if max.is_some() {
            Bound::Fixed
        } else {
            Bound::Open
        }
    }

    /// The bound of a record's fields together.
    pub fn of_members(members: &[Member]) -> Bound {
        members
            .iter()
            .filter_map(|m| m.field())
            .fold(Bound::Fixed, |b, f| b.and(Bound::of(&f.ty)))
    }
}

/// Statements writing the int expression `v` (an `i64`, or a `u64` when `max` is beyond
/// `i64`) known to lie in `min..=max`.
fn put_int(min: i128, max: i128, v: TokenStream) -> TokenStream {
    let rt = rt();
    if max > i64::MAX as i128 {
        return quote!(p = #rt::put::uint(buf, p, #v as u64););
    }
    let (min, max) = (min as i64, max as i64);
    quote!(p = #rt::put::int_in::<{ #min }, { #max }>(buf, p, #v as i64);)
}

impl TyGen {
    /// Statements writing `v` (an `&T`) in the compact form at `p`, advancing `p`.
    pub fn encode_at(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Bool => quote!(p = #rt::put::bool(buf, p, *#v);),
            TypeRef::Int(it) => {
                let check = self.check(ty, v);
                let (min, max) = it.bounds();
                let put = put_int(min, max, quote!(*#v));
                quote!(#check #put)
            }
            TypeRef::Float(ft) => match ft.quantized() {
                Some(Quantized { scale, qmin, qmax }) => put_int(
                    qmin.into(),
                    qmax.into(),
                    quote!(#rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?),
                ),
                None => {
                    let check = self.check(ty, v);
                    let f = if ft.bits == 32 {
                        quote!(f32)
                    } else {
                        quote!(f64)
                    };
                    quote!(#check p = #rt::put::#f(buf, p, *#v);)
                }
            },
            TypeRef::String { .. } => {
                let check = self.check(ty, v);
                quote!(#check p = #rt::put::str(buf, p, #v);)
            }
            TypeRef::Bytes { .. } => {
                let check = self.check(ty, v);
                quote!(#check p = #rt::put::bin(buf, p, #v);)
            }
            TypeRef::Option { inner } => {
                let inner = self.encode_at(inner, &quote!(x));
                quote!(match #v { Some(x) => { #inner } None => p = #rt::put::nil(buf, p), })
            }
            TypeRef::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.encode_at(inner, &quote!(x));
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "elements")?;
                    p = #rt::put::array_len(buf, p, #v.len() as u32);
                    for x in #v.iter() { #inner }
                )
            }
            TypeRef::Array { inner, len } => {
                let inner = self.encode_at(inner, &quote!(x));
                quote!(
                    p = #rt::put::array_len(buf, p, #len);
                    for x in #v.iter() { #inner }
                )
            }
            TypeRef::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.encode_at(key, &quote!(k));
                let x = self.encode_at(value, &quote!(x));
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "entries")?;
                    p = #rt::put::map_len(buf, p, #v.len() as u32);
                    for (k, x) in #v.iter() { #k #x }
                )
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(p = #w::encode_compact_at(#v, buf, p)?;)
            }
        }
    }
}

/// The `Wire` methods encoding a record in the compact form: `body` is the `Vec` encoder's
/// statements (`out`), `members` the slots (the slice encoder's statements are built here).
/// Bounded records write through the slice writer only; unbounded ones append to the `Vec`
/// only; records whose bound depends on named types get both, picked by `MAX_SIZE` (a
/// constant, so the other branch is compiled out).
pub fn compact_methods(members: &[Member], body: TokenStream) -> TokenStream {
    let at = crate::emit::record::encode_compact_at(members, 0, quote!());
    compact_pair(Bound::of_members(members), body, at)
}

/// The compact `Wire` methods of a type whose compact encoding is bounded as `bound`:
/// `body` writes it to the `Vec` (`out`), `at` through the slice writer (`p` in `buf`).
pub fn compact_pair(bound: Bound, body: TokenStream, at: TokenStream) -> TokenStream {
    let rt = rt();
    let vec_fn = |body: TokenStream| {
        quote!(
            #[allow(unused_variables, clippy::all)]
            fn encode_compact(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #body
                Ok(())
            }
        )
    };
    if bound == Bound::Open {
        return vec_fn(body);
    }
    let at_fn = quote!(
        #[allow(unused_variables, unused_assignments, clippy::all)]
        fn encode_compact_at(&self, buf: &mut [u8], mut p: usize) -> Result<usize, #rt::Error> {
            #at
            Ok(p)
        }
    );
    let vec = match bound {
        Bound::Fixed => quote!(
            fn encode_compact(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #rt::encode_via_slice(self, out)
            }
        ),
        _ => vec_fn(quote!(
            if Self::MAX_SIZE.is_some() {
                return #rt::encode_via_slice(self, out);
            }
            #body
        )),
    };
    quote!(#vec #at_fn)
}
