//! The numeric shortcuts of `tuplet::quant` give exactly what the plain formulas give over
//! the whole range of the fields they serve: rounding without libm against `f64::round`, the
//! fast `quantize` against the general formula, and multiplying by a reciprocal against
//! dividing, for every wire integer of a quantized f32.

use tuplet::quant::{dequantize_f32, quantize, reciprocal, round_checked, rounds_into};
use tuplet::SampleRng;

const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// `quantize` as WIRE.md states it, with `f64::round`.
fn quantize_reference(x: f64, scale: f64, min: i64, max: i64) -> Result<i64, String> {
    if !x.is_finite() {
        return Err("not_finite".into());
    }
    let q = (x * scale).round();
    if q < min as f64 || q > max as f64 || !q.is_finite() || (q as i64) < min || (q as i64) > max {
        return Err("out_of_range".into());
    }
    Ok(q as i64)
}

const TWO_POW_51: f64 = 2_251_799_813_685_248.0;

fn check_round(y: f64) {
    if y.abs() < TWO_POW_51 - 0.5 {
        assert_eq!(
            round_checked(y),
            Some(y.round() as i64),
            "round_checked({y:e})"
        );
    } else {
        assert_eq!(round_checked(y), None, "round_checked({y:e})");
    }
}

/// The rounding of `quantize`'s fast path (below 2^51) against `f64::round`: every tie `k + 0.5` and its two neighbours for every k up to 2^23 (the largest wire
/// integer of a quantized f32) and a stride of them up to 2^51, both signs; then
/// log-uniform random values over the whole range.
#[test]
fn round_in_range_is_round() {
    let mut k = 0.0f64;
    while k < TWO_POW_51 {
        for t in [k + 0.5, k, k + 1.0] {
            for y in [t, t.next_up(), t.next_down()] {
                check_round(y);
                check_round(-y);
            }
        }
        k = if k < 8_388_608.0 {
            k + 1.0
        } else {
            (k * 1.000_03).floor()
        };
    }
    let mut rng = SampleRng::new(19);
    for _ in 0..500_000 {
        let exp = rng.below(59) as i32 - 8;
        let y = rng.float_in(0.0, 1.0) * 2f64.powi(exp);
        check_round(y);
        check_round(-y);
    }
    for y in [
        0.0,
        -0.0,
        0.49999999999999994,
        -0.49999999999999994,
        TWO_POW_51.next_down(),
        -TWO_POW_51.next_down(),
        TWO_POW_51 - 0.5,
        (TWO_POW_51 - 0.5).next_down(),
        f64::NAN,
    ] {
        check_round(y);
    }
}

/// The float-domain range check says what rounding then comparing says, at each bound's
/// rounding edge and its neighbours, for bounds of every sign (zero included) and at the
/// 2^51 limit; NaN is never in range.
#[test]
fn rounds_into_is_round_then_compare() {
    let limit = (1i64 << 51) - 1;
    let bounds = [
        (-500_000, 500_000),
        (0, 1000),
        (50, 200),
        (-200, -50),
        (-1, 0),
        (0, 0),
        (1, 1),
        (-1, -1),
        (-limit, limit),
    ];
    for (min, max) in bounds {
        for b in [min, max] {
            for edge in [b as f64 - 0.5, b as f64 + 0.5, b as f64] {
                for y in [edge, edge.next_up(), edge.next_down()] {
                    let q = y.round();
                    let want = q >= min as f64 && q <= max as f64;
                    assert_eq!(rounds_into(y, min, max), want, "y={y:e} {min}..={max}");
                }
            }
        }
        assert!(!rounds_into(f64::NAN, min, max));
        assert!(!rounds_into(f64::INFINITY, min, max));
        assert!(!rounds_into(-f64::INFINITY, min, max));
    }
}

