//! The cross-field checks of one item, as small named `check_*` functions. They run on the
//! IR once parsing succeeded, and find spans in the side table built alongside it.

use std::collections::{BTreeMap, BTreeSet};

use super::ctxt::Ctxt;
use super::interp;
use super::leaf;
use super::spans::{FieldSpans, ItemSpans};
use super::ty::describe;
use crate::ir::{
    Enum, Field, Flags, IntPrim, Item, ItemKind, Record, Slot, TypeRef, VariantFields,
};
use crate::plan::Node;

/// Runs every check that applies to `item`.
pub(crate) fn check(cx: &Ctxt, item: &Item, spans: &ItemSpans) {
    match &item.kind {
        ItemKind::Message(m) => {
            check_record(cx, &m.record, &spans.fields);
            interp::check(cx, &m.record, spans, true);
            if m.delta {
                check_delta_fields(cx, &m.record, spans, "delta");
            }
        }
        ItemKind::Record(r) => {
            check_record(cx, r, &spans.fields);
            check_entity_key(cx, r, spans);
            interp::check(cx, r, spans, false);
            if r.entity_key.is_some() {
                check_delta_fields(cx, r, spans, "entity");
            }
        }
        ItemKind::Enum(e) => {
            check_variant_numbers(cx, e, spans);
            check_reserved_numbers(cx, e, spans);
            check_open_unknown(cx, e, spans);
            for (v, vs) in e.variants.iter().zip(&spans.variants) {
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field } => {
                        check_field(cx, field, &vs.fields[0]);
                        interp::check_no_draw_field(cx, field, &vs.fields[0]);
                    }
                    VariantFields::Struct { record } => {
                        check_record(cx, record, &vs.fields);
                        interp::check_no_draw(cx, record, &vs.fields);
                        check_variant_field_names(cx, record, &vs.fields);
                    }
                }
            }
        }
        ItemKind::Flags(f) => {
            for (bit, sp) in f.bits.iter().zip(&spans.fields) {
                check_key_name(cx, &bit.name, sp.ident, "flag");
            }
            if let Some(rest) = &f.rest {
                check_key_name(cx, rest, spans.rest.unwrap_or(spans.ident), "field");
            }
            check_flag_bits(cx, f, spans);
            check_reserved_bits(cx, f, spans);
            check_open_rest(cx, f, spans);
        }
        ItemKind::Dispatch(_) => {}
    }
}

fn check_record(cx: &Ctxt, record: &Record, spans: &[FieldSpans]) {
    for (slot, sp) in record.slots.iter().zip(spans) {
        if let Slot::Field(f) = slot {
            check_field(cx, f, sp);
        }
    }
    check_named_keys(cx, record, spans);
}

fn check_field(cx: &Ctxt, f: &Field, sp: &FieldSpans) {
    check_key_name(cx, &f.name, sp.ident, "field");
    check_optional_field_name(cx, f, sp.ident);
    for key in &f.legacy {
        check_key_name(cx, key, sp.key("legacy"), "legacy key");
    }
    check_type(cx, &f.ty, sp, true);
    check_legacy_spread(cx, f, sp);
}

/// Walks a type: `outer` is true until the first list or map (whose lengths are `len`;
/// deeper ones are `item_len`).
fn check_type(cx: &Ctxt, ty: &TypeRef, sp: &FieldSpans, outer: bool) {
    match ty.node() {
        Node::Leaf(l) => leaf::check(cx, l, sp, outer),
        Node::Named { .. } => {}
        Node::Option { inner } => check_type(cx, inner, sp, outer),
        Node::Vec { inner, len } => {
            leaf::check_len_order(cx, len, sp, outer);
            check_type(cx, inner, sp, false);
        }
        Node::Array { inner, .. } => check_type(cx, inner, sp, false),
        Node::Map { key, value, len } => {
            leaf::check_len_order(cx, len, sp, outer);
            if let TypeRef::String { len } = key {
                leaf::check_order(cx, len, sp, "key_len");
            }
            check_type(cx, value, sp, false);
        }
    }
}

/// A legacy key list spreads a fixed array: one key per element.
fn check_legacy_spread(cx: &Ctxt, f: &Field, sp: &FieldSpans) {
    if f.legacy.len() < 2 {
        return;
    }
    let n = f.legacy.len();
    match &f.ty {
        TypeRef::Array { len, .. } if *len as usize == n => {}
        TypeRef::Array { len, .. } => cx.error(
            sp.key("legacy"),
            format!("legacy lists {n} keys but the array has {len} elements: one key per element"),
        ),
        other => cx.error(
            sp.key("legacy"),
            format!(
                "a legacy key list spreads a fixed array over one key per element; `{}` is not \
                 an array: give one alias, `legacy = \"name\"`",
                describe(other)
            ),
        ),
    }
}

/// A named-shape key (a field or flag name, a legacy alias) is never `__proto__`: JavaScript
/// objects take it as their prototype, so the TypeScript value would lose the field.
fn check_key_name(cx: &Ctxt, name: &str, span: proc_macro2::Span, what: &str) {
    if name == "__proto__" {
        cx.error(
            span,
            format!(
                "a {what} named `__proto__` sets a JavaScript object's prototype instead of a \
                 property, so TypeScript would lose it; rename it"
            ),
        );
    }
}

