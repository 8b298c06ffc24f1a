//! Code for a record body: the slots of a message, a record or a struct variant, in both
//! shapes, following the record's wire plan (`tuplet_schema::plan::RecordPlan`): which
//! trailing slots the compact array may trim, and the named shape's keys.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use tuplet_schema::ir::{Field, Slot, TypeRef};
use tuplet_schema::plan::RecordPlan;

use super::ty::{rt, Form, Step, Steps, TyGen};

/// One slot with how to reach its value.
pub struct Member<'a> {
    /// The slot in the IR.
    pub slot: &'a Slot,
    /// An expression of type `&T` for the slot's value (unused for reserved slots).
    pub access: TokenStream,
    /// The span of the field's type, for errors about it.
    pub span: Span,
}

impl Member<'_> {
    pub(super) fn field(&self) -> Option<&Field> {
        match self.slot {
            Slot::Field(f) => Some(f),
            Slot::Reserved(_) => None,
        }
    }

    fn gen(&self) -> TyGen {
        TyGen { span: self.span }
    }

    /// The Rust field name.
    pub fn ident(&self) -> syn::Ident {
        let name = match self.slot {
            Slot::Field(f) => &f.name,
            Slot::Reserved(r) => &r.ident,
        };
        syn::Ident::new(name, Span::call_site())
    }
}

/// The wire plan of the members' slots, one slot plan per member.
fn plan<'a>(members: &[Member<'a>]) -> RecordPlan<'a> {
    RecordPlan::of_slots(members.iter().map(|m| m.slot))
}

fn local(i: usize) -> syn::Ident {
    format_ident!("__f{}", i)
}

