//! `syn::Type` -> `ir::TypeRef`. Every type tuplet cannot put on the wire is rejected at the
//! type, with the fix in the message.

use quote::ToTokens;
use syn::{GenericArgument, Path, PathArguments, Type};

use crate::ir::{Len, TypeRef};
use crate::plan::Node;

/// Whether `ty` is the reserved-slot placeholder: `Reserved` or `tuplet::Reserved`.
pub(crate) fn is_reserved(ty: &Type) -> bool {
    let Type::Path(tp) = ungroup(ty) else {
        return false;
    };
    let segs: Vec<String> = tp
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    tp.qself.is_none()
        && tp.path.segments.iter().all(|s| s.arguments.is_none())
        && matches!(
            segs.iter().map(String::as_str).collect::<Vec<_>>()[..],
            ["Reserved"] | ["tuplet", "Reserved"]
        )
}

/// The IR of a field's type, constraints unset.
pub(crate) fn type_ref(ty: &Type) -> syn::Result<TypeRef> {
    match ungroup(ty) {
        Type::Path(tp) if tp.qself.is_none() => path(ty, &tp.path),
        Type::Array(arr) => {
            let len = match &arr.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<u32>()?,
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        "an array length must be an integer literal (`[f32; 3]`)",
                    ))
                }
            };
            Ok(TypeRef::Array {
                inner: Box::new(type_ref(&arr.elem)?),
                len,
            })
        }
        Type::Tuple(t) if t.elems.is_empty() => {
            Err(reject(ty, "`()` has no wire form; drop the field"))
        }
        Type::Tuple(_) => Err(reject(
            ty,
            "tuples are not supported; use a struct with `#[derive(tuplet::Record)]`",
        )),
        Type::Reference(_) => Err(reject(
            ty,
            "references are not supported; use an owned type (`String`, `Vec<T>`)",
        )),
        Type::Slice(_) => Err(reject(ty, "slices are not supported; use `Vec<T>`")),
        _ => Err(reject(
            ty,
            "unsupported type; see ATTRIBUTES.md for the types tuplet puts on the wire",
        )),
    }
}

fn path(ty: &Type, p: &Path) -> syn::Result<TypeRef> {
    if is_reserved(ty) {
        return Err(reject(
            ty,
            "`tuplet::Reserved` is only valid as a whole field type, with `#[tuplet(reserved = \"...\")]`",
        ));
    }
    let Some(name) = std_name(p) else {
        return named(ty, p);
    };
    let last = p.segments.last().expect("a path has a segment");
    let args = generic_types(last);
    let name = name.as_str();
    let idents: Vec<Option<String>> = args.iter().map(|a| ident(a)).collect();
    let idents: Vec<Option<&str>> = idents.iter().map(Option::as_deref).collect();
    if let Some(leaf) = TypeRef::leaf_from_rust(name, &idents) {
        return leaf.map_err(|message| reject(ty, message));
    }
    match (name, &args[..]) {
        ("Vec", [inner]) => Ok(TypeRef::Vec {
            inner: Box::new(type_ref(inner)?),
            len: Len::default(),
        }),
        ("Option", [inner]) => {
            if let Type::Path(tp) = ungroup(inner) {
                if std_name(&tp.path).as_deref() == Some("Option") {
                    return Err(reject(
                        ty,
                        "`Option<Option<T>>` cannot tell its two absences apart on the wire; \
                         use an enum with an explicit variant for each case",
                    ));
                }
            }
            Ok(TypeRef::Option {
                inner: Box::new(type_ref(inner)?),
            })
        }
        ("BTreeMap", [k, v]) => {
            let key = type_ref(k)?;
            if !matches!(key, TypeRef::String { .. } | TypeRef::Int(_)) {
                return Err(reject(k, "map keys must be `String` or an int type"));
            }
            Ok(TypeRef::Map {
                key: Box::new(key),
                value: Box::new(type_ref(v)?),
                len: Len::default(),
            })
        }
        ("usize" | "isize", _) => Err(reject(
            ty,
            "`usize`/`isize` have no fixed wire width; use an explicit width (`u32`, `u64`, `i32`...)",
        )),
        ("u128" | "i128", _) => Err(reject(
            ty,
            "128-bit ints are not supported; use `u64`/`i64` (with `#[tuplet(bigint)]` for the full 64-bit range)",
        )),
        ("char", _) => Err(reject(
            ty,
            "`char` is not supported; use `String` with `#[tuplet(len(max = 4))]`",
        )),
        ("str", _) => Err(reject(ty, "`str` is not supported; use `String`")),
        ("HashMap", _) => Err(reject(
            ty,
            "`HashMap` has no stable order; use `BTreeMap` (encoded in key order)",
        )),
        ("HashSet" | "BTreeSet" | "VecDeque" | "LinkedList" | "BinaryHeap", _) => Err(reject(
            ty,
            format!("`{name}` is not supported; use `Vec<T>`"),
        )),
        ("Box" | "Rc" | "Arc" | "Cow" | "Cell" | "RefCell", _) => Err(reject(
            ty,
            format!("`{name}<T>` is not supported; use the inner type directly"),
        )),
        ("Vec" | "Option", _) => Err(reject(ty, format!("expected `{name}<T>`"))),
        ("BTreeMap", _) => Err(reject(ty, "expected `BTreeMap<K, V>`")),
        _ => named(ty, p),
    }
}

/// A reference to another tuplet type, by path as written.
fn named(ty: &Type, p: &Path) -> syn::Result<TypeRef> {
    if p.segments.iter().any(|s| !s.arguments.is_none()) {
        return Err(reject(
            ty,
            "generic types are not supported; use a concrete record, enum or flags type",
        ));
    }
    Ok(TypeRef::Named {
        path: p.to_token_stream().to_string().replace(' ', ""),
    })
}

/// The last segment's name when the path can be a primitive or std type: a single segment,
/// or a path through `std`, `alloc` or `core`.
fn std_name(p: &Path) -> Option<String> {
    let first = p.segments.first()?;
    let std = ["std", "alloc", "core"].iter().any(|s| first.ident == s);
    (p.segments.len() == 1 && p.leading_colon.is_none() || std)
        .then(|| p.segments.last().expect("non-empty").ident.to_string())
}

/// The type arguments of a segment (`Vec<T>` -> `[T]`); lifetimes and consts are errors
/// later, as they fit no pattern.
fn generic_types(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A type that is a lone identifier (`u8`), as a string.
fn ident(ty: &Type) -> Option<String> {
    match ungroup(ty) {
        Type::Path(tp) if tp.qself.is_none() => tp.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

fn ungroup(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => ungroup(&g.elem),
        Type::Paren(p) => ungroup(&p.elem),
        _ => ty,
    }
}

fn reject(tokens: impl ToTokens, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new_spanned(tokens, msg)
}

/// A short Rust-like spelling of a type, for error messages (`Vec<String>`, `[f32; 3]`).
pub(crate) fn describe(ty: &TypeRef) -> String {
    match ty.node() {
        Node::Leaf(leaf) => leaf.rust_name(),
        Node::Option { inner } => format!("Option<{}>", describe(inner)),
        Node::Vec { inner, .. } => format!("Vec<{}>", describe(inner)),
        Node::Array { inner, len } => format!("[{}; {len}]", describe(inner)),
        Node::Map { key, value, .. } => {
            format!("BTreeMap<{}, {}>", describe(key), describe(value))
        }
        Node::Named { path } => path.to_owned(),
    }
}
