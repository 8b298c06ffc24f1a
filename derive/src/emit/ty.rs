//! Code for one value of one IR type: encode, decode, validate, wire equality, sample and
//! largest size. Every function returns straight-line Rust for exactly that type; nothing
//! walks a table at run time. The functions here walk the containers and references
//! (`TypeRef::node`); a leaf's code, for every walk, is in `leaf.rs`.
//!
//! Conventions of the emitted code: `out: &mut Vec<u8>` (encode), `r: &mut Reader`
//! (decode), `path: &mut Vec<Seg>` and `issues: &mut Vec<Issue>` (validate), `rng` and
//! `mode` (sample). A value argument `v` is an expression of type `&T`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use tuplet_schema::ir::TypeRef;
pub use tuplet_schema::plan::Form;
use tuplet_schema::plan::Node;

pub use super::common::rt;
use super::leaf;
pub use super::steps::{Step, Steps};

/// Emits code for values of one type; `span` points errors about the type at the field.
pub struct TyGen {
    /// The span of the field's type in the user's source.
    pub span: Span,
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

    /// Statements that check `v` against its constraints, returning the first error with `?`
    /// (a leaf's, `leaf::check`; nothing for a container or a reference).
    pub fn check(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        match ty.leaf() {
            Some(l) => leaf::check(l, v),
            None => TokenStream::new(),
        }
    }

