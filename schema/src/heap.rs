//! The memory bound of a decode, from the resolved IR: c(T), the most heap bytes the derived
//! decoder of T may allocate per input byte, and k(T), a constant on top. Decoding any n
//! bytes as T allocates at most c(T)·n + k(T) bytes in total (a test in `examples/village`
//! counts every allocation over the fuzz corpora and adversarial inputs).
//!
//! Where heap comes from in a derived decoder, and what each source costs per input byte:
//! - a `String` or bytes of L bytes allocates L bytes for at least L + 1 input bytes: 1;
//! - a `Vec<E>` reserves room for `min(declared, remaining / least(E))` elements (the
//!   runtime's `capacity`), where least(E) is the fewest bytes any encoding of E takes, in
//!   either shape: size_of(E) / least(E) per remaining byte. A declared count larger than
//!   the elements that follow makes the decode fail inside the list, so only the lists open
//!   at that moment (one per nesting level) reserve more than they fill; the rates of nested
//!   lists therefore add up, and those of sibling fields do not;
//! - a `BTreeMap` allocates one leaf node (11 entries) at its first insert and splits full
//!   nodes after that, every node but the root holding at least 5 entries. A map that can
//!   occur only once per message costs a constant (k): its nodes at its largest length, or
//!   without `len(max)` one internal node plus at most leaf/5 + internal/25 per entry. A map
//!   inside a list element or a map value can repeat: its first leaf is charged to the bytes
//!   of its first entry and header (or, when it may not be empty, to the element's least
//!   encoding), its splits per entry.
//!
//! c(T) is the largest sum of those rates along a path from T's root to a leaf of its type
//! tree. Type sizes are Rust's layouts on a 64-bit target, estimated from the IR (the
//! village's test checks the estimate against `size_of` for the element types it uses).

use crate::ir::{Enum, Flags, ItemKind, Record, TypeRef, VariantFields};
pub use crate::plan::Layout;
use crate::plan::Node;
use crate::resolved::ResolvedSchema;
use crate::sizes::Sizer;

/// Entries in one `BTreeMap` node (std's `CAPACITY`).
const NODE_ENTRIES: usize = 11;
/// The fewest entries in a `BTreeMap` node other than the root, after insertions only.
const NODE_MIN_ENTRIES: usize = 5;

impl Layout {
    /// Fields laid out as a struct: by decreasing alignment, the size rounded up.
    fn of_struct(fields: impl IntoIterator<Item = Layout>) -> Layout {
        let mut out = Layout::new(0, 1, false);
        for f in fields {
            out.size += f.size;
            out.align = out.align.max(f.align);
            out.niche |= f.niche;
        }
        out.size = round_up(out.size, out.align);
        out
    }
}

fn round_up(n: usize, align: usize) -> usize {
    n.div_ceil(align) * align
}

/// One decode's memory bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeapBound {
    /// c(T): heap bytes per input byte.
    pub per_byte: f64,
    /// k(T): heap bytes regardless of the input size (the first nodes of maps that occur
    /// once).
    pub slack: usize,
}

/// Memory bounds of the types of one schema.
pub struct Heap<'s> {
    schema: &'s ResolvedSchema,
}

impl<'s> Heap<'s> {
    /// Bounds over `schema`.
    pub fn new(schema: &'s ResolvedSchema) -> Self {
        Heap { schema }
    }

    /// The bound of decoding one `ty`.
    pub fn bound(&self, ty: &TypeRef) -> HeapBound {
        HeapBound {
            per_byte: self.rate(ty, false),
            slack: self.slack(ty),
        }
    }

    /// The bound of decoding the item at canonical `path`.
    pub fn bound_of(&self, path: &str) -> HeapBound {
        self.bound(&TypeRef::Named {
            path: path.to_owned(),
        })
    }

    /// The fewest bytes any encoding of `ty` takes, in the compact or the named shape
    /// ([`Sizer::least`]).
    pub fn least(&self, ty: &TypeRef) -> usize {
        Sizer::new(self.schema).least(ty)
    }

    /// The estimated Rust layout of `ty`.
    pub fn layout(&self, ty: &TypeRef) -> Layout {
        match ty.node() {
            Node::Leaf(leaf) => leaf.layout(),
            Node::Vec { .. } => Layout::new(24, 8, true),
            // std's BTreeMap: an optional root (its niche taken), a height and a length.
            Node::Map { .. } => Layout::new(24, 8, false),
            Node::Option { inner } => {
                let l = self.layout(inner);
                if l.niche {
                    l
                } else {
                    Layout::new(l.size + l.align, l.align, true)
                }
            }
            Node::Array { inner, len } => {
                let l = self.layout(inner);
                Layout::new(l.size * len as usize, l.align, l.niche && len > 0)
            }
            Node::Named { path } => match self.schema.get(path).map(|i| &i.item.kind) {
                Some(ItemKind::Message(m)) => self.record_layout(&m.record),
                Some(ItemKind::Record(r)) => self.record_layout(r),
                Some(ItemKind::Enum(e)) => self.enum_layout(e),
                Some(ItemKind::Flags(f)) => flags_layout(f),
                _ => Layout::new(0, 1, false),
            },
        }
    }

