//! The numeric bounds of the JSON Schema emitter, computed from what the decoders accept:
//! a float's extreme accepted doubles (found by bisection over the doubles, with the
//! runtime's own quantizer and range checks as the oracle), the decimal pattern of an int
//! map key's range, and the values of a closed flag set.

use serde_json::{json, Value};
use tuplet::__private_0_1 as rt;
use tuplet::wire::{write, Reader};
use tuplet_schema::ir::{Flags, FloatType};

/// A closed flag set with a gap below its highest flag is described exactly (one range of
/// values per combination of the flags above its lowest gap) when at most this many flags
/// lie above the gap; beyond, only its maximum is given (`flag-gaps` in
/// [`LIMITS`](super::LIMITS)).
pub const FLAG_GAP_MAX_BITS: usize = 8;

/// Whether the named-shape decoder accepts the float64 `x` for a float of type `ft`: what
/// `decode` runs on a map value (quantized: `quantize` of the double, into the integer
/// bounds; raw: the double, narrowed to f32 for an f32, finite and within its range).
pub fn accepts(ft: &FloatType, x: f64) -> bool {
    if let Some(q) = ft.quantized() {
        return rt::quant::quantize(x, q.scale, q.qmin, q.qmax).is_ok();
    }
    let mut bytes = Vec::with_capacity(9);
    write::f64(&mut bytes, x);
    let mut r = Reader::new(&bytes);
    let (min, max) = ft.range.map_or((f64::MIN, f64::MAX), |r| (r.min, r.max));
    if ft.bits == 32 {
        r.read_f32()
            .is_ok_and(|y| rt::check_f32(y, min, max).is_ok())
    } else {
        r.read_f64()
            .is_ok_and(|y| rt::check_f64(y, min, max).is_ok())
    }
}

