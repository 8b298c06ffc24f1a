//! The memory bound of every village decoder, counted: decoding any payload of n bytes as
//! message T allocates at most c(T)·n + k(T) bytes in total, plus its error when it fails (every allocation
//! counted, none subtracted for frees), where c(T) and k(T) come from the IR
//! (`tuplet_schema::heap`). Checked over the committed fuzz corpora and adversarial inputs;
//! the committed tight inputs (`tests/fixtures/memory_tight.txt`, one per of the ten largest
//! messages) reach at least c(T)/2·n, so the bound is not loose; the table in WIRE.md is the
//! one printed here. Its own test binary: the counting allocator is global.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;

use tuplet::wire::{write, Reader};
use tuplet::{Dispatch, SampleMode};
use tuplet_schema::heap::{Heap, HeapBound};
use tuplet_schema::ir::{Dir, ItemKind, Slot, TypeRef, VariantFields};
use tuplet_schema::plan::{EnumPlan, RecordPlan};
use tuplet_schema::ResolvedSchema;
use village::dispatch::{ClientMessage, ServerMessage};

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

/// Counts every byte this thread allocates (a reallocation counts its whole new size).
struct Counting;

fn count(n: usize) {
    let _ = ALLOCATED.try_with(|c| c.set(c.get() + n));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count(l.size());
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        count(l.size());
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        count(new);
        System.realloc(p, l, new)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What a failed decode may allocate besides the value, apart from copies of the map keys
/// on its path (at most the input's size): the error's message and its path at the depth
/// cap.
const ERROR_SLACK: usize = 8192;

fn schema() -> ResolvedSchema {
    tuplet_schema::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/village"
    )))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// One message of one direction with its bound.
struct Target {
    dir: Dir,
    id: u32,
    name: &'static str,
    path: String,
    bound: HeapBound,
}

fn targets(schema: &ResolvedSchema) -> Vec<Target> {
    let heap = Heap::new(schema);
    let mut out = Vec::new();
    for (dir, messages, ids) in [
        (Dir::C2s, ClientMessage::MESSAGES, &schema.c2s),
        (Dir::S2c, ServerMessage::MESSAGES, &schema.s2c),
    ] {
        for &(name, id) in messages {
            let path = ids[&id].clone();
            let bound = heap.bound_of(&path);
            out.push(Target {
                dir,
                id,
                name,
                path,
                bound,
            });
        }
    }
    out
}

/// Decodes `payload` as message `id` of `dir`: (bytes allocated, whether it decoded).
fn decode(dir: Dir, id: u32, payload: &[u8]) -> (usize, bool) {
    let before = ALLOCATED.with(|c| c.get());
    let ok = {
        let mut r = Reader::new(payload);
        match dir {
            Dir::C2s => ClientMessage::decode_by_id(id, &mut r)
                .and_then(|v| r.finish().map(|()| v))
                .is_ok(),
            _ => ServerMessage::decode_by_id(id, &mut r)
                .and_then(|v| r.finish().map(|()| v))
                .is_ok(),
        }
    };
    (ALLOCATED.with(|c| c.get()) - before, ok)
}

/// The most a decode of `n` bytes may allocate: c·n + k, and for a failed one its error.
fn limit(b: &HeapBound, n: usize, ok: bool) -> f64 {
    let error = if ok { 0 } else { ERROR_SLACK + n };
    b.per_byte * n as f64 + (b.slack + error) as f64
}

/// Checks one payload against its message's bound; returns the bytes allocated.
fn check(t: &Target, payload: &[u8], what: &str) -> usize {
    let (got, ok) = decode(t.dir, t.id, payload);
    let max = limit(&t.bound, payload.len(), ok);
    assert!(
        got as f64 <= max,
        "{} ({}): {what}: {got} bytes allocated for {} input bytes, over c·n + k = {max:.0} \
         (c = {:.2}, k = {}); input {}",
        t.name,
        t.dir.as_str(),
        payload.len(),
        t.bound.per_byte,
        t.bound.slack,
        hex(payload)
    );
    got
}

