//! Checks, sizes and sample helpers that derived code calls (through `__private_0_1`).
//!
//! Each check is written once here so that encode, validate and decode report the same
//! code and the same message for the same problem.

use crate::error::{Code, Error, Issue, Path, Seg};
use crate::sample::{SampleMode, SampleRng};
use crate::wire::fail::{self, float_text, units};

/// `v` must lie in `min..=max`.
#[inline]
pub fn check_int(v: i128, min: i128, max: i128) -> Result<(), Error> {
    if v < min || v > max {
        return Err(fail::out_of_range(v, min, max));
    }
    Ok(())
}

/// A raw f64 must be finite and within `min..=max`.
#[inline]
pub fn check_f64(v: f64, min: f64, max: f64) -> Result<(), Error> {
    if !v.is_finite() {
        return Err(fail::not_finite(v));
    }
    if v < min || v > max {
        return Err(fail::out_of_range(
            float_text(v),
            float_text(min),
            float_text(max),
        ));
    }
    Ok(())
}

/// A raw f32 must be finite and, as f32, within `min..=max`.
#[inline]
pub fn check_f32(v: f32, min: f64, max: f64) -> Result<(), Error> {
    check_f64(v as f64, min, max)
}

/// A length (`unit` is "bytes", "elements" or "entries") must lie in `min..=max`.
#[inline]
pub fn check_len(len: usize, min: u32, max: u32, unit: &'static str) -> Result<(), Error> {
    // The comparisons inline into the caller; the message is built out of line.
    if len > max as usize || len < min as usize {
        return Err(len_error(len, min, max, unit));
    }
    Ok(())
}

/// The error of a length [`check_len`] rejects.
#[cold]
#[inline(never)]
fn len_error(len: usize, min: u32, max: u32, unit: &'static str) -> Error {
    if len > max as usize {
        return Error::new(
            Code::TooLong,
            format!("{}, at most {max}", units(len as u64, unit)),
        );
    }
    Error::new(
        Code::TooShort,
        format!("{}, at least {min}", units(len as u64, unit)),
    )
}

/// A fixed-size array arrived with `len` elements instead of `expected`.
#[cold]
pub fn wrong_length(len: u32, expected: u32) -> Error {
    Error::new(
        Code::WrongLength,
        format!("{}, expected {expected}", units(len.into(), "elements")),
    )
}

/// A required field is absent.
#[cold]
pub fn missing(name: &'static str) -> Error {
    Error::new(Code::MissingField, format!("missing field {name}")).in_field(name)
}

/// One element of an array spread over legacy keys is absent (path `p[1]`).
#[cold]
pub fn missing_index(name: &'static str, index: usize) -> Error {
    Error::new(Code::MissingField, format!("missing field {name}[{index}]"))
        .in_index(index)
        .in_field(name)
}

/// A key was given twice (or an alias together with its canonical name).
#[cold]
pub fn duplicate(key: impl std::fmt::Display) -> Error {
    Error::new(Code::DuplicateKey, format!("duplicate key {key}"))
}

/// An enum number no variant has.
#[cold]
pub fn unknown_number(n: i64) -> Error {
    Error::new(Code::UnknownVariant, format!("unknown variant number {n}"))
}

/// An enum name no variant has, and the names it has, each Debug-quoted: `unknown variant
/// "room", expected one of "Local", "Trade"` (TypeScript's `unknownName` writes the same).
#[cold]
pub fn unknown_name(name: &str, expected: &[&str]) -> Error {
    let mut text = format!("unknown variant {name:?}");
    for (i, n) in expected.iter().enumerate() {
        text.push_str(if i == 0 { ", expected one of " } else { ", " });
        text.push_str(&format!("{n:?}"));
    }
    Error::new(Code::UnknownVariant, text)
}

/// Flag bits no flag has.
#[cold]
pub fn unknown_flags(bits: u64) -> Error {
    Error::new(Code::UnknownFlags, format!("unknown flag bits {bits:#x}"))
}

/// A data enum in the named shape must be a one-key map.
#[cold]
pub fn not_one_key(n: u32) -> Error {
    Error::new(
        Code::WrongLength,
        format!("{n} entries, expected 1 (a one-key map)"),
    )
}

