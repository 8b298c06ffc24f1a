//! Checks every vector of `tests/fixtures/quant_vectors.json` (shared with TypeScript).

use serde_json::Value;
use tuplet::quant::{dequantize_f32, dequantize_f64, quantize, wire_bound};

const SAFE: i64 = (1 << 53) - 1;

fn num(v: &Value, key: &str) -> f64 {
    match &v[key] {
        Value::Number(n) => n.as_f64().expect("a number"),
        Value::String(s) => s.parse::<f64>().expect("NaN, Infinity or -Infinity"),
        other => panic!("{key}: not a number: {other}"),
    }
}

#[test]
fn quant_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/quant_vectors.json"
    );
    let text = std::fs::read_to_string(path).expect("fixture present");
    let doc: Value = serde_json::from_str(&text).expect("valid JSON");
    let vectors = doc["vectors"].as_array().expect("vectors");
    assert!(vectors.len() >= 40, "{} vectors", vectors.len());
    let (mut quantized, mut bounds, mut dequantized, mut errors) = (0, 0, 0, 0);
    for v in vectors {
        let scale = num(v, "scale");
        match v["kind"].as_str() {
            Some("quantize") => {
                let mut x = num(v, "x");
                if v["bits"] == 32 {
                    x = f64::from(x as f32);
                }
                let (min, max) = match v.get("range") {
                    Some(r) => (
                        wire_bound(r[0].as_f64().unwrap(), scale),
                        wire_bound(r[1].as_f64().unwrap(), scale),
                    ),
                    None => (-SAFE, SAFE),
                };
                let got = quantize(x, scale, min, max);
                match (v.get("q"), v.get("code")) {
                    (Some(q), None) => {
                        assert_eq!(got, Ok(q.as_i64().unwrap()), "{v}");
                        quantized += 1;
                    }
                    (None, Some(code)) => {
                        let err = got.expect_err(&v.to_string());
                        assert_eq!(err.code().as_str(), code.as_str().unwrap(), "{v}");
                        errors += 1;
                    }
                    _ => panic!("a vector has q or code: {v}"),
                }
            }
            Some("bound") => {
                let q = v["q"].as_i64().unwrap();
                assert_eq!(wire_bound(num(v, "bound"), scale), q, "{v}");
                bounds += 1;
            }
            Some("dequantize") => {
                let q = v["q"].as_i64().unwrap();
                let x = num(v, "x");
                if v["bits"] == 32 {
                    assert_eq!(f64::from(dequantize_f32(q, scale)), x, "{v}");
                } else {
                    assert_eq!(dequantize_f64(q, scale), x, "{v}");
                }
                dequantized += 1;
            }
            other => panic!("unknown kind {other:?}"),
        }
    }
    assert!(quantized >= 30 && bounds >= 5 && dequantized >= 5 && errors >= 5);
}

#[test]
fn quantize_messages() {
    let e = quantize(50.01, 100.0, -5000, 5000).unwrap_err();
    assert_eq!(e.code().as_str(), "out_of_range");
    assert_eq!(e.issue().message, "50.01 is outside -50..=50");
    let e = quantize(f64::NAN, 100.0, -5000, 5000).unwrap_err();
    assert_eq!(e.issue().message, "expected a finite number, found nan");
    // A q beyond i64 fails instead of saturating into range.
    let e = quantize(1e300, 100.0, i64::MIN, i64::MAX).unwrap_err();
    assert_eq!(e.code().as_str(), "out_of_range");
}

#[test]
fn round_trip_within_half_a_step() {
    for i in -1000..=1000 {
        let x = f64::from(i) * 0.0137;
        let q = quantize(x, 100.0, -SAFE, SAFE).unwrap();
        assert!((dequantize_f64(q, 100.0) - x).abs() <= 0.005 + 1e-12);
        assert_eq!(
            quantize(dequantize_f64(q, 100.0), 100.0, -SAFE, SAFE),
            Ok(q)
        );
    }
}

/// Field checks and quantization print numbers as the reader does (`float_text`), so Rust
/// and TypeScript share one set of templates.
#[test]
fn field_checks_share_the_reader_templates() {
    use tuplet::__private_0_1::{check_f32, check_f64};
    let msg = |e: tuplet::Error| e.issue().message.clone();
    assert_eq!(
        msg(check_f64(f64::NAN, -1.0, 1.0).unwrap_err()),
        "expected a finite number, found nan"
    );
    assert_eq!(
        msg(check_f64(2.5, -1.0, 1.0).unwrap_err()),
        "2.5 is outside -1..=1"
    );
    assert_eq!(
        msg(check_f32(0.1, -0.05, 0.1).unwrap_err()),
        "0.10000000149011612 is outside -0.05..=0.1"
    );
    assert_eq!(
        msg(tuplet::quant::quantize(1e300, 100.0, -100, 100).unwrap_err()),
        "1e300 is outside -1..=1"
    );
}