fn hex(b: &[u8]) -> String {
    if b.len() > 64 {
        return format!("{} ... ({} bytes)", hex(&b[..64]), b.len());
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn by_dir_id(targets: &[Target]) -> BTreeMap<(Dir, u32), &Target> {
    targets.iter().map(|t| ((t.dir, t.id), t)).collect()
}

/// Every committed fuzz input that is an envelope (with or without `decode_village`'s
/// selector byte), decoded as the message its id names in both directions.
#[test]
fn the_fuzz_corpora_stay_within_the_bound() {
    let schema = schema();
    let targets = targets(&schema);
    let index = by_dir_id(&targets);
    let mut decoded = 0;
    for target in [
        "decode_village",
        "envelope_c2s",
        "envelope_s2c",
        "ircodec_agrees",
    ] {
        for data in tuplet_tests::corpus::inputs(target) {
            for skip in [0, 1] {
                let Some(env) = data.get(skip..) else {
                    continue;
                };
                let mut r = Reader::new(env);
                let Ok(id) = r.read_u64(0, u32::MAX as u64) else {
                    continue;
                };
                let payload = &env[env.len() - r.remaining()..];
                for dir in [Dir::C2s, Dir::S2c] {
                    if let Some(t) = index.get(&(dir, id as u32)) {
                        check(t, payload, target);
                        decoded += 1;
                    }
                }
            }
        }
    }
    assert!(decoded > 10_000, "{decoded} decodes");
}

/// The msgpack header of an array (`map` false) or map of `n` in the widest form that holds
/// it, and in the smallest.
fn headers(map: bool, n: u32) -> Vec<Vec<u8>> {
    let mut small = Vec::new();
    if map {
        write::map_len(&mut small, n);
    } else {
        write::array_len(&mut small, n);
    }
    let mut wide = vec![if map { 0xdf } else { 0xdd }];
    wide.extend_from_slice(&n.to_be_bytes());
    vec![small, wide]
}

/// Adversarial variants of a valid payload: every container header re-declared at every size
/// class (up to the remaining input, and past it), then the payload cut short at each of a
/// few points; the same with every str/bin header claiming the rest.
fn adversarial(payload: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (i, &b) in payload.iter().enumerate() {
        let map = match b {
            0x80..=0x8f | 0xde | 0xdf => true,
            0x90..=0x9f | 0xdc | 0xdd => false,
            _ => continue,
        };
        let width = match b {
            0xdc | 0xde => 3,
            0xdd | 0xdf => 5,
            _ => 1,
        };
        let Some(rest) = payload.get(i + width..) else {
            continue;
        };
        let left = rest.len() as u32;
        for n in [15, left / 2, left, left + 1, 0xffff, u32::MAX] {
            for h in headers(map, n) {
                let mut v = payload[..i].to_vec();
                v.extend_from_slice(&h);
                v.extend_from_slice(rest);
                out.push(v);
            }
        }
        if out.len() > 400 {
            break;
        }
    }
    let cuts: Vec<Vec<u8>> = out
        .iter()
        .chain(std::iter::once(&payload.to_vec()))
        .flat_map(|v| {
            let n = v.len();
            [n / 4, n / 2, 3 * n / 4, n.saturating_sub(1)]
                .into_iter()
                .map(move |c| v[..c].to_vec())
        })
        .collect();
    out.extend(cuts);
    out
}

/// The valid payloads of every message (samples in each mode, compact and named) and their
/// adversarial variants; nested headers, deep nesting in a skipped trailing slot, maps with
/// many one-byte entries and strings at their limit come from the samples (`Max` fills every
/// string and list to its limit) and from the generated tight inputs below.
#[test]
fn adversarial_inputs_stay_within_the_bound() {
    let schema = schema();
    let targets = targets(&schema);
    let mut checked = 0;
    for (i, t) in targets.iter().enumerate() {
        let index = match t.dir {
            Dir::C2s => i,
            _ => i - ClientMessage::MESSAGES.len(),
        };
        let mut payloads = Vec::new();
        for mode in SampleMode::ALL {
            for enc in [tuplet::Encoding::Compact, tuplet::Encoding::Named] {
                let mut out = Vec::new();
                match t.dir {
                    Dir::C2s => ClientMessage::sample_variant(index, 7, mode)
                        .unwrap()
                        .encode_payload(&mut out, enc),
                    _ => ServerMessage::sample_variant(index, 7, mode)
                        .unwrap()
                        .encode_payload(&mut out, enc),
                }
                .unwrap();
                payloads.push(out);
            }
        }
        payloads.push(tight_payload(&schema, t));
        for p in payloads {
            let (_, ok) = decode(t.dir, t.id, &p);
            assert!(ok, "{}: a valid payload fails", t.name);
            // Deep nesting in a skipped value: one more trailing slot holding 60 arrays.
            let mut deep = p.clone();
            if let Some(first) = deep.first_mut() {
                if (0x90..0x9f).contains(first) {
                    *first += 1;
                    deep.extend([0x91; 60]);
                    deep.push(0xc0);
                    check(t, &deep, "deep skipped nesting");
                }
            }
            for v in adversarial(&p) {
                check(t, &v, "adversarial");
                checked += 1;
            }
            check(t, &p, "valid");
        }
    }
    assert!(checked > 10_000, "{checked} inputs");
}

/// The compact encoding of the smallest value of `ty` (the least of every number, string,
/// list and map; options absent; an enum's first variant).
fn least_bytes(schema: &ResolvedSchema, ty: &TypeRef, out: &mut Vec<u8>) {
    match ty {
        TypeRef::Bool => write::bool(out, false),
        TypeRef::Int(it) => {
            let (lo, hi) = it.bounds();
            write::int(out, 0i128.clamp(lo, hi) as i64);
        }
        TypeRef::Float(ft) => match ft.quant_bounds() {
            Some((lo, hi)) => write::int(out, 0i64.clamp(lo, hi)),
            None => {
                let (lo, hi) = ft.value_bounds();
                write::int(out, 0f64.clamp(lo, hi).ceil() as i64)
            }
        },
        TypeRef::String { len } => write::str(out, &"a".repeat(len.min.unwrap_or(0) as usize)),
        TypeRef::Bytes { len } => write::bin(out, &vec![0; len.min.unwrap_or(0) as usize]),
        TypeRef::Option { .. } => write::nil(out),
        TypeRef::Vec { inner, len } => {
            let n = len.min.unwrap_or(0);
            write::array_len(out, n);
            for _ in 0..n {
                least_bytes(schema, inner, out);
            }
        }
        TypeRef::Array { inner, len } => {
            write::array_len(out, *len);
            for _ in 0..*len {
                least_bytes(schema, inner, out);
            }
        }
        TypeRef::Map { key, value, len } => {
            let n = len.min.unwrap_or(0);
            write::map_len(out, n);
            for i in 0..n {
                key_bytes(key, i, out);
                least_bytes(schema, value, out);
            }
        }
        TypeRef::Named { path } => match &schema.get(path).unwrap().item.kind {
            ItemKind::Message(m) => record_bytes(schema, &m.record.slots, None, out),
            ItemKind::Record(r) => record_bytes(schema, &r.slots, None, out),
            ItemKind::Enum(e) => {
                let v = &e.variants[0];
                match &v.fields {
                    _ if e.is_unit() => write::int(out, v.number),
                    VariantFields::Unit => {
                        write::array_len(out, 1);
                        write::uint(out, EnumPlan::tag(v));
                    }
                    VariantFields::Newtype { field } => {
                        write::array_len(out, 2);
                        write::uint(out, EnumPlan::tag(v));
                        least_bytes(schema, &field.ty, out);
                    }
                    VariantFields::Struct { record } => {
                        let plan = RecordPlan::of(record);
                        write::array_len(out, plan.required as u32 + 1);
                        write::uint(out, EnumPlan::tag(v));
                        for s in &record.slots[..plan.required] {
                            slot_bytes(schema, s, out);
                        }
                    }
                }
            }
            ItemKind::Flags(_) => write::uint(out, 0),
            ItemKind::Dispatch(_) => unreachable!(),
        },
    }
}

/// The `i`-th distinct map key of type `key`.
fn key_bytes(key: &TypeRef, i: u32, out: &mut Vec<u8>) {
    match key {
        TypeRef::String { .. } => write::str(out, &key_text(i)),
        _ => write::uint(out, i as u64),
    }
}

/// Short distinct strings: "", then every one-byte character, then two.
fn key_text(i: u32) -> String {
    let one = |n: u32| char::from(1 + (n % 127) as u8);
    match i {
        0 => String::new(),
        1..=127 => one(i - 1).to_string(),
        _ => format!("{}{}", one((i - 128) / 127), one(i - 128)),
    }
}

fn slot_bytes(schema: &ResolvedSchema, s: &Slot, out: &mut Vec<u8>) {
    match s {
        Slot::Field(f) => least_bytes(schema, &f.ty, out),
        Slot::Reserved(_) => write::nil(out),
    }
}

/// A record with its required slots at their least, except slot `fill` (index and bytes).
fn record_bytes(
    schema: &ResolvedSchema,
    slots: &[Slot],
    fill: Option<(usize, &[u8])>,
    out: &mut Vec<u8>,
) {
    let plan = RecordPlan::of_slots(slots);
    let n = plan.required.max(fill.map_or(0, |(i, _)| i + 1));
    write::array_len(out, n as u32);
    for (i, s) in slots[..n].iter().enumerate() {
        match fill {
            Some((j, bytes)) if i == j => out.extend_from_slice(bytes),
            _ => slot_bytes(schema, s, out),
        }
    }
}

/// Input bytes a generated tight payload aims at.
const TIGHT_BYTES: usize = 4096;

/// A list or map of `ty` as full as `TIGHT_BYTES` allows with its least elements (for a
/// list of records holding maps, each map with one entry); `None` for other types.
fn filled(schema: &ResolvedSchema, ty: &TypeRef) -> Option<Vec<u8>> {
    let heap = Heap::new(schema);
    match ty {
        TypeRef::Option { inner } => filled(schema, inner),
        TypeRef::Vec { inner, len } => {
            let mut one = Vec::new();
            match element_with_entries(schema, inner) {
                Some(e) => one = e,
                None => least_bytes(schema, inner, &mut one),
            }
            let max = len.max.unwrap_or(u32::MAX) as usize;
            let n = (TIGHT_BYTES / one.len())
                .min(max)
                .max(len.min.unwrap_or(0) as usize);
            let mut out = Vec::new();
            write::array_len(&mut out, n as u32);
            for _ in 0..n {
                out.extend_from_slice(&one);
            }
            Some(out)
        }
        TypeRef::Map { key, value, len } => {
            let entry = heap.least(key) + heap.least(value);
            let max = len.max.unwrap_or(u32::MAX) as usize;
            let n = (TIGHT_BYTES / entry).min(max).min(127 * 128);
            let mut out = Vec::new();
            write::map_len(&mut out, n as u32);
            for i in 0..n as u32 {
                key_bytes(key, i, &mut out);
                least_bytes(schema, value, &mut out);
            }
            Some(out)
        }
        TypeRef::String { len } => {
            let mut out = Vec::new();
            write::str(
                &mut out,
                &"a".repeat(TIGHT_BYTES.min(len.max.unwrap_or(u32::MAX) as usize)),
            );
            Some(out)
        }
        TypeRef::Bytes { len } => {
            let mut out = Vec::new();
            write::bin(
                &mut out,
                &vec![0; TIGHT_BYTES.min(len.max.unwrap_or(u32::MAX) as usize)],
            );
            Some(out)
        }
        _ => None,
    }
}

/// Whether `ty` is a bounded map (through an `Option`): its nodes are in k(T), not c(T).
fn in_slack(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Option { inner } => in_slack(inner),
        TypeRef::Map { len, .. } => len.max.is_some(),
        _ => false,
    }
}

/// The least value of `ty` but for one string as long as `TIGHT_BYTES` and its limit allow
/// (a map's key, or a field of a record), through one map entry; `None` without strings.
fn long_string(schema: &ResolvedSchema, ty: &TypeRef) -> Option<Vec<u8>> {
    match ty {
        TypeRef::String { .. } => filled(schema, ty),
        TypeRef::Option { inner } => long_string(schema, inner),
        TypeRef::Map { key, value, .. } => {
            let mut out = Vec::new();
            write::map_len(&mut out, 1);
            match long_string(schema, key) {
                Some(k) => {
                    out.extend(k);
                    least_bytes(schema, value, &mut out);
                }
                None => {
                    key_bytes(key, 0, &mut out);
                    out.extend(long_string(schema, value)?);
                }
            }
            Some(out)
        }
        TypeRef::Named { path } => {
            let ItemKind::Record(r) = &schema.get(path)?.item.kind else {
                return None;
            };
            let (i, bytes) = r.slots.iter().enumerate().find_map(|(i, s)| match s {
                Slot::Field(f) => Some((i, long_string(schema, &f.ty)?)),
                Slot::Reserved(_) => None,
            })?;
            let mut out = Vec::new();
            record_bytes(schema, &r.slots, Some((i, &bytes)), &mut out);
            Some(out)
        }
        _ => None,
    }
}

/// A record element whose map fields each hold one least entry, when it has any.
fn element_with_entries(schema: &ResolvedSchema, ty: &TypeRef) -> Option<Vec<u8>> {
    let TypeRef::Named { path } = ty else {
        return None;
    };
    let ItemKind::Record(r) = &schema.get(path)?.item.kind else {
        return None;
    };
    let maps: Vec<usize> = r
        .slots
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Slot::Field(f) if matches!(f.ty, TypeRef::Map { .. })))
        .map(|(i, _)| i)
        .collect();
    if maps.is_empty() {
        return None;
    }
    let n = r.slots.len();
    let mut out = Vec::new();
    write::array_len(&mut out, n as u32);
    for (i, s) in r.slots.iter().enumerate() {
        match s {
            Slot::Field(f) if maps.contains(&i) => {
                let TypeRef::Map { key, value, .. } = &f.ty else {
                    unreachable!()
                };
                write::map_len(&mut out, 1);
                key_bytes(key, 0, &mut out);
                least_bytes(schema, value, &mut out);
            }
            _ => slot_bytes(schema, s, &mut out),
        }
    }
    Some(out)
}

