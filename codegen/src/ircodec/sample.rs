//! Sample values from the IR, drawn exactly as the derive's `Wire::sample` draws them (the
//! same `SampleRng` calls in the same order), as natural JSON: what `tuplet sizes` measures.
//! The agreement test in `examples/village` checks that they equal the derived samples.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tuplet::__private_0_1 as rt;
use tuplet::{SampleMode, SampleRng};
use tuplet_schema::ir::{ItemKind, Record, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::Node;
use tuplet_schema::ResolvedSchema;

use super::leaf::{self, KeyOrd};

/// The sample of the message (or any item) at `path` for `seed` and `mode`, as
/// `Dispatch::sample_variant(index, seed, mode)` draws it.
pub fn sample(schema: &ResolvedSchema, path: &str, seed: u64, mode: SampleMode) -> Value {
    let mut rng = SampleRng::new(seed);
    Sampler { schema }.named(path, &mut rng, mode)
}

struct Sampler<'s> {
    schema: &'s ResolvedSchema,
}

fn pick(rng: &mut SampleRng, mode: SampleMode, n: usize) -> usize {
    match mode {
        SampleMode::Min => 0,
        SampleMode::Max => n.saturating_sub(1),
        _ => rng.below(n),
    }
}

impl Sampler<'_> {
    fn named(&self, path: &str, rng: &mut SampleRng, mode: SampleMode) -> Value {
        let item = self
            .schema
            .get(path)
            .unwrap_or_else(|| panic!("tuplet ircodec: no item {path} in the schema"));
        match &item.item.kind {
            ItemKind::Message(m) => Value::Object(self.record(&m.record, rng, mode)),
            ItemKind::Record(r) => Value::Object(self.record(r, rng, mode)),
            ItemKind::Enum(e) if e.is_unit() => {
                let i = pick(rng, mode, e.variants.len());
                Value::String(e.variants[i].name.clone())
            }
            ItemKind::Enum(e) => {
                let i = pick(rng, mode, e.variants.len());
                let v = &e.variants[i];
                let mut o = Map::new();
                o.insert("kind".into(), Value::String(v.name.clone()));
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype { field } => {
                        o.insert("value".into(), self.value(&field.ty, rng, mode));
                    }
                    VariantFields::Struct { record } => o.extend(self.record(record, rng, mode)),
                }
                Value::Object(o)
            }
            ItemKind::Flags(f) => {
                let mut o = Map::new();
                let known = f.bits.iter().fold(0u64, |a, b| a | (1u64 << b.bit));
                let width_max = f.prim.bounds(true).1 as u64;
                for b in &f.bits {
                    let on = match mode {
                        SampleMode::Min => false,
                        SampleMode::Max => true,
                        _ => rng.coin(),
                    };
                    o.insert(b.name.clone(), Value::Bool(on));
                }
                if f.rest.is_some() {
                    let rest = match mode {
                        SampleMode::Random => rng.next_u64() & width_max & !known,
                        _ => 0,
                    };
                    if rest != 0 {
                        o.insert("rest".into(), Value::from(rest));
                    }
                }
                Value::Object(o)
            }
            ItemKind::Dispatch(_) => panic!("tuplet ircodec: {path} is a dispatch enum"),
        }
    }

    fn record(&self, r: &Record, rng: &mut SampleRng, mode: SampleMode) -> Map<String, Value> {
        let mut o = Map::new();
        for slot in &r.slots {
            if let Slot::Field(f) = slot {
                let v = self.value(&f.ty, rng, mode);
                if !(v.is_null() && matches!(f.ty, TypeRef::Option { .. })) {
                    o.insert(f.name.clone(), v);
                }
            }
        }
        o
    }

    fn value(&self, ty: &TypeRef, rng: &mut SampleRng, mode: SampleMode) -> Value {
        match ty.node() {
            Node::Leaf(leaf) => leaf::sample(leaf, rng, mode),
            Node::Option { inner } => {
                if rt::sample_present(rng, mode) {
                    self.value(inner, rng, mode)
                } else {
                    Value::Null
                }
            }
            Node::Vec { inner, len } => {
                let (min, max) = len.bounds();
                let n = rt::sample_len(rng, mode, min, max);
                Value::Array((0..n).map(|_| self.value(inner, rng, mode)).collect())
            }
            Node::Array { inner, len } => {
                Value::Array((0..len).map(|_| self.value(inner, rng, mode)).collect())
            }
            Node::Map { key, value, len } => {
                let (min, max) = len.bounds();
                let n = rt::sample_len(rng, mode, min, max);
                let mut m: BTreeMap<KeyOrd, (Value, Value)> = BTreeMap::new();
                let mut tries = 0usize;
                while m.len() < n && tries < 8 * n + 8 {
                    tries += 1;
                    let k = self.value(key, rng, SampleMode::Random);
                    let x = self.value(value, rng, mode);
                    m.insert(KeyOrd::of(key, &k), (k, x));
                }
                Value::Array(
                    m.into_values()
                        .map(|(k, x)| Value::Array(vec![k, x]))
                        .collect(),
                )
            }
            Node::Named { path } => self.named(path, rng, mode),
        }
    }
}