/// The smallest and the largest double the decoder accepts for `ft` (`None` on a side
/// where every finite double is accepted), or `None` when no start point is accepted.
pub fn float_bounds(ft: &FloatType) -> Option<(Option<f64>, Option<f64>)> {
    let mut starts = vec![0.0];
    if let Some(q) = ft.quantized() {
        starts.push(rt::quant::dequantize_f64(q.qmax, q.scale));
        starts.push(rt::quant::dequantize_f64(q.qmin, q.scale));
    }
    if let Some(r) = ft.range {
        starts.extend([r.max, r.min, r.max as f32 as f64, r.min as f32 as f64]);
        starts.push((r.min + r.max) / 2.0);
    }
    let start = starts.into_iter().find(|&x| accepts(ft, x))?;
    let edge = |toward: f64| {
        if accepts(ft, toward) {
            return None;
        }
        // Bisection in the order of the doubles: `lo` accepted, `hi` refused.
        let (mut lo, mut hi) = (ord(start), ord(toward));
        while (hi - lo).abs() > 1 {
            let mid = lo + (hi - lo) / 2;
            if accepts(ft, unord(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(unord(lo))
    };
    Some((edge(f64::MIN), edge(f64::MAX)))
}

/// A double's rank in the order of the doubles (both zeros rank 0).
fn ord(x: f64) -> i128 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        -((b & !(1 << 63)) as i128)
    } else {
        b as i128
    }
}

/// The double of rank `k`.
fn unord(k: i128) -> f64 {
    if k < 0 {
        f64::from_bits(k.unsigned_abs() as u64 | 1 << 63)
    } else {
        f64::from_bits(k as u64)
    }
}

/// The schema of a closed flag set's value. Its flags fill the bits below the highest: a
/// maximum. Else, with `g` its lowest unassigned bit, every bit below `g` is a flag and the
/// values are `h..=h + 2^g - 1` for each OR `h` of flags above `g`: one range per `h` (up to
/// [`FLAG_GAP_MAX_BITS`] flags above `g`, else the maximum alone).
pub fn closed_flags(f: &Flags) -> Value {
    let known: u64 = f.bits.iter().fold(0, |a, b| a | 1 << b.bit);
    let max = top(known);
    let above = above_gap(known);
    if known == max || above.len() > FLAG_GAP_MAX_BITS {
        return json!({"type": "integer", "minimum": 0, "maximum": max});
    }
    let gap = (!known).trailing_zeros();
    let mut highs: Vec<u64> = (0..1u64 << above.len())
        .map(|set| {
            above
                .iter()
                .enumerate()
                .filter(|(i, _)| set >> i & 1 == 1)
                .fold(0, |a, (_, b)| a | b)
        })
        .collect();
    highs.sort_unstable();
    if gap == 0 {
        return json!({"type": "integer", "enum": highs});
    }
    let ranges: Vec<Value> = highs
        .iter()
        .map(|h| json!({"minimum": h, "maximum": h + ((1u64 << gap) - 1)}))
        .collect();
    json!({"type": "integer", "anyOf": ranges})
}

/// All ones up to the highest set bit of `known`.
fn top(known: u64) -> u64 {
    if known == 0 {
        0
    } else {
        u64::MAX >> known.leading_zeros()
    }
}

/// The flags' bits above the lowest unassigned bit below the highest flag.
fn above_gap(known: u64) -> Vec<u64> {
    let gap = (!known).trailing_zeros();
    (gap..64)
        .map(|b| 1u64 << b)
        .filter(|bit| known & bit != 0)
        .collect()
}

/// Whether a closed flag set's schema leaves some unknown bits unchecked (`flag-gaps`).
pub fn flags_inexact(f: &Flags) -> bool {
    let known: u64 = f.bits.iter().fold(0, |a, b| a | 1 << b.bit);
    known != top(known) && above_gap(known).len() > FLAG_GAP_MAX_BITS
}

/// A regular expression matching exactly the decimal texts (no leading zeros, no `-0`) of
/// the ints in `lo..=hi`: the keys of an int-keyed map, which JSON writes as strings.
pub fn int_range_pattern(lo: i128, hi: i128) -> String {
    let mut alts = Vec::new();
    if lo < 0 {
        let (a, b) = (hi.min(-1).unsigned_abs(), lo.unsigned_abs());
        alts.extend(naturals(a, b).into_iter().map(|p| format!("-{p}")));
    }
    if hi >= 0 {
        alts.extend(naturals(lo.max(0) as u128, hi as u128));
    }
    format!("^(?:{})$", alts.join("|"))
}

/// Alternatives matching the decimal texts of `a..=b` (non-negative, `a <= b`).
fn naturals(a: u128, b: u128) -> Vec<String> {
    let mut out = Vec::new();
    let mut lo = a;
    while lo <= b {
        let digits = lo.to_string().len() as u32;
        let top = 10u128.checked_pow(digits).map_or(b, |p| (p - 1).min(b));
        let width = digits as usize;
        out.extend(fixed(&format!("{lo:0width$}"), &format!("{top:0width$}")));
        match top.checked_add(1) {
            Some(next) => lo = next,
            None => break,
        }
    }
    out
}

/// Alternatives matching the digit strings from `lo` to `hi`, both of one width.
fn fixed(lo: &str, hi: &str) -> Vec<String> {
    if lo.is_empty() {
        return vec![String::new()];
    }
    let (l, h) = (lo.as_bytes()[0], hi.as_bytes()[0]);
    let (lr, hr) = (&lo[1..], &hi[1..]);
    let m = lr.len();
    let any = |n: usize| match n {
        0 => String::new(),
        1 => "[0-9]".into(),
        n => format!("[0-9]{{{n}}}"),
    };
    let class = |a: u8, b: u8| {
        if a == b {
            (a as char).to_string()
        } else {
            format!("[{}-{}]", a as char, b as char)
        }
    };
    if l == h {
        return fixed(lr, hr)
            .into_iter()
            .map(|s| format!("{}{s}", l as char))
            .collect();
    }
    let all_zero = lr.bytes().all(|c| c == b'0');
    let all_nine = hr.bytes().all(|c| c == b'9');
    let mut out = Vec::new();
    let mut first = l;
    if !all_zero {
        let nines = "9".repeat(m);
        out.extend(
            fixed(lr, &nines)
                .into_iter()
                .map(|s| format!("{}{s}", l as char)),
        );
        first = l + 1;
    }
    let last = if all_nine { h } else { h - 1 };
    if first <= last {
        out.push(format!("{}{}", class(first, last), any(m)));
    }
    if !all_nine {
        let zeros = "0".repeat(m);
        out.extend(
            fixed(&zeros, hr)
                .into_iter()
                .map(|s| format!("{}{s}", h as char)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of a range matches exactly its ints' decimal texts (checked with the
    /// `regex` semantics of a plain match over a window around the range).
    #[test]
    fn int_range_patterns_match_exactly_their_range() {
        for (lo, hi) in [
            (0, 255),
            (0, 65535),
            (-128, 127),
            (-32768, 32767),
            (7, 7),
            (-5, -3),
            (99, 1001),
            (1, 10),
        ] {
            let p = int_range_pattern(lo, hi);
            let alts: Vec<&str> = p[4..p.len() - 2].split('|').collect();
            for n in (lo - 300)..=(hi + 300) {
                let text = n.to_string();
                let hit = alts.iter().any(|a| simple_match(a, &text));
                assert_eq!(hit, (lo..=hi).contains(&n), "{p} on {text}");
            }
            for bad in ["", "-0", "01", "+1", "1.0", "x"] {
                assert!(!alts.iter().any(|a| simple_match(a, bad)), "{p} on {bad}");
            }
        }
        let wide = int_range_pattern(i64::MIN as i128, u64::MAX as i128);
        let alts: Vec<&str> = wide[4..wide.len() - 2].split('|').collect();
        let hit = |t: &str| alts.iter().any(|a| simple_match(a, t));
        assert!(hit("18446744073709551615") && hit("-9223372036854775808") && hit("0"));
        assert!(!hit("18446744073709551616") && !hit("-9223372036854775809"));
    }

    /// Matches the small regex subset [`fixed`] writes: literal digits, `-`, `[a-b]`,
    /// `[0-9]{n}`.
    fn simple_match(pattern: &str, text: &str) -> bool {
        let mut classes: Vec<(u8, u8)> = Vec::new();
        let p = pattern.as_bytes();
        let mut i = 0;
        while i < p.len() {
            let class = if p[i] == b'[' {
                let c = (p[i + 1], p[i + 3]);
                i += 5;
                c
            } else {
                let c = (p[i], p[i]);
                i += 1;
                c
            };
            let mut times = 1;
            if i < p.len() && p[i] == b'{' {
                let end = pattern[i..].find('}').unwrap() + i;
                times = pattern[i + 1..end].parse().unwrap();
                i = end + 1;
            }
            classes.extend(std::iter::repeat_n(class, times));
        }
        text.len() == classes.len()
            && text
                .bytes()
                .zip(&classes)
                .all(|(c, (a, b))| (*a..=*b).contains(&c))
    }

    /// A closed flag set's schema holds exactly the ORs of its flags (checked over every
    /// value below twice its top bit).
    #[test]
    fn closed_flags_hold_exactly_the_ors_of_their_flags() {
        for bits in [
            vec![0, 1, 2],
            vec![0, 2, 3, 4],
            vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11],
            vec![1, 3],
            vec![2],
        ] {
            let f = Flags {
                prim: tuplet_schema::ir::IntPrim::U16,
                open: false,
                reserved: vec![],
                bits: bits
                    .iter()
                    .map(|&bit| tuplet_schema::ir::Flag {
                        name: format!("b{bit}"),
                        bit,
                        doc: String::new(),
                    })
                    .collect(),
                rest: None,
            };
            let known: u64 = bits.iter().fold(0, |a, b| a | 1 << b);
            let s = closed_flags(&f);
            let holds = |x: u64| {
                let in_range = |r: &Value| {
                    r.get("minimum").is_none_or(|m| x >= m.as_u64().unwrap())
                        && r.get("maximum").is_none_or(|m| x <= m.as_u64().unwrap())
                };
                match (s.get("enum"), s.get("anyOf")) {
                    (Some(e), _) => e.as_array().unwrap().contains(&json!(x)),
                    (_, Some(a)) => a.as_array().unwrap().iter().any(in_range),
                    _ => in_range(&s),
                }
            };
            for x in 0..2 * top(known) + 2 {
                assert_eq!(holds(x), x & !known == 0, "{bits:?}: {x} in {s}");
            }
            assert!(!flags_inexact(&f));
        }
    }

    fn float(bits: u8, quant: Option<f64>, range: Option<(f64, f64)>) -> FloatType {
        FloatType {
            bits,
            quant: quant.map(|scale| tuplet_schema::ir::Quant { unit: None, scale }),
            range: range.map(|(min, max)| tuplet_schema::ir::FloatRange { min, max }),
        }
    }

    /// A bound is accepted and the next double beyond it is not.
    #[test]
    // The village's heading range, as declared: not an approximation of π to fix.
    #[allow(clippy::approx_constant)]
    fn float_bounds_are_the_extreme_accepted_doubles() {
        let cases = [
            float(32, Some(1000.0), Some((-3.1416, 3.1416))),
            float(32, Some(100.0), Some((-5000.0, 5000.0))),
            float(64, Some(100.0), None),
            float(64, Some(10.0), Some((0.0, 10.0))),
            float(32, None, None),
            float(32, None, Some((0.0, 0.1))),
            float(64, None, Some((-1.5, 2.5))),
        ];
        for ft in &cases {
            let (lo, hi) = float_bounds(ft).unwrap();
            for (b, step) in [
                (lo.unwrap(), f64::next_down as fn(f64) -> f64),
                (hi.unwrap(), f64::next_up),
            ] {
                assert!(accepts(ft, b), "{ft:?}: {b}");
                assert!(!accepts(ft, step(b)), "{ft:?}: beyond {b}");
            }
        }
        let mrad = float_bounds(&cases[0]).unwrap();
        assert!(mrad.1.unwrap() >= 3.142 && mrad.1.unwrap() < 3.1425);
        assert_eq!(float_bounds(&float(64, None, None)), Some((None, None)));
    }
}
