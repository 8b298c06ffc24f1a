//! The leaf kinds of the type tree (a value with no type inside it: `bool`, ints, floats,
//! `String`, bytes) and what the schema crate knows about each: its Rust spelling, its
//! encoded size bounds, its Rust layout and the heap its decoder allocates.
//!
//! A back end walks a type through [`TypeRef::node`]: one arm per container kind and one
//! [`Node::Leaf`] arm that hands the leaf to the back end's per-kind code. A new leaf kind is
//! a variant of `TypeRef`, a variant of [`Leaf`] with its arms in this file, and one file
//! per back end.

use super::encoded::{bin_header, int_max, int_min, str_header};
use crate::ir::{FloatType, IntPrim, IntType, Len, TypeRef};

/// A leaf of the type tree, borrowed from its `TypeRef`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leaf<'a> {
    /// `bool`.
    Bool,
    /// Any integer width.
    Int(&'a IntType),
    /// `f32` or `f64`, raw or quantized.
    Float(&'a FloatType),
    /// `String`, with its byte-length bounds.
    String(&'a Len),
    /// `Vec<u8>` (msgpack bin), with its length bounds.
    Bytes(&'a Len),
}

/// A type split into a leaf and the container kinds that hold other types.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Node<'a> {
    /// A leaf: the back end's per-kind code handles it.
    Leaf(Leaf<'a>),
    /// `Option<T>`.
    Option {
        /// The inner type.
        inner: &'a TypeRef,
    },
    /// `Vec<T>`.
    Vec {
        /// The element type.
        inner: &'a TypeRef,
        /// Length bounds.
        len: &'a Len,
    },
    /// `[T; N]`.
    Array {
        /// The element type.
        inner: &'a TypeRef,
        /// The fixed length.
        len: u32,
    },
    /// `BTreeMap<K, V>`.
    Map {
        /// The key type.
        key: &'a TypeRef,
        /// The value type.
        value: &'a TypeRef,
        /// Entry-count bounds.
        len: &'a Len,
    },
    /// A reference to another item.
    Named {
        /// The path as written (canonical once resolved).
        path: &'a str,
    },
}

impl TypeRef {
    /// This type as a leaf or a container.
    pub fn node(&self) -> Node<'_> {
        match self {
            TypeRef::Bool => Node::Leaf(Leaf::Bool),
            TypeRef::Int(it) => Node::Leaf(Leaf::Int(it)),
            TypeRef::Float(ft) => Node::Leaf(Leaf::Float(ft)),
            TypeRef::String { len } => Node::Leaf(Leaf::String(len)),
            TypeRef::Bytes { len } => Node::Leaf(Leaf::Bytes(len)),
            TypeRef::Option { inner } => Node::Option { inner },
            TypeRef::Vec { inner, len } => Node::Vec { inner, len },
            TypeRef::Array { inner, len } => Node::Array { inner, len: *len },
            TypeRef::Map { key, value, len } => Node::Map { key, value, len },
            TypeRef::Named { path } => Node::Named { path },
        }
    }

    /// The leaf type a Rust type names, unconstrained: `name` is the last segment of a
    /// primitive or std path, `args` its type arguments, each as a lone identifier or `None`.
    /// `None` when it names no leaf; `Some(Err(message))` when it names one with type
    /// arguments it does not take.
    pub fn leaf_from_rust(name: &str, args: &[Option<&str>]) -> Option<Result<TypeRef, String>> {
        let ty = match name {
            "Vec" => {
                return (args == [Some("u8")]).then_some(Ok(TypeRef::Bytes {
                    len: Len::default(),
                }))
            }
            "bool" => TypeRef::Bool,
            "f32" | "f64" => TypeRef::Float(FloatType {
                bits: if name == "f32" { 32 } else { 64 },
                quant: None,
                range: None,
            }),
            "String" => TypeRef::String {
                len: Len::default(),
            },
            _ => TypeRef::Int(IntType {
                prim: IntPrim::from_name(name)?,
                range: None,
                bigint: false,
            }),
        };
        if args.is_empty() {
            return Some(Ok(ty));
        }
        Some(Err(match ty {
            TypeRef::Int(_) => "an int type takes no generic arguments".to_owned(),
            _ => format!("`{name}` takes no generic arguments"),
        }))
    }

    /// The leaf this type is; `None` for a container or a reference.
    pub fn leaf(&self) -> Option<Leaf<'_>> {
        match self.node() {
            Node::Leaf(l) => Some(l),
            _ => None,
        }
    }
}

/// A Rust type's layout on a 64-bit target, as estimated from the IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// `size_of`.
    pub size: usize,
    /// `align_of`.
    pub align: usize,
    /// Whether it has a spare bit pattern (a niche) that `Option` uses instead of a tag.
    pub niche: bool,
}

