//! A payload as pasted on the command line: hex (any spacing), a JSON byte array, or base64
//! (standard or URL-safe); and base64 out.

use crate::ircodec;

/// The bytes of a payload as pasted: hex (any spacing, commas, `0x`), a JSON array of byte
/// values, or base64 (standard or URL-safe, padding optional).
pub fn parse_payload(text: &str, hex: bool, base64: bool) -> Result<Vec<u8>, String> {
    let t = text.trim();
    if base64 {
        return unbase64(t).ok_or_else(|| "the payload is not base64".to_owned());
    }
    if let Some(bytes) = ircodec::unhex(t) {
        return Ok(bytes);
    }
    let spaced_hex = t.contains([' ', ',', '\n'])
        && t.replace("0x", "")
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b" ,\t\r\n:-[]".contains(&b));
    if hex || spaced_hex {
        return Err("the payload is not hex (an even number of hex digits)".into());
    }
    if t.starts_with('[') {
        if let Ok(v) = serde_json::from_str::<Vec<u8>>(t) {
            return Ok(v);
        }
    }
    unbase64(t).ok_or_else(|| "the payload is neither hex nor base64".to_owned())
}

/// Decodes base64 (standard or URL-safe alphabet, padding and whitespace optional).
pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Encodes base64 (standard alphabet, padded).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |a, b| (a << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}
