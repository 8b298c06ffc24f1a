//! Interpolation adapters (ATTRIBUTES.md "Interpolation"): `SampleClock` and `Interpolate`
//! for `interp` items, `Hold` for unit enums and flag sets. Every impl is wrapped in the
//! runtime's `netcode_impl!`, which keeps its tokens only under the `tuplet` crate's `netcode`
//! feature: a protocol crate declares no feature, and a server without `netcode` compiles none
//! of it. The channels are `tuplet_schema::interp::InterpPlan`'s, the TypeScript adapters' too.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::interp::{InterpPlan, Shape};
use tuplet_schema::ir::{Clock, Draw, Enum, Flags, Record};

use super::common::rt;

fn ident(name: &str) -> syn::Ident {
    syn::Ident::new(name, Span::call_site())
}

/// The impls of an `interp` message or record (nothing for other items).
pub fn item(record: &Record, input: &syn::DeriveInput) -> TokenStream {
    let Some(plan) = InterpPlan::of(record) else {
        return TokenStream::new();
    };
    let rt = rt();
    let ty = &input.ident;
    let nc = quote!(#rt::netcode);
    let (clock, time) = match &plan.interp.clock {
        Clock::Sent { field } => {
            let f = ident(field);
            (quote!(#nc::Clock::Sent), quote!(self.#f as f64))
        }
        Clock::Tick { field, rate } => {
            let f = ident(field);
            let r = *rate as f64;
            (
                quote!(#nc::Clock::Tick { rate: #rate }),
                quote!(self.#f as f64 * 1000.0 / #r),
            )
        }
        Clock::Arrival => (quote!(#nc::Clock::Arrival), quote!(f64::NAN)),
        Clock::Carrier => (quote!(#nc::Clock::Carrier), quote!(f64::NAN)),
    };
    let clock_impl = quote! {
        impl #nc::SampleClock for #ty {
            const CLOCK: #nc::Clock = #clock;
            fn time_ms(&self) -> f64 { #time }
        }
    };
    let Some(key) = plan.key else {
        return quote!(#rt::netcode_impl! { #clock_impl });
    };
    let key_ident = ident(&key.name);
    // The key's Rust type as written on the struct.
    let key_ty = match &input.data {
        syn::Data::Struct(s) => s
            .fields
            .iter()
            .find(|f| f.ident.as_ref().is_some_and(|i| *i == key.name))
            .map(|f| f.ty.clone()),
        _ => None,
    };
    let Some(key_ty) = key_ty else {
        return TokenStream::new();
    };
    let base = |d: Draw| match d {
        Draw::Linear => 0,
        Draw::Angle => plan.layout.linear as usize,
        Draw::Hold => (plan.layout.linear + plan.layout.angle) as usize,
    };
    let hold = quote!(#nc::Hold);
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    for d in &plan.drawn {
        let at = base(d.draw) + d.offset as usize;
        let f = ident(&d.field.name);
        match &d.shape {
            Shape::One(_) => {
                writes.push(quote!(c[#at] = #hold::to_channel(&self.#f);));
                reads.push(quote!(if let Some(v) = #hold::from_channel(c[#at]) { self.#f = v; }));
            }
            Shape::Opt(_) => {
                writes.push(quote!(c[#at] = match &self.#f { Some(v) => #hold::to_channel(v), None => f64::NAN };));
                reads.push(quote!(self.#f = #hold::from_channel(c[#at]);));
            }
            Shape::Array(_, n) => {
                for i in 0..*n as usize {
                    let a = at + i;
                    writes.push(quote!(c[#a] = #hold::to_channel(&self.#f[#i]);));
                    reads.push(
                        quote!(if let Some(v) = #hold::from_channel(c[#a]) { self.#f[#i] = v; }),
                    );
                }
            }
        }
    }
    let (l, a, h) = (
        plan.layout.linear as usize,
        plan.layout.angle as usize,
        plan.layout.hold as usize,
    );
    quote! {
        #rt::netcode_impl! {
            #clock_impl
            impl #nc::Interpolate for #ty {
                type Key = #key_ty;
                const LAYOUT: #nc::ChannelLayout = #nc::ChannelLayout { linear: #l, angle: #a, hold: #h };
                fn key(&self) -> &Self::Key { &self.#key_ident }
                fn write(&self, c: &mut [f64]) { #(#writes)* }
                fn read(&mut self, c: &[f64]) { #(#reads)* }
            }
        }
    }
}

/// `Hold` for a unit enum: its number.
pub fn unit_enum(e: &Enum, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let names: Vec<syn::Ident> = e.variants.iter().map(|v| ident(&v.name)).collect();
    let nums: Vec<i64> = e.variants.iter().map(|v| v.number).collect();
    let (to_unknown, from_unknown) = match &e.unknown {
        Some(u) => {
            let u = ident(u);
            (
                quote!(Self::#u(n) => *n as f64,),
                quote!(n => Some(Self::#u(n)),),
            )
        }
        None => (quote!(), quote!(_ => None,)),
    };
    quote! {
        #rt::netcode_impl! {
            impl #rt::netcode::Hold for #ty {
                fn to_channel(&self) -> f64 {
                    match self { #(Self::#names => #nums as f64,)* #to_unknown }
                }
                fn from_channel(v: f64) -> Option<Self> {
                    if !v.is_finite() { return None; }
                    match v.round() as i64 { #(#nums => Some(Self::#names),)* #from_unknown }
                }
            }
        }
    }
}

/// `Hold` for a flag set: its bits.
pub fn flags(f: &Flags, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let names: Vec<syn::Ident> = f.bits.iter().map(|b| ident(&b.name)).collect();
    let masks: Vec<u64> = f.bits.iter().map(|b| 1u64 << b.bit).collect();
    let known: u64 = masks.iter().fold(0, |a, m| a | m);
    let prim = ident(f.prim.as_str());
    let (rest_to, rest_from) = match &f.rest {
        Some(r) => {
            let r = ident(r);
            (
                quote!(b |= self.#r as u64;),
                quote!(#r: (b & !#known) as #prim,),
            )
        }
        None => (quote!(), quote!()),
    };
    quote! {
        #rt::netcode_impl! {
            impl #rt::netcode::Hold for #ty {
                fn to_channel(&self) -> f64 {
                    let mut b: u64 = 0;
                    #(if self.#names { b |= #masks; })*
                    #rest_to
                    b as f64
                }
                fn from_channel(v: f64) -> Option<Self> {
                    if !v.is_finite() { return None; }
                    let b = v as u64;
                    Some(Self { #(#names: b & #masks != 0,)* #rest_from })
                }
            }
        }
    }
}
