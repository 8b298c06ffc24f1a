//! The writer: smallest encodings at every boundary, identical to rmpv's, read back by our
//! reader.

mod support;

use rmpv::Value;
use support::to_hex;
use tuplet::wire::{put, write, Reader, Shape};

fn rmpv_bytes(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).expect("vec write");
    out
}

const UINTS: &[u64] = &[
    0,
    1,
    127,
    128,
    255,
    256,
    65535,
    65536,
    u32::MAX as u64,
    u32::MAX as u64 + 1,
    (1 << 53) - 1,
    i64::MAX as u64,
    i64::MAX as u64 + 1,
    u64::MAX,
];

const INTS: &[i64] = &[
    0,
    127,
    128,
    255,
    256,
    65535,
    65536,
    u32::MAX as i64,
    u32::MAX as i64 + 1,
    i64::MAX,
    -1,
    -32,
    -33,
    -128,
    -129,
    -32768,
    -32769,
    i32::MIN as i64,
    i32::MIN as i64 - 1,
    -(1 << 53) + 1,
    i64::MIN,
];

#[test]
fn uints_match_rmpv_and_read_back() {
    for &v in UINTS {
        let mut ours = Vec::new();
        write::uint(&mut ours, v);
        assert_eq!(to_hex(&ours), to_hex(&rmpv_bytes(&Value::from(v))), "{v}");
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_u64(0, u64::MAX), Ok(v));
        r.finish().unwrap();
    }
}

#[test]
fn ints_match_rmpv_and_read_back() {
    for &v in INTS {
        let mut ours = Vec::new();
        write::int(&mut ours, v);
        assert_eq!(to_hex(&ours), to_hex(&rmpv_bytes(&Value::from(v))), "{v}");
        if v >= 0 {
            let mut u = Vec::new();
            write::uint(&mut u, v as u64);
            assert_eq!(u, ours, "non-negative ints use the uint family");
        }
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_i64(i64::MIN, i64::MAX), Ok(v));
        r.finish().unwrap();
    }
}

#[test]
fn exact_boundary_encodings() {
    let cases: &[(i64, &str)] = &[
        (0, "00"),
        (127, "7f"),
        (128, "cc 80"),
        (255, "cc ff"),
        (256, "cd 01 00"),
        (65535, "cd ff ff"),
        (65536, "ce 00 01 00 00"),
        (4294967295, "ce ff ff ff ff"),
        (4294967296, "cf 00 00 00 01 00 00 00 00"),
        (-1, "ff"),
        (-32, "e0"),
        (-33, "d0 df"),
        (-128, "d0 80"),
        (-129, "d1 ff 7f"),
        (-32768, "d1 80 00"),
        (-32769, "d2 ff ff 7f ff"),
        (-2147483649, "d3 ff ff ff ff 7f ff ff ff"),
        (i64::MIN, "d3 80 00 00 00 00 00 00 00"),
    ];
    for &(v, want) in cases {
        let mut out = Vec::new();
        write::int(&mut out, v);
        assert_eq!(to_hex(&out), want, "{v}");
    }
}

#[test]
fn floats_keep_their_width() {
    for v in [
        0.0f32,
        -0.0,
        1.0,
        0.1,
        -3.5,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
    ] {
        let mut ours = Vec::new();
        write::f32(&mut ours, v);
        assert_eq!(ours, rmpv_bytes(&Value::F32(v)));
        assert_eq!(ours.len(), 5);
        assert_eq!(
            Reader::new(&ours).read_f32().map(f32::to_bits),
            Ok(v.to_bits())
        );
    }
    for v in [0.0f64, -0.0, 1.0, 0.1, 1764000000000.0, f64::MAX, 5e-324] {
        let mut ours = Vec::new();
        write::f64(&mut ours, v);
        assert_eq!(ours, rmpv_bytes(&Value::F64(v)));
        assert_eq!(ours.len(), 9);
        assert_eq!(
            Reader::new(&ours).read_f64().map(f64::to_bits),
            Ok(v.to_bits())
        );
    }
    // Whole floats stay floats: 1.0 is `ca 3f 80 00 00`, never an int.
    let mut out = Vec::new();
    write::f32(&mut out, 1.0);
    assert_eq!(to_hex(&out), "ca 3f 80 00 00");
}

