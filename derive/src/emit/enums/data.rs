//! An enum with data: `[tag, ...fields]` on the wire (named shape: `{"Variant": {...}}`).
//! Each variant contributes one arm to every method (`Arms`, by its kind: unit, newtype,
//! struct); an open enum's catch-all adds its own (`Unknown`); `emit` assembles the impl.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use tuplet_schema::ir::{Enum, Field, Record, Slot, Variant, VariantFields};
use tuplet_schema::plan::{EnumPlan, TAG_MAX, VARIANT_NAME_MAX};

use super::super::common::{field_span, ident, slot_name};
use super::super::record::{self, Member};
use super::super::slice::{compact_pair, Bound};
use super::super::ty::{rt, Form, TyGen};
use super::pick::pick;

/// What one variant contributes to each method of the impl.
struct Arms {
    /// A `match self` arm of `encode_compact`.
    encode: TokenStream,
    /// A `match self` arm of `encode_compact_at`.
    encode_at: TokenStream,
    /// A `match self` arm of `encode_named`.
    encode_named: TokenStream,
    /// A `match tag` arm of the compact decode.
    decode: TokenStream,
    /// A `match name` arm of the named decode.
    decode_named: TokenStream,
    /// A `match self` arm of `validate_at` (a unit variant has nothing to check).
    validate: Option<TokenStream>,
    /// A `match (self, other)` arm of `wire_eq`.
    eq: TokenStream,
    /// The variant's sample expression.
    sample: TokenStream,
    /// The variant's largest size (`Option<usize>`).
    max_size: TokenStream,
}

