//! Code for one value of one IR type: encode, decode, validate, wire equality, sample and
//! largest size. Every function returns straight-line Rust for exactly that type; nothing
//! walks a table at run time.
//!
//! Conventions of the emitted code: `out: &mut Vec<u8>` (encode), `r: &mut Reader`
//! (decode), `path: &mut Vec<Seg>` and `issues: &mut Vec<Issue>` (validate), `rng` and
//! `mode` (sample). A value argument `v` is an expression of type `&T`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use tuplet_schema::ir::{IntType, TypeRef};
pub use tuplet_schema::plan::Form;
use tuplet_schema::plan::Quantized;

/// The private runtime module every emitted path goes through.
pub fn rt() -> TokenStream {
    quote!(::tuplet::__private_0_1)
}

/// Emits code for values of one type; `span` points errors about the type at the field.
pub struct TyGen {
    /// The span of the field's type in the user's source.
    pub span: Span,
}

fn int_prim(it: &IntType) -> TokenStream {
    let ident = syn::Ident::new(it.prim.as_str(), Span::call_site());
    quote!(#ident)
}

fn lit_i128(v: i128) -> TokenStream {
    let lit = proc_macro2::Literal::i128_unsuffixed(v);
    quote!(#lit)
}

impl TyGen {
    /// The referenced type, every token spanned at the field's type so that a missing
    /// `Wire` impl is reported there, not at the derive.
    fn named_path(&self, path: &str) -> TokenStream {
        let p: syn::Type = syn::parse_str(path).unwrap_or_else(|_| syn::parse_quote!(()));
        respan(quote!(#p), self.span)
    }

    pub(super) fn wire_of(&self, path: &str) -> TokenStream {
        let p = self.named_path(path);
        let rt = rt();
        let span = self.span;
        quote_spanned!(span=> <#p as #rt::Wire>)
    }

    /// Statements that check `v` against its constraints, returning the first error with `?`.
    pub fn check(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Int(it) if it.needs_check() => {
                let (min, max) = it.bounds();
                let (min, max) = (lit_i128(min), lit_i128(max));
                quote!(#rt::check_int(*#v as i128, #min, #max)?;)
            }
            TypeRef::Float(ft) => match ft.quantized() {
                Some(Quantized { scale, qmin, qmax }) => {
                    quote!(#rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?;)
                }
                None => {
                    let (min, max) = ft.value_bounds();
                    let f = if ft.bits == 32 {
                        quote!(check_f32)
                    } else {
                        quote!(check_f64)
                    };
                    quote!(#rt::#f(*#v, #min, #max)?;)
                }
            },
            TypeRef::String { len } | TypeRef::Bytes { len } if !len.is_unbounded() => {
                let (min, max) = len.bounds();
                quote!(#rt::check_len(#v.len(), #min, #max, "bytes")?;)
            }
            _ => TokenStream::new(),
        }
    }

    /// Statements appending `v` in `form`.
    pub fn encode(&self, ty: &TypeRef, v: &TokenStream, form: Form) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Bool => quote!(#rt::write::bool(out, *#v);),
            TypeRef::Int(it) => {
                let check = self.check(ty, v);
                if it.prim.signed() {
                    quote!(#check #rt::write::int(out, *#v as i64);)
                } else {
                    quote!(#check #rt::write::uint(out, *#v as u64);)
                }
            }
            TypeRef::Float(ft) => match (ft.quantized(), form) {
                (Some(Quantized { scale, qmin, qmax }), Form::Compact) => quote!(
                    #rt::write::int(out, #rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?);
                ),
                (Some(Quantized { scale, qmin, qmax }), Form::Named) => quote!(
                    #rt::write::f64(out, #rt::quant::dequantize_f64(
                        #rt::quant::quantize(*#v as f64, #scale, #qmin, #qmax)?, #scale));
                ),
                (None, _) => {
                    let check = self.check(ty, v);
                    if ft.bits == 32 {
                        quote!(#check #rt::write::f32(out, *#v);)
                    } else {
                        quote!(#check #rt::write::f64(out, *#v);)
                    }
                }
            },
            TypeRef::String { len } => {
                let (min, max) = len.bounds();
                quote!(#rt::check_len(#v.len(), #min, #max, "bytes")?; #rt::write::str(out, #v);)
            }
            TypeRef::Bytes { len } => {
                let (min, max) = len.bounds();
                quote!(#rt::check_len(#v.len(), #min, #max, "bytes")?; #rt::write::bin(out, #v);)
            }
            TypeRef::Option { inner } => {
                let inner = self.encode(inner, &quote!(x), form);
                quote!(match #v { Some(x) => { #inner } None => #rt::write::nil(out), })
            }
            TypeRef::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.encode(inner, &quote!(x), form);
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "elements")?;
                    #rt::write::array_len(out, #v.len() as u32);
                    for x in #v.iter() { #inner }
                )
            }
            TypeRef::Array { inner, len } => {
                let inner = self.encode(inner, &quote!(x), form);
                quote!(
                    #rt::write::array_len(out, #len);
                    for x in #v.iter() { #inner }
                )
            }
            TypeRef::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.encode(key, &quote!(k), form);
                let x = self.encode(value, &quote!(x), form);
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "entries")?;
                    #rt::write::map_len(out, #v.len() as u32);
                    for (k, x) in #v.iter() { #k #x }
                )
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                match form {
                    Form::Compact => quote!(#w::encode_compact(#v, out)?;),
                    Form::Named => quote!(#w::encode_named(#v, out)?;),
                }
            }
        }
    }

    /// An expression reading one `T` in `form` (errors leave through `?`).
    pub fn decode(&self, ty: &TypeRef, form: Form) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Bool => quote!(r.read_bool()?),
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                let prim = int_prim(it);
                if max <= i64::MAX as i128 {
                    let (min, max) = (min as i64, max as i64);
                    quote!((r.read_int_in::<{ #min }, { #max }>()? as #prim))
                } else {
                    let (min, max) = (min as u64, max as u64);
                    quote!((r.read_u64(#min, #max)? as #prim))
                }
            }
            TypeRef::Float(ft) => {
                let deq = if ft.bits == 32 {
                    quote!(dequantize_f32)
                } else {
                    quote!(dequantize_f64)
                };
                match (ft.quantized(), form) {
                    (Some(Quantized { scale, qmin, qmax }), Form::Compact) => {
                        quote!(#rt::quant::#deq(r.read_int_in::<{ #qmin }, { #qmax }>()?, #scale))
                    }
                    (Some(Quantized { scale, qmin, qmax }), Form::Named) => {
                        quote!(#rt::quant::#deq(
                        #rt::quant::quantize(r.read_f64()?, #scale, #qmin, #qmax)?, #scale))
                    }
                    (None, _) => {
                        let read = if ft.bits == 32 {
                            quote!(r.read_f32()?)
                        } else {
                            quote!(r.read_f64()?)
                        };
                        if ft.range.is_some() {
                            let check = self.check(ty, &quote!(&x));
                            quote!({ let x = #read; #check x })
                        } else {
                            read
                        }
                    }
                }
            }
            TypeRef::String { len } => {
                let (min, max) = len.bounds();
                quote!(::std::string::String::from(r.read_str(#min, #max)?))
            }
            TypeRef::Bytes { len } => {
                let (min, max) = len.bounds();
                quote!(r.read_bin(#min, #max)?.to_vec())
            }
            TypeRef::Option { inner } => {
                let inner = self.decode(inner, form);
                quote!(if r.try_nil()? { None } else { Some(#inner) })
            }
            TypeRef::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let elem = at(quote!(in_index(i)), self.decode(inner, form));
                let least = self.min_size(inner);
                quote!({
                    let n = r.read_array_len()? as usize;
                    #rt::check_len(n, #min, #max, "elements")?;
                    let mut v = #rt::Vec::with_capacity(#rt::capacity(n, r.remaining(), #least));
                    for i in 0..n { v.push(#elem); }
                    r.leave();
                    v
                })
            }
            TypeRef::Array { inner, len } => {
                let elems = (0..*len as usize).map(|i| {
                    let i = proc_macro2::Literal::usize_unsuffixed(i);
                    at(quote!(in_index(#i)), self.decode(inner, form))
                });
                quote!({
                    let n = r.read_array_len()?;
                    if n != #len { return Err(#rt::wrong_length(n, #len)); }
                    let a = [#(#elems),*];
                    r.leave();
                    a
                })
            }
            TypeRef::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.decode(key, form);
                let x = at(quote!(in_key(&k)), self.decode(value, form));
                quote!({
                    let n = r.read_map_len()? as usize;
                    #rt::check_len(n, #min, #max, "entries")?;
                    let mut m = #rt::BTreeMap::new();
                    for _ in 0..n {
                        let k = #k;
                        if m.contains_key(&k) { return Err(#rt::duplicate(&k).in_key(&k)); }
                        let x = #x;
                        m.insert(k, x);
                    }
                    r.leave();
                    m
                })
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::decode(r)?)
            }
        }
    }

    /// Statements pushing every issue of `v` (an `&T`) at `path`.
    pub fn validate(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        let rt = rt();
        let nested = |inner: &TypeRef, seg: TokenStream| {
            let body = self.validate(inner, &quote!(x));
            if body.is_empty() {
                return None;
            }
            Some(quote!(path.push(#seg); #body path.pop();))
        };
        match ty {
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::validate_at(#v, path, issues);)
            }
            TypeRef::Option { inner } => {
                let body = self.validate(inner, &quote!(x));
                if body.is_empty() {
                    body
                } else {
                    quote!(if let Some(x) = #v { #body })
                }
            }
            TypeRef::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let head = quote!(if let Err(e) = #rt::check_len(#v.len(), #min, #max, "elements") {
                    #rt::report(path, issues, e);
                });
                let each = nested(inner, quote!(#rt::Seg::Index(i as u32)));
                let each = each.map(|b| quote!(for (i, x) in #v.iter().enumerate() { #b }));
                if len.is_unbounded() {
                    quote!(#each)
                } else {
                    quote!(#head #each)
                }
            }
            TypeRef::Array { inner, .. } => {
                let each = nested(inner, quote!(#rt::Seg::Index(i as u32)));
                let each = each.map(|b| quote!(for (i, x) in #v.iter().enumerate() { #b }));
                quote!(#each)
            }
            TypeRef::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let head = (!len.is_unbounded()).then(|| {
                    quote!(if let Err(e) = #rt::check_len(#v.len(), #min, #max, "entries") {
                        #rt::report(path, issues, e);
                    })
                });
                // A key's issues (its `key_len`) and its value's, both at the key.
                let (k, x) = (
                    self.validate(key, &quote!(k)),
                    self.validate(value, &quote!(x)),
                );
                let each = (!k.is_empty() || !x.is_empty()).then(|| {
                    let bind = if x.is_empty() { quote!(_) } else { quote!(x) };
                    quote!(for (k, #bind) in #v.iter() {
                        path.push(#rt::Seg::Key(k.to_string())); #k #x path.pop();
                    })
                });
                quote!(#head #each)
            }
            _ => {
                let check = self.check(ty, v);
                if check.is_empty() {
                    return check;
                }
                quote!(if let Err(e) = (|| -> Result<(), #rt::Error> { #check Ok(()) })() {
                    #rt::report(path, issues, e);
                })
            }
        }
    }

    /// A bool expression: whether `a` and `b` (both `&T`) encode identically.
    pub fn wire_eq(&self, ty: &TypeRef, a: &TokenStream, b: &TokenStream) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Float(ft) => match ft.quantized() {
                Some(Quantized { scale, .. }) => {
                    quote!(#rt::q_of(*#a as f64, #scale) == #rt::q_of(*#b as f64, #scale))
                }
                None => quote!(#a.to_bits() == #b.to_bits()),
            },
            TypeRef::Option { inner } => {
                let inner = self.wire_eq(inner, &quote!(x), &quote!(y));
                quote!(match (#a, #b) { (Some(x), Some(y)) => #inner, (None, None) => true, _ => false })
            }
            TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. } => {
                let inner = self.wire_eq(inner, &quote!(x), &quote!(y));
                quote!(#a.len() == #b.len() && #a.iter().zip(#b.iter()).all(|(x, y)| #inner))
            }
            TypeRef::Map { value, .. } => {
                let inner = self.wire_eq(value, &quote!(x), &quote!(y));
                quote!(#a.len() == #b.len()
                    && #a.iter().zip(#b.iter()).all(|((ka, x), (kb, y))| ka == kb && #inner))
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::wire_eq(#a, #b))
            }
            _ => quote!(#a == #b),
        }
    }

    /// An expression producing a valid `T` for `rng` and `mode`.
    pub fn sample(&self, ty: &TypeRef) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Bool => quote!((#rt::sample_int(rng, mode, 0, 1) == 1)),
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                let (min, max) = (lit_i128(min), lit_i128(max));
                let prim = int_prim(it);
                quote!((#rt::sample_int(rng, mode, #min, #max) as #prim))
            }
            TypeRef::Float(ft) => match ft.quantized() {
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
            TypeRef::String { len } => {
                let (min, max) = len.bounds();
                quote!(#rt::sample_string(rng, mode, #min, #max))
            }
            TypeRef::Bytes { len } => {
                let (min, max) = len.bounds();
                quote!(#rt::sample_bytes(rng, mode, #min, #max))
            }
            TypeRef::Option { inner } => {
                let inner = self.sample(inner);
                quote!(if #rt::sample_present(rng, mode) { Some(#inner) } else { None })
            }
            TypeRef::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.sample(inner);
                quote!({
                    let n = #rt::sample_len(rng, mode, #min, #max);
                    let mut v = #rt::Vec::with_capacity(n);
                    for _ in 0..n { v.push(#inner); }
                    v
                })
            }
            TypeRef::Array { inner, .. } => {
                let inner = self.sample(inner);
                quote!(::core::array::from_fn(|_| #inner))
            }
            TypeRef::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.sample(key);
                let x = self.sample(value);
                quote!({
                    let n = #rt::sample_len(rng, mode, #min, #max);
                    let mut m = #rt::BTreeMap::new();
                    let mut tries = 0usize;
                    while m.len() < n && tries < 8 * n + 8 {
                        tries += 1;
                        let k = { let mode = #rt::SampleMode::Random; #k };
                        let x = #x;
                        m.insert(k, x);
                    }
                    m
                })
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::sample(rng, mode))
            }
        }
    }

    /// A const `usize` expression: the fewest bytes any encoding of a `T` takes, in either
    /// shape (`tuplet_schema::heap::Heap::least` computes the same from the IR).
    pub fn min_size(&self, ty: &TypeRef) -> TokenStream {
        use tuplet_schema::sizes::{bin_header, container_header, str_header};
        let lit = |n: usize| {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            quote!(#n)
        };
        let min = |len: &tuplet_schema::ir::Len| len.min.unwrap_or(0) as usize;
        match ty {
            TypeRef::String { len } => lit(str_header(min(len)) + min(len)),
            TypeRef::Bytes { len } => lit(bin_header(min(len)) + min(len)),
            TypeRef::Vec { len, .. } | TypeRef::Map { len, .. } if min(len) == 0 => lit(1),
            TypeRef::Vec { inner, len } => {
                let (h, n, inner) = (container_header(min(len)), min(len), self.min_size(inner));
                quote!((#h + #n * #inner))
            }
            TypeRef::Array { inner, len } => {
                let n = *len as usize;
                let (h, inner) = (container_header(n), self.min_size(inner));
                quote!((#h + #n * #inner))
            }
            TypeRef::Map { key, value, len } => {
                let (h, n) = (container_header(min(len)), min(len));
                let (k, v) = (self.min_size(key), self.min_size(value));
                quote!((#h + #n * (#k + #v)))
            }
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::MIN_SIZE)
            }
            TypeRef::Bool | TypeRef::Int(_) | TypeRef::Float(_) | TypeRef::Option { .. } => lit(1),
        }
    }

    /// A const expression of type `Option<usize>`: the largest compact encoding.
    pub fn max_size(&self, ty: &TypeRef) -> TokenStream {
        let rt = rt();
        match ty {
            TypeRef::Bool => quote!(Some(1)),
            TypeRef::Int(it) => {
                let (min, max) = it.bounds();
                let (min, max) = (lit_i128(min), lit_i128(max));
                quote!(Some(#rt::int_size(#min, #max)))
            }
            TypeRef::Float(ft) => match ft.quantized() {
                Some(Quantized { qmin, qmax, .. }) => {
                    quote!(Some(#rt::int_size(#qmin as i128, #qmax as i128)))
                }
                None if ft.bits == 32 => quote!(Some(5)),
                None => quote!(Some(9)),
            },
            TypeRef::String { len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    quote!(Some(#rt::str_header(#max) + #max))
                }
                None => quote!(None),
            },
            TypeRef::Bytes { len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    quote!(Some(#rt::bin_header(#max) + #max))
                }
                None => quote!(None),
            },
            TypeRef::Option { inner } => {
                let inner = self.max_size(inner);
                quote!(#rt::size_max(Some(1), #inner))
            }
            TypeRef::Vec { inner, len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    let inner = self.max_size(inner);
                    quote!(#rt::size_add(Some(#rt::container_header(#max)), #rt::size_mul(#inner, #max)))
                }
                None => quote!(None),
            },
            TypeRef::Array { inner, len } => {
                let n = *len as usize;
                let inner = self.max_size(inner);
                quote!(#rt::size_add(Some(#rt::container_header(#n)), #rt::size_mul(#inner, #n)))
            }
            TypeRef::Map { key, value, len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    let k = self.max_size(key);
                    let x = self.max_size(value);
                    quote!(#rt::size_add(Some(#rt::container_header(#max)),
                        #rt::size_mul(#rt::size_add(#k, #x), #max)))
                }
                None => quote!(None),
            },
            TypeRef::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::MAX_SIZE)
            }
        }
    }
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = proc_macro2::TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// Wraps a decode expression so an error leaving it gains a path step (`in_index(i)`...).
pub fn at(step: TokenStream, expr: TokenStream) -> TokenStream {
    let rt = rt();
    quote!({
        let res: Result<_, #rt::Error> = (|| Ok(#expr))();
        match res { Ok(x) => x, Err(e) => return Err(e.#step) }
    })
}

/// A readable Rust spelling of an IR type, for field tables.
pub fn rust_name(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Bool => "bool".into(),
        TypeRef::Int(it) => it.prim.as_str().into(),
        TypeRef::Float(ft) => format!("f{}", ft.bits),
        TypeRef::String { .. } => "String".into(),
        TypeRef::Bytes { .. } => "Vec<u8>".into(),
        TypeRef::Option { inner } => format!("Option<{}>", rust_name(inner)),
        TypeRef::Vec { inner, .. } => format!("Vec<{}>", rust_name(inner)),
        TypeRef::Array { inner, len } => format!("[{}; {len}]", rust_name(inner)),
        TypeRef::Map { key, value, .. } => {
            format!("BTreeMap<{}, {}>", rust_name(key), rust_name(value))
        }
        TypeRef::Named { path } => path.clone(),
    }
}
