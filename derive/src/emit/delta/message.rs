//! `impl Delta` for a message declared `delta`: a keyframe (`[seq, nil, ...fields]`) or
//! the changes against the client's baseline (`[seq, mask, ...changed]`), entity lists
//! entity by entity.

use proc_macro2::TokenStream;
use quote::quote;
use tuplet_schema::ir::{Len, Record, TypeRef};

use super::super::members::members_of;
use super::super::record;
use super::super::ty::rt;
use super::mask::{in_field, mask_fields, probe_fn, skip_unknown, MaskField};

/// The element type of a `Vec<Named>` field (a candidate entity list) and its length bounds.
fn list_elem(ty: &TypeRef) -> Option<(TokenStream, &Len)> {
    match ty {
        TypeRef::Vec { inner, len } => match &**inner {
            TypeRef::Named { path } => {
                let p: syn::Type = syn::parse_str(path).unwrap_or_else(|_| syn::parse_quote!(()));
                Some((quote!(#p), len))
            }
            _ => None,
        },
        _ => None,
    }
}

/// What one field of a delta message contributes to `encode_delta` and `apply_delta`.
struct FieldCode {
    /// Statements writing the field's change, if any, against `b` and updating `b`.
    change: TokenStream,
    /// Statements sorting the field's entities in `v` by key (entity lists only).
    sort: Option<TokenStream>,
    /// Statements applying the field's change, if its mask bit is set, to `m`.
    apply: TokenStream,
    /// Statements reading the field's change as a probe does.
    probe: TokenStream,
}

/// A field sent whole when it changed.
fn whole_field(f: &MaskField) -> FieldCode {
    let MaskField {
        bit: m,
        ident: fi,
        eq,
        write: whole,
        apply,
        ..
    } = f;
    let apply = in_field(&f.field.name, apply.clone());
    FieldCode {
        change: quote!(if !(#eq) {
            #whole
            b.#fi = self.#fi.clone();
            mask |= #m;
            count += 1;
        }),
        sort: None,
        apply: quote!(if mask & #m != 0 { #apply }),
        probe: f.probe.clone(),
    }
}

/// A `Vec` of records: entity by entity when the records are entities (`EntityProbe`
/// picks `KeyedList` then), else whole as `whole_field`.
fn list_field(f: &MaskField, t: &TokenStream, len: &Len) -> FieldCode {
    let rt = rt();
    let MaskField {
        bit: m, ident: fi, ..
    } = f;
    let name = &f.field.name;
    let plain = whole_field(f).change;
    let (min, max) = len.bounds();
    let whole = &f.apply;
    let whole_probe = &f.probe;
    let probe = quote!(
        match (&#rt::EntityProbe::<#t>::new()).entities_probe(r) {
            Some(res) => res?,
            None => { #whole_probe }
        }
    );
    let apply = in_field(
        name,
        quote!(
            match (&#rt::EntityProbe::<#t>::new()).entities_apply(&mut m.#fi, r) {
                Some(res) => res?,
                None => { #whole }
            }
            #rt::check_len(m.#fi.len(), #min, #max, "elements")?;
        ),
    );
    FieldCode {
        change: quote!(
            // A delta carries the list's entries, not the list: its length is checked here.
            #rt::check_len(self.#fi.len(), #min, #max, "elements").map_err(|e| e.in_field(#name))?;
            match (&#rt::EntityProbe::<#t>::new()).entities_encode(&self.#fi, &mut b.#fi, out) {
                Some(res) => if res.map_err(|e| e.in_field(#name))? {
                    mask |= #m;
                    count += 1;
                },
                None => #plain
            }
        ),
        sort: Some(quote!(
            if let Some(res) = (&#rt::EntityProbe::<#t>::new()).entities_sort(&mut v.#fi) {
                res.map_err(|e| e.in_field(#name))?;
            }
        )),
        apply: quote!(if mask & #m != 0 { #apply }),
        probe,
    }
}

/// `impl Delta` for a message declared `delta`.
pub fn delta_impl(record: &Record, input: &syn::DeriveInput) -> TokenStream {
    let rt = rt();
    let ty = &input.ident;
    let (fields, known) = mask_fields(record, input, quote!(b), quote!(m));
    let code: Vec<FieldCode> = fields
        .iter()
        .map(|f| match list_elem(&f.field.ty) {
            Some((t, len)) => list_field(f, &t, len),
            None => whole_field(f),
        })
        .collect();
    let changes: Vec<&TokenStream> = code.iter().map(|c| &c.change).collect();
    let sorts: Vec<&TokenStream> = code.iter().filter_map(|c| c.sort.as_ref()).collect();
    let applies: Vec<&TokenStream> = code.iter().map(|c| &c.apply).collect();
    let members = members_of(record, input, &quote!(v));
    let keyframe = record::encode_compact(
        &members,
        2,
        quote!(#rt::write::uint(out, seq as u64); #rt::write::nil(out);),
    );
    let decode = record::decode_compact(&members, quote!(n - 2), &quote!(Self));
    let encode_delta = encode_delta(&changes, &sorts, &keyframe);
    let apply_delta = apply_delta(&applies, &sorts, &decode, &skip_unknown(known));
    let probes: Vec<(u32, TokenStream)> = fields
        .iter()
        .zip(&code)
        .map(|(f, c)| (f.b, c.probe.clone()))
        .collect();
    let probe = probe_fn(&probes);
    quote!(
        #[automatically_derived]
        impl #rt::Delta for #ty {
            #encode_delta

            #apply_delta

            #probe
        }
    )
}

/// `Delta::encode_delta`: the changes against the baseline, or a keyframe (`[seq, nil,
/// ...fields]`) of the value with its entity lists sorted.
fn encode_delta(
    changes: &[&TokenStream],
    sorts: &[&TokenStream],
    keyframe: &TokenStream,
) -> TokenStream {
    let rt = rt();
    quote!(
        #[cfg_attr(debug_assertions, inline)]
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
                let mut v = #rt::clone_delta(self);
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
    )
}

/// `Delta::apply_delta`: a keyframe replaces the mirror; a delta (`[seq, mask, ...]`)
/// numbered as expected is applied field by field, unknown mask bits skipped.
fn apply_delta(
    applies: &[&TokenStream],
    sorts: &[&TokenStream],
    decode: &TokenStream,
    skip: &TokenStream,
) -> TokenStream {
    let rt = rt();
    quote!(
        #[cfg_attr(debug_assertions, inline)]
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
    )
}
