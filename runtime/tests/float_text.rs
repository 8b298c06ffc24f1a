//! The float text of error messages, shared with TypeScript through
//! `tests/fixtures/float_text_vectors.json`: each vector is a value (its bits), how it is
//! checked (a raw f32, a raw f64, a quantized f32) and the message Rust prints. Floats print
//! as the f64 compared (an f32 widened exactly), in the shortest decimal that reads back; when
//! that is a tie between two 17-digit decimals (common for a widened f32:
//! `-1000.50006103515625`), Rust takes the larger magnitude, `-1000.5000610351563`, and so
//! must TypeScript, whose `Number#toString` may take the other. The vectors are generated here
//! from a fixed seed; `TUPLET_WRITE_FIXTURES=1` rewrites the file after a deliberate change.

use serde_json::json;
use tuplet::__private_0_1::{check_f32, check_f64};
use tuplet::quant::{quantize, wire_bound};

/// A range no finite value is inside: every check fails and prints the value.
const NOWHERE: (f64, f64) = (1e300, 1e300);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Whether the shortest decimal of `x` is a tie between two 17-digit candidates: its exact
/// decimal has 18 significant digits, the last a 5.
fn f64_tie(x: f64) -> bool {
    let exact = format!("{:.80e}", x.abs());
    let digits: String = exact
        .split('e')
        .next()
        .unwrap()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let digits = digits.trim_end_matches('0');
    digits.len() == 18 && digits.ends_with('5')
}

/// `(check, bits, message)` of every vector.
fn vectors() -> Vec<(&'static str, String, String)> {
    let mut rng = Rng(0x7475_706c_6574);
    let mut f32s: Vec<f32> = vec![
        f32::from_bits(0xc47a_2001), // -1000.50006103515625: 91 ca c4 7a 20 01
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        1.844_674_4e19,
        -3.402_823_5e38,
        16_777_216.0,
        0.1,
        -0.3,
        1.0e-10,
    ];
    // Powers of two: the decimal interval below is half as wide as above.
    f32s.extend((-149..128).step_by(7).map(|e| 2f32.powi(e)));
    let (mut ties, mut random) = (0, 0);
    while ties < 150 || random < 250 {
        let x = f32::from_bits(rng.next() as u32);
        if !x.is_finite() || x == 0.0 {
            continue;
        }
        if f64_tie(x as f64) && ties < 150 {
            ties += 1;
            f32s.push(x);
        } else if random < 250 {
            random += 1;
            f32s.push(x);
        }
    }
    let mut f64s: Vec<f64> = f32s.iter().map(|&x| x as f64).collect();
    let (mut ties, mut random) = (0, 0);
    while ties < 100 || random < 150 {
        // Few mantissa bits: exact decimals short enough to tie at 17 digits.
        let bits = rng.next();
        let x = if bits & 1 == 0 {
            f64::from_bits(bits)
        } else {
            ((bits >> 20) as u32 as f64) * 2f64.powi((bits % 97) as i32 - 60)
        };
        if !x.is_finite() || x == 0.0 {
            continue;
        }
        if f64_tie(x) && ties < 100 {
            ties += 1;
            f64s.push(x);
        } else if random < 150 {
            random += 1;
            f64s.push(x);
        }
    }
    let message = |e: tuplet::Error| e.issue().message.clone();
    let mut out = Vec::new();
    for &x in &f32s {
        let text = message(check_f32(x, NOWHERE.0, NOWHERE.1).unwrap_err());
        out.push(("f32", format!("{:08x}", x.to_bits()), text));
        if x.abs() >= 0.02 {
            let (min, max) = (wire_bound(-0.01, 100.0), wire_bound(0.01, 100.0));
            let text = message(quantize(x as f64, 100.0, min, max).unwrap_err());
            out.push(("quant_f32", format!("{:08x}", x.to_bits()), text));
        }
    }
    for &x in &f64s {
        let text = message(check_f64(x, NOWHERE.0, NOWHERE.1).unwrap_err());
        out.push(("f64", format!("{:016x}", x.to_bits()), text));
    }
    out
}

#[test]
fn float_text_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/float_text_vectors.json"
    );
    let about = "Float text in error messages, Rust's (runtime/tests/float_text.rs writes it; \
                 tests/ts/tests/float_text.test.ts checks TypeScript prints the same). bits: \
                 the value's IEEE bits in hex (8 digits: an f32). Checks: f32 and f64 against \
                 the range 1e300..=1e300; quant_f32 at scale 100 against -0.01..=0.01.";
    let vectors = vectors();
    // One vector a line, keys in a fixed order: the file stays readable and diffs small.
    let lines: Vec<String> = vectors
        .iter()
        .map(|(check, bits, message)| {
            format!(
                "    {{\"check\": {}, \"bits\": {}, \"message\": {}}}",
                json!(check),
                json!(bits),
                json!(message)
            )
        })
        .collect();
    let want = format!(
        "{{\n  \"about\": {},\n  \"vectors\": [\n{}\n  ]\n}}\n",
        json!(about),
        lines.join(",\n")
    );
    if std::env::var_os("TUPLET_WRITE_FIXTURES").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).expect("fixture present");
    if have != want {
        let actual = concat!(env!("CARGO_TARGET_TMPDIR"), "/float_text_vectors.json");
        std::fs::write(actual, &want).unwrap();
        eprintln!("Rust's messages: {actual}");
    }
    assert!(
        have == want,
        "{path} differs from Rust's messages (TUPLET_WRITE_FIXTURES=1 rewrites it)"
    );
    let tie = vectors
        .iter()
        .filter(|(check, _, message)| *check == "f64" && message.len() > 30)
        .count();
    assert!(tie > 100, "{tie}");
    assert!(want.contains("\"-1000.5000610351563 is outside 1e300..=1e300\""));
}
