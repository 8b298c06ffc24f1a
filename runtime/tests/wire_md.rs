//! Checks every primitive example of WIRE.md (its ```wire blocks) against our writer and
//! reader, and against rmpv as an independent msgpack implementation.

mod support;

use rmpv::Value;
use support::{hex, run, to_hex};
use tuplet::wire::{write, Kind, Reader, Shape};

fn wire_lines() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../WIRE.md");
    let text = std::fs::read_to_string(path).expect("WIRE.md present");
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if inside {
            if line.starts_with("```") {
                inside = false;
            } else if !line.trim().is_empty() {
                lines.push(line.to_owned());
            }
        } else if line.trim_end() == "```wire" {
            inside = true;
        }
    }
    lines
}

fn rmpv_bytes(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).expect("vec write");
    out
}

/// `<01 02 03>` as bytes.
fn angle_bytes(s: &str) -> Vec<u8> {
    let inner = s
        .trim()
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .expect("<hex>");
    hex(inner)
}

fn check_write(func: &str, arg: &str, want: &[u8], line: &str) {
    let mut ours = Vec::new();
    let theirs: Vec<u8> = match func {
        "nil" => {
            write::nil(&mut ours);
            rmpv_bytes(&Value::Nil)
        }
        "bool" => {
            let v: bool = arg.parse().expect(line);
            write::bool(&mut ours, v);
            rmpv_bytes(&Value::Boolean(v))
        }
        "uint" => {
            let v: u64 = arg.parse().expect(line);
            write::uint(&mut ours, v);
            rmpv_bytes(&Value::from(v))
        }
        "int" => {
            let v: i64 = arg.parse().expect(line);
            write::int(&mut ours, v);
            rmpv_bytes(&Value::from(v))
        }
        "f32" => {
            let v: f32 = arg.parse().expect(line);
            write::f32(&mut ours, v);
            rmpv_bytes(&Value::F32(v))
        }
        "f64" => {
            let v: f64 = arg.parse().expect(line);
            write::f64(&mut ours, v);
            rmpv_bytes(&Value::F64(v))
        }
        "str" => {
            let v: String = serde_json::from_str(arg).expect(line);
            write::str(&mut ours, &v);
            rmpv_bytes(&Value::from(v.as_str()))
        }
        "bin" => {
            let v = angle_bytes(arg);
            write::bin(&mut ours, &v);
            rmpv_bytes(&Value::Binary(v))
        }
        "array_len" => {
            let n: u32 = arg.parse().expect(line);
            write::array_len(&mut ours, n);
            let all = rmpv_bytes(&Value::Array(vec![Value::Nil; n as usize]));
            all[..all.len() - n as usize].to_vec()
        }
        "map_len" => {
            let n: u32 = arg.parse().expect(line);
            write::map_len(&mut ours, n);
            let all = rmpv_bytes(&Value::Map(vec![(Value::Nil, Value::Nil); n as usize]));
            all[..all.len() - 2 * n as usize].to_vec()
        }
        other => panic!("unknown write fn {other}: {line}"),
    };
    assert_eq!(to_hex(&ours), to_hex(want), "ours: {line}");
    assert_eq!(to_hex(&theirs), to_hex(want), "rmpv: {line}");
}

fn check_read(op: &str, bytes: &[u8], want: &str, line: &str) {
    let mut r = Reader::new(bytes);
    let got: String = match op {
        "i64" => r.read_i64(i64::MIN, i64::MAX).map(|v| v.to_string()),
        "u64" => r.read_u64(0, u64::MAX).map(|v| v.to_string()),
        "f64" => r.read_f64().map(|v| format!("{v:?}")),
        "f32" => r.read_f32().map(|v| format!("{v:?}")),
        "str" => r
            .read_str(0, u32::MAX)
            .map(|v| serde_json::to_string(v).unwrap()),
        "bin" => r.read_bin(0, u32::MAX).map(|v| format!("<{}>", to_hex(v))),
        "nil" => r.try_nil().map(|v| v.to_string()),
        "bool" => r.read_bool().map(|v| v.to_string()),
        "kind" => r.peek_kind().map(|k| {
            match k {
                Kind::Nil => "nil",
                Kind::Bool => "bool",
                Kind::Int => "int",
                Kind::Float => "float",
                Kind::Str => "str",
                Kind::Bin => "bin",
                Kind::Array => "array",
                Kind::Map => "map",
                Kind::Ext => "ext",
            }
            .to_owned()
        }),
        "shape" => r.read_shape().map(|s| match s {
            Shape::Array(n) => format!("array {n}"),
            Shape::Map(n) => format!("map {n}"),
        }),
        "skip" => r.skip_value().map(|_| r.position().to_string()),
        other => panic!("unknown read op {other}: {line}"),
    }
    .unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(got, want.trim(), "{line}");
    let partial = matches!(op, "shape" | "kind") || (op == "nil" && want.trim() == "false");
    if !partial {
        assert_eq!(r.finish(), Ok(()), "{line}: the example is one whole value");
    }
    // rmpv reads the same bytes as one value (it has no policy: it only checks the framing).
    let mut slice = bytes;
    let value = rmpv::decode::read_value(&mut slice).unwrap_or_else(|e| panic!("rmpv {line}: {e}"));
    match op {
        "i64" | "u64" => {
            let n: f64 = want.trim().parse().unwrap();
            let theirs = value
                .as_f64()
                .or_else(|| value.as_i64().map(|v| v as f64))
                .or_else(|| value.as_u64().map(|v| v as f64));
            assert_eq!(theirs, Some(n), "rmpv {line}");
        }
        "str" => assert_eq!(
            value.as_str().map(|s| serde_json::to_string(s).unwrap()),
            Some(want.trim().to_owned()),
            "rmpv {line}"
        ),
        "bin" => assert_eq!(value.as_slice(), Some(angle_bytes(want).as_slice())),
        "skip" => assert_eq!(bytes.len() - slice.len(), r.position(), "rmpv {line}"),
        _ => {}
    }
}

#[test]
fn wire_md_primitive_examples() {
    let lines = wire_lines();
    let (mut writes, mut reads, mut errors) = (0, 0, 0);
    for line in &lines {
        let (left, right) = line
            .split_once(" => ")
            .unwrap_or_else(|| panic!("no ` => ` in {line}"));
        let mut words = left.split_whitespace();
        let form = words.next().expect("form");
        let op = words.next().expect("op");
        let arg: String = words.collect::<Vec<_>>().join(" ");
        match form {
            "write" => {
                check_write(op, &arg, &hex(right), line);
                writes += 1;
            }
            "read" => {
                check_read(op, &hex(&arg), right, line);
                reads += 1;
            }
            "error" => {
                let bytes = hex(&arg);
                let e = run(&mut Reader::new(&bytes), op).expect_err(&format!("an error: {line}"));
                assert_eq!(e.code().as_str(), right.trim(), "{line}: {e}");
                errors += 1;
            }
            other => panic!("unknown form {other}: {line}"),
        }
    }
    assert!(
        writes >= 40 && reads >= 20 && errors >= 20,
        "{writes} {reads} {errors}"
    );
}

#[test]
fn wire_md_lists_every_code() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../WIRE.md"))
        .expect("WIRE.md present");
    for code in tuplet::Code::ALL {
        assert!(
            text.contains(&format!("| `{}`", code.as_str())),
            "{code} missing from WIRE.md's code table"
        );
    }
}