    /// Statements appending `v` in `form`.
    pub fn encode(&self, ty: &TypeRef, v: &TokenStream, form: Form) -> TokenStream {
        let rt = rt();
        match ty.node() {
            Node::Leaf(l) => leaf::encode(l, v, form),
            Node::Option { inner } => {
                let inner = self.encode(inner, &quote!(x), form);
                quote!(match #v { Some(x) => { #inner } None => #rt::write::nil(out), })
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.encode(inner, &quote!(x), form);
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "elements")?;
                    #rt::write::array_len(out, #v.len() as u32);
                    for x in #v.iter() { #inner }
                )
            }
            Node::Array { inner, len } => {
                let inner = self.encode(inner, &quote!(x), form);
                quote!(
                    #rt::write::array_len(out, #len);
                    for x in #v.iter() { #inner }
                )
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = self.encode(key, &quote!(k), form);
                let x = self.encode(value, &quote!(x), form);
                quote!(
                    #rt::check_len(#v.len(), #min, #max, "entries")?;
                    #rt::write::map_len(out, #v.len() as u32);
                    for (k, x) in #v.iter() { #k #x }
                )
            }
            Node::Named { path } => {
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
        self.decode_in(ty, form, &Steps::default())
    }

    /// An expression reading one `T` in `form`; an error leaves it with the path steps
    /// `steps` added (each fallible read returns it so, no closure catches it).
    pub fn decode_in(&self, ty: &TypeRef, form: Form, steps: &Steps) -> TokenStream {
        let rt = rt();
        match ty.node() {
            Node::Leaf(l) => leaf::decode(l, form, steps),
            Node::Option { inner } => {
                let inner = self.decode_in(inner, form, steps);
                let nil = steps.try_(quote!(r.try_nil()));
                quote!(if #nil { None } else { Some(#inner) })
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let i = format_ident!("i{}", steps.depth());
                let elem = self.decode_in(inner, form, &steps.within(quote!(in_index(#i))));
                let least = self.min_size(inner);
                let n = steps.try_(quote!(r.read_array_len()));
                let check = steps.try_(quote!(#rt::check_len(n, #min, #max, "elements")));
                quote!({
                    let n = #n as usize;
                    #check;
                    let mut v = #rt::Vec::with_capacity(#rt::capacity(n, r.remaining(), #least));
                    for #i in 0..n { v.push(#elem); }
                    r.leave();
                    v
                })
            }
            Node::Array { inner, len } => {
                let elems = (0..len as usize).map(|i| {
                    let i = proc_macro2::Literal::usize_unsuffixed(i);
                    self.decode_in(inner, form, &steps.within(quote!(in_index(#i))))
                });
                let n = steps.try_(quote!(r.read_array_len()));
                let wrong = steps.fail(quote!(#rt::wrong_length(n, #len)));
                let array = if len == 0 {
                    // No element to read. `[]` alone has no element type where nothing else
                    // fixes it (a delta probe discards the value), so the element's decoder,
                    // never run, gives it one.
                    let elem = self.decode_in(inner, form, &steps.within(quote!(in_index(0))));
                    quote!(if true { [] } else { [#elem; 0] })
                } else {
                    quote!([#(#elems),*])
                };
                quote!({
                    let n = #n;
                    if n != #len { #wrong }
                    let a = #array;
                    r.leave();
                    a
                })
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let k = format_ident!("k{}", steps.depth());
                let read_k = self.decode_in(key, form, steps);
                let x = self.decode_in(value, form, &steps.within(quote!(in_key(&#k))));
                let n = steps.try_(quote!(r.read_map_len()));
                let check = steps.try_(quote!(#rt::check_len(n, #min, #max, "entries")));
                let dup = steps.fail(quote!(#rt::duplicate(&#k).in_key(&#k)));
                quote!({
                    let n = #n as usize;
                    #check;
                    let mut m = #rt::BTreeMap::new();
                    for _ in 0..n {
                        let #k = #read_k;
                        if m.contains_key(&#k) { #dup }
                        let x = #x;
                        m.insert(#k, x);
                    }
                    r.leave();
                    m
                })
            }
            Node::Named { path } => {
                let w = self.wire_of(path);
                steps.try_(quote!(#w::decode(r)))
            }
        }
    }

    /// Statements pushing every issue of `v` (an `&T`) at `path`.
    pub fn validate(&self, ty: &TypeRef, v: &TokenStream) -> TokenStream {
        let rt = rt();
        let nested = |inner: &TypeRef, step: Step| {
            let body = self.validate_under(inner, &quote!(x), &step);
            (!body.is_empty()).then_some(body)
        };
        match ty.node() {
            Node::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::validate_at(#v, path, issues);)
            }
            Node::Option { inner } => {
                let body = self.validate(inner, &quote!(x));
                if body.is_empty() {
                    body
                } else {
                    quote!(if let Some(x) = #v { #body })
                }
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let check = quote!(#rt::check_len(#v.len(), #min, #max, "elements"));
                let head = quote!(#rt::issue_here(path, issues, #check););
                let each = nested(inner, Step::Index(quote!(i)));
                let each = each.map(|b| quote!(for (i, x) in #v.iter().enumerate() { #b }));
                if len.is_unbounded() {
                    quote!(#each)
                } else {
                    quote!(#head #each)
                }
            }
            Node::Array { inner, .. } => {
                let each = nested(inner, Step::Index(quote!(i)));
                let each = each.map(|b| quote!(for (i, x) in #v.iter().enumerate() { #b }));
                quote!(#each)
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let head = (!len.is_unbounded()).then(|| {
                    let check = quote!(#rt::check_len(#v.len(), #min, #max, "entries"));
                    quote!(#rt::issue_here(path, issues, #check);)
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
            Node::Leaf(l) => leaf::validate(l, v),
        }
    }

    /// Statements pushing every issue of `v` (an `&T`) at `path` plus the step `step`. A
    /// leaf, or an optional one, adds the step only to an issue (`issue_at_field`,
    /// `issue_at_index`); other types push it around their checks.
    pub fn validate_under(&self, ty: &TypeRef, v: &TokenStream, step: &Step) -> TokenStream {
        match ty.node() {
            Node::Leaf(l) => leaf::validate_under(l, v, step),
            Node::Option { inner } if inner.leaf().is_some() => {
                let body = self.validate_under(inner, &quote!(x), step);
                if body.is_empty() {
                    body
                } else {
                    quote!(if let Some(x) = #v { #body })
                }
            }
            _ => {
                let body = self.validate(ty, v);
                if body.is_empty() {
                    body
                } else {
                    let seg = step.seg();
                    quote!(path.push(#seg); #body path.pop();)
                }
            }
        }
    }

    /// A bool expression: whether `a` and `b` (both `&T`) encode identically.
    pub fn wire_eq(&self, ty: &TypeRef, a: &TokenStream, b: &TokenStream) -> TokenStream {
        match ty.node() {
            Node::Leaf(l) => leaf::wire_eq(l, a, b),
            Node::Option { inner } => {
                let inner = self.wire_eq(inner, &quote!(x), &quote!(y));
                quote!(match (#a, #b) { (Some(x), Some(y)) => #inner, (None, None) => true, _ => false })
            }
            // Plain loops, not `Iterator::all`: its closure would instantiate `all` and
            // `try_fold` once per field.
            Node::Vec { inner, .. } | Node::Array { inner, .. } => {
                let inner = self.wire_eq(inner, &quote!(x), &quote!(y));
                quote!(#a.len() == #b.len() && {
                    let mut eq = true;
                    for (x, y) in #a.iter().zip(#b.iter()) {
                        if !(#inner) { eq = false; break; }
                    }
                    eq
                })
            }
            Node::Map { value, .. } => {
                let inner = self.wire_eq(value, &quote!(x), &quote!(y));
                quote!(#a.len() == #b.len() && {
                    let mut eq = true;
                    for ((ka, x), (kb, y)) in #a.iter().zip(#b.iter()) {
                        if !(ka == kb && #inner) { eq = false; break; }
                    }
                    eq
                })
            }
            Node::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::wire_eq(#a, #b))
            }
        }
    }

    /// An expression producing a valid `T` for `rng` and `mode`.
    pub fn sample(&self, ty: &TypeRef) -> TokenStream {
        let rt = rt();
        match ty.node() {
            Node::Leaf(l) => leaf::sample(l),
            Node::Option { inner } => {
                let inner = self.sample(inner);
                quote!(if #rt::sample_present(rng, mode) { Some(#inner) } else { None })
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let inner = self.sample(inner);
                quote!({
                    let n = #rt::sample_len(rng, mode, #min, #max);
                    let mut v = #rt::Vec::with_capacity(n);
                    for _ in 0..n { v.push(#inner); }
                    v
                })
            }
            Node::Array { inner, .. } => {
                let inner = self.sample(inner);
                quote!(::core::array::from_fn(|_| #inner))
            }
            Node::Map { key, value, len } => {
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
            Node::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::sample(rng, mode))
            }
        }
    }

    /// A const `usize` expression: the fewest bytes any encoding of a `T` takes, in either
    /// shape (`tuplet_schema::heap::Heap::least` computes the same from the IR).
    pub fn min_size(&self, ty: &TypeRef) -> TokenStream {
        use tuplet_schema::sizes::container_header;
        let lit = |n: usize| {
            let n = proc_macro2::Literal::usize_unsuffixed(n);
            quote!(#n)
        };
        let min = |len: &tuplet_schema::ir::Len| len.min.unwrap_or(0) as usize;
        match ty.node() {
            Node::Leaf(l) => leaf::min_size(l),
            Node::Vec { len, .. } | Node::Map { len, .. } if min(len) == 0 => lit(1),
            Node::Vec { inner, len } => {
                let (h, n, inner) = (container_header(min(len)), min(len), self.min_size(inner));
                quote!((#h + #n * #inner))
            }
            Node::Array { inner, len } => {
                let n = len as usize;
                let (h, inner) = (container_header(n), self.min_size(inner));
                quote!((#h + #n * #inner))
            }
            Node::Map { key, value, len } => {
                let (h, n) = (container_header(min(len)), min(len));
                let (k, v) = (self.min_size(key), self.min_size(value));
                quote!((#h + #n * (#k + #v)))
            }
            Node::Named { path } => {
                let w = self.wire_of(path);
                quote!(#w::MIN_SIZE)
            }
            Node::Option { .. } => lit(1),
        }
    }

    /// A const expression of type `Option<usize>`: the largest compact encoding.
    pub fn max_size(&self, ty: &TypeRef) -> TokenStream {
        let rt = rt();
        match ty.node() {
            Node::Leaf(l) => leaf::max_size(l),
            Node::Option { inner } => {
                let inner = self.max_size(inner);
                quote!(#rt::size_max(Some(1), #inner))
            }
            Node::Vec { inner, len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    let inner = self.max_size(inner);
                    quote!(#rt::size_add(Some(#rt::container_header(#max)), #rt::size_mul(#inner, #max)))
                }
                None => quote!(None),
            },
            Node::Array { inner, len } => {
                let n = len as usize;
                let inner = self.max_size(inner);
                quote!(#rt::size_add(Some(#rt::container_header(#n)), #rt::size_mul(#inner, #n)))
            }
            Node::Map { key, value, len } => match len.max {
                Some(max) => {
                    let max = max as usize;
                    let k = self.max_size(key);
                    let x = self.max_size(value);
                    quote!(#rt::size_add(Some(#rt::container_header(#max)),
                        #rt::size_mul(#rt::size_add(#k, #x), #max)))
                }
                None => quote!(None),
            },
            Node::Named { path } => {
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
    match ty.node() {
        Node::Leaf(l) => l.rust_name(),
        Node::Option { inner } => format!("Option<{}>", rust_name(inner)),
        Node::Vec { inner, .. } => format!("Vec<{}>", rust_name(inner)),
        Node::Array { inner, len } => format!("[{}; {len}]", rust_name(inner)),
        Node::Map { key, value, .. } => {
            format!("BTreeMap<{}, {}>", rust_name(key), rust_name(value))
        }
        Node::Named { path } => path.to_owned(),
    }
}