impl Layout {
    /// A layout.
    pub const fn new(size: usize, align: usize, niche: bool) -> Self {
        Layout { size, align, niche }
    }

    /// A primitive integer of `prim`'s width.
    pub fn int(prim: IntPrim) -> Self {
        let n = match prim {
            IntPrim::U8 | IntPrim::I8 => 1,
            IntPrim::U16 | IntPrim::I16 => 2,
            IntPrim::U32 | IntPrim::I32 => 4,
            IntPrim::U64 | IntPrim::I64 => 8,
        };
        Layout::new(n, n, false)
    }
}

impl Leaf<'_> {
    /// A short Rust spelling, for messages (`u32`, `f32`, `String`, `Vec<u8>`).
    pub fn rust_name(&self) -> String {
        match self {
            Leaf::Bool => "bool".into(),
            Leaf::Int(it) => it.prim.as_str().into(),
            Leaf::Float(ft) => format!("f{}", ft.bits),
            Leaf::String(_) => "String".into(),
            Leaf::Bytes(_) => "Vec<u8>".into(),
        }
    }

    /// The length bounds of a string or bytes; `None` for a number or a bool.
    pub fn len(&self) -> Option<&Len> {
        match self {
            Leaf::String(len) | Leaf::Bytes(len) => Some(len),
            Leaf::Bool | Leaf::Int(_) | Leaf::Float(_) => None,
        }
    }

    /// The largest compact encoding (as the derive's `MAX_SIZE` counts it), or what makes
    /// it unbounded.
    pub fn max_size(&self) -> Result<usize, &'static str> {
        match self {
            Leaf::Bool => Ok(1),
            Leaf::Int(it) => {
                let (min, max) = it.bounds();
                Ok(int_max(min, max))
            }
            Leaf::Float(ft) => Ok(match ft.quantized() {
                Some(q) => int_max(q.qmin as i128, q.qmax as i128),
                None if ft.bits == 32 => 5,
                None => 9,
            }),
            Leaf::String(len) => match len.max {
                Some(m) => Ok(str_header(m as usize) + m as usize),
                None => Err("a String without len(max)"),
            },
            Leaf::Bytes(len) => match len.max {
                Some(m) => Ok(bin_header(m as usize) + m as usize),
                None => Err("bytes without len(max)"),
            },
        }
    }

    /// The smallest compact encoding.
    pub fn min_size(&self) -> usize {
        match self {
            Leaf::Bool => 1,
            Leaf::Int(it) => {
                let (min, max) = it.bounds();
                int_min(min, max)
            }
            Leaf::Float(ft) => match ft.quantized() {
                Some(q) => int_min(q.qmin as i128, q.qmax as i128),
                None if ft.bits == 32 => 5,
                None => 9,
            },
            Leaf::String(_) | Leaf::Bytes(_) => self.least_size(),
        }
    }

    /// The fewest bytes any encoding takes, in the compact or the named shape (a lower
    /// bound, as the derive's `Wire::MIN_SIZE` counts it: one byte for a number).
    pub fn least_size(&self) -> usize {
        match self {
            Leaf::Bool | Leaf::Int(_) | Leaf::Float(_) => 1,
            Leaf::String(len) => {
                let m = len.min.unwrap_or(0) as usize;
                str_header(m) + m
            }
            Leaf::Bytes(len) => {
                let m = len.min.unwrap_or(0) as usize;
                bin_header(m) + m
            }
        }
    }

    /// The estimated layout of the Rust field.
    pub fn layout(&self) -> Layout {
        match self {
            Leaf::Bool => Layout::new(1, 1, true),
            Leaf::Int(it) => Layout::int(it.prim),
            Leaf::Float(ft) => {
                let n = ft.bits as usize / 8;
                Layout::new(n, n, false)
            }
            Leaf::String(_) | Leaf::Bytes(_) => Layout::new(24, 8, true),
        }
    }

    /// Heap bytes the derived decoder allocates per input byte of this value: a string or
    /// bytes of L bytes allocates L bytes for at least L + 1 input bytes.
    pub fn heap_rate(&self) -> f64 {
        match self {
            Leaf::String(len) | Leaf::Bytes(len) => {
                if len.max == Some(0) {
                    0.0
                } else {
                    1.0
                }
            }
            Leaf::Bool | Leaf::Int(_) | Leaf::Float(_) => 0.0,
        }
    }
}
