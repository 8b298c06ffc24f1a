//! The read cap in frames: a connection's socket, read through a meter that counts every
//! WebSocket frame in the bytes read (data frames, each fragment of a message, control
//! frames) and, once `rate` a second (`burst` at once) are spent, stops reading until the
//! bucket refills. TCP then makes the sender wait. The WebSocket library joins fragments
//! into one message above this, so counting here is what bounds a flood of tiny fragments:
//! counted as messages, 1-byte fragments were read as fast as they came.
//!
//! The meter only reads frame headers (2 to 14 bytes) and skips payloads; it never changes
//! a byte.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::limits::RateCap;

/// The fewest bytes a client frame takes: 2 of header and a 4-byte mask (RFC 6455 §5.3:
/// every client frame is masked; one that is not is a protocol error).
const MIN_FRAME: usize = 6;

/// Where the meter is in the byte stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// In a frame header: its first bytes so far.
    Header { have: usize, head: [u8; 14] },
    /// In a payload: bytes left.
    Payload(u64),
}

/// Counts the frames starting in a byte stream.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameScan(Scan);

impl Default for FrameScan {
    fn default() -> Self {
        FrameScan(Scan::Header {
            have: 0,
            head: [0; 14],
        })
    }
}

impl FrameScan {
    /// Payload bytes of the frame under way still to come (0 between frames or in a
    /// header).
    pub(crate) fn payload_left(&self) -> usize {
        match self.0 {
            Scan::Payload(left) => usize::try_from(left).unwrap_or(usize::MAX),
            Scan::Header { .. } => 0,
        }
    }

    /// Feeds the next bytes; returns how many frame headers were completed in them.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) -> u64 {
        let mut frames = 0;
        while !bytes.is_empty() {
            match &mut self.0 {
                Scan::Payload(left) => {
                    let skip = (*left).min(bytes.len() as u64);
                    *left -= skip;
                    bytes = &bytes[skip as usize..];
                    if *left == 0 {
                        *self = FrameScan::default();
                    }
                }
                Scan::Header { have, head } => {
                    head[*have] = bytes[0];
                    *have += 1;
                    bytes = &bytes[1..];
                    if let Some(payload) = header_done(&head[..*have]) {
                        frames += 1;
                        self.0 = if payload == 0 {
                            Scan::Header {
                                have: 0,
                                head: [0; 14],
                            }
                        } else {
                            Scan::Payload(payload)
                        };
                    }
                }
            }
        }
        frames
    }
}

/// The payload length once `head` is a whole frame header (RFC 6455 §5.2), else `None`.
fn header_done(head: &[u8]) -> Option<u64> {
    if head.len() < 2 {
        return None;
    }
    let mask = if head[1] & 0x80 != 0 { 4 } else { 0 };
    let (ext, len) = match head[1] & 0x7f {
        126 => (2, None),
        127 => (8, None),
        n => (0, Some(u64::from(n))),
    };
    if head.len() < 2 + ext + mask {
        return None;
    }
    Some(len.unwrap_or_else(|| {
        head[2..2 + ext]
            .iter()
            .fold(0u64, |n, &b| (n << 8) | u64::from(b))
    }))
}

/// A socket whose reads are capped in frames.
pub(crate) struct Metered {
    inner: TcpStream,
    scan: FrameScan,
    cap: RateCap,
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Metered {
    /// `inner`, read at most `rate` frames a second, `burst` at once.
    pub(crate) fn new(inner: TcpStream, rate: f64, burst: f64) -> Metered {
        Metered {
            inner,
            scan: FrameScan::default(),
            cap: RateCap::new(rate, burst),
            pause: None,
        }
    }
}

impl AsyncRead for Metered {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some(pause) = this.pause.as_mut() {
            ready!(pause.as_mut().poll(cx));
            this.pause = None;
        }
        // A client frame is 6 bytes at least (a header and its mask): reading the rest of
        // the payload under way and at most 6 bytes per token left completes at most one
        // frame more than the bucket holds.
        let now = Instant::now();
        let tokens = this.cap.available(now).floor().max(1.0) as usize;
        let limit = tokens
            .saturating_mul(MIN_FRAME)
            .saturating_add(this.scan.payload_left());
        let before = buf.filled().len();
        let n = {
            let mut part = buf.take(limit);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut part))?;
            part.filled().len()
        };
        // SAFETY: the socket's read initialized and filled the first `n` bytes of `buf`'s
        // unfilled part (`take` lends that part, and tokio's readers never de-initialize).
        unsafe { buf.assume_init(n) };
        buf.advance(n);
        let frames = this.scan.feed(&buf.filled()[before..]);
        if frames > 0 {
            // The one frame over the bucket, when there is one, is paid by a longer
            // pause before the next read.
            let now = Instant::now();
            this.cap.spend(now, frames as f64);
            let wait = this.cap.ready_in(now);
            if !wait.is_zero() {
                this.pause = Some(Box::pin(tokio::time::sleep(wait)));
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Metered {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A masked client frame of `len` payload bytes (zero key).
    fn frame(opcode: u8, fin: bool, len: usize) -> Vec<u8> {
        let mut f = vec![if fin { 0x80 } else { 0 } | opcode];
        match len {
            0..=125 => f.push(0x80 | len as u8),
            126..=65535 => {
                f.push(0x80 | 126);
                f.extend((len as u16).to_be_bytes());
            }
            _ => {
                f.push(0x80 | 127);
                f.extend((len as u64).to_be_bytes());
            }
        }
        f.extend([0; 4]);
        f.extend(vec![7u8; len]);
        f
    }

    #[test]
    fn every_frame_is_counted_however_the_bytes_are_split() {
        let mut bytes = Vec::new();
        let sizes = [0, 1, 125, 126, 300, 65535, 70000, 0];
        for (i, &n) in sizes.iter().enumerate() {
            bytes.extend(frame(if i == 0 { 0x2 } else { 0x0 }, false, n));
        }
        bytes.extend(frame(0x9, true, 3));
        for chunk in [1, 2, 3, 7, 100, 4096, bytes.len()] {
            let mut scan = FrameScan::default();
            let n: u64 = bytes.chunks(chunk).map(|c| scan.feed(c)).sum();
            assert_eq!(n, sizes.len() as u64 + 1, "chunks of {chunk}");
            assert_eq!(scan.0, FrameScan::default().0, "ends between frames");
        }
        // A header cut anywhere is counted once it is whole.
        let mut scan = FrameScan::default();
        let f = frame(0x2, true, 70000);
        assert_eq!(scan.feed(&f[..13]), 0);
        assert_eq!(scan.feed(&f[13..14]), 1);
    }
}