/// The element count of the compact array (an expression: trailing absent options are
/// trimmed) and how many leading slots are always written.
fn compact_len(members: &[Member]) -> (TokenStream, usize) {
    let required = plan(members).required;
    let mut chain = quote!();
    for (i, m) in members.iter().enumerate().skip(required).rev() {
        if m.field().is_none() {
            continue;
        }
        let access = &m.access;
        let n = (i + 1) as u32;
        chain = quote!(#chain if #access.is_some() { #n } else);
    }
    let required_len = required as u32;
    (quote!(#chain { #required_len }), required)
}

/// Each slot's statements from `write` (given the field, `None` for a reserved slot), those
/// after the `required` ones only when the array reaches them (`len`).
fn slot_items(
    members: &[Member],
    required: usize,
    write: impl Fn(&Member, Option<&Field>) -> TokenStream,
) -> Vec<TokenStream> {
    let items = members.iter().enumerate().map(|(i, m)| {
        let body = write(m, m.field());
        if i < required {
            body
        } else {
            let i = i as u32;
            quote!(if len > #i { #body })
        }
    });
    items.collect()
}

/// Statements writing the compact array: the header (with `extra` leading elements the
/// caller writes in `prefix`, such as an enum tag) and every slot up to the last present.
pub fn encode_compact(members: &[Member], extra: u32, prefix: TokenStream) -> TokenStream {
    let rt = rt();
    let (len, required) = compact_len(members);
    let items = slot_items(members, required, |m, f| match f {
        Some(f) => m.gen().encode(&f.ty, &m.access, Form::Compact),
        None => quote!(#rt::write::nil(out);),
    });
    quote!(
        let len: u32 = #len;
        #rt::write::array_len(out, len + #extra);
        #prefix
        #(#items)*
    )
}

/// Statements writing the compact array through the slice writer (cursor `p` in `buf`):
/// as [`encode_compact`], with `extra` leading elements the caller writes in `prefix`.
pub fn encode_compact_at(members: &[Member], extra: u32, prefix: TokenStream) -> TokenStream {
    let rt = rt();
    let (len, required) = compact_len(members);
    let items = slot_items(members, required, |m, f| match f {
        Some(f) => m.gen().encode_at(&f.ty, &m.access),
        None => quote!(p = #rt::put::nil(buf, p);),
    });
    quote!(
        let len: u32 = #len;
        p = #rt::put::array_len(buf, p, len + #extra);
        #prefix
        #(#items)*
    )
}

/// Statements writing the named map: one entry per present field (spread arrays one per
/// element), reserved slots omitted.
pub fn encode_named(members: &[Member]) -> TokenStream {
    let rt = rt();
    let mut fixed = 0u32;
    let mut optional = Vec::new();
    let mut entries = Vec::new();
    let plan = plan(members);
    for (m, s) in members.iter().zip(&plan.slots) {
        let Some(f) = s.field else { continue };
        let access = &m.access;
        let g = m.gen();
        match s.legacy.spread() {
            None => {
                let key = s.legacy.key(f);
                let body = g.encode(&f.ty, access, Form::Named);
                if let TypeRef::Option { inner } = &f.ty {
                    optional.push(quote!(#access.is_some() as u32));
                    let inner = g.encode(inner, &quote!(x), Form::Named);
                    entries.push(quote!(if let Some(x) = #access {
                        #rt::write::str(out, #key);
                        #inner
                    }));
                } else {
                    fixed += 1;
                    entries.push(quote!(#rt::write::str(out, #key); #body));
                }
            }
            Some((keys, inner)) => {
                fixed += keys.len() as u32;
                for (i, key) in keys.iter().enumerate() {
                    // Parenthesised: the element is spliced before `.len()` and the like.
                    let elem = g.encode(inner, &quote!((&#access[#i])), Form::Named);
                    entries.push(quote!(#rt::write::str(out, #key); #elem));
                }
            }
        }
    }
    quote!(
        #rt::write::map_len(out, #fixed #(+ #optional)*);
        #(#entries)*
    )
}

/// An expression reading the compact body: `avail` elements remain in the array; builds
/// `ctor { field: value, ... }`.
pub fn decode_compact(members: &[Member], avail: TokenStream, ctor: &TokenStream) -> TokenStream {
    let rt = rt();
    let count = members.len() as u32;
    let plan = plan(members);
    let reads = members
        .iter()
        .zip(&plan.slots)
        .enumerate()
        .map(|(i, (m, s))| {
            let local = local(i);
            let idx = i as u32;
            match m.field() {
                Some(f) => {
                    let name = &f.name;
                    let read = m.gen().decode_in(&f.ty, Form::Compact, &Steps::field(name));
                    let absent = if s.trimmable {
                        quote!(None)
                    } else {
                        quote!(return Err(#rt::missing(#name)))
                    };
                    quote!(let #local = if avail > #idx { #read } else { #absent };)
                }
                None => quote!(if avail > #idx { r.skip_value()?; }),
            }
        });
    let inits = construct(members);
    quote!({
        let avail: u32 = #avail;
        #(#reads)*
        for _ in #count..avail { r.skip_value()?; }
        #ctor { #inits }
    })
}

fn construct(members: &[Member]) -> TokenStream {
    let rt = rt();
    let inits = members.iter().enumerate().map(|(i, m)| {
        let ident = m.ident();
        match m.field() {
            Some(_) => {
                let local = local(i);
                quote!(#ident: #local,)
            }
            None => quote!(#ident: #rt::Reserved,),
        }
    });
    quote!(#(#inits)*)
}

/// An expression reading the named body: `n` entries, through the runtime's table-driven
/// `read_named` (key lookup, unknown keys skipped, duplicates rejected, an alias with its
/// canonical name included, path steps); the per-type code is a closure reading one
/// target's value into its local, then the missing-field checks in slot order; builds
/// `ctor { ... }`.
pub fn decode_named(members: &[Member], n: TokenStream, ctor: &TokenStream) -> TokenStream {
    let rt = rt();
    let mut decls = Vec::new();
    let mut reads = Vec::new();
    let mut targets = Vec::new();
    let mut finals = Vec::new();
    let plan = plan(members);
    // The first target of each slot's field (its whole value; spread elements follow).
    let mut base = vec![0u16; members.len()];
    for (i, (m, s)) in members.iter().zip(&plan.slots).enumerate() {
        let Some(f) = s.field else { continue };
        let local = local(i);
        let name = &f.name;
        let g = m.gen();
        let first = targets.len() as u16;
        base[i] = first;
        let spread = s.legacy.spread();
        let count = 1 + spread.map_or(0, |(keys, _)| keys.len()) as u16;
        let t = first as usize;
        let read = g.decode(&f.ty, Form::Named);
        decls.push(quote!(let mut #local = None;));
        reads.push(quote!(#t => #local = Some(#read),));
        targets.push(
            quote!(#rt::NamedTarget { field: #name, first: #first, count: #count, elem: None }),
        );
        if let Some((keys, inner)) = spread {
            let elems: Vec<syn::Ident> = (0..keys.len())
                .map(|e| format_ident!("__f{}_{}", i, e))
                .collect();
            for (e, elem) in elems.iter().enumerate() {
                let t = t + 1 + e;
                let e16 = e as u16;
                decls.push(quote!(let mut #elem = None;));
                let read = g.decode(inner, Form::Named);
                reads.push(quote!(#t => #elem = Some(#read),));
                targets.push(quote!(#rt::NamedTarget { field: #name, first: #first, count: #count, elem: Some(#e16) }));
            }
            let parts = elems.iter().enumerate().map(|(e, elem)| {
                quote!(match #elem { Some(x) => x, None => return Err(#rt::missing_index(#name, #e)) })
            });
            finals.push(quote!(let #local = match #local { Some(a) => a, None => [#(#parts),*] };));
        } else if s.trimmable {
            finals.push(quote!(let #local = #local.flatten();));
        } else {
            finals.push(quote!(let #local = match #local { Some(x) => x, None => return Err(#rt::missing(#name)) };));
        }
    }
    let keys = plan.key_arms().into_iter().map(|a| {
        let key = a.key;
        let t = base[a.slot] + a.elem.map_or(0, |e| 1 + e as u16);
        quote!((#key, #t))
    });
    let inits = construct(members);
    let count = targets.len();
    quote!({
        const SHAPE: #rt::NamedShape = #rt::NamedShape {
            keys: &[#(#keys),*],
            targets: &[#(#targets),*],
        };
        #(#decls)*
        #rt::read_named(r, #n, &SHAPE, &mut [false; #count], &mut |r: &mut #rt::Reader<'_>, t: usize| -> Result<(), #rt::Error> {
            match t {
                #(#reads)*
                _ => {}
            }
            Ok(())
        })?;
        #(#finals)*
        #ctor { #inits }
    })
}

/// Statements validating every field, each under its name.
pub fn validate(members: &[Member]) -> TokenStream {
    let checks = members.iter().filter_map(|m| {
        let f = m.field()?;
        let step = Step::Field(f.name.clone());
        let body = m.gen().validate_under(&f.ty, &m.access, &step);
        (!body.is_empty()).then_some(body)
    });
    quote!(#(#checks)*)
}

/// A bool expression: every field of `a` and `b` encodes identically. `other` maps a
/// member to the matching expression on the other value.
pub fn wire_eq(members: &[Member], other: impl Fn(&Member) -> TokenStream) -> TokenStream {
    let parts = members.iter().filter_map(|m| {
        let f = m.field()?;
        Some(m.gen().wire_eq(&f.ty, &m.access, &other(m)))
    });
    quote!(true #(&& #parts)*)
}

/// Field initialisers for a sample value.
pub fn sample(members: &[Member]) -> TokenStream {
    let rt = rt();
    let inits = members.iter().map(|m| {
        let ident = m.ident();
        match m.field() {
            Some(f) => {
                let s = m.gen().sample(&f.ty);
                quote!(#ident: #s,)
            }
            None => quote!(#ident: #rt::Reserved,),
        }
    });
    quote!(#(#inits)*)
}

/// A const `Option<usize>` expression: the largest compact size of the slots (headers
/// excluded).
pub fn max_size(members: &[Member]) -> TokenStream {
    let rt = rt();
    members.iter().fold(quote!(Some(0)), |acc, m| {
        let part = match m.field() {
            Some(f) => m.gen().max_size(&f.ty),
            None => quote!(Some(1)),
        };
        quote!(#rt::size_add(#acc, #part))
    })
}

/// Terms `+ n` of a const `usize` expression: the least encodings of the fields that are
/// not `Option`s (the record's `MIN_SIZE` adds them to its one-byte header).
pub fn min_size(members: &[Member]) -> TokenStream {
    let parts = members.iter().filter_map(|m| match m.field()?.ty {
        TypeRef::Option { .. } => None,
        ref ty => Some(m.gen().min_size(ty)),
    });
    quote!(#(+ #parts)*)
}
