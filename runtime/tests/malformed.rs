//! Malformed and invalid inputs: every one gives the exact error code, none panics.

mod support;

use support::{hex, run, small_limits};
use tuplet::wire::{Kind, Limits, Reader, Shape};
use tuplet::Code::{self, *};

/// (input hex, operation, expected code). `@small` after the op uses `small_limits()`.
const CASES: &[(&str, &str, Code)] = &[
    // -- truncation of every multi-byte marker ------------------------------------------
    ("", "skip", Truncated),
    ("", "i64", Truncated),
    ("", "kind", Truncated),
    ("", "nil", Truncated),
    ("cc", "u64", Truncated),
    ("cd 01", "u64", Truncated),
    ("ce 00 00 01", "u64", Truncated),
    ("cf 00 00 00 00 00 00 01", "u64", Truncated),
    ("d0", "i64", Truncated),
    ("d1 ff", "i64", Truncated),
    ("d2 ff ff ff", "i64", Truncated),
    ("d3 ff ff ff ff ff ff ff", "i64", Truncated),
    ("ca 3f 80 00", "f32", Truncated),
    ("cb 3f f0 00 00 00 00 00", "f64", Truncated),
    ("cb 3f f0", "skip", Truncated),
    ("a3 61 62", "str", Truncated),
    ("d9", "str", Truncated),
    ("d9 05 61", "str", Truncated),
    ("da 00", "str", Truncated),
    ("da 00 05 61 62", "str", Truncated),
    ("db 00 00 00", "str", Truncated),
    ("db ff ff ff ff 61", "str", Truncated),
    ("c4", "bin", Truncated),
    ("c4 02 01", "bin", Truncated),
    ("c5 01", "bin", Truncated),
    ("c5 01 00 00", "bin", Truncated),
    ("c6 00 00 00 01", "bin", Truncated),
    ("c6 ff ff ff ff", "skip", Truncated),
    ("dc 00", "array", Truncated),
    ("dc 00 02 01", "array", Truncated),
    ("dd 00 00 00", "shape", Truncated),
    ("dd ff ff ff ff", "array", Truncated),
    ("dd ff ff ff ff 01 02 03 04 05", "shape", Truncated),
    ("dd ff ff ff ff 01 02 03 04 05", "skip", Truncated),
    ("de 00", "map", Truncated),
    ("de 00 01 01", "map", Truncated),
    ("df 00 00 00 01 01", "shape", Truncated),
    ("df ff ff ff ff 01 02", "skip", Truncated),
    ("81 a1 61", "skip", Truncated),
    ("92 01", "skip", Truncated),
    ("d4 00", "skip", Truncated),
    ("d4 00", "nil", Truncated),
    ("d4", "kind", Truncated),
    ("d5 01 02", "skip", Truncated),
    ("d6 01 00 00 00", "skip", Truncated),
    ("d7 01 00 00 00 00 00 00 00", "skip", Truncated),
    ("d8 01 00", "skip", Truncated),
    ("c7 03 01 00 00", "skip", Truncated),
    ("c8 00", "skip", Truncated),
    ("c9 ff ff ff ff 01", "skip", Truncated),
    // -- wrong markers for each read --------------------------------------------------
    ("a1 61", "i64", WrongType),
    ("c0", "u64", WrongType),
    ("c3", "i64", WrongType),
    ("90", "f64", WrongType),
    ("80", "f32", WrongType),
    ("c4 00", "str", WrongType),
    ("a0", "bin", WrongType),
    ("01", "bool", WrongType),
    ("c0", "bool", WrongType),
    ("01", "shape", WrongType),
    ("a0", "shape", WrongType),
    ("80", "array", WrongType),
    ("90", "map", WrongType),
    ("d4 00 00", "i64", WrongType),
    ("d4 00 00", "shape", WrongType),
    ("d6 ff 00 00 00 00", "i64", WrongType),
    ("c7 00 05", "str", WrongType),
    // -- 0xc1 everywhere ---------------------------------------------------------------
    ("c1", "skip", ReservedMarker),
    ("c1", "kind", ReservedMarker),
    ("c1", "nil", ReservedMarker),
    ("c1", "shape", ReservedMarker),
    ("c1", "array", ReservedMarker),
    ("c1", "map", ReservedMarker),
    ("c1", "bool", ReservedMarker),
    ("c1", "i64", ReservedMarker),
    ("c1", "u64", ReservedMarker),
    ("c1", "f64", ReservedMarker),
    ("c1", "f32", ReservedMarker),
    ("c1", "str", ReservedMarker),
    ("c1", "bin", ReservedMarker),
    ("93 01 c1 02", "skip", ReservedMarker),
    ("81 a1 61 91 c1", "skip", ReservedMarker),
    // -- non-finite, non-integral, out of range -----------------------------------------
    ("cb 7f f8 00 00 00 00 00 00", "f64", NotFinite),
    ("cb 7f f0 00 00 00 00 00 00", "f64", NotFinite),
    ("cb ff f0 00 00 00 00 00 00", "f64", NotFinite),
    ("ca 7f c0 00 00", "f32", NotFinite),
    ("ca 7f 80 00 00", "f32", NotFinite),
    ("ca ff 80 00 00", "f64", NotFinite),
    ("cb 7e 37 e4 3c 88 00 75 9c", "f32", NotFinite),
    ("cb 7f f8 00 00 00 00 00 00", "i64", NotFinite),
    ("ca 7f 80 00 00", "u64", NotFinite),
    ("cb ff f0 00 00 00 00 00 00", "i64", NotFinite),
    ("cb 3f f8 00 00 00 00 00 00", "i64", NotIntegral),
    ("ca 3f 00 00 00", "u64", NotIntegral),
    ("cb bf b9 99 99 99 99 99 9a", "i64", NotIntegral),
    ("ff", "u64", OutOfRange),
    ("d0 80", "u64", OutOfRange),
    ("cc 80", "i8", OutOfRange),
    ("d1 ff 7f", "i8", OutOfRange),
    ("cd 01 00", "u8", OutOfRange),
    ("cf ff ff ff ff ff ff ff ff", "i64", OutOfRange),
    ("cf 80 00 00 00 00 00 00 00", "i64", OutOfRange),
    ("cf 00 20 00 00 00 00 00 00", "safe", OutOfRange),
    ("d3 ff e0 00 00 00 00 00 00", "safe", OutOfRange),
    ("cb 7e 37 e4 3c 88 00 75 9c", "i64", OutOfRange),
    ("cb 43 f0 00 00 00 00 00 00", "u64", OutOfRange),
    ("cb c0 00 00 00 00 00 00 00", "u64", OutOfRange),
    // -- UTF-8 -------------------------------------------------------------------------
    ("a2 c0 80", "str", InvalidUtf8),
    ("a1 80", "str", InvalidUtf8),
    ("a3 ed a0 80", "str", InvalidUtf8),
    ("a1 ff", "str", InvalidUtf8),
    ("a2 e2 82", "str", InvalidUtf8),
    ("a4 f4 90 80 80", "str", InvalidUtf8),
    ("a3 e0 80 80", "str", InvalidUtf8),
    // -- lengths: schema limits at the header, before the body -------------------------
    ("aa 61 62 63 64 65 66 67 68 69 6a", "str3", TooLong),
    ("aa 61 62", "str3", TooLong),
    ("a4 ff ff ff ff", "str3", TooLong),
    ("db ff ff ff ff", "str3", TooLong),
    ("a1 61", "str2..", TooShort),
    ("a1", "str2..", TooShort),
    ("c4 04 01 02 03 04", "bin3", TooLong),
    ("c6 7f ff ff ff 00", "bin3", TooLong),
    ("c4 01 01", "bin2..", TooShort),
    // -- nesting and budget ------------------------------------------------------------
    ("91*100 c0", "skip", TooDeep),
    ("81 a1 6b 91*99 c0", "skip", TooDeep),
    ("91 91 91 91 c0", "skip@small", TooDeep),
    ("95 01 02 03 04 05", "skip@small", TooManyElements),
    ("93 01 92 02 03 04", "skip@small", TooManyElements),
    ("83 01 02 03 04 05 06", "skip@small", TooManyElements),
    ("95 01 02 03 04 05", "shape@small", TooManyElements),
    ("83 01 02 03 04 05 06", "map@small", TooManyElements),
    // -- trailing bytes ----------------------------------------------------------------
    ("c0 c0", "whole", TrailingBytes),
    ("92 01 02 03", "whole", TrailingBytes),
    ("00", "finish", TrailingBytes),
];