/// The members every JavaScript object inherits from `Object.prototype` (`__proto__` is
/// refused for every key by `check_key_name`).
const OBJECT_PROTOTYPE_MEMBERS: &[&str] = &[
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// An optional field is absent from the TypeScript object while unset, so a name inherited
/// from `Object.prototype` would read as the inherited function (and the package would not
/// type-check): refused, with the fix.
fn check_optional_field_name(cx: &Ctxt, f: &Field, span: proc_macro2::Span) {
    if matches!(f.ty, TypeRef::Option { .. }) && OBJECT_PROTOTYPE_MEMBERS.contains(&f.name.as_str())
    {
        cx.error(
            span,
            format!(
                "an optional field cannot be named `{0}`: while unset, a JavaScript object \
                 still has an inherited `{0}`, so TypeScript would read a function; rename the \
                 field (`#[tuplet(legacy = \"{0}\")]` keeps its named-shape key)",
                f.name
            ),
        );
    }
}

/// No field of a struct variant is named `kind`: the TypeScript value of an enum with data is
/// `{ kind: "Variant", ...fields }`.
fn check_variant_field_names(cx: &Ctxt, record: &Record, spans: &[FieldSpans]) {
    for (slot, sp) in record.slots.iter().zip(spans) {
        if let Slot::Field(f) = slot {
            if f.name == "kind" {
                cx.error(
                    sp.ident,
                    "a field of a struct variant cannot be named `kind`: the TypeScript value of \
                     an enum with data is `{ kind: \"Variant\", ...fields }`; rename the field \
                     (`#[tuplet(legacy = \"kind\")]` keeps its named-shape key)",
                );
            }
        }
    }
}

/// Named-shape keys (canonical names and legacy aliases) are one namespace per record,
/// case-sensitive. A collision is reported at the legacy alias involved.
fn check_named_keys(cx: &Ctxt, record: &Record, spans: &[FieldSpans]) {
    // key -> (field, whether the key is its alias, the span to blame for it)
    let mut seen: BTreeMap<&str, (&str, bool, proc_macro2::Span)> = BTreeMap::new();
    for (slot, sp) in record.slots.iter().zip(spans) {
        let Slot::Field(f) = slot else { continue };
        let spread = f.legacy.len() > 1;
        let mut own = BTreeSet::new();
        for (i, key) in std::iter::once(&f.name).chain(&f.legacy).enumerate() {
            let alias = i > 0;
            let span = if alias { sp.key("legacy") } else { sp.ident };
            if !own.insert(key.as_str()) {
                // A single alias equal to the field's own name is redundant but harmless.
                if spread {
                    cx.error(
                        span,
                        format!("legacy key `{key}` is used twice by field `{}`", f.name),
                    );
                }
                continue;
            }
            let Some(&(owner, owner_alias, owner_span)) = seen.get(key.as_str()) else {
                seen.insert(key, (&f.name, alias, span));
                continue;
            };
            let what = |a: bool| if a { "legacy alias" } else { "name" };
            let (blame, msg) = if alias || !owner_alias {
                (
                    span,
                    format!(
                    "named-shape key `{key}`: the {} of field `{}` collides with the {} of field \
                     `{owner}`; pick another alias",
                    what(alias),
                    f.name,
                    what(owner_alias),
                ),
                )
            } else {
                (
                    owner_span,
                    format!(
                    "named-shape key `{key}`: the legacy alias of field `{owner}` collides with \
                     the name of field `{}`; pick another alias",
                    f.name,
                ),
                )
            };
            cx.error(blame, msg);
        }
    }
}

/// An entity's key names an int field of the record. Each error lists the int fields, so
/// it says what to write.
fn check_entity_key(cx: &Ctxt, record: &Record, spans: &ItemSpans) {
    let Some(key) = &record.entity_key else {
        return;
    };
    let span = spans.keys.get("entity").copied().unwrap_or(spans.ident);
    let ints: Vec<&str> = record
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Field(f) if matches!(f.ty, TypeRef::Int(_)) => Some(f.name.as_str()),
            _ => None,
        })
        .collect();
    let listed = if ints.is_empty() {
        "this record has no int field; add one (a `u32` id, say) and name it".to_string()
    } else {
        format!("the int fields of this record: {}", ints.join(", "))
    };
    if key.is_empty() {
        let example = ints.first().copied().unwrap_or("<int field>");
        cx.error(
            span,
            format!(
                "`entity` needs the field that names each entity: write \
                 `entity(key = \"{example}\")`; {listed}"
            ),
        );
        return;
    }
    let field = record.slots.iter().find_map(|s| match s {
        Slot::Field(f) if &f.name == key => Some(f),
        _ => None,
    });
    match field {
        None => {
            let near = crate::suggest::did_you_mean(key, ints.iter().copied());
            cx.error(
                span,
                format!("entity key `{key}` names no field of this record; {near}{listed}"),
            )
        }
        Some(f) if !matches!(f.ty, TypeRef::Int(_)) => cx.error(
            span,
            format!(
                "entity key `{key}` must be an int field; found `{}`; {listed}",
                describe(&f.ty)
            ),
        ),
        Some(_) => {}
    }
}

