//! The JSON Schemas agree with the codecs: a maintained validator (the `jsonschema` crate,
//! draft 2020-12) and the decoder judge the same values, and give the same verdict.
//!
//! The values are the ones the codecs' own agreement tests use (`tests/tests/
//! ircodec_agrees.rs`, `random_schemas.rs`): every message's samples in every sample mode
//! and a few seeds, the value mutations of `ircodec::mutate` (seed 0, modes Present and
//! Max) and the byte mutations, all in the named shape. The decoder is the IR codec, which
//! those tests prove equal to the derive on these very inputs. Each input's bytes are read
//! as plain msgpack and written as JSON (bin as an array of octets, an int map key as its
//! decimal text, msgpackr's `undefined` as null); an input JSON cannot hold (NaN, an ext,
//! `0xc1`, a truncation, trailing bytes, a key twice, a non-string key where keys are
//! strings) is counted by why and left out.
//!
//! Every value the decoder accepts must pass the schema. Every value it refuses must fail
//! the schema, unless it is a case of one of `jsonschema::LIMITS` (what JSON Schema cannot
//! express), recognised from the decoder's error and the value at its path; those are
//! counted per limit and printed. Anything else fails the test.
//!
//! Schemas: the village's (the committed `generated/jsonschema/`, checked equal to the
//! emitter's output) and the random-schema generator's, seeds `TUPLET_JSONSCHEMA_SEEDS`
//! (`A..B`, default `1..7`).