#[test]
fn strings_and_bins_at_every_header_boundary() {
    for len in [0usize, 1, 31, 32, 255, 256, 65535, 65536] {
        let s = "é".repeat(len / 2) + &"a".repeat(len % 2);
        assert_eq!(s.len(), len);
        let mut ours = Vec::new();
        write::str(&mut ours, &s);
        assert_eq!(ours, rmpv_bytes(&Value::from(s.as_str())), "str {len}");
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_str(0, u32::MAX), Ok(s.as_str()));
        r.finish().unwrap();

        let b = vec![0xabu8; len];
        let mut ours = Vec::new();
        write::bin(&mut ours, &b);
        assert_eq!(ours, rmpv_bytes(&Value::Binary(b.clone())), "bin {len}");
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_bin(0, u32::MAX), Ok(b.as_slice()));
        r.finish().unwrap();
    }
}

#[test]
fn headers_at_every_boundary() {
    for n in [0u32, 1, 15, 16, 65535, 65536] {
        let mut ours = Vec::new();
        write::array_len(&mut ours, n);
        let mut theirs = Vec::new();
        rmp::encode::write_array_len(&mut theirs, n).unwrap();
        assert_eq!(ours, theirs, "array {n}");
        let header = ours.len();
        ours.resize(header + n as usize, 0xc0);
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_shape(), Ok(Shape::Array(n)));
        assert_eq!(r.position(), header);

        let mut ours = Vec::new();
        write::map_len(&mut ours, n);
        let mut theirs = Vec::new();
        rmp::encode::write_map_len(&mut theirs, n).unwrap();
        assert_eq!(ours, theirs, "map {n}");
        let header = ours.len();
        ours.resize(header + 2 * n as usize, 0xc0);
        let mut r = Reader::new(&ours);
        assert_eq!(r.read_shape(), Ok(Shape::Map(n)));
        let mut whole = Reader::new(&ours);
        whole.skip_value().unwrap();
        whole.finish().unwrap();
    }
}

#[test]
fn nil_and_bool() {
    let mut out = Vec::new();
    write::nil(&mut out);
    write::bool(&mut out, false);
    write::bool(&mut out, true);
    assert_eq!(to_hex(&out), "c0 c2 c3");
    let mut r = Reader::new(&out);
    assert_eq!(r.try_nil(), Ok(true));
    assert_eq!(r.read_bool(), Ok(false));
    assert_eq!(r.read_bool(), Ok(true));
    r.finish().unwrap();
}

/// Writes with the slice writer into a buffer sized `max` (plus its slack) and returns the
/// bytes written.
fn put_bytes(max: usize, f: impl FnOnce(&mut [u8], usize) -> usize) -> Vec<u8> {
    let mut out = vec![0xee; 3];
    put::bounded(&mut out, max, |buf, p| Ok(f(buf, p))).unwrap();
    assert_eq!(out[..3], [0xee; 3], "bytes before the cursor untouched");
    out.split_off(3)
}