/// The payload of `t` with one top-level list, map or string filled: of the candidates (each
/// such field in turn; a bounded map, whose nodes k(T) counts, with one long string), the one that allocates
/// the most per input byte beyond the least payload.
fn tight_payload(schema: &ResolvedSchema, t: &Target) -> Vec<u8> {
    let slots = match &schema.get(&t.path).unwrap().item.kind {
        ItemKind::Message(m) => &m.record.slots,
        _ => unreachable!(),
    };
    let mut best = (f64::MIN, Vec::new());
    for (i, s) in slots.iter().enumerate() {
        let Slot::Field(f) = s else { continue };
        let bytes = if in_slack(&f.ty) {
            long_string(schema, &f.ty)
        } else {
            filled(schema, &f.ty)
        };
        let Some(bytes) = bytes else { continue };
        let mut p = Vec::new();
        record_bytes(schema, slots, Some((i, &bytes)), &mut p);
        // Over c(T) only through k(T)'s part (a bounded map's node): a last resort.
        let rate = marginal(schema, t, &p).2;
        let rate = if rate <= t.bound.per_byte {
            rate
        } else {
            -rate
        };
        if best.1.is_empty() || rate > best.0 {
            best = (rate, p);
        }
    }
    if best.1.is_empty() {
        record_bytes(schema, slots, None, &mut best.1);
    }
    best.1
}

