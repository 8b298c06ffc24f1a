//! Code for enums: unit enums travel as their discriminant (named shape: the variant name);
//! enums with data as `[tag, ...fields]` (named shape: `{"Variant": {...}}`).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use tuplet_schema::ir::{Enum, Variant, VariantFields};
use tuplet_schema::plan::{EnumForm, EnumPlan, TAG_MAX, VARIANT_NAME_MAX};

use super::common::field_span;
use super::record::{self, Member};
use super::slice::{compact_pair, Bound};
use super::ty::{rt, Form, TyGen};

/// The `Wire` impl of an enum.
pub fn emit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    if EnumPlan::of(e).form == EnumForm::Unit {
        unit(e, input, ir)
    } else {
        data(e, input, ir)
    }
}

fn ident(name: &str) -> syn::Ident {
    syn::Ident::new(name, Span::call_site())
}

/// A `match` over `mode` and `rng` picking one of the variants' expressions.
fn pick(arms: Vec<TokenStream>) -> TokenStream {
    let rt = rt();
    let n = arms.len();
    let last = n.saturating_sub(1);
    let cases = arms.iter().enumerate().map(|(i, arm)| {
        if i == last {
            quote!(_ => #arm,)
        } else {
            quote!(#i => #arm,)
        }
    });
    quote!({
        let pick = match mode {
            #rt::SampleMode::Min => 0,
            #rt::SampleMode::Max => #last,
            _ => rng.below(#n),
        };
        match pick { #(#cases)* }
    })
}

fn unit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
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
    let sample = pick(samples);
    quote!(
        #[automatically_derived]
        impl #rt::Wire for #ty {
            #ir
            const MAX_SIZE: Option<usize> = #max_size;

            fn encode_compact(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                #rt::encode_via_slice(self, out)
            }

            fn encode_compact_at(&self, buf: &mut [u8], p: usize) -> Result<usize, #rt::Error> {
                let n: i64 = match self { #(Self::#idents => #numbers,)* #number_unknown };
                Ok(#rt::put::int(buf, p, n))
            }

            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                match self { #(Self::#idents => #rt::write::str(out, #names),)* #named_unknown }
                Ok(())
            }

            #[allow(unreachable_code)]
            fn decode(r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                Ok(match r.peek_kind()? {
                    #rt::Kind::Str => {
                        let s = r.read_str(0, #VARIANT_NAME_MAX)?;
                        match s { #(#names => Self::#idents,)* _ => return Err(#rt::unknown_name(s)), }
                    }
                    _ => match r.read_i64(i64::MIN, i64::MAX)? {
                        #(#numbers => Self::#idents,)*
                        #decode_unknown
                    },
                })
            }

            fn validate_at(&self, _path: &mut #rt::Vec<#rt::Seg>, _issues: &mut #rt::Vec<#rt::Issue>) {}

            fn wire_eq(&self, other: &Self) -> bool {
                let n = |v: &Self| -> i64 { match v { #(Self::#idents => #numbers,)* #number_unknown } };
                n(self) == n(other)
            }

            fn sample(rng: &mut #rt::SampleRng, mode: #rt::SampleMode) -> Self {
                #sample
            }
        }
    )
}

fn variant_fields<'a>(input: &'a syn::DeriveInput, name: &str) -> Option<&'a syn::Fields> {
    let syn::Data::Enum(e) = &input.data else {
        return None;
    };
    e.variants
        .iter()
        .find(|v| v.ident == name)
        .map(|v| &v.fields)
}

fn members<'a>(
    v: &'a Variant,
    input: &syn::DeriveInput,
    prefix: &str,
) -> (Vec<Member<'a>>, TokenStream) {
    let VariantFields::Struct { record } = &v.fields else {
        return (Vec::new(), quote!());
    };
    let fields = variant_fields(input, &v.name);
    let mut binds = Vec::new();
    let members = record
        .slots
        .iter()
        .map(|slot| {
            let name = match slot {
                tuplet_schema::ir::Slot::Field(f) => &f.name,
                tuplet_schema::ir::Slot::Reserved(r) => &r.ident,
            };
            let local = format_ident!("{}{}", prefix, name);
            if matches!(slot, tuplet_schema::ir::Slot::Field(_)) {
                let field = ident(name);
                binds.push(quote!(#field: #local));
            }
            Member {
                slot,
                access: quote!(#local),
                span: fields.map_or_else(Span::call_site, |f| field_span(f, name)),
            }
        })
        .collect();
    (members, quote!({ #(#binds,)* .. }))
}

fn newtype_span(input: &syn::DeriveInput, v: &Variant) -> Span {
    use syn::spanned::Spanned;
    variant_fields(input, &v.name)
        .and_then(|f| f.iter().next())
        .map_or_else(Span::call_site, |f| f.ty.span())
}

fn data(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let mut enc_c = Vec::new();
    let mut enc_at = Vec::new();
    let mut enc_n = Vec::new();
    let mut dec_c = Vec::new();
    let mut dec_n = Vec::new();
    let mut val = Vec::new();
    let mut eq = Vec::new();
    let mut samples = Vec::new();
    let mut sizes = Vec::new();
    for v in &e.variants {
        let vi = ident(&v.name);
        let name = &v.name;
        let tag = EnumPlan::tag(v);
        let tag_size = quote!(#rt::int_size(0, #tag as i128));
        match &v.fields {
            VariantFields::Unit => {
                enc_c.push(quote!(Self::#vi => { #rt::write::array_len(out, 1); #rt::write::uint(out, #tag); }));
                enc_at.push(quote!(Self::#vi => { p = #rt::put::array_len(buf, p, 1); p = #rt::put::uint(buf, p, #tag); }));
                enc_n.push(quote!(Self::#vi => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #rt::write::map_len(out, 0); }));
                dec_c.push(quote!(#tag => { for _ in 1..n { r.skip_value()?; } Self::#vi }));
                dec_n.push(quote!(#name => { r.skip_value()?; Self::#vi }));
                eq.push(quote!((Self::#vi, Self::#vi) => true,));
                samples.push(quote!(Self::#vi));
                sizes.push(quote!(Some(1 + #tag_size)));
            }
            VariantFields::Newtype { field } => {
                let g = TyGen {
                    span: newtype_span(input, v),
                };
                let ec = g.encode(&field.ty, &quote!(x), Form::Compact);
                let ea = g.encode_at(&field.ty, &quote!(x));
                let en = g.encode(&field.ty, &quote!(x), Form::Named);
                let dc = g.decode(&field.ty, Form::Compact);
                let dn = g.decode(&field.ty, Form::Named);
                let vv = g.validate(&field.ty, &quote!(x));
                let ee = g.wire_eq(&field.ty, &quote!(x), &quote!(y));
                let ss = g.sample(&field.ty);
                let sz = g.max_size(&field.ty);
                enc_c.push(quote!(Self::#vi(x) => { #rt::write::array_len(out, 2); #rt::write::uint(out, #tag); #ec }));
                enc_at.push(quote!(Self::#vi(x) => { p = #rt::put::array_len(buf, p, 2); p = #rt::put::uint(buf, p, #tag); #ea }));
                enc_n.push(quote!(Self::#vi(x) => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #en }));
                dec_c.push(quote!(#tag => {
                    if n < 2 { return Err(#rt::missing("0")); }
                    let x = #dc;
                    for _ in 2..n { r.skip_value()?; }
                    Self::#vi(x)
                }));
                dec_n.push(quote!(#name => Self::#vi(#dn)));
                val.push(quote!(Self::#vi(x) => { #vv }));
                eq.push(quote!((Self::#vi(x), Self::#vi(y)) => #ee,));
                samples.push(quote!(Self::#vi(#ss)));
                sizes.push(quote!(#rt::size_add(Some(1 + #tag_size), #sz)));
            }
            VariantFields::Struct { record } => {
                let (left, lpat) = members(v, input, "__l_");
                let (_, rpat) = members(v, input, "__r_");
                let ctor = quote!(Self::#vi);
                let ec = record::encode_compact(&left, 1, quote!(#rt::write::uint(out, #tag);));
                let ea =
                    record::encode_compact_at(&left, 1, quote!(p = #rt::put::uint(buf, p, #tag);));
                let en = record::encode_named(&left);
                let dc = record::decode_compact(&left, quote!(n - 1), &ctor);
                let inner_c = record::decode_compact(&left, quote!(m), &ctor);
                let inner_n = record::decode_named(&left, quote!(m), &ctor);
                let vv = record::validate(&left);
                let ee = record::wire_eq(&left, |m| {
                    let other = format_ident!("__r_{}", m.ident());
                    quote!(#other)
                });
                let ss = record::sample(&left);
                let sz = record::max_size(&left);
                let slots = record.slots.len() + 1;
                enc_c.push(quote!(Self::#vi #lpat => { #ec }));
                enc_at.push(quote!(Self::#vi #lpat => { #ea }));
                enc_n.push(quote!(Self::#vi #lpat => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #en }));
                dec_c.push(quote!(#tag => #dc));
                dec_n.push(quote!(#name => {
                    let v = match r.read_shape()? {
                        #rt::Shape::Array(m) => #inner_c,
                        #rt::Shape::Map(m) => #inner_n,
                    };
                    r.leave();
                    v
                }));
                val.push(quote!(Self::#vi #lpat => { #vv }));
                eq.push(quote!((Self::#vi #lpat, Self::#vi #rpat) => #ee,));
                samples.push(quote!(Self::#vi { #ss }));
                sizes.push(
                    quote!(#rt::size_add(Some(#rt::container_header(#slots) + #tag_size), #sz)),
                );
            }
        }
    }
    let (unknown_at, unknown_c, unknown_n, unknown_d, unknown_eq) = match e
        .unknown
        .as_deref()
        .map(ident)
    {
        Some(u) => (
            quote!(Self::#u(t) => { p = #rt::put::array_len(buf, p, 1); p = #rt::put::uint(buf, p, *t as u64); }),
            quote!(Self::#u(t) => { #rt::write::array_len(out, 1); #rt::write::uint(out, *t as u64); }),
            quote!(Self::#u(t) => { #rt::write::array_len(out, 1); #rt::write::uint(out, *t as u64); }),
            quote!(other => { for _ in 1..n { r.skip_value()?; } Self::#u(other as _) }),
            quote!((Self::#u(a), Self::#u(b)) => a == b,),
        ),
        None => (
            quote!(),
            quote!(),
            quote!(),
            quote!(other => return Err(#rt::unknown_number(other as i64))),
            quote!(),
        ),
    };
    if let Some(n) = EnumPlan::of(e).unknown_max_size() {
        sizes.push(quote!(Some(#n)));
    }
    let max_size = sizes
        .iter()
        .fold(quote!(Some(0)), |acc, s| quote!(#rt::size_max(#acc, #s)));
    let sample = pick(samples);
    let compact = compact_pair(
        Bound::of_variants(&e.variants),
        quote!(match self { #(#enc_c)* #unknown_c }),
        quote!(match self { #(#enc_at)* #unknown_at }),
    );
    quote!(
        #[automatically_derived]
        impl #rt::Wire for #ty {
            #ir
            const MAX_SIZE: Option<usize> = #max_size;

            #compact

            #[allow(unused_variables, clippy::all)]
            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                match self { #(#enc_n)* #unknown_n }
                Ok(())
            }

            #[allow(unused_variables, unused_mut, unreachable_code, clippy::all)]
            fn decode(r: &mut #rt::Reader<'_>) -> Result<Self, #rt::Error> {
                let value = match r.read_shape()? {
                    #rt::Shape::Array(n) => {
                        if n == 0 { return Err(#rt::missing("tag")); }
                        match r.read_u64(0, #TAG_MAX)? {
                            #(#dec_c,)*
                            #unknown_d
                        }
                    }
                    #rt::Shape::Map(n) => {
                        if n != 1 { return Err(#rt::not_one_key(n)); }
                        let name = r.read_str(0, #VARIANT_NAME_MAX)?;
                        match name {
                            #(#dec_n,)*
                            _ => return Err(#rt::unknown_name(name)),
                        }
                    }
                };
                r.leave();
                Ok(value)
            }

            #[allow(unused_variables, clippy::all)]
            fn validate_at(&self, path: &mut #rt::Vec<#rt::Seg>, issues: &mut #rt::Vec<#rt::Issue>) {
                match self { #(#val)* _ => {} }
            }

            #[allow(unused_variables, clippy::all)]
            fn wire_eq(&self, other: &Self) -> bool {
                match (self, other) { #(#eq)* #unknown_eq _ => false }
            }

            #[allow(unused_variables, clippy::all)]
            fn sample(rng: &mut #rt::SampleRng, mode: #rt::SampleMode) -> Self {
                #sample
            }
        }
    )
}
