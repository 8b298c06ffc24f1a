//! The compact encoder through the runtime's slice writer (`put`): statements that write one
//! value at the cursor `p` of `buf: &mut [u8]` and advance it. Used for types whose compact
//! encoding has a largest size (`Wire::MAX_SIZE`), where the output is sized once up front;
//! the checks are those of the `Vec` encoder (`ty.rs`, `leaf.rs`: same functions, same
//! order), so the errors are the same. A leaf's statements are `leaf::encode_at`.

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::{Slot, TypeRef, Variant, VariantFields};
use tuplet_schema::plan::Node;

use super::leaf;
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
        match ty.node() {
            Node::Leaf(l) => Bound::max(l.max_size().ok()),
            Node::Option { inner } | Node::Array { inner, .. } => Bound::of(inner),
            Node::Vec { inner, len } => Bound::max(len.max).and(Bound::of(inner)),
            Node::Map { key, value, len } => Bound::max(len.max)
                .and(Bound::of(key))
                .and(Bound::of(value)),
            Node::Named { .. } => Bound::Depends,
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

impl TyGen {
    /// Statements writing `v` (an `&T`) in the compact form at `p`, advancing `p`.
    pub fn encode_at(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        let rt = rt();
        match ty.node() {
            Node::Leaf(l) => leaf::encode_at(l, v),
            Node::Option { inner } => {
                let inner = self.encode_at(inner, &quote!(x));
                quote!(match #v { Some(x) => { #inner } None => p = #rt::put::nil(buf, p), })
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.encode_at(inner, &quote!(x));
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "elements")?;
                    p = #rt::put::array_len(buf, p, #v.len() as u32);
                    for x in #v.iter() { #inner }
                )
            }
            Node::Array { inner, len } => {
                let inner = self.encode_at(inner, &quote!(x));
                quote!(
                    p = #rt::put::array_len(buf, p, #len);
                    for x in #v.iter() { #inner }
                )
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.encode_at(key, &quote!(k));
                let x = self.encode_at(value, &quote!(x));
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "entries")?;
                    p = #rt::put::map_len(buf, p, #v.len() as u32);
                    for (k, x) in #v.iter() { #k #x }
                )
            }
            Node::Named { path } => {
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
            #[cfg_attr(debug_assertions, inline)]
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
        #[cfg_attr(debug_assertions, inline)]
        #[allow(unused_variables, unused_assignments, clippy::all)]
        fn encode_compact_at(&self, buf: &mut [u8], start: usize) -> Result<usize, #rt::Error> {
            let buf = #rt::put::record(buf, start, <Self as #rt::Wire>::MAX_SIZE);
            let mut p = 0usize;
            #at
            Ok(start + p)
        }
    );
    let vec = match bound {
        Bound::Fixed => quote!(
            #[cfg_attr(debug_assertions, inline)]
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