mod support;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value};
use tuplet::wire::{Limits, Reader};
use tuplet::{Code, SampleMode, Seg};
use tuplet_codegen::emit::jsonschema::{flags_inexact, message_files, LIMITS};
use tuplet_codegen::ircodec::{self, mutate, Shape};
use tuplet_schema::ir::{Enum, FloatType, ItemKind, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::{Legacy, RecordPlan};
use tuplet_schema::ResolvedSchema;

/// Samples per message per sample mode.
const SEEDS: u64 = 3;

/// The tally of one run.
#[derive(Default)]
struct Tally {
    messages: usize,
    /// Samples, each accepted by the decoder and the schema.
    valid: usize,
    /// Mutated inputs the decoder accepts, and the schema too.
    accepted_alike: usize,
    /// Inputs the decoder refuses and the schema refuses.
    refused_alike: usize,
    /// Float edge probes the decoder and the schema accept, and refuse.
    edges: (usize, usize),
    /// Inputs the decoder refuses and the schema accepts, per limit.
    excused: BTreeMap<&'static str, usize>,
    /// Inputs with no JSON form, per reason.
    no_json: BTreeMap<&'static str, usize>,
    /// Values the decoder accepts that the schema rejects.
    rejected_valid: Vec<String>,
    /// Values the decoder refuses that the schema accepts, outside the limits.
    unexcused: Vec<String>,
}

impl Tally {
    fn print(&self, label: &str) {
        let excused: usize = self.excused.values().sum();
        let no_json: usize = self.no_json.values().sum();
        println!(
            "jsonschema agrees ({label}): {} messages; {} valid samples and {} valid mutated \
             inputs pass, {} rejected; {} invalid inputs refused by the schema; {} accepted \
             by the schema in the listed limits {:?}; {} outside them; {} inputs with no JSON \
             form {:?}; of them, float edge probes: {} accepted and {} refused by both",
            self.messages,
            self.valid,
            self.accepted_alike,
            self.rejected_valid.len(),
            self.refused_alike,
            excused,
            self.excused,
            self.unexcused.len(),
            no_json,
            self.no_json,
            self.edges.0,
            self.edges.1,
        );
    }

    fn assert_agrees(&self, label: &str) {
        let show = |v: &[String]| v.iter().take(12).cloned().collect::<Vec<_>>().join("\n");
        assert!(
            self.rejected_valid.is_empty(),
            "{label}: {} valid values rejected by the schema:\n{}",
            self.rejected_valid.len(),
            show(&self.rejected_valid)
        );
        assert!(
            self.unexcused.is_empty(),
            "{label}: {} invalid values accepted by the schema outside its listed limits:\n{}",
            self.unexcused.len(),
            show(&self.unexcused)
        );
        assert!(
            self.valid > 0 && self.refused_alike > 0,
            "{label}: nothing judged"
        );
    }
}

/// Judges every message of `schema` against `schemas` (its files' JSON by message path).
fn judge(schema: &ResolvedSchema, schemas: &BTreeMap<String, Value>, tally: &mut Tally) {
    for (path, doc) in schemas {
        let validator = ::jsonschema::draft202012::new(doc)
            .unwrap_or_else(|e| panic!("{path}: the validator refuses the schema: {e}"));
        tally.messages += 1;
        let mut inputs: Vec<(String, Vec<u8>, bool)> = Vec::new();
        for mode in SampleMode::ALL {
            for seed in 0..SEEDS {
                let value = ircodec::sample(schema, path, seed, mode);
                let named = ircodec::encode(schema, path, &value, Shape::Named)
                    .unwrap_or_else(|e| panic!("{path} {mode:?} {seed}: {e}"));
                if seed == 0 && matches!(mode, SampleMode::Present | SampleMode::Max) {
                    for m in mutate::mutations(schema, path, &value) {
                        let b = ircodec::encode_unchecked(schema, path, &m.value, Shape::Named);
                        inputs.push((m.what, b, false));
                    }
                }
                inputs.push((format!("sample {mode:?} {seed}"), named.clone(), true));
                if seed == 0 && mode == SampleMode::Max {
                    for (what, b) in float_edges(schema, path, &named) {
                        inputs.push((what, b, false));
                    }
                }
                for (what, b) in mutate::byte_mutations(&named) {
                    inputs.push((what, b, false));
                }
            }
        }
        let mut seen = HashSet::new();
        for (what, bytes, sample) in inputs {
            if !seen.insert(bytes.clone()) {
                continue;
            }
            let decoded = ircodec::decode(schema, path, &bytes);
            if sample {
                assert!(
                    decoded.is_ok(),
                    "{path}: {what}: the decoder refuses a sample"
                );
            }
            let json = match Json::new(schema).of(&bytes, path) {
                Ok(j) => j,
                Err(why) => {
                    assert!(
                        !sample,
                        "{path}: {what}: a sample with no JSON form ({why})"
                    );
                    *tally.no_json.entry(why).or_default() += 1;
                    continue;
                }
            };
            let passes = validator.is_valid(&json);
            if what.starts_with("float edge") && decoded.is_ok() == passes {
                match passes {
                    true => tally.edges.0 += 1,
                    false => tally.edges.1 += 1,
                }
            }
            match (&decoded, passes) {
                (Ok(_), true) if sample => tally.valid += 1,
                (Ok(_), true) => tally.accepted_alike += 1,
                (Ok(_), false) => {
                    let errors: Vec<String> = validator
                        .iter_errors(&json)
                        .take(3)
                        .map(|e| format!("{} at {}", e, e.instance_path()))
                        .collect();
                    tally.rejected_valid.push(format!(
                        "{path}: {what}: {json}\n  schema: {}",
                        errors.join("; ")
                    ));
                }
                (Err(_), false) => tally.refused_alike += 1,
                (Err(e), true) => match limit_of(schema, path, &json, e) {
                    Some(id) => *tally.excused.entry(id).or_default() += 1,
                    None => tally.unexcused.push(format!(
                        "{path}: {what}: {json}\n  decoder: {} at '{}': {}",
                        e.code(),
                        e.path(),
                        e.issue().message
                    )),
                },
            }
        }
    }
}

/// Each float field of a valid named-shape value set, one at a time, to the doubles at and
/// around what its decoder accepts (worked out here from the declared range and scale, not
/// from the emitter): the integer bounds' values, the rounding edges `(q ± 0.5) / scale`
/// and their neighbours, a thousandth beyond the declared bounds (5000.001 m), the
/// doubles next to a raw float's bounds and f32's largest finite value.
fn float_edges(schema: &ResolvedSchema, path: &str, named: &[u8]) -> Vec<(String, Vec<u8>)> {
    let json = Json::new(schema);
    let Ok((value, _)) = json.parse(named, path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut kinds = HashSet::new();
    for (trail, ft) in json.floats.into_inner() {
        // The first field of each float type: the probes depend on the type alone.
        if !kinds.insert(format!("{ft:?}")) {
            continue;
        }
        let mut probes = Vec::new();
        if let Some(q) = ft.quantized() {
            for k in [q.qmin as f64, q.qmax as f64] {
                for d in [0.0, -0.5, 0.5, -0.4999, 0.4999] {
                    probes.push((k + d) / q.scale);
                }
            }
        }
        if let Some(r) = ft.range {
            for b in [r.min, r.max, r.min as f32 as f64, r.max as f32 as f64] {
                probes.extend([b, b - 0.001, b + 0.001]);
            }
        }
        if ft.bits == 32 && ft.quant.is_none() {
            probes.extend([f32::MAX as f64, -(f32::MAX as f64), 3.4028235677973366e38]);
        }
        let mut all = Vec::new();
        for p in probes {
            all.extend([p, p.next_up(), p.next_down()]);
        }
        all.dedup();
        for x in all {
            let mut v = value.clone();
            let mut at = &mut v;
            for &i in &trail {
                at = match at {
                    rmpv::Value::Array(a) => &mut a[i],
                    rmpv::Value::Map(m) => &mut m[i].1,
                    _ => unreachable!("a trail through containers"),
                };
            }
            *at = rmpv::Value::F64(x);
            let mut bytes = Vec::new();
            rmpv::encode::write_value(&mut bytes, &v).unwrap();
            out.push((format!("float edge {x:?} at {trail:?}"), bytes));
        }
    }
    out
}

/// The limit (of `jsonschema::LIMITS`) a refused value that passes the schema falls in:
/// recognised from the decoder's error and the value at its path, never from how the
/// input was made.
fn limit_of(
    schema: &ResolvedSchema,
    root: &str,
    json: &Value,
    e: &tuplet::Error,
) -> Option<&'static str> {
    let known = |id: &'static str| {
        assert!(LIMITS.iter().any(|l| l.id == id), "{id}");
        Some(id)
    };
    match e.code() {
        Code::TooDeep | Code::TooManyElements => known("decoder-caps"),
        Code::TooLong | Code::TooShort => {
            let (ty, value) = at_path(schema, root, json, &e.path().0)?;
            let bytes_out_code_points_in = |s: &str, len: &tuplet_schema::ir::Len| {
                let (min, max) = len.bounds();
                let chars = s.chars().count() as u32;
                let bytes = s.len() as u32;
                (bytes < min || bytes > max) && chars >= min.div_ceil(4) && chars <= max
            };
            match (&ty, &value) {
                (TypeRef::String { len }, Value::String(s)) if bytes_out_code_points_in(s, len) => {
                    known("utf8-length")
                }
                (TypeRef::Map { key, len, .. }, Value::Object(o)) => {
                    let (min, max) = len.bounds();
                    let TypeRef::String { len: klen } = &**key else {
                        return None;
                    };
                    let entries_fit = (min..=max).contains(&(o.len() as u32));
                    (entries_fit && o.keys().any(|k| bytes_out_code_points_in(k, klen)))
                        .then_some("utf8-length")
                        .and_then(known)
                }
                _ => None,
            }
        }
        Code::UnknownFlags => {
            let (ty, _) = at_path(schema, root, json, &e.path().0)?;
            let TypeRef::Named { path } = ty else {
                return None;
            };
            match &schema.get(&path)?.item.kind {
                ItemKind::Flags(f) if f.rest.is_none() && flags_inexact(f) => known("flag-gaps"),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The type and the JSON value at an error path (canonical field names, indexes, map
/// keys), walking the message's types and its named-shape JSON together.
fn at_path(
    schema: &ResolvedSchema,
    root: &str,
    json: &Value,
    segs: &[Seg],
) -> Option<(TypeRef, Value)> {
    let mut ty = TypeRef::Named { path: root.into() };
    let mut j = json.clone();
    let mut segs = segs.iter();
    loop {
        match ty {
            TypeRef::Option { inner } => ty = *inner,
            TypeRef::Vec { ref inner, .. } | TypeRef::Array { ref inner, .. } => {
                let Some(Seg::Index(i)) = segs.next() else {
                    return Some((ty, j));
                };
                j = j.get(*i as usize)?.clone();
                ty = (**inner).clone();
            }
            TypeRef::Map { ref value, .. } => {
                let Some(Seg::Key(k)) = segs.next() else {
                    return Some((ty, j));
                };
                j = j.get(k)?.clone();
                ty = (**value).clone();
            }
            TypeRef::Named { ref path } => {
                let slots: &[Slot] = match &schema.get(path)?.item.kind {
                    ItemKind::Record(r) => &r.slots,
                    ItemKind::Message(m) => &m.record.slots,
                    ItemKind::Enum(e) if !e.is_unit() => {
                        let (name, body) = j.as_object()?.iter().next()?;
                        let v = e.variants.iter().find(|v| &v.name == name)?;
                        let body = body.clone();
                        match &v.fields {
                            VariantFields::Unit => return Some((ty, j)),
                            VariantFields::Newtype { field } => {
                                ty = field.ty.clone();
                                j = body;
                                continue;
                            }
                            VariantFields::Struct { record } => {
                                j = body;
                                &record.slots
                            }
                        }
                    }
                    _ => return Some((ty, j)),
                };
                let Some(Seg::Field(name)) = segs.next() else {
                    return Some((ty, j));
                };
                let f = slots.iter().find_map(|s| match s {
                    Slot::Field(f) if f.name == *name => Some(f),
                    _ => None,
                })?;
                let o = j.as_object()?;
                j = match Legacy::of(f) {
                    Legacy::Alias(a) => o.get(a).or_else(|| o.get(&f.name))?.clone(),
                    Legacy::Spread { keys, .. } if !o.contains_key(&f.name) => Value::Array(
                        keys.iter()
                            .map(|k| o.get(k).cloned().unwrap_or(Value::Null))
                            .collect(),
                    ),
                    _ => o.get(&f.name)?.clone(),
                };
                ty = f.ty.clone();
            }
            _ => return Some((ty, j)),
        }
    }
}

/// Where a msgpack value sits, for writing it as JSON: which keys a map may have.
#[derive(Clone, Copy)]
enum Ctx<'s> {
    Ty(&'s TypeRef),
    Record(&'s [Slot]),
    Data(&'s Enum),
    Any,
}

/// Named-shape bytes as JSON.
struct Json<'s> {
    schema: &'s ResolvedSchema,
    /// Where the float fields are: child indexes (array element, map entry) from the
    /// root of the msgpack value, with the field's type.
    floats: RefCell<Vec<(Vec<usize>, FloatType)>>,
}

impl<'s> Json<'s> {
    /// The JSON of one whole message's bytes, or why there is none.
    fn new(schema: &'s ResolvedSchema) -> Self {
        Json {
            schema,
            floats: RefCell::new(Vec::new()),
        }
    }

    fn of(&self, bytes: &[u8], path: &str) -> Result<Value, &'static str> {
        Ok(self.parse(bytes, path)?.1)
    }

    /// The msgpack value of `bytes` and its JSON.
    fn parse(&self, bytes: &[u8], path: &str) -> Result<(rmpv::Value, Value), &'static str> {
        // rmpv reads 0xc1 as nil: the runtime's reader finds it first (without caps).
        let limits = Limits {
            max_depth: u32::MAX,
            max_elements: u32::MAX,
        };
        let mut r = Reader::with_limits(bytes, limits);
        r.skip_value().map_err(|e| match e.code() {
            Code::ReservedMarker => "0xc1",
            _ => "not one msgpack value",
        })?;
        r.finish().map_err(|_| "trailing bytes")?;
        let v = rmpv::decode::read_value(&mut &bytes[..]).map_err(|_| "not one msgpack value")?;
        let json = self.conv(&v, self.item(path), &mut Vec::new())?;
        Ok((v, json))
    }

    /// Options unwrapped, named items to the map shape they take.
    fn unwrap(&self, ctx: Ctx<'s>) -> Ctx<'s> {
        match ctx {
            Ctx::Ty(TypeRef::Option { inner }) => self.unwrap(Ctx::Ty(inner)),
            Ctx::Ty(TypeRef::Named { path }) => self.item(path),
            c => c,
        }
    }

    /// The map shape of the item at `path`.
    fn item(&self, path: &str) -> Ctx<'s> {
        match self.schema.get(path).map(|i| &i.item.kind) {
            Some(ItemKind::Record(r)) => Ctx::Record(&r.slots),
            Some(ItemKind::Message(m)) => Ctx::Record(&m.record.slots),
            Some(ItemKind::Enum(e)) if !e.is_unit() => Ctx::Data(e),
            _ => Ctx::Any,
        }
    }

    fn conv(
        &self,
        v: &rmpv::Value,
        ctx: Ctx<'s>,
        trail: &mut Vec<usize>,
    ) -> Result<Value, &'static str> {
        use rmpv::Value as M;
        let ctx = self.unwrap(ctx);
        if let Ctx::Ty(TypeRef::Float(ft)) = ctx {
            self.floats.borrow_mut().push((trail.clone(), ft.clone()));
        }
        let number = |x: f64| {
            serde_json::Number::from_f64(x)
                .map(Value::Number)
                .ok_or("NaN or an infinity")
        };
        Ok(match v {
            M::Nil => Value::Null,
            M::Boolean(b) => Value::Bool(*b),
            M::Integer(i) => match (i.as_i64(), i.as_u64()) {
                (Some(n), _) => Value::from(n),
                (_, Some(n)) => Value::from(n),
                _ => return Err("an int msgpack cannot hold"),
            },
            M::F32(x) => number(*x as f64)?,
            M::F64(x) => number(*x)?,
            M::String(s) => Value::String(s.as_str().ok_or("invalid UTF-8")?.to_owned()),
            M::Binary(b) => Value::Array(b.iter().map(|&x| Value::from(x)).collect()),
            // msgpackr's `undefined` counts as nil.
            M::Ext(0, d) if d.as_slice() == [0] => Value::Null,
            M::Ext(..) => return Err("an ext value"),
            M::Array(a) => {
                let inner = match ctx {
                    Ctx::Ty(TypeRef::Vec { inner, .. } | TypeRef::Array { inner, .. }) => {
                        Ctx::Ty(inner)
                    }
                    _ => Ctx::Any,
                };
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    trail.push(i);
                    out.push(self.conv(x, inner, trail)?);
                    trail.pop();
                }
                Value::Array(out)
            }
            M::Map(entries) => {
                let mut o = Map::new();
                for (i, (k, x)) in entries.iter().enumerate() {
                    let (key, child) = self.entry(k, ctx)?;
                    if o.contains_key(&key) {
                        return Err("a key twice in one map");
                    }
                    trail.push(i);
                    o.insert(key, self.conv(x, child, trail)?);
                    trail.pop();
                }
                Value::Object(o)
            }
        })
    }

    /// A map entry's JSON key, and where its value sits.
    fn entry(&self, k: &rmpv::Value, ctx: Ctx<'s>) -> Result<(String, Ctx<'s>), &'static str> {
        use rmpv::Value as M;
        if let Ctx::Ty(TypeRef::Map { key, value, .. }) = ctx {
            if matches!(**key, TypeRef::Int(_)) {
                // JSON writes an int key as its decimal text (JavaScript's String(n)).
                let text = match k {
                    M::Integer(i) => i.to_string(),
                    M::String(s) => s.as_str().ok_or("invalid UTF-8")?.to_owned(),
                    M::F64(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e21 => {
                        format!("{}", *x as i128)
                    }
                    M::F32(x) if x.is_finite() && x.fract() == 0.0 => format!("{}", *x as i128),
                    M::F64(x) if x.is_finite() => x.to_string(),
                    _ => return Err("a map key JSON cannot hold"),
                };
                return Ok((text, Ctx::Ty(value)));
            }
        }
        let text = match k {
            M::String(s) => s.as_str().ok_or("invalid UTF-8")?.to_owned(),
            _ => return Err("a non-string key where keys are strings"),
        };
        let child = match ctx {
            Ctx::Ty(TypeRef::Map { value, .. }) => Ctx::Ty(value),
            Ctx::Record(slots) => {
                let plan = RecordPlan::of_slots(slots);
                let slot = plan
                    .key_arms()
                    .into_iter()
                    .find(|a| a.key == text)
                    .and_then(|a| Some((plan.slots[a.slot].field?, a.elem)));
                match slot {
                    Some((f, Some(_))) => match &f.ty {
                        TypeRef::Array { inner, .. } => Ctx::Ty(inner),
                        _ => Ctx::Any,
                    },
                    Some((f, None)) => Ctx::Ty(&f.ty),
                    None => Ctx::Any,
                }
            }
            Ctx::Data(e) => match e.variants.iter().find(|v| v.name == text) {
                Some(v) => match &v.fields {
                    VariantFields::Unit => Ctx::Any,
                    VariantFields::Newtype { field } => Ctx::Ty(&field.ty),
                    VariantFields::Struct { record } => Ctx::Record(&record.slots),
                },
                None => Ctx::Any,
            },
            _ => Ctx::Any,
        };
        Ok((text, child))
    }
}

/// The schemas of `schema`'s messages, by message path, from the emitter.
fn emitted(schema: &ResolvedSchema) -> BTreeMap<String, (String, Value)> {
    message_files(schema)
        .into_iter()
        .map(|f| (f.path, (f.file, f.schema.as_value().clone())))
        .collect()
}

#[test]
fn village_schemas_agree_with_the_codecs() {
    let repo = support::repo();
    let schema =
        tuplet_schema::load(&repo.join("examples/village")).unwrap_or_else(|e| panic!("{e}"));
    let mut committed = BTreeMap::new();
    for (path, (file, doc)) in emitted(&schema) {
        let on_disk = repo.join("generated/jsonschema").join(&file);
        let text = std::fs::read_to_string(&on_disk)
            .unwrap_or_else(|e| panic!("{}: {e}", on_disk.display()));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value, doc,
            "{file}: stale; run `cargo run -p tuplet-codegen -- gen`"
        );
        committed.insert(path, value);
    }
    let mut tally = Tally::default();
    judge(&schema, &committed, &mut tally);
    tally.print("village");
    tally.assert_agrees("village");
}

#[test]
fn random_schemas_agree_with_the_codecs() {
    let spec = std::env::var("TUPLET_JSONSCHEMA_SEEDS").unwrap_or_else(|_| "1..7".into());
    let (a, b) = spec.split_once("..").expect("TUPLET_JSONSCHEMA_SEEDS=A..B");
    let mut total = Tally::default();
    for seed in a.parse::<u64>().unwrap()..b.parse().unwrap() {
        let generated = support::random_schema::schema(seed);
        let krate = support::schema_crate(&[("lib.rs", &generated.text)]);
        let schema = support::load(krate.path()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let docs = emitted(&schema)
            .into_iter()
            .map(|(path, (_, doc))| (path, doc))
            .collect();
        let mut tally = Tally::default();
        judge(&schema, &docs, &mut tally);
        tally.print(&format!("random schema, seed {seed}"));
        tally.assert_agrees(&format!("seed {seed}"));
        total.messages += tally.messages;
        total.valid += tally.valid;
        total.accepted_alike += tally.accepted_alike;
        total.refused_alike += tally.refused_alike;
        total.edges.0 += tally.edges.0;
        total.edges.1 += tally.edges.1;
        for (k, n) in tally.excused {
            *total.excused.entry(k).or_default() += n;
        }
        for (k, n) in tally.no_json {
            *total.no_json.entry(k).or_default() += n;
        }
    }
    total.print(&format!("random schemas, seeds {spec}"));
}
