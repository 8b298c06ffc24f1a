//! Encoded sizes of msgpack values: headers of containers, strs and bins, and ints. Every
//! size rule (`sizes`, `heap`, the derive's `MAX_SIZE` and `MIN_SIZE`) is built from these.

/// The msgpack header size of an array or map of up to `n` elements.
pub fn container_header(n: usize) -> usize {
    if n < 16 {
        1
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The msgpack header size of a str of `n` bytes.
pub fn str_header(n: usize) -> usize {
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

/// The msgpack header size of a bin of `n` bytes.
pub fn bin_header(n: usize) -> usize {
    if n <= u8::MAX as usize {
        2
    } else if n <= u16::MAX as usize {
        3
    } else {
        5
    }
}

/// The encoded size of one int.
pub fn int_one(v: i128) -> usize {
    if v >= 0 {
        match v {
            0..=127 => 1,
            128..=0xff => 2,
            0x100..=0xffff => 3,
            0x1_0000..=0xffff_ffff => 5,
            _ => 9,
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

/// The largest encoding of an int in `min..=max` (as the derive computes it).
pub fn int_max(min: i128, max: i128) -> usize {
    int_one(min).max(int_one(max))
}

/// The smallest encoding of an int in `min..=max`.
pub fn int_min(min: i128, max: i128) -> usize {
    if min <= 0 && max >= 0 {
        1
    } else if min > 0 {
        int_one(min)
    } else {
        int_one(max)
    }
}