    fn record_layout(&self, r: &Record) -> Layout {
        Layout::of_struct(fields(r).map(|t| self.layout(t)))
    }

    /// A unit enum is its smallest discriminant integer; an enum with data a one-byte tag
    /// followed by the largest variant's fields, smallest alignment first (as rustc lays
    /// out variants). An open enum's catch-all holds the wire integer: `i64` for a unit
    /// enum (its `repr`), `u32` (a tag) otherwise.
    fn enum_layout(&self, e: &Enum) -> Layout {
        if e.is_unit() {
            let (lo, hi) = e.variants.iter().fold((0i64, 0i64), |(lo, hi), v| {
                (lo.min(v.number), hi.max(v.number))
            });
            if e.open {
                return Layout::new(16, 8, true);
            }
            let n = if lo >= i8::MIN as i64 && hi <= u8::MAX as i64 {
                1
            } else if lo >= i16::MIN as i64 && hi <= u16::MAX as i64 {
                2
            } else if lo >= i32::MIN as i64 && hi <= u32::MAX as i64 {
                4
            } else {
                8
            };
            return Layout::new(n, n, e.variants.len() < 256);
        }
        let mut variants: Vec<Vec<Layout>> = e
            .variants
            .iter()
            .map(|v| match &v.fields {
                VariantFields::Unit => Vec::new(),
                VariantFields::Newtype { field } => vec![self.layout(&field.ty)],
                VariantFields::Struct { record } => {
                    fields(record).map(|t| self.layout(t)).collect()
                }
            })
            .collect();
        if e.open {
            variants.push(vec![Layout::new(4, 4, false)]);
        }
        let mut out = Layout::new(1, 1, true);
        for mut fields in variants {
            fields.sort_by_key(|l| l.align);
            let mut size = 1;
            for f in fields {
                size = round_up(size, f.align) + f.size;
                out.align = out.align.max(f.align);
            }
            out.size = out.size.max(size);
        }
        out.size = round_up(out.size, out.align);
        out
    }

    /// Heap bytes per input byte of `ty`'s encoding, the largest sum along one path of its
    /// type tree; `repeated` when `ty` sits in a list element or a map entry.
    fn rate(&self, ty: &TypeRef, repeated: bool) -> f64 {
        match ty.node() {
            Node::Leaf(leaf) => leaf.heap_rate(),
            // A present value in a repeated place pays its base from its own least bytes.
            Node::Option { inner } if repeated => {
                self.base(inner) as f64 / self.least(inner) as f64 + self.rate(inner, true)
            }
            Node::Option { inner } | Node::Array { inner, .. } => self.rate(inner, repeated),
            Node::Vec { inner, .. } => {
                let element = self.layout(inner).size + self.base(inner);
                element as f64 / self.least(inner) as f64 + self.rate(inner, true)
            }
            Node::Map { key, value, len } => {
                let (leaf, internal) = self.nodes(key, value);
                let entry = self.least(key) + self.least(value);
                // The first leaf: in k(T) once per message, in the element's base when the
                // map cannot be empty, else charged to its first entry and header.
                let first = if repeated && len.min.unwrap_or(0) == 0 {
                    leaf as f64 / (1 + entry) as f64
                } else {
                    0.0
                };
                // Splits: a map that fits one leaf never splits, and those of a bounded map
                // that occurs once are in k(T).
                let splits = if len.max.is_some_and(|m| m as usize <= NODE_ENTRIES)
                    || (!repeated && len.max.is_some())
                {
                    0.0
                } else {
                    let per_entry = leaf as f64 / NODE_MIN_ENTRIES as f64
                        + internal as f64 / (NODE_MIN_ENTRIES * NODE_MIN_ENTRIES) as f64;
                    // The root's internal node, repeated: spread over the 12 entries that
                    // make a map split at all.
                    let root = if repeated {
                        internal as f64 / (NODE_ENTRIES + 1) as f64
                    } else {
                        0.0
                    };
                    // Keys are distinct: of the 12 or more entries of a map that splits, at
                    // most one string key is empty, so string keys average 23/12 bytes over
                    // their least.
                    let distinct = match key {
                        TypeRef::String { .. } => 23.0 / 12.0 - 1.0,
                        _ => 0.0,
                    };
                    (per_entry + root) / (entry as f64 + distinct)
                };
                let bases = (self.base(key) + self.base(value)) as f64 / entry as f64;
                first + splits + bases + self.rate(key, true).max(self.rate(value, true))
            }
            Node::Named { path } => match &self.schema.get(path).map(|i| &i.item.kind) {
                Some(ItemKind::Message(m)) => self.record_rate(&m.record, repeated),
                Some(ItemKind::Record(r)) => self.record_rate(r, repeated),
                Some(ItemKind::Enum(e)) => e
                    .variants
                    .iter()
                    .map(|v| match &v.fields {
                        VariantFields::Unit => 0.0,
                        VariantFields::Newtype { field } => self.rate(&field.ty, repeated),
                        VariantFields::Struct { record } => self.record_rate(record, repeated),
                    })
                    .fold(0.0, f64::max),
                _ => 0.0,
            },
        }
    }