/// The least payload of `t` (every field at its least), and what decoding it allocates.
fn least_payload(schema: &ResolvedSchema, t: &Target) -> (Vec<u8>, usize) {
    let mut p = Vec::new();
    least_bytes(
        schema,
        &TypeRef::Named {
            path: t.path.clone(),
        },
        &mut p,
    );
    let (got, ok) = decode(t.dir, t.id, &p);
    assert!(ok, "{}: its least payload does not decode", t.name);
    (p, got)
}

/// (bytes allocated, whether it decoded, heap per input byte beyond the least payload's):
/// the rate a long input approaches, free of the constant part.
fn marginal(schema: &ResolvedSchema, t: &Target, payload: &[u8]) -> (usize, bool, f64) {
    let (least, least_got) = least_payload(schema, t);
    let (got, ok) = decode(t.dir, t.id, payload);
    let extra = payload.len().saturating_sub(least.len()).max(1);
    let rate = got.saturating_sub(least_got) as f64 / extra as f64;
    (got, ok, if ok { rate } else { 0.0 })
}

/// The ten largest messages: by the compact size of their `Max` sample.
fn largest(targets: &[Target]) -> Vec<&Target> {
    let mut sized: Vec<(usize, &Target)> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let n = match t.dir {
                Dir::C2s => ClientMessage::sample_variant(i, 0, SampleMode::Max)
                    .unwrap()
                    .to_envelope(tuplet::Encoding::Compact),
                _ => ServerMessage::sample_variant(
                    i - ClientMessage::MESSAGES.len(),
                    0,
                    SampleMode::Max,
                )
                .unwrap()
                .to_envelope(tuplet::Encoding::Compact),
            }
            .unwrap()
            .len();
            (n, t)
        })
        .collect();
    sized.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.name.cmp(b.1.name)));
    sized.into_iter().take(10).map(|(_, t)| t).collect()
}

