//! Every leaf kind's code (`plan::Leaf`: `bool`, ints, floats, `String`, bytes) for each of
//! the derive's walks: check, encode (to the `Vec` and at a slice cursor), decode, validate,
//! wire equality, sample, and smallest and largest size. `ty.rs` and `slice.rs` keep the
//! containers and references and hand a leaf here, so a new leaf kind is one arm per
//! function of this file.
//!
//! The conventions of the emitted code are those of `ty.rs`: `out` (encode), `buf` and `p`
//! (encode at a cursor), `r` (decode), `path` and `issues` (validate), `rng` and `mode`
//! (sample); a value `v` is an expression of type `&T`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use tuplet_schema::ir::IntType;
use tuplet_schema::plan::{Form, Leaf, Quantized};

use super::common::rt;
use super::steps::{Step, Steps};

fn int_prim(it: &IntType) -> TokenStream {
    let ident = syn::Ident::new(it.prim.as_str(), Span::call_site());
    quote!(#ident)
}

fn lit_i128(v: i128) -> TokenStream {
    let lit = proc_macro2::Literal::i128_unsuffixed(v);
    quote!(#lit)
}

/// The leaf's one check of `v` as a call returning `Result<_, Error>`; none when the leaf
/// has no constraints.
fn check_call(leaf: Leaf, v: &TokenStream) -> Option<TokenStream> {
    let rt = rt();
    match leaf {
        Leaf::Int(it) if it.needs_check() => {
            let (min, max) = it.bounds();
            let (min, max) = (lit_i128(min), lit_i128(max));
            Some(quote!(#rt::check_int(*#v as i128, #min, #max)))
        }
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { scale, qmin, qmax }) => {
                Some(quote!(#rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)))
            }
            None => {
                let (min, max) = ft.value_bounds();
                let f = if ft.bits == 32 {
                    quote!(check_f32)
                } else {
                    quote!(check_f64)
                };
                Some(quote!(#rt::#f(*#v, #min, #max)))
            }
        },
        Leaf::String(len) | Leaf::Bytes(len) if !len.is_unbounded() => {
            let (min, max) = len.bounds();
            Some(quote!(#rt::check_len(#v.len(), #min, #max, "bytes")))
        }
        Leaf::Bool | Leaf::Int(_) | Leaf::String(_) | Leaf::Bytes(_) => None,
    }
}

/// Statements that check `v` against the leaf's constraints, returning the first error
/// with `?`; empty when it has none.
pub fn check(leaf: Leaf, v: &TokenStream) -> TokenStream {
    match check_call(leaf, v) {
        Some(call) => quote!(#call?;),
        None => TokenStream::new(),
    }
}

/// Statements appending `v` in `form` to `out`.
pub fn encode(leaf: Leaf, v: &TokenStream, form: Form) -> TokenStream {
    let rt = rt();
    match leaf {
        Leaf::Bool => quote!(#rt::write::bool(out, *#v);),
        Leaf::Int(it) => {
            let check = check(leaf, v);
            if it.prim.signed() {
                quote!(#check #rt::write::int(out, *#v as i64);)
            } else {
                quote!(#check #rt::write::uint(out, *#v as u64);)
            }
        }
        Leaf::Float(ft) => match (ft.quantized(), form) {
            (Some(Quantized { scale, qmin, qmax }), Form::Compact) => quote!(
                #rt::write::int(out, #rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?);
            ),
            (Some(Quantized { scale, qmin, qmax }), Form::Named) => quote!(
                #rt::write::f64(out, #rt::quant::dequantize_f64(
                    #rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?, #scale));
            ),
            (None, _) => {
                let check = check(leaf, v);
                if ft.bits == 32 {
                    quote!(#check #rt::write::f32(out, *#v);)
                } else {
                    quote!(#check #rt::write::f64(out, *#v);)
                }
            }
        },
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            quote!(#rt::check_len(#v.len(), #min, #max, "bytes")?; #rt::write::str(out, #v);)
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            quote!(#rt::check_len(#v.len(), #min, #max, "bytes")?; #rt::write::bin(out, #v);)
        }
    }
}

/// Statements writing the int expression `v` (an `i64`, or a `u64` when `max` is beyond
/// `i64`) known to lie in `min..=max` at the cursor `p`.
fn put_int(min: i128, max: i128, v: TokenStream) -> TokenStream {
    let rt = rt();
    if max > i64::MAX as i128 {
        return quote!(p = #rt::put::uint(buf, p, #v as u64););
    }
    let (min, max) = (min as i64, max as i64);
    quote!(p = #rt::put::int_within(buf, p, #v as i64, #min, #max);)
}

/// Statements writing `v` in the compact form at the cursor `p` of `buf`, advancing `p`
/// (the checks of [`encode`], in the same order).
pub fn encode_at(leaf: Leaf, v: &TokenStream) -> TokenStream {
    let rt = rt();
    match leaf {
        Leaf::Bool => quote!(p = #rt::put::bool(buf, p, *#v);),
        Leaf::Int(it) => {
            let check = check(leaf, v);
            let (min, max) = it.bounds();
            let put = put_int(min, max, quote!(*#v));
            quote!(#check #put)
        }
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { scale, qmin, qmax }) => put_int(
                qmin.into(),
                qmax.into(),
                quote!(#rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?),
            ),
            None => {
                let check = check(leaf, v);
                let f = if ft.bits == 32 {
                    quote!(f32)
                } else {
                    quote!(f64)
                };
                quote!(#check p = #rt::put::#f(buf, p, *#v);)
            }
        },
        Leaf::String(_) => {
            let check = check(leaf, v);
            quote!(#check p = #rt::put::str(buf, p, #v);)
        }
        Leaf::Bytes(_) => {
            let check = check(leaf, v);
            quote!(#check p = #rt::put::bin(buf, p, #v);)
        }
    }
}

/// An expression reading one value of the leaf in `form` from `r`; an error leaves with
/// the path steps `steps`.
pub fn decode(leaf: Leaf, form: Form, steps: &Steps) -> TokenStream {
    let rt = rt();
    let t = |res: TokenStream| steps.try_(res);
    match leaf {
        Leaf::Bool => t(quote!(r.read_bool())),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            let prim = int_prim(it);
            if max <= i64::MAX as i128 {
                let (min, max) = (min as i64, max as i64);
                let read = t(quote!(r.read_int_within(#min, #max)));
                quote!((#read as #prim))
            } else {
                let (min, max) = (min as u64, max as u64);
                let read = t(quote!(r.read_u64(#min, #max)));
                quote!((#read as #prim))
            }
        }
        Leaf::Float(ft) => {
            let deq = if ft.bits == 32 {
                quote!(dequantize_f32)
            } else {
                quote!(dequantize_f64)
            };
            match (ft.quantized(), form) {
                (Some(Quantized { scale, qmin, qmax }), Form::Compact) => {
                    let read = t(quote!(r.read_int_within(#qmin, #qmax)));
                    quote!(#rt::quant::#deq(#read, #scale))
                }
                (Some(Quantized { scale, qmin, qmax }), Form::Named) => {
                    let read = t(quote!(r.read_f64()));
                    let q = t(quote!(#rt::quant::quantize(#read, #scale, #qmin, #qmax)));
                    quote!(#rt::quant::#deq(#q, #scale))
                }
                (None, _) => {
                    let read = if ft.bits == 32 {
                        t(quote!(r.read_f32()))
                    } else {
                        t(quote!(r.read_f64()))
                    };
                    match check_call(leaf, &quote!(&x)) {
                        Some(call) if ft.range.is_some() => {
                            let check = t(call);
                            quote!({ let x = #read; #check; x })
                        }
                        _ => read,
                    }
                }
            }
        }
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            let read = t(quote!(r.read_str(#min, #max)));
            quote!(::std::string::String::from(#read))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            let read = t(quote!(r.read_bin(#min, #max)));
            quote!((#read).to_vec())
        }
    }
}

/// Statements pushing the leaf's issue, if any, at `path`.
pub fn validate(leaf: Leaf, v: &TokenStream) -> TokenStream {
    let rt = rt();
    match check_call(leaf, v) {
        Some(call) => quote!(#rt::issue_here(path, issues, #call);),
        None => TokenStream::new(),
    }
}

/// As [`validate`], with the path step `step` added to the issue's path only when there is
/// one: no push and pop of the step per value.
pub fn validate_under(leaf: Leaf, v: &TokenStream, step: &Step) -> TokenStream {
    match check_call(leaf, v) {
        Some(call) => step.issue(call),
        None => TokenStream::new(),
    }
}

/// A bool expression: whether `a` and `b` encode identically.
pub fn wire_eq(leaf: Leaf, a: &TokenStream, b: &TokenStream) -> TokenStream {
    let rt = rt();
    match leaf {
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { scale, .. }) => {
                quote!(#rt::q_of(*#a as f64, #scale) == #rt::q_of(*#b as f64, #scale))
            }
            None => quote!(#a.to_bits() == #b.to_bits()),
        },
        Leaf::Bool | Leaf::Int(_) | Leaf::String(_) | Leaf::Bytes(_) => quote!(#a == #b),
    }
}

/// An expression producing a valid value for `rng` and `mode`.
pub fn sample(leaf: Leaf) -> TokenStream {
    let rt = rt();
    match leaf {
        Leaf::Bool => quote!((#rt::sample_int(rng, mode, 0, 1) == 1)),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            let (min, max) = (lit_i128(min), lit_i128(max));
            let prim = int_prim(it);
            quote!((#rt::sample_int(rng, mode, #min, #max) as #prim))
        }
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { scale, qmin, qmax }) => {
                let deq = if ft.bits == 32 {
                    quote!(dequantize_f32)
                } else {
                    quote!(dequantize_f64)
                };
                quote!(#rt::quant::#deq(#rt::sample_q(rng, mode, #qmin, #qmax), #scale))
            }
            None => {
                let (min, max) = ft.value_bounds();
                if ft.bits == 32 {
                    quote!(#rt::sample_f32(rng, mode, #min, #max))
                } else {
                    quote!(#rt::sample_f64(rng, mode, #min, #max))
                }
            }
        },
        Leaf::String(len) => {
            let (min, max) = len.bounds();
            quote!(#rt::sample_string(rng, mode, #min, #max))
        }
        Leaf::Bytes(len) => {
            let (min, max) = len.bounds();
            quote!(#rt::sample_bytes(rng, mode, #min, #max))
        }
    }
}

/// A const `usize` expression: the fewest bytes any encoding takes, in either shape (the
/// plan's `Leaf::least_size`).
pub fn min_size(leaf: Leaf) -> TokenStream {
    let n = proc_macro2::Literal::usize_unsuffixed(leaf.least_size());
    quote!(#n)
}

/// A const expression of type `Option<usize>`: the largest compact encoding (the plan's
/// `Leaf::max_size`, written as the runtime's const fns compute it).
pub fn max_size(leaf: Leaf) -> TokenStream {
    let rt = rt();
    match leaf {
        Leaf::Bool => quote!(Some(1)),
        Leaf::Int(it) => {
            let (min, max) = it.bounds();
            let (min, max) = (lit_i128(min), lit_i128(max));
            quote!(Some(#rt::int_size(#min, #max)))
        }
        Leaf::Float(ft) => match ft.quantized() {
            Some(Quantized { qmin, qmax, .. }) => {
                quote!(Some(#rt::int_size(#qmin as i128, #qmax as i128)))
            }
            None if ft.bits == 32 => quote!(Some(5)),
            None => quote!(Some(9)),
        },
        Leaf::String(len) => match len.max {
            Some(max) => {
                let max = max as usize;
                quote!(Some(#rt::str_header(#max) + #max))
            }
            None => quote!(None),
        },
        Leaf::Bytes(len) => match len.max {
            Some(max) => {
                let max = max as usize;
                quote!(Some(#rt::bin_header(#max) + #max))
            }
            None => quote!(None),
        },
    }
}