/// `quantize` agrees with the reference for every f32 field value drawn across its range
/// (ties at each unit included) and for f64 inputs at and beyond the fast path's edge.
#[test]
fn quantize_is_reference() {
    let units = [10.0, 100.0, 1000.0, 64.0, 0.5, 3.0, 1e-3, 1e9];
    let bounds = [
        (-500_000, 500_000),
        (-3142, 3142),
        (0, 1000),
        (50, 200),
        (-200, -50),
        (-(1 << 23), 1 << 23),
        (-(1 << 51) + 1, (1 << 51) - 1),
    ];
    let mut rng = SampleRng::new(23);
    let check = |x: f64, scale: f64, (min, max): (i64, i64)| {
        let got = quantize(x, scale, min, max).map_err(|e| e.code().as_str().to_owned());
        assert_eq!(
            got,
            quantize_reference(x, scale, min, max),
            "x={x:e} scale={scale}"
        );
    };
    for &scale in &units {
        for &b in &bounds {
            for q in -2000..=2000 {
                let tie = (q as f64 + 0.5) / scale;
                for x in [tie, tie.next_up(), tie.next_down(), q as f64 / scale] {
                    check(x, scale, b);
                    check(f64::from(x as f32), scale, b);
                }
            }
            for _ in 0..20_000 {
                let x = f32::from_bits(rng.next_u64() as u32);
                check(f64::from(x), scale, b);
            }
            for x in [
                f64::NAN,
                f64::INFINITY,
                -f64::INFINITY,
                1e300,
                -1e300,
                TWO_POW_52,
            ] {
                check(x, scale, b);
                check(x / scale, scale, b);
                check(x.next_down() / scale, scale, b);
            }
        }
    }
    for (min, max) in [(i64::MIN, i64::MAX), (-(1 << 53), 1 << 53)] {
        for x in [
            9.2e18,
            -9.2e18,
            9.3e18,
            TWO_POW_52,
            TWO_POW_52.next_down(),
            2f64.powi(63),
        ] {
            check(x, 1.0, (min, max));
        }
    }
}

/// For every scale dequantized by a reciprocal, every wire integer a quantized f32 can hold
/// (|q| <= 2^23, the schema's limit) narrows to the same f32 as the division.
#[test]
fn reciprocal_is_division() {
    const MAX_Q: i64 = 1 << 23;
    // A power of two's reciprocal is exact, so the product is the quotient for any q: every
    // power is checked on a stride, five of them (both ends included) on every q.
    for k in -16..=16 {
        let scale = 2f64.powi(k);
        let stride = if [-16, -1, 0, 6, 16].contains(&k) {
            1
        } else {
            4099
        };
        let inv = reciprocal(scale).expect("a power of two is dequantized by its reciprocal");
        assert_eq!(inv * scale, 1.0);
        for q in (-MAX_Q..=MAX_Q).step_by(stride) {
            assert_eq!(
                (q as f64 * inv) as f32,
                (q as f64 / scale) as f32,
                "q={q} {scale}"
            );
        }
    }
    for scale in [10.0, 100.0, 1000.0] {
        let inv = reciprocal(scale).expect("a decimal unit is dequantized by its reciprocal");
        assert_eq!(inv, 1.0 / scale);
        for q in -MAX_Q..=MAX_Q {
            let x = q as f64;
            if (x * inv) as f32 != (x / scale) as f32 {
                panic!("q={q} scale={scale}");
            }
        }
        for q in [-MAX_Q, -1, 0, 1, 12345, MAX_Q] {
            assert_eq!(dequantize_f32(q, scale), (q as f64 / scale) as f32);
        }
    }
    // Any other scale divides.
    for scale in [3.0, 64.5, 1e-3, 1e6, 2f64.powi(17), 20.0] {
        assert_eq!(reciprocal(scale), None, "{scale}");
        assert_eq!(dequantize_f32(7, scale), (7.0f64 / scale) as f32);
    }
}

/// Wire equality's quantization (`support::q_of`, no range check) is `round` on every side
/// of its fast path's domain: ties, 2^51 and beyond, non-finite values.
#[test]
fn q_of_is_round() {
    let reference = |y: f64| {
        let q = y.round();
        q.is_finite().then_some(q as i64)
    };
    let two51 = 2_251_799_813_685_248.0_f64;
    let mut ys = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.499_999_999_999_999_94,
        two51 - 0.5,
        two51,
        -two51,
        two51 * 4.0 + 1.0,
        1e300,
        -1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut rng = SampleRng::new(19);
    for _ in 0..10_000 {
        let k = (rng.next_u64() % 2_000_001) as f64 - 1_000_000.0;
        ys.extend([k + 0.5, k - 0.5, k + 0.499_999, k * 0.37]);
    }
    for y in ys {
        assert_eq!(tuplet::__private_0_1::q_of(y, 1.0), reference(y), "{y}");
    }
}