const TIGHT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/memory_tight.txt");

/// The table WIRE.md quotes, and the committed tight inputs (regenerated with
/// `TUPLET_BLESS=1`): each decodes, stays within c·n + k and reaches c/2·n.
#[test]
fn the_largest_messages_have_tight_inputs_and_the_wire_md_table() {
    let schema = schema();
    let targets = targets(&schema);
    let largest = largest(&targets);
    let bless = std::env::var_os("TUPLET_BLESS").is_some();
    let committed = std::fs::read_to_string(TIGHT).unwrap_or_default();
    let committed: BTreeMap<&str, &str> = committed
        .lines()
        .filter_map(|l| l.split_once(' '))
        .collect();
    let mut file = String::new();
    let mut table = String::from(
        "| message | dir | c(T), bytes per input byte | k(T), bytes | tight input, bytes | allocated | per byte beyond the least payload | share of c(T) |\n\
         |---|---|--:|--:|--:|--:|--:|--:|\n",
    );
    for t in largest {
        let key = format!("{}/{}", t.dir.as_str(), t.name);
        let payload = if bless {
            tight_payload(&schema, t)
        } else {
            let hex = committed
                .get(key.as_str())
                .unwrap_or_else(|| panic!("no tight input for {key} in {TIGHT}"));
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        };
        file.push_str(&format!("{key} {}\n", hex_all(&payload)));
        let (got, ok, per_byte) = marginal(&schema, t, &payload);
        assert!(ok, "{key}: the tight input does not decode");
        let n = payload.len();
        check(t, &payload, "tight");
        table.push_str(&format!(
            "| `{}` | {} | {:.1} | {} | {n} | {got} | {per_byte:.1} | {:.0}% |\n",
            t.name,
            t.dir.as_str(),
            t.bound.per_byte,
            t.bound.slack,
            100.0 * per_byte / t.bound.per_byte
        ));
        assert!(
            per_byte >= t.bound.per_byte / 2.0,
            "{key}: the tight input allocates {per_byte:.2} bytes per byte, under c/2 = {:.2}",
            t.bound.per_byte / 2.0
        );
    }
    if bless {
        std::fs::write(TIGHT, &file).unwrap();
    }
    eprintln!("{table}");
    let wire = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../WIRE.md")).unwrap();
    assert!(
        wire.contains(&table),
        "WIRE.md's memory-bound table is stale; the current one:\n{table}"
    );
}