/// Records a failed check as an issue at `path` (plus the error's own inner path).
#[cold]
pub fn report(path: &[Seg], issues: &mut Vec<Issue>, err: Error) {
    push_issue(path, None, issues, err);
}

/// As [`report`], for an issue found at `path` plus the step `seg` (the derived validators
/// add a leaf's step only when it has an issue, instead of pushing it for every value).
#[cold]
#[inline(never)]
pub fn report_at(path: &[Seg], issues: &mut Vec<Issue>, seg: Seg, err: Error) {
    push_issue(path, Some(seg), issues, err);
}

/// What a derived validator calls with a check's result: its issue, if any, at `path`.
/// Generic only over the checked value (a unit or a quantized int), so a check is one call
/// in the derived code, not a match per field.
#[inline]
pub fn issue_here<T>(path: &[Seg], issues: &mut Vec<Issue>, res: Result<T, Error>) {
    if let Err(e) = res {
        report(path, issues, e);
    }
}

/// As [`issue_here`], for a check of field `name`: the issue at `path` plus the field.
#[inline]
pub fn issue_at_field<T>(
    path: &[Seg],
    issues: &mut Vec<Issue>,
    name: &'static str,
    res: Result<T, Error>,
) {
    if let Err(e) = res {
        report_at(path, issues, Seg::Field(name), e);
    }
}

/// As [`issue_here`], for a check of element `index`: the issue at `path` plus the index.
#[inline]
pub fn issue_at_index<T>(
    path: &[Seg],
    issues: &mut Vec<Issue>,
    index: usize,
    res: Result<T, Error>,
) {
    if let Err(e) = res {
        report_at(path, issues, Seg::Index(index as u32), e);
    }
}

/// The issue of `err` at `path`, then `seg` if any, then the error's own inner path.
fn push_issue(path: &[Seg], seg: Option<Seg>, issues: &mut Vec<Issue>, err: Error) {
    let mut issue = err.into_issue();
    let mut full = Vec::with_capacity(path.len() + 1 + issue.path.0.len());
    full.extend_from_slice(path);
    full.extend(seg);
    full.append(&mut issue.path.0);
    issue.path = Path(full);
    issues.push(issue);
}

/// Adds two optional sizes (`None` is unbounded).
pub const fn size_add(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => None,
    }
}

/// Multiplies an optional size by a count.
pub const fn size_mul(a: Option<usize>, n: usize) -> Option<usize> {
    match a {
        Some(a) => Some(a * n),
        None => None,
    }
}

/// The larger of two optional sizes.
pub const fn size_max(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if a > b { a } else { b }),
        _ => None,
    }
}

/// The elements a list decoder reserves room for: the declared count, but no more than the
/// remaining input can hold at `least` bytes per element (so a short input cannot reserve
/// much, and a count that fits never reallocates).
#[inline]
pub fn capacity(declared: usize, remaining: usize, least: usize) -> usize {
    declared.min(remaining / least)
}