/// An entity or a delta message fits its changed-field mask: at most 32 fields.
fn check_delta_fields(cx: &Ctxt, record: &Record, spans: &ItemSpans, key: &str) {
    let n = crate::delta::mask_slots(record).len();
    if n > crate::delta::MAX_DELTA_FIELDS {
        let span = spans.keys.get(key).copied().unwrap_or(spans.ident);
        cx.error(
            span,
            format!(
                "`{key}` allows at most {} fields (the changed-field mask), found {n}",
                crate::delta::MAX_DELTA_FIELDS
            ),
        );
    }
}

/// Every variant number is unique.
fn check_variant_numbers(cx: &Ctxt, e: &Enum, spans: &ItemSpans) {
    let mut seen: BTreeMap<i64, &str> = BTreeMap::new();
    for (v, vs) in e.variants.iter().zip(&spans.variants) {
        if let Some(other) = seen.insert(v.number, &v.name) {
            cx.error(
                vs.number,
                format!("number {} is already used by variant `{other}`", v.number),
            );
            seen.insert(v.number, other);
        }
    }
}

/// No variant uses a reserved number.
fn check_reserved_numbers(cx: &Ctxt, e: &Enum, spans: &ItemSpans) {
    for (v, vs) in e.variants.iter().zip(&spans.variants) {
        if e.reserved.contains(&v.number) {
            cx.error(
                vs.number,
                format!(
                    "number {} is reserved (a removed variant's); pick an unused number",
                    v.number
                ),
            );
        }
    }
}

/// `open` and an `unknown` catch-all come together.
fn check_open_unknown(cx: &Ctxt, e: &Enum, spans: &ItemSpans) {
    match (e.open, &e.unknown) {
        (true, None) => cx.error(
            spans.keys.get("open").copied().unwrap_or(spans.ident),
            format!(
                "an open enum keeps unknown numbers in a catch-all variant: add \
                 `#[tuplet(unknown)] Unknown({})`",
                if e.is_unit() { "i64" } else { "u32" }
            ),
        ),
        (false, Some(_)) => cx.error(
            spans.unknown.unwrap_or(spans.ident),
            "`unknown` marks the catch-all of an open enum: add `#[tuplet(open)]` to the enum",
        ),
        _ => {}
    }
}

/// Every bit fits the wire int, is unique and not reserved.
fn check_flag_bits(cx: &Ctxt, f: &Flags, spans: &ItemSpans) {
    let width = width(f.prim);
    let mut seen: BTreeMap<u8, &str> = BTreeMap::new();
    for (flag, fs) in f.bits.iter().zip(&spans.fields) {
        let span = fs.key("bit");
        let b = flag.bit;
        if u32::from(b) >= width {
            cx.error(
                span,
                format!(
                    "bit {b} does not fit the flags' `{}` (bits 0..={}); widen it with \
                     `#[tuplet(int = \"u{}\")]` on the struct",
                    f.prim.as_str(),
                    width - 1,
                    (width * 2).min(64)
                ),
            );
        } else if let Some(other) = seen.get(&b) {
            cx.error(span, format!("bit {b} is already used by flag `{other}`"));
        } else if f.reserved.contains(&b) {
            cx.error(
                span,
                format!("bit {b} is reserved (a removed flag's); pick an unused bit"),
            );
        } else {
            seen.insert(b, &flag.name);
        }
    }
}

/// Reserved bits fit the wire int.
fn check_reserved_bits(cx: &Ctxt, f: &Flags, spans: &ItemSpans) {
    let width = width(f.prim);
    if let Some(b) = f.reserved.iter().find(|b| u32::from(**b) >= width) {
        cx.error(
            spans.keys.get("reserved").copied().unwrap_or(spans.ident),
            format!(
                "reserved bit {b} does not fit the flags' `{}`",
                f.prim.as_str()
            ),
        );
    }
}

/// `open` and a `rest` field come together.
fn check_open_rest(cx: &Ctxt, f: &Flags, spans: &ItemSpans) {
    match (f.open, &f.rest) {
        (true, None) => cx.error(
            spans.keys.get("open").copied().unwrap_or(spans.ident),
            format!(
                "an open flag set keeps unknown bits in a field of its wire int: add \
                 `#[tuplet(rest)] pub rest: {}`",
                f.prim.as_str()
            ),
        ),
        (false, Some(_)) => cx.error(
            spans.rest.unwrap_or(spans.ident),
            "`rest` keeps the unknown bits of an open flag set: add `#[tuplet(open)]` to the struct",
        ),
        _ => {}
    }
}

fn width(p: IntPrim) -> u32 {
    match p {
        IntPrim::U8 | IntPrim::I8 => 8,
        IntPrim::U16 | IntPrim::I16 => 16,
        IntPrim::U32 | IntPrim::I32 => 32,
        IntPrim::U64 | IntPrim::I64 => 64,
    }
}