    fn record_rate(&self, r: &Record, repeated: bool) -> f64 {
        fields(r)
            .map(|t| self.rate(t, repeated))
            .fold(0.0, f64::max)
    }

    /// Heap that every value of `ty` allocates whatever its encoding's size: the first leaf of
    /// each map that may not be empty (a list charges it to its elements' least encoding).
    fn base(&self, ty: &TypeRef) -> usize {
        match ty.node() {
            Node::Map { key, value, len } if len.min.unwrap_or(0) > 0 => {
                self.nodes(key, value).0 + self.base(key) + self.base(value)
            }
            Node::Array { inner, len } => self.base(inner) * len as usize,
            Node::Named { path } => match &self.schema.get(path).map(|i| &i.item.kind) {
                Some(ItemKind::Message(m)) => self.record_base(&m.record),
                Some(ItemKind::Record(r)) => self.record_base(r),
                Some(ItemKind::Enum(e)) => e
                    .variants
                    .iter()
                    .map(|v| match &v.fields {
                        VariantFields::Unit => 0,
                        VariantFields::Newtype { field } => self.base(&field.ty),
                        VariantFields::Struct { record } => self.record_base(record),
                    })
                    .max()
                    .unwrap_or(0),
                _ => 0,
            },
            _ => 0,
        }
    }

    fn record_base(&self, r: &Record) -> usize {
        fields(r)
            .filter(|t| !matches!(t, TypeRef::Option { .. }))
            .map(|t| self.base(t))
            .sum()
    }

    /// The sizes of a `BTreeMap<K, V>`'s leaf and internal nodes (std's layout: a parent
    /// pointer, two u16, 11 keys and 11 values; an internal node adds 12 child pointers).
    fn nodes(&self, key: &TypeRef, value: &TypeRef) -> (usize, usize) {
        let (k, v) = (self.layout(key), self.layout(value));
        let align = k.align.max(v.align).max(8);
        let leaf = round_up(8 + 2 + 2 + NODE_ENTRIES * (k.size + v.size), align);
        (leaf, leaf + (NODE_ENTRIES + 1) * 8)
    }

    /// The constant part: an internal node for each map that occurs at most once (outside
    /// any list element or map entry), the largest over an enum's variants.
    fn slack(&self, ty: &TypeRef) -> usize {
        match ty.node() {
            Node::Option { inner } => self.slack(inner),
            Node::Array { inner, len } => self.slack(inner) * len as usize,
            Node::Map { key, value, len } => {
                let (leaf, internal) = self.nodes(key, value);
                match len.max.map(|m| m as usize) {
                    Some(m) if m <= NODE_ENTRIES => leaf,
                    // Every leaf but the root holds 5 entries or more, every internal node
                    // but the root 6 children or more.
                    Some(m) => {
                        let leaves = m.div_ceil(NODE_MIN_ENTRIES);
                        leaf * leaves + internal * (1 + leaves.div_ceil(NODE_MIN_ENTRIES + 1))
                    }
                    None => internal,
                }
            }
            Node::Named { path } => match &self.schema.get(path).map(|i| &i.item.kind) {
                Some(ItemKind::Message(m)) => fields(&m.record).map(|t| self.slack(t)).sum(),
                Some(ItemKind::Record(r)) => fields(r).map(|t| self.slack(t)).sum(),
                Some(ItemKind::Enum(e)) => e
                    .variants
                    .iter()
                    .map(|v| match &v.fields {
                        VariantFields::Unit => 0,
                        VariantFields::Newtype { field } => self.slack(&field.ty),
                        VariantFields::Struct { record } => {
                            fields(record).map(|t| self.slack(t)).sum()
                        }
                    })
                    .max()
                    .unwrap_or(0),
                _ => 0,
            },
            _ => 0,
        }
    }
}

/// The types of a record's live fields.
fn fields(r: &Record) -> impl Iterator<Item = &TypeRef> {
    r.fields().map(|f| &f.ty)
}

fn flags_layout(f: &Flags) -> Layout {
    let bools = (0..f.bits.len()).map(|_| Layout::new(1, 1, true));
    let rest = f.rest.as_ref().map(|_| Layout::int(f.prim));
    Layout::of_struct(bools.chain(rest))
}