/// The msgpack header size of an array or map of up to `n` elements.
pub const fn container_header(n: usize) -> usize {
    if n < 16 {
        1
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The msgpack header size of a str of up to `n` bytes.
pub const fn str_header(n: usize) -> usize {
    if n < 32 {
        1
    } else if n <= u8::MAX as usize {
        2
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The msgpack header size of a bin of up to `n` bytes.
pub const fn bin_header(n: usize) -> usize {
    if n <= u8::MAX as usize {
        2
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The largest encoding of an int in `min..=max`.
pub const fn int_size(min: i128, max: i128) -> usize {
    let a = int_one(min);
    let b = int_one(max);
    if a > b {
        a
    } else {
        b
    }
}

const fn int_one(v: i128) -> usize {
    if v >= 0 {
        if v < 128 {
            1
        } else if v <= u8::MAX as i128 {
            2
        } else if v <= u16::MAX as i128 {
            3
        } else if v <= u32::MAX as i128 {
            5
        } else {
            9
        }
    } else if v >= -32 {
        1
    } else if v >= i8::MIN as i128 {
        2
    } else if v >= i16::MIN as i128 {
        3
    } else if v >= i32::MIN as i128 {
        5
    } else {
        9
    }
}

/// An int in `min..=max` for `mode`.
pub fn sample_int(rng: &mut SampleRng, mode: SampleMode, min: i128, max: i128) -> i128 {
    match mode {
        SampleMode::Min => min,
        SampleMode::Max => max,
        _ => rng.int_in(min, max),
    }
}

/// A raw f64 in `min..=max` for `mode` (unbounded: a modest spread).
pub fn sample_f64(rng: &mut SampleRng, mode: SampleMode, min: f64, max: f64) -> f64 {
    match mode {
        SampleMode::Min => min,
        SampleMode::Max => max,
        _ => rng.float_in(min.max(-1.0e6), max.min(1.0e6)),
    }
}

/// A raw f32 whose f32 value lies in `min..=max` for `mode`.
pub fn sample_f32(rng: &mut SampleRng, mode: SampleMode, min: f64, max: f64) -> f32 {
    let lo = f32_at_least(min);
    let hi = f32_at_most(max);
    match mode {
        SampleMode::Min => lo,
        SampleMode::Max => hi,
        _ => {
            let x = rng.float_in((lo as f64).max(-1.0e6), (hi as f64).min(1.0e6)) as f32;
            x.clamp(lo, hi)
        }
    }
}

fn f32_at_least(min: f64) -> f32 {
    let x = min.max(f32::MIN as f64) as f32;
    if (x as f64) < min {
        x.next_up()
    } else {
        x
    }
}

fn f32_at_most(max: f64) -> f32 {
    let x = max.min(f32::MAX as f64) as f32;
    if (x as f64) > max {
        x.next_down()
    } else {
        x
    }
}

/// A wire integer `q` in `qmin..=qmax` for `mode`; the caller dequantizes it.
pub fn sample_q(rng: &mut SampleRng, mode: SampleMode, qmin: i64, qmax: i64) -> i64 {
    sample_int(rng, mode, qmin as i128, qmax as i128) as i64
}

/// Whether an optional value is present for `mode`.
pub fn sample_present(rng: &mut SampleRng, mode: SampleMode) -> bool {
    match mode {
        SampleMode::Min | SampleMode::Absent => false,
        SampleMode::Max | SampleMode::Present => true,
        SampleMode::Random => rng.coin(),
    }
}

/// A length in `min..=max` for `mode`: `Max` reaches a declared maximum (up to 4096);
/// other modes stay within a dozen of the minimum so samples stay small.
pub fn sample_len(rng: &mut SampleRng, mode: SampleMode, min: u32, max: u32) -> usize {
    let short = max.min(min.saturating_add(12));
    match mode {
        SampleMode::Min => min as usize,
        SampleMode::Max if max == u32::MAX => short as usize,
        SampleMode::Max => max.min(min.max(4096)) as usize,
        _ => rng.int_in(min as i128, short as i128) as usize,
    }
}

const ALPHABET: &[&str] = &["a", "b", "k", "z", "Q", "7", " ", "é", "ß", "ж", "中", "🐦"];

/// A string of `min..=max` UTF-8 bytes for `mode`, mixing ASCII and multi-byte characters.
pub fn sample_string(rng: &mut SampleRng, mode: SampleMode, min: u32, max: u32) -> String {
    let target = match mode {
        SampleMode::Min => min as usize,
        _ => sample_len(rng, mode, min, max),
    };
    let mut s = String::with_capacity(target);
    while s.len() < target {
        let room = target - s.len();
        let ch = ALPHABET[rng.below(ALPHABET.len())];
        if ch.len() <= room {
            s.push_str(ch);
        } else {
            s.push('a');
        }
    }
    s
}

/// Bytes of length `min..=max` for `mode`.
pub fn sample_bytes(rng: &mut SampleRng, mode: SampleMode, min: u32, max: u32) -> Vec<u8> {
    let len = sample_len(rng, mode, min, max);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// Quantizes without range checks, for wire equality (`None` for non-finite input). Below
/// 2^51 in magnitude it rounds without a call into libm's `round` (which stays cold, and
/// costs a cache miss, in code that compares a pose ten times a second).
#[inline]
pub fn q_of(x: f64, scale: f64) -> Option<i64> {
    let y = x * scale;
    if let Some(q) = crate::quant::round_checked(y) {
        return Some(q);
    }
    let q = y.round();
    q.is_finite().then_some(q as i64)
}