#[test]
fn malformed_inputs_give_exact_codes() {
    assert!(CASES.len() >= 45);
    let mut failures = Vec::new();
    for &(input, op, want) in CASES {
        let bytes = hex(input);
        let (op_name, limits) = match op.strip_suffix("@small") {
            Some(name) => (name, small_limits()),
            None => (op, Limits::default()),
        };
        let mut r = Reader::with_limits(&bytes, limits);
        match run(&mut r, op_name) {
            Err(e) if e.code() == want => {
                assert!(!e.issue().message.is_empty());
                assert!(e.path().0.is_empty(), "reader errors are at the root");
            }
            Err(e) => failures.push(format!("{input} / {op}: want {want}, got {e}")),
            Ok(()) => failures.push(format!("{input} / {op}: want {want}, got Ok")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn err(input: &str, op: &str) -> tuplet::Error {
    let bytes = hex(input);
    run(&mut Reader::new(&bytes), op).expect_err(input)
}

#[test]
fn message_templates() {
    let m = |input: &str, op: &str| err(input, op).issue().message.clone();
    assert_eq!(m("", "i64"), "input ends inside a value");
    assert_eq!(m("c1", "i64"), "reserved byte 0xc1");
    assert_eq!(m("a1 61", "i64"), "expected int, found str");
    assert_eq!(
        m("cb 00 00 00 00 00 00 00 00", "bool"),
        "expected bool, found float64"
    );
    assert_eq!(m("ca 00 00 00 00", "str"), "expected str, found float32");
    assert_eq!(m("80", "array"), "expected array, found map");
    assert_eq!(m("01", "shape"), "expected array or map, found int");
    assert_eq!(m("c0", "f64"), "expected number, found nil");
    assert_eq!(m("d4 00 00", "f64"), "expected number, found nil");
    assert_eq!(m("d4 01 00", "f64"), "expected number, found ext");
    // msgpackr's record extension (`new Packr().pack({x: 1})`) is named, with the fix.
    for (input, op, expected) in [
        ("d4 72 40 91 a1 78 01", "shape", "array or map"),
        ("d4 72 40 91 a1 78 01", "i64", "int"),
        ("d4 72 41", "str", "str"),
    ] {
        assert_eq!(err(input, op).code(), WrongType);
        assert_eq!(
            m(input, op),
            format!(
                "expected {expected}, found a msgpackr record (ext 0x72); \
                 send tuples, or encode with useRecords: false"
            )
        );
    }
    assert_eq!(m("c4 00", "str"), "expected str, found bin");
    assert_eq!(m("00 00", "finish"), "2 bytes after the end of the message");
    assert_eq!(m("a1 ff", "str"), "string is not valid utf-8");
    assert_eq!(
        m("cb 7f f8 00 00 00 00 00 00", "f64"),
        "expected a finite number, found nan"
    );
    assert_eq!(
        m("cb ff f0 00 00 00 00 00 00", "f64"),
        "expected a finite number, found -infinity"
    );
    assert_eq!(
        m("cb 7e 37 e4 3c 88 00 75 9c", "f32"),
        "1e300 overflows f32"
    );
    assert_eq!(
        m("cb 3f f8 00 00 00 00 00 00", "i64"),
        "1.5 is not an integer"
    );
    assert_eq!(m("cc 80", "i8"), "128 is outside -128..=127");
    assert_eq!(m("ff", "u64"), "-1 is outside 0..=18446744073709551615");
    assert_eq!(
        m("cb 7e 37 e4 3c 88 00 75 9c", "u8"),
        "1e300 is outside 0..=255"
    );
    assert_eq!(
        m("cb 42 70 00 00 00 00 00 00", "u8"),
        "1099511627776 is outside 0..=255"
    );
    assert_eq!(m("aa 61 62", "str3"), "10 bytes, at most 3");
    assert_eq!(m("a1 61", "str2.."), "1 byte, at least 2");
    assert_eq!(m("a3 61", "str"), "3 bytes declared, 1 byte left");
    assert_eq!(
        m("dd ff ff ff ff 01 02 03 04 05", "array"),
        "4294967295 elements declared, 5 bytes left"
    );
    assert_eq!(m("83 01 02 03", "map"), "3 entries declared, 3 bytes left");
    // Singular units when the count is 1.
    assert_eq!(m("00", "finish"), "1 byte after the end of the message");
    assert_eq!(m("91", "array"), "1 element declared, 0 bytes left");
    assert_eq!(m("81 01", "map"), "1 entry declared, 1 byte left");
    assert_eq!(m("91*100 c0", "skip"), "nesting deeper than 64");
    let bytes = hex("95 01 02 03 04 05");
    let e = Reader::with_limits(&bytes, small_limits())
        .skip_value()
        .unwrap_err();
    assert_eq!(e.issue().message, "more than 4 elements");
    // An enum name no variant has lists the names it has, in declaration order (TypeScript's
    // `unknownName` writes the same: tests/ts/tests/errors.test.ts).
    let e = tuplet::__private_0_1::unknown_name("room", &["Local", "Trade", "Party"]);
    assert_eq!(e.code(), UnknownVariant);
    assert_eq!(
        e.issue().message,
        r#"unknown variant "room", expected one of "Local", "Trade", "Party""#
    );
}

#[test]
fn huge_declared_lengths_do_not_allocate_or_hang() {
    // array32 of 2^32-1 elements with 5 bytes of input: rejected at the header.
    let bytes = hex("dd ff ff ff ff 01 02 03 04 05");
    let mut r = Reader::new(&bytes);
    assert_eq!(r.read_array_len().unwrap_err().code(), Truncated);
    // A declared count that fits the input but not the budget.
    let bytes = hex("dc 00 05 01 02 03 04 05");
    let mut r = Reader::with_limits(&bytes, small_limits());
    assert_eq!(r.read_shape().unwrap_err().code(), TooManyElements);
}

#[test]
fn undefined_is_nil_other_fixext1_is_not() {
    let bytes = hex("d4 00 00");
    let mut r = Reader::new(&bytes);
    assert_eq!(r.peek_kind(), Ok(Kind::Nil));
    assert_eq!(r.try_nil(), Ok(true));
    assert_eq!(r.finish(), Ok(()));
    for input in ["d4 00 01", "d4 01 00", "d4 ff 00"] {
        let bytes = hex(input);
        let mut r = Reader::new(&bytes);
        assert_eq!(r.peek_kind(), Ok(Kind::Ext), "{input}");
        assert_eq!(r.try_nil(), Ok(false), "{input}");
        assert_eq!(r.position(), 0);
        r.skip_value().unwrap();
        assert_eq!(r.finish(), Ok(()));
    }
    let bytes = hex("c0");
    let mut r = Reader::new(&bytes);
    assert_eq!(r.try_nil(), Ok(true));
    let bytes = hex("01");
    let mut r = Reader::new(&bytes);
    assert_eq!(r.try_nil(), Ok(false));
    assert_eq!(r.remaining(), 1);
}

#[test]
fn depth_is_tracked_by_enter_and_leave() {
    // 64 nested arrays are accepted by the default limits, 65 are not.
    let ok = hex(&format!("{} c0", "91 ".repeat(64)));
    let mut r = Reader::new(&ok);
    for _ in 0..64 {
        assert_eq!(r.read_shape(), Ok(Shape::Array(1)));
    }
    assert_eq!(r.try_nil(), Ok(true));
    for _ in 0..64 {
        r.leave();
    }
    assert_eq!(r.finish(), Ok(()));
    let mut r = Reader::new(&ok);
    r.skip_value().unwrap();
    r.finish().unwrap();

    // Depth counted by read_shape carries into skip_value.
    let bytes = hex("91 91 91 c0");
    let mut r = Reader::with_limits(&bytes, small_limits());
    r.read_shape().unwrap();
    r.read_shape().unwrap();
    r.read_shape().unwrap();
    assert_eq!(r.skip_value(), Ok(()));
    let bytes = hex("91 91 91 91 c0");
    let mut r = Reader::with_limits(&bytes, small_limits());
    r.read_shape().unwrap();
    r.read_shape().unwrap();
    assert_eq!(r.skip_value().unwrap_err().code(), TooDeep);

    // Siblings leave: a wide tree of depth 2 never reaches depth 3.
    let bytes = hex("94 91 01 91 02 91 03 90");
    let limits = Limits {
        max_depth: 2,
        max_elements: 100,
    };
    let mut r = Reader::with_limits(&bytes, limits);
    r.skip_value().unwrap();
    r.finish().unwrap();
}

#[test]
fn skip_handles_every_kind() {
    let inputs = [
        "c0",
        "c2",
        "c3",
        "00",
        "7f",
        "e0",
        "ff",
        "cc ff",
        "cd ff ff",
        "ce 00 00 00 01",
        "cf 00 00 00 00 00 00 00 01",
        "d0 80",
        "d1 80 00",
        "d2 80 00 00 00",
        "d3 80 00 00 00 00 00 00 00",
        "ca 3f 80 00 00",
        "cb 3f f0 00 00 00 00 00 00",
        "a0",
        "a2 ff fe",
        "d9 01 ff",
        "da 00 01 61",
        "db 00 00 00 01 61",
        "c4 00",
        "c5 00 01 01",
        "c6 00 00 00 01 01",
        "90",
        "80",
        "dc 00 01 c0",
        "dd 00 00 00 01 c0",
        "de 00 01 01 02",
        "df 00 00 00 01 01 02",
        "d4 01 01",
        "d5 01 01 02",
        "d6 ff 00 00 00 01",
        "d7 ff 00 00 00 00 00 00 00 01",
        "d8 05 00*16",
        "c7 00 05",
        "c7 02 05 01 02",
        "c8 00 01 05 01",
        "c9 00 00 00 01 05 01",
        "82 a1 61 92 01 c0 a1 62 81 01 90",
        "93 91 91 90 80 c0",
    ];
    for input in inputs {
        let mut bytes = hex(input);
        bytes.push(0x2a); // a sentinel after the value
        let mut r = Reader::new(&bytes);
        r.skip_value().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(r.remaining(), 1, "{input}");
        assert_eq!(r.read_u64(0, 100), Ok(42));
    }
}

#[test]
fn kinds_agree_with_rmp_markers() {
    use rmp::Marker as M;
    for b in 0..=255u8 {
        let mut bytes = vec![b];
        bytes.extend([1u8; 20]);
        let want = match M::from_u8(b) {
            M::Reserved => None,
            M::Null => Some(Kind::Nil),
            M::True | M::False => Some(Kind::Bool),
            M::FixPos(_)
            | M::FixNeg(_)
            | M::U8
            | M::U16
            | M::U32
            | M::U64
            | M::I8
            | M::I16
            | M::I32
            | M::I64 => Some(Kind::Int),
            M::F32 | M::F64 => Some(Kind::Float),
            M::FixStr(_) | M::Str8 | M::Str16 | M::Str32 => Some(Kind::Str),
            M::Bin8 | M::Bin16 | M::Bin32 => Some(Kind::Bin),
            M::FixArray(_) | M::Array16 | M::Array32 => Some(Kind::Array),
            M::FixMap(_) | M::Map16 | M::Map32 => Some(Kind::Map),
            _ => Some(Kind::Ext),
        };
        let got = Reader::new(&bytes).peek_kind();
        match want {
            None => assert_eq!(got.unwrap_err().code(), ReservedMarker),
            Some(k) => assert_eq!(got, Ok(k), "{b:02x}"),
        }
    }
}
