//! Invalid inputs for tests: mutations of a valid natural value, one per field kind
//! (ints beyond their bounds, strings and lists too long or too short, quantized floats out
//! of range, NaN, wrong kinds of value, unknown enum numbers and names, stray bits in closed
//! flags, fixed arrays of the wrong length, missing required fields, an alias together
//! with its canonical name, deep nesting and `0xc1` in skipped extra elements), to be
//! written with [`encode_unchecked`](super::encode_unchecked); and byte-level mutations
//! of valid bytes (truncations, trailing bytes, `0xc1`).
//!
//! The agreement tests feed both decoders every mutation and require the same outcome.

use serde_json::{json, Map, Value};
use tuplet_schema::ir::{Enum, Flags, ItemKind, Record, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::Node;
use tuplet_schema::ResolvedSchema;

use super::leaf::{self, raw};

/// One mutated value: what was done, and the whole message value after it.
#[derive(Debug, Clone)]
pub struct Mutation {
    /// What the mutation does and where (a JSON pointer).
    pub what: String,
    /// The mutated message value (may hold `$raw` and `$extra` forms).
    pub value: Value,
}

/// Every mutation of `value`, a natural value of the message (or item) at `path`.
pub fn mutations(schema: &ResolvedSchema, path: &str, value: &Value) -> Vec<Mutation> {
    let mut edits = Vec::new();
    Walk {
        schema,
        edits: &mut edits,
    }
    .named(path, value, "");
    edits
        .into_iter()
        .filter_map(|(what, pointer, replacement)| {
            let mut v = value.clone();
            apply(&mut v, &pointer, replacement)?;
            Some(Mutation {
                what: format!(
                    "{what} at {}",
                    if pointer.is_empty() { "/" } else { &pointer }
                ),
                value: v,
            })
        })
        .collect()
}

/// Byte-level mutations of valid bytes: truncations, a trailing byte, `0xc1` in place of
/// and after the first byte.
pub fn byte_mutations(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let n = bytes.len();
    let mut cuts = vec![0, 1, n / 2, n.saturating_sub(1)];
    cuts.sort_unstable();
    cuts.dedup();
    for cut in cuts.into_iter().filter(|&c| c < n) {
        out.push((format!("truncated to {cut} bytes"), bytes[..cut].to_vec()));
    }
    let mut t = bytes.to_vec();
    t.push(0x00);
    out.push(("a trailing byte".into(), t));
    let mut t = bytes.to_vec();
    t.push(0xc1);
    out.push(("a trailing 0xc1".into(), t));
    if n > 0 {
        let mut t = bytes.to_vec();
        t[0] = 0xc1;
        out.push(("0xc1 as the first byte".into(), t));
    }
    if n > 1 {
        let mut t = bytes.to_vec();
        t[1] = 0xc1;
        out.push(("0xc1 as the second byte".into(), t));
        let mut t = bytes.to_vec();
        t[n - 1] = 0xc1;
        out.push(("0xc1 as the last byte".into(), t));
    }
    out
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Replaces (or, with `None`, removes) the value at a JSON pointer.
fn apply(v: &mut Value, pointer: &str, replacement: Option<Value>) -> Option<()> {
    if pointer.is_empty() {
        *v = replacement?;
        return Some(());
    }
    let (parent, last) = pointer.rsplit_once('/')?;
    let last = last.replace("~1", "/").replace("~0", "~");
    let parent = v.pointer_mut(parent)?;
    match (parent, replacement) {
        (Value::Object(o), Some(r)) => {
            o.insert(last, r);
        }
        (Value::Object(o), None) => {
            o.remove(&last)?;
        }
        (Value::Array(a), Some(r)) => *a.get_mut(last.parse::<usize>().ok()?)? = r,
        _ => return None,
    }
    Some(())
}

type Edit = (String, String, Option<Value>);

struct Walk<'a, 's> {
    schema: &'s ResolvedSchema,
    edits: &'a mut Vec<Edit>,
}

const DEEP: usize = 70;

impl Walk<'_, '_> {
    fn edit(&mut self, what: impl Into<String>, at: &str, v: Option<Value>) {
        self.edits.push((what.into(), at.to_owned(), v));
    }

    /// Mutations common to every value: nil, `0xc1`, an ext, a wrong kind.
    fn common(&mut self, at: &str, wrong: Value) {
        self.edit("nil", at, Some(Value::Null));
        self.edit("0xc1", at, Some(raw("c1")));
        self.edit("an ext", at, Some(raw("d40100")));
        self.edit("a value of the wrong kind", at, Some(wrong));
    }

    fn named(&mut self, path: &str, v: &Value, at: &str) {
        let Some(item) = self.schema.get(path) else {
            return;
        };
        match &item.item.kind {
            ItemKind::Message(m) => self.record(&m.record, v, at),
            ItemKind::Record(r) => self.record(r, v, at),
            ItemKind::Enum(e) if e.is_unit() => self.unit_enum(e, at),
            ItemKind::Enum(e) => self.data_enum(e, v, at),
            ItemKind::Flags(f) => self.flags(f, v, at),
            ItemKind::Dispatch(_) => {}
        }
    }

    fn record(&mut self, r: &Record, v: &Value, at: &str) {
        let Some(o) = v.as_object() else { return };
        self.record_fields(&r.slots, o, at);
        self.common(at, json!(5));
    }

    fn record_fields(&mut self, slots: &[Slot], o: &Map<String, Value>, at: &str) {
        let mut dups = 0;
        for slot in slots {
            let Slot::Field(f) = slot else { continue };
            let here = format!("{at}/{}", escape(&f.name));
            let Some(x) = o.get(&f.name) else { continue };
            if !matches!(f.ty, TypeRef::Option { .. }) {
                self.edit(format!("required field {} removed", f.name), &here, None);
            }
            if dups < 2 {
                dups += 1;
                let mut with = o.clone();
                with.insert("$extra".into(), json!([[f.name, x]]));
                self.edit(
                    format!("field {} twice (canonical name and key)", f.name),
                    at,
                    Some(Value::Object(with)),
                );
            }
            self.value(&f.ty, x, &here);
        }
        let mut deep = o.clone();
        deep.insert(
            "$extra".into(),
            json!([raw(&format!("{}c0", "91".repeat(DEEP)))]),
        );
        self.edit(
            "deep nesting in an extra element",
            at,
            Some(Value::Object(deep)),
        );
        let mut c1 = o.clone();
        c1.insert("$extra".into(), json!([raw("9201c1")]));
        self.edit("0xc1 inside an extra element", at, Some(Value::Object(c1)));
        let mut fine = o.clone();
        fine.insert("$extra".into(), json!(["new", [1, {"a": null}]]));
        self.edit("extra elements", at, Some(Value::Object(fine)));
    }

    fn unit_enum(&mut self, e: &Enum, at: &str) {
        let max = e.variants.iter().map(|v| v.number).max().unwrap_or(0);
        self.edit(
            "an unknown variant number",
            at,
            Some(json!(max.saturating_add(1))),
        );
        self.edit("an unknown variant name", at, Some(json!("NoSuchVariant")));
        self.edit("a variant number as a float", at, Some(json!(0.5)));
        self.common(at, json!(true));
    }

    fn data_enum(&mut self, e: &Enum, v: &Value, at: &str) {
        let max = e.variants.iter().map(|v| v.number).max().unwrap_or(0);
        self.edit(
            "an unknown tag",
            at,
            Some(json!({"kind": "unknown", "tag": max + 1})),
        );
        self.edit(
            "an unknown variant name",
            at,
            Some(json!({"kind": "NoSuchVariant"})),
        );
        self.edit("an empty array", at, Some(raw("90")));
        self.edit("a two-key map", at, Some(raw("82a17880a17980")));
        self.common(at, json!(7));
        let Some(o) = v.as_object() else { return };
        let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some(var) = e.variants.iter().find(|x| x.name == kind) else {
            return;
        };
        match &var.fields {
            VariantFields::Unit => {}
            VariantFields::Newtype { field } => {
                if let Some(x) = o.get("value") {
                    self.value(&field.ty, x, &format!("{at}/value"));
                }
            }
            VariantFields::Struct { record } => self.record_fields(&record.slots, o, at),
        }
    }

    fn flags(&mut self, f: &Flags, v: &Value, at: &str) {
        let used = f.bits.iter().fold(0u64, |a, b| a | (1u64 << b.bit));
        let width = match f.prim.as_str() {
            "u8" => 8,
            "u16" => 16,
            "u32" => 32,
            _ => 64,
        };
        if let (Some(free), Some(o)) = ((0..width).find(|b| used & (1u64 << b) == 0), v.as_object())
        {
            let mut o = o.clone();
            o.insert("rest".into(), json!(1u64 << free));
            self.edit("an unknown flag bit", at, Some(Value::Object(o)));
        }
        if width < 64 {
            self.edit(
                "bits beyond the flags' width",
                at,
                Some(json!(1u64 << width)),
            );
        }
        self.common(at, json!("x"));
    }

    fn value(&mut self, ty: &TypeRef, v: &Value, at: &str) {
        match ty.node() {
            Node::Leaf(leaf) => {
                let (edits, wrong) = leaf::mutations(leaf);
                for (what, replacement) in edits {
                    self.edit(what, at, Some(replacement));
                }
                self.common(at, wrong);
            }
            Node::Option { inner } => {
                if !v.is_null() {
                    self.value(inner, v, at);
                }
                self.edit("an ext instead of an option", at, Some(raw("d40100")));
                self.edit("msgpackr's undefined", at, Some(raw("d40000")));
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let a = v.as_array().cloned().unwrap_or_default();
                if max < 5000 {
                    if let Some(first) = a.first() {
                        let mut longer = a.clone();
                        while longer.len() <= max as usize {
                            longer.push(first.clone());
                        }
                        self.edit("a list too long", at, Some(Value::Array(longer)));
                    }
                }
                if min > 0 && a.len() >= min as usize {
                    self.edit(
                        "a list too short",
                        at,
                        Some(Value::Array(a[..min as usize - 1].to_vec())),
                    );
                }
                self.edit(
                    "a list declaring more elements than the input holds",
                    at,
                    Some(raw("dd0fffffff01")),
                );
                self.edit("a map instead of a list", at, Some(raw("80")));
                self.common(at, json!("x"));
                self.elements(inner, &a, at);
            }
            Node::Array { inner, .. } => {
                let a = v.as_array().cloned().unwrap_or_default();
                if let Some(first) = a.first() {
                    let mut longer = a.clone();
                    longer.push(first.clone());
                    self.edit("a fixed array too long", at, Some(Value::Array(longer)));
                    self.edit(
                        "a fixed array too short",
                        at,
                        Some(Value::Array(a[..a.len() - 1].to_vec())),
                    );
                }
                self.common(at, json!("x"));
                self.elements(inner, &a, at);
            }
            Node::Map { key, value, len } => {
                let (min, _) = len.bounds();
                let a = v.as_array().cloned().unwrap_or_default();
                if let Some(first) = a.first() {
                    let mut dup = a.clone();
                    dup.push(first.clone());
                    self.edit("a duplicate map key", at, Some(Value::Array(dup)));
                    let mut reversed = a.clone();
                    reversed.reverse();
                    self.edit("map keys out of order", at, Some(Value::Array(reversed)));
                }
                if min > 0 && a.len() >= min as usize {
                    self.edit(
                        "a map too short",
                        at,
                        Some(Value::Array(a[..min as usize - 1].to_vec())),
                    );
                }
                self.edit("an array instead of a map", at, Some(raw("90")));
                self.common(at, json!("x"));
                for (i, pair) in a.iter().enumerate().take(1) {
                    if let Some([k, x]) = pair.as_array().map(Vec::as_slice) {
                        self.value(key, k, &format!("{at}/{i}/0"));
                        self.value(value, x, &format!("{at}/{i}/1"));
                    }
                }
            }
            Node::Named { path } => self.named(path, v, at),
        }
    }

    /// Mutations inside the first and the last element.
    fn elements(&mut self, inner: &TypeRef, a: &[Value], at: &str) {
        let mut idx = vec![0, a.len().saturating_sub(1)];
        idx.dedup();
        for i in idx.into_iter().filter(|&i| i < a.len()) {
            self.value(inner, &a[i], &format!("{at}/{i}"));
        }
    }
}