/// The `Wire` impl of an enum with data.
pub fn emit(e: &Enum, input: &syn::DeriveInput, ir: &TokenStream) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let arms: Vec<Arms> = e.variants.iter().map(|v| variant(v, input)).collect();
    let names: Vec<&str> = e.variants.iter().map(|v| v.name.as_str()).collect();
    let enc_c = arms.iter().map(|a| &a.encode);
    let enc_at = arms.iter().map(|a| &a.encode_at);
    let enc_n = arms.iter().map(|a| &a.encode_named);
    let dec_c = arms.iter().map(|a| &a.decode);
    let dec_n = arms.iter().map(|a| &a.decode_named);
    let val = arms.iter().filter_map(|a| a.validate.as_ref());
    let eq = arms.iter().map(|a| &a.eq);
    let mut sizes: Vec<TokenStream> = arms.iter().map(|a| a.max_size.clone()).collect();
    let sample =
        super::super::common::sample_fn(pick(arms.iter().map(|a| a.sample.clone()).collect()));
    let Unknown {
        encode_at: unknown_at,
        encode: unknown_c,
        encode_named: unknown_n,
        decode: unknown_d,
        eq: unknown_eq,
    } = unknown(e);
    if let Some(n) = EnumPlan::of(e).unknown_max_size() {
        sizes.push(quote!(Some(#n)));
    }
    let max_size = sizes
        .iter()
        .fold(quote!(Some(0)), |acc, s| quote!(#rt::size_max(#acc, #s)));
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

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn encode_named(&self, out: &mut #rt::Vec<u8>) -> Result<(), #rt::Error> {
                match self { #(#enc_n)* #unknown_n }
                Ok(())
            }

            #[cfg_attr(debug_assertions, inline)]
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
                            _ => return Err(#rt::unknown_name(name, &[#(#names),*])),
                        }
                    }
                };
                r.leave();
                Ok(value)
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn validate_at(&self, path: &mut #rt::Vec<#rt::Seg>, issues: &mut #rt::Vec<#rt::Issue>) {
                match self { #(#val)* _ => {} }
            }

            #[cfg_attr(debug_assertions, inline)]
            #[allow(unused_variables, clippy::all)]
            fn wire_eq(&self, other: &Self) -> bool {
                match (self, other) { #(#eq)* #unknown_eq _ => false }
            }

            #sample
        }
    )
}

/// The arms of one variant, by its kind.
fn variant(v: &Variant, input: &syn::DeriveInput) -> Arms {
    match &v.fields {
        VariantFields::Unit => unit_variant(v),
        VariantFields::Newtype { field } => newtype_variant(v, field, input),
        VariantFields::Struct { record } => struct_variant(v, record, input),
    }
}

/// The size of variant `v`'s tag, `int_size(0, tag)`.
fn tag_size(v: &Variant) -> TokenStream {
    let rt = rt();
    let tag = EnumPlan::tag(v);
    quote!(#rt::int_size(0, #tag as i128))
}

/// `Variant`: `[tag]`, named `{"Variant": {}}`.
fn unit_variant(v: &Variant) -> Arms {
    let rt = rt();
    let vi = ident(&v.name);
    let name = &v.name;
    let tag = EnumPlan::tag(v);
    let tag_size = tag_size(v);
    Arms {
        encode: quote!(Self::#vi => { #rt::write::array_len(out, 1); #rt::write::uint(out, #tag); }),
        encode_at: quote!(Self::#vi => { p = #rt::put::array_len(buf, p, 1); p = #rt::put::uint(buf, p, #tag); }),
        encode_named: quote!(Self::#vi => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #rt::write::map_len(out, 0); }),
        decode: quote!(#tag => { for _ in 1..n { r.skip_value()?; } Self::#vi }),
        decode_named: quote!(#name => { r.skip_value()?; Self::#vi }),
        validate: None,
        eq: quote!((Self::#vi, Self::#vi) => true,),
        sample: quote!(Self::#vi),
        max_size: quote!(Some(1 + #tag_size)),
    }
}

/// `Variant(T)`: `[tag, value]`, named `{"Variant": value}`.
fn newtype_variant(v: &Variant, field: &Field, input: &syn::DeriveInput) -> Arms {
    let rt = rt();
    let vi = ident(&v.name);
    let name = &v.name;
    let tag = EnumPlan::tag(v);
    let tag_size = tag_size(v);
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
    Arms {
        encode: quote!(Self::#vi(x) => { #rt::write::array_len(out, 2); #rt::write::uint(out, #tag); #ec }),
        encode_at: quote!(Self::#vi(x) => { p = #rt::put::array_len(buf, p, 2); p = #rt::put::uint(buf, p, #tag); #ea }),
        encode_named: quote!(Self::#vi(x) => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #en }),
        decode: quote!(#tag => {
            if n < 2 { return Err(#rt::missing("0")); }
            let x = #dc;
            for _ in 2..n { r.skip_value()?; }
            Self::#vi(x)
        }),
        decode_named: quote!(#name => Self::#vi(#dn)),
        validate: Some(quote!(Self::#vi(x) => { #vv })),
        eq: quote!((Self::#vi(x), Self::#vi(y)) => #ee,),
        sample: quote!(Self::#vi(#ss)),
        max_size: quote!(#rt::size_add(Some(1 + #tag_size), #sz)),
    }
}

/// `Variant { .. }`: `[tag, ...fields]`, named `{"Variant": {...}}` (or a nested array).
fn struct_variant(v: &Variant, record: &Record, input: &syn::DeriveInput) -> Arms {
    let rt = rt();
    let vi = ident(&v.name);
    let name = &v.name;
    let tag = EnumPlan::tag(v);
    let tag_size = tag_size(v);
    let (left, lpat) = members(v, record, input, "__l_");
    let (_, rpat) = members(v, record, input, "__r_");
    let ctor = quote!(Self::#vi);
    let ec = record::encode_compact(&left, 1, quote!(#rt::write::uint(out, #tag);));
    let ea = record::encode_compact_at(&left, 1, quote!(p = #rt::put::uint(buf, p, #tag);));
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
    Arms {
        encode: quote!(Self::#vi #lpat => { #ec }),
        encode_at: quote!(Self::#vi #lpat => { #ea }),
        encode_named: quote!(Self::#vi #lpat => { #rt::write::map_len(out, 1); #rt::write::str(out, #name); #en }),
        decode: quote!(#tag => #dc),
        decode_named: quote!(#name => {
            let v = match r.read_shape()? {
                #rt::Shape::Array(m) => #inner_c,
                #rt::Shape::Map(m) => #inner_n,
            };
            r.leave();
            v
        }),
        validate: Some(quote!(Self::#vi #lpat => { #vv })),
        eq: quote!((Self::#vi #lpat, Self::#vi #rpat) => #ee,),
        sample: quote!(Self::#vi { #ss }),
        max_size: quote!(#rt::size_add(Some(#rt::container_header(#slots) + #tag_size), #sz)),
    }
}

/// What an open enum's catch-all variant contributes (nothing, and an error on decode, for
/// a closed enum).
struct Unknown {
    encode_at: TokenStream,
    encode: TokenStream,
    encode_named: TokenStream,
    decode: TokenStream,
    eq: TokenStream,
}

fn unknown(e: &Enum) -> Unknown {
    let rt = rt();
    match e.unknown.as_deref().map(ident) {
        Some(u) => Unknown {
            encode_at: quote!(Self::#u(t) => { p = #rt::put::array_len(buf, p, 1); p = #rt::put::uint(buf, p, *t as u64); }),
            encode: quote!(Self::#u(t) => { #rt::write::array_len(out, 1); #rt::write::uint(out, *t as u64); }),
            encode_named: quote!(Self::#u(t) => { #rt::write::array_len(out, 1); #rt::write::uint(out, *t as u64); }),
            decode: quote!(other => { for _ in 1..n { r.skip_value()?; } Self::#u(other as _) }),
            eq: quote!((Self::#u(a), Self::#u(b)) => a == b,),
        },
        None => Unknown {
            encode_at: quote!(),
            encode: quote!(),
            encode_named: quote!(),
            decode: quote!(other => return Err(#rt::unknown_number(other as i64))),
            eq: quote!(),
        },
    }
}

/// The syn fields of variant `name`.
fn variant_fields<'a>(input: &'a syn::DeriveInput, name: &str) -> Option<&'a syn::Fields> {
    let syn::Data::Enum(e) = &input.data else {
        return None;
    };
    e.variants
        .iter()
        .find(|v| v.ident == name)
        .map(|v| &v.fields)
}

/// A struct variant's members, bound to locals `<prefix><field>`, and the pattern binding them.
fn members<'a>(
    v: &Variant,
    record: &'a Record,
    input: &syn::DeriveInput,
    prefix: &str,
) -> (Vec<Member<'a>>, TokenStream) {
    let fields = variant_fields(input, &v.name);
    let mut binds = Vec::new();
    let members = record
        .slots
        .iter()
        .map(|slot| {
            let name = slot_name(slot);
            let local = format_ident!("{}{}", prefix, name);
            if matches!(slot, Slot::Field(_)) {
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

/// The span of a newtype variant's type.
fn newtype_span(input: &syn::DeriveInput, v: &Variant) -> Span {
    use syn::spanned::Spanned;
    variant_fields(input, &v.name)
        .and_then(|f| f.iter().next())
        .map_or_else(Span::call_site, |f| f.ty.span())
}