fn hex_all(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The IR's estimates that c(T) rests on, against the compiler: the layout of the element
/// types of the tight inputs' lists and maps (and their messages), and the derive's
/// `MIN_SIZE` against the least encoding computed from the IR.
#[test]
fn the_estimates_match_the_compiled_types() {
    use tuplet::Wire;
    let schema = schema();
    let heap = Heap::new(&schema);
    macro_rules! types {
        ($($t:ident :: $name:ident),* $(,)?) => {
            vec![$((
                concat!("crate::", stringify!($t), "::", stringify!($name)),
                std::mem::size_of::<village::$t::$name>(),
                std::mem::align_of::<village::$t::$name>(),
                <village::$t::$name as Wire>::MIN_SIZE,
            )),*]
        };
    }
    let types = types![
        crafting::Recipe,
        crafting::CraftingRecipes,
        housing::Furniture,
        housing::HousingInterior,
        common::ItemStack,
        common::PlayerRef,
        chat::HistoryLine,
        friends::Friend,
        mail::Letter,
        calendar::CalendarEvent,
        markers::Marker,
        props::BoardNote,
        inventory::Slot,
        player::RosterEntry,
    ];
    for (path, size, align, min_size) in types {
        let ty = TypeRef::Named {
            path: path.to_owned(),
        };
        let layout = heap.layout(&ty);
        assert_eq!((layout.size, layout.align), (size, align), "{path}: layout");
        assert_eq!(heap.least(&ty), min_size, "{path}: least encoding");
    }
}
