//! Frames on a WebTransport stream. A stream is bytes, not messages, so each frame (an
//! envelope: id, then payload) goes after its length as a QUIC variable-length integer
//! (RFC 9000 §16: 1 byte below 64, 2 below 16,384, 4 below 2^30). A datagram is one frame
//! as it is. The TypeScript client's `transport.ts` writes and reads the same.

use bytes::{Buf, Bytes, BytesMut};

/// The largest length a prefix may say (2^30 − 1: four bytes).
const MAX_LEN: usize = (1 << 30) - 1;

/// Appends `frame` with its length prefix.
pub(crate) fn put(out: &mut Vec<u8>, frame: &[u8]) {
    let n = frame.len().min(MAX_LEN);
    if n < 64 {
        out.push(n as u8);
    } else if n < 16_384 {
        out.extend_from_slice(&(0x4000 | n as u16).to_be_bytes());
    } else {
        out.extend_from_slice(&(0x8000_0000 | n as u32).to_be_bytes());
    }
    out.extend_from_slice(&frame[..n]);
}

/// A frame's length over the reader's cap (or an 8-byte prefix, which no frame needs): the
/// stream is ended as a protocol error.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooBig(pub usize);

/// Gathers a stream's bytes and cuts them into frames, each at most `cap` bytes.
pub(crate) struct FrameReader {
    buf: BytesMut,
    cap: usize,
}

impl FrameReader {
    /// A reader of frames up to `cap` bytes.
    pub fn new(cap: usize) -> FrameReader {
        FrameReader {
            buf: BytesMut::with_capacity(4096),
            cap,
        }
    }

    /// Adds bytes read from the stream.
    pub fn extend(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole frame, if the bytes so far hold one.
    pub fn next_frame(&mut self) -> Result<Option<Bytes>, TooBig> {
        let Some(&first) = self.buf.first() else {
            return Ok(None);
        };
        let width = 1usize << (first >> 6);
        if width == 8 {
            return Err(TooBig(usize::MAX));
        }
        if self.buf.len() < width {
            return Ok(None);
        }
        let mut len = usize::from(first & 0x3f);
        for &b in &self.buf[1..width] {
            len = (len << 8) | usize::from(b);
        }
        if len > self.cap {
            return Err(TooBig(len));
        }
        if self.buf.len() < width + len {
            // Room for the rest of this frame, and no more than the cap allows.
            self.buf.reserve(width + len - self.buf.len());
            return Ok(None);
        }
        self.buf.advance(width);
        Ok(Some(self.buf.split_to(len).freeze()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(len: usize) -> Vec<u8> {
        let mut out = Vec::new();
        put(&mut out, &vec![7u8; len]);
        out
    }

    /// RFC 9000 §16's widths at each boundary.
    #[test]
    fn prefix_width_follows_quic_varints() {
        assert_eq!(framed(63).len() - 63, 1);
        assert_eq!(framed(64).len() - 64, 2);
        assert_eq!(framed(16_383).len() - 16_383, 2);
        assert_eq!(framed(16_384).len() - 16_384, 4);
        // RFC 9000 §A.1's own example: 15,293 is 0x7bbd.
        assert_eq!(&framed(15_293)[..2], &[0x7b, 0xbd]);
    }

    /// Frames cut at every byte boundary come out whole and in order.
    #[test]
    fn frames_survive_any_split() {
        let mut wire = Vec::new();
        let frames: Vec<Vec<u8>> = [0usize, 1, 63, 64, 300, 20_000]
            .iter()
            .map(|&n| (0..n).map(|i| (i * 31 + n) as u8).collect())
            .collect();
        for f in &frames {
            put(&mut wire, f);
        }
        for step in [1, 2, 3, 7, 1000, wire.len()] {
            let mut r = FrameReader::new(65_536);
            let mut got = Vec::new();
            for chunk in wire.chunks(step) {
                r.extend(chunk);
                while let Some(f) = r.next_frame().unwrap() {
                    got.push(f.to_vec());
                }
            }
            assert_eq!(got, frames, "chunks of {step}");
        }
    }

    /// A prefix over the cap is refused before its bytes arrive, so a client cannot make
    /// the server buffer a frame it will not take.
    #[test]
    fn oversized_prefix_is_refused_before_its_body() {
        let mut r = FrameReader::new(4096);
        r.extend(&[0x80, 0x01, 0x00, 0x00]);
        assert_eq!(r.next_frame(), Err(TooBig(65_536)));
        let mut r = FrameReader::new(4096);
        r.extend(&[0xc0]);
        assert!(r.next_frame().is_err());
    }
}