#[test]
fn slice_writer_matches_the_vec_writer() {
    let vec = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut v = Vec::new();
        f(&mut v);
        v
    };
    for &v in UINTS {
        assert_eq!(
            put_bytes(9, |b, p| put::uint(b, p, v)),
            vec(&|o| write::uint(o, v))
        );
    }
    for &v in INTS {
        assert_eq!(
            put_bytes(9, |b, p| put::int(b, p, v)),
            vec(&|o| write::int(o, v))
        );
    }
    for v in -32..=127 {
        assert_eq!(
            put_bytes(1, |b, p| put::fixint(b, p, v)),
            vec(&|o| write::int(o, v))
        );
    }
    for v in [0.0f32, -1.5, f32::MAX, f32::NAN] {
        assert_eq!(
            put_bytes(5, |b, p| put::f32(b, p, v)),
            vec(&|o| write::f32(o, v))
        );
        let w = f64::from(v);
        assert_eq!(
            put_bytes(9, |b, p| put::f64(b, p, w)),
            vec(&|o| write::f64(o, w))
        );
    }
    for v in [false, true] {
        assert_eq!(
            put_bytes(1, |b, p| put::bool(b, p, v)),
            vec(&|o| write::bool(o, v))
        );
    }
    assert_eq!(put_bytes(1, put::nil), vec(&|o| write::nil(o)));
    for len in [0usize, 31, 32, 255, 256, 65535, 65536] {
        let s = "x".repeat(len);
        let bytes = s.as_bytes();
        assert_eq!(
            put_bytes(len + 5, |b, p| put::str(b, p, &s)),
            vec(&|o| write::str(o, &s))
        );
        assert_eq!(
            put_bytes(len + 5, |b, p| put::bin(b, p, bytes)),
            vec(&|o| write::bin(o, bytes))
        );
    }
    for n in [0u32, 15, 16, 65535, 65536, u32::MAX] {
        assert_eq!(
            put_bytes(5, |b, p| put::array_len(b, p, n)),
            vec(&|o| write::array_len(o, n))
        );
        assert_eq!(
            put_bytes(5, |b, p| put::map_len(b, p, n)),
            vec(&|o| write::map_len(o, n))
        );
    }
}

#[test]
fn slice_writer_cuts_back_on_error() {
    let mut out = vec![1, 2];
    let err = put::bounded(&mut out, 4, |buf, p| {
        put::uint(buf, p, 300);
        Err(tuplet::Error::new(tuplet::Code::OutOfRange, "no"))
    });
    assert!(err.is_err());
    assert_eq!(out, [1, 2]);
}

/// `put::int_in` against `write::int` over every value of each range (and the 32-bit and
/// 64-bit corners at their boundaries): the range-specialized writer is exact.
#[test]
fn range_writer_matches_the_vec_writer_over_whole_ranges() {
    fn check<const MIN: i64, const MAX: i64>(values: impl Iterator<Item = i64>) {
        let mut buf = vec![0u8; 9 + put::SLACK];
        let mut want = Vec::new();
        for v in values {
            let n = put::int_in::<MIN, MAX>(&mut buf, 0, v);
            want.clear();
            write::int(&mut want, v);
            assert_eq!(&buf[..n], &want[..], "{v} in {MIN}..={MAX}");
        }
    }
    check::<-500_000, 500_000>(-500_000..=500_000);
    check::<-10_000, 100_000>(-10_000..=100_000);
    check::<-3142, 3142>(-3142..=3142);
    check::<0, 65535>(0..=65535);
    check::<-32768, 32767>(-32768..=32767);
    check::<0, 1000>(0..=1000);
    check::<50, 200>(50..=200);
    check::<-128, 255>(-128..=255);
    check::<0, 15>(0..=15);
    check::<-32, 127>(-32..=127);
    let wide = INTS
        .iter()
        .copied()
        .filter(|v| (i32::MIN as i64..=u32::MAX as i64).contains(v));
    check::<{ i32::MIN as i64 }, { u32::MAX as i64 }>(
        wide.flat_map(|v| [v - 1, v, v + 1])
            .filter(|v| (i32::MIN as i64..=u32::MAX as i64).contains(v)),
    );
    check::<{ i64::MIN }, { i64::MAX }>(INTS.iter().copied());
    // The widest range within 32 bits: every value around the width boundaries, and the
    // rest of the range at a prime stride (each width covers a contiguous range).
    const LO: i64 = i32::MIN as i64;
    const HI: i64 = u32::MAX as i64;
    check::<LO, HI>(-70_000..=70_000);
    check::<LO, HI>((LO..=HI).step_by(65_521).chain([LO, LO + 1, HI - 1, HI]));
    check::<-70_000, 0>(-70_000..=0);
    check::<0, 70_000>(0..=70_000);
}
