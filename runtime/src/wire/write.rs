//! The writer: free functions appending one msgpack value (or header) to a `Vec<u8>`, each
//! in msgpack's smallest encoding. Infallible.
//!
//! Hand-written rather than wrapping `rmp::encode`: with rmp's default `std` feature its
//! functions write through `std::io::Write` and return an `io::Error` result that cannot
//! fail on a `Vec` but would still have to be discarded at every call, and `write_str` casts
//! a length above `u32::MAX` silently. The encodings are a few lines each; the tests compare
//! every boundary against `rmpv`, an independent encoder.

/// Appends nil (`c0`).
#[inline]
pub fn nil(out: &mut Vec<u8>) {
    out.push(0xc0);
}

/// Appends a bool (`c2` false, `c3` true).
#[inline]
pub fn bool(out: &mut Vec<u8>, v: bool) {
    out.push(if v { 0xc3 } else { 0xc2 });
}

/// Appends an unsigned int: positive fixint, uint8, uint16, uint32 or uint64, the smallest
/// that holds it.
#[inline]
pub fn uint(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        wide_int(out, 0xcc, v, 64 - v.leading_zeros());
    }
}

/// Appends a signed int: a non-negative value as [`uint`] does; a negative one as negative
/// fixint, int8, int16, int32 or int64, the smallest that holds it.
#[inline]
pub fn int(out: &mut Vec<u8>, v: i64) {
    if (-32..0x80).contains(&v) {
        out.push(v as u8);
    } else if v >= 0 {
        wide_int(out, 0xcc, v as u64, 64 - (v as u64).leading_zeros());
    } else {
        // Significant bits of a negative value, its sign bit included.
        wide_int(out, 0xd0, v as u64, 65 - (!v as u64).leading_zeros());
    }
}

/// `log2` of the int width (1, 2, 4 or 8 bytes) that holds `n` significant bytes.
const WIDTH_LOG: [u8; 9] = [0, 0, 1, 2, 2, 3, 3, 3, 3];

/// `log2` of the smallest int width (1, 2, 4 or 8 bytes) holding `significant` bits.
#[inline(always)]
pub(crate) fn width_log(significant: u32) -> u8 {
    WIDTH_LOG[(significant.div_ceil(8) as usize).min(8)]
}

/// The marker `base + log2(width)` (`cc` uint family, `d0` int family) and the low `width`
/// bytes of `bits`, big-endian, where `width` is the smallest of 1, 2, 4, 8 bytes holding
/// `significant` bits. Branch-free: one fixed 9-byte append, then the length is cut back.
#[inline(always)]
fn wide_int(out: &mut Vec<u8>, base: u8, bits: u64, significant: u32) {
    let log = width_log(significant);
    let width = 1usize << log;
    let body = (bits << (64 - 8 * width)).to_be_bytes();
    let mut head = [0u8; 9];
    head[0] = base + log;
    head[1..].copy_from_slice(&body);
    put(out, &head, 1 + width);
}

/// Appends the first `n` bytes of `bytes` with one fixed-size copy (no variable-length
/// `memcpy`): all of `bytes` is appended, then the length is cut back to `n`.
#[inline(always)]
fn put<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], n: usize) {
    let len = out.len();
    out.extend_from_slice(bytes);
    out.truncate(len + n);
}

/// Appends a float32 (`ca`), always, whatever the value.
#[inline]
pub fn f32(out: &mut Vec<u8>, v: f32) {
    let b = v.to_bits().to_be_bytes();
    out.extend_from_slice(&[0xca, b[0], b[1], b[2], b[3]]);
}

/// Appends a float64 (`cb`), always, whatever the value.
#[inline]
pub fn f64(out: &mut Vec<u8>, v: f64) {
    let mut head = [0xcb; 9];
    head[1..].copy_from_slice(&v.to_be_bytes());
    out.extend_from_slice(&head);
}

/// Appends a string: fixstr, str8, str16 or str32 header (length in UTF-8 bytes), then its
/// bytes.
///
/// # Panics
///
/// If the string is longer than `u32::MAX` bytes, which msgpack cannot represent (derived
/// encoders check schema lengths first).
#[inline]
pub fn str(out: &mut Vec<u8>, v: &str) {
    let (h, n) = str_header(v.len());
    out.extend_from_slice(&h[..n]);
    out.extend_from_slice(v.as_bytes());
}

/// Appends a bin: bin8, bin16 or bin32 header, then the bytes.
///
/// # Panics
///
/// If longer than `u32::MAX` bytes, which msgpack cannot represent.
#[inline]
pub fn bin(out: &mut Vec<u8>, v: &[u8]) {
    let (h, n) = bin_header(v.len());
    out.extend_from_slice(&h[..n]);
    out.extend_from_slice(v);
}

/// Appends an array header (fixarray, array16 or array32) for `len` elements.
#[inline]
pub fn array_len(out: &mut Vec<u8>, len: u32) {
    if len < 16 {
        out.push(0x90 | len as u8);
    } else {
        let (h, n) = wide_header([0xdc, 0xdd], len);
        out.extend_from_slice(&h[..n]);
    }
}

/// Appends a map header (fixmap, map16 or map32) for `len` entries.
#[inline]
pub fn map_len(out: &mut Vec<u8>, len: u32) {
    if len < 16 {
        out.push(0x80 | len as u8);
    } else {
        let (h, n) = wide_header([0xde, 0xdf], len);
        out.extend_from_slice(&h[..n]);
    }
}

/// A byte length as a msgpack length.
#[inline]
fn wire_len(len: usize) -> u32 {
    match u32::try_from(len) {
        Ok(n) => n,
        Err(_) => too_long(len),
    }
}

#[cold]
#[inline(never)]
fn too_long(len: usize) -> ! {
    panic!("tuplet: {len} bytes exceed msgpack's u32 length limit")
}

/// A str header for `len` bytes (fixstr, str8, str16 or str32): its bytes and their count.
#[inline]
pub(crate) fn str_header(len: usize) -> ([u8; 5], usize) {
    let len = wire_len(len);
    if len < 32 {
        ([0xa0 | len as u8, 0, 0, 0, 0], 1)
    } else {
        sized_header([0xd9, 0xda, 0xdb], len)
    }
}

/// A bin header for `len` bytes (bin8, bin16 or bin32): its bytes and their count.
#[inline]
pub(crate) fn bin_header(len: usize) -> ([u8; 5], usize) {
    sized_header([0xc4, 0xc5, 0xc6], wire_len(len))
}

/// An 8/16/32-bit length header with the given markers.
#[inline]
fn sized_header(markers: [u8; 3], len: u32) -> ([u8; 5], usize) {
    if len <= 0xff {
        ([markers[0], len as u8, 0, 0, 0], 2)
    } else if len <= 0xffff {
        let b = (len as u16).to_be_bytes();
        ([markers[1], b[0], b[1], 0, 0], 3)
    } else {
        let b = len.to_be_bytes();
        ([markers[2], b[0], b[1], b[2], b[3]], 5)
    }
}

/// A 16/32-bit count header with the given markers.
#[inline]
pub(crate) fn wide_header(markers: [u8; 2], len: u32) -> ([u8; 5], usize) {
    if len <= 0xffff {
        let b = (len as u16).to_be_bytes();
        ([markers[0], b[0], b[1], 0, 0], 3)
    } else {
        let b = len.to_be_bytes();
        ([markers[1], b[0], b[1], b[2], b[3]], 5)
    }
}
