//! The WebTransport client: one session, one bidirectional stream for the reliable
//! messages (each frame after its length as a QUIC variable-length integer, as the server
//! and the TypeScript client write it), datagrams for the `unreliable` ones that fit.

use bytes::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tuplet::wire::Reader;
use tuplet::Dispatch;
use village::dispatch::ClientMessage;
use village_server::client::{ClientError, Incoming};
use wtransport::endpoint::endpoint_side::Client as ClientSide;
use wtransport::tls::Sha256Digest;
use wtransport::{ClientConfig, Connection, Endpoint, SendStream};

/// A joined WebTransport session.
pub struct WtConn {
    // Kept for the session's life: dropping the endpoint ends it.
    _endpoint: Endpoint<ClientSide>,
    connection: Connection,
    send: SendStream,
    frames: mpsc::UnboundedReceiver<(Incoming, bool)>,
}

/// The largest frame the stream reader takes (the server's frames are far smaller).
const MAX_FRAME: usize = 1 << 20;

impl WtConn {
    /// Asks the server's `GET /webtransport` for the certificate's hash, opens the session
    /// at `https://addr/room` pinned to that hash, and opens the stream.
    pub async fn open(addr: &str, room: &str) -> Result<WtConn, ClientError> {
        let hash = certificate_hash(addr).await?;
        let config = ClientConfig::builder()
            .with_bind_default()
            .with_server_certificate_hashes([hash])
            .build();
        let endpoint = Endpoint::client(config)?;
        let connection = endpoint.connect(format!("https://{addr}/{room}")).await?;
        let (send, mut recv) = connection.open_bi().await?.await?;
        let (tx, frames) = mpsc::unbounded_channel();
        let stream_tx = tx.clone();
        tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = vec![0u8; 16 * 1024];
            while let Ok(Some(n)) = recv.read(&mut chunk).await {
                buf.extend_from_slice(&chunk[..n]);
                while let Some((width, len)) = prefix(&buf) {
                    if len > MAX_FRAME {
                        return;
                    }
                    if buf.len() < width + len {
                        break;
                    }
                    let bytes = Bytes::copy_from_slice(&buf[width..width + len]);
                    buf.drain(..width + len);
                    if stream_tx.send(frame(bytes, false)).is_err() {
                        return;
                    }
                }
            }
        });
        let datagrams = connection.clone();
        tokio::spawn(async move {
            while let Ok(d) = datagrams.receive_datagram().await {
                let bytes = Bytes::copy_from_slice(d.payload().as_ref());
                if tx.send(frame(bytes, true)).is_err() {
                    return;
                }
            }
        });
        Ok(WtConn {
            _endpoint: endpoint,
            connection,
            send,
            frames,
        })
    }

    /// Sends one envelope: as a datagram when its message is `unreliable` and it fits,
    /// else on the stream.
    pub async fn send(&mut self, envelope: Vec<u8>) -> Result<(), ClientError> {
        let id = Reader::new(&envelope).read_u64(0, u64::from(u32::MAX))? as u32;
        let fits = self
            .connection
            .max_datagram_size()
            .is_some_and(|max| envelope.len() <= max);
        if unreliable(id) && fits {
            self.connection.send_datagram(envelope)?;
            return Ok(());
        }
        let mut out = Vec::with_capacity(envelope.len() + 4);
        put(&mut out, &envelope);
        self.send.write_all(&out).await?;
        Ok(())
    }

    /// The next frame from either channel, and whether it came as a datagram; `None` once
    /// the session ended.
    pub async fn next(&mut self) -> Option<(Incoming, bool)> {
        self.frames.recv().await
    }

    /// Ends the session (code 0).
    pub fn close(self) {
        self.connection.close(0u32.into(), b"done");
    }
}

/// Whether a client message may travel unreliably: the schema's `#[tuplet(unreliable)]`.
fn unreliable(id: u32) -> bool {
    ClientMessage::unreliable_id(id)
}

fn frame(bytes: Bytes, datagram: bool) -> (Incoming, bool) {
    let id = Reader::new(&bytes)
        .read_u64(0, u64::from(u32::MAX))
        .ok()
        .map(|id| id as u32);
    (Incoming { id, bytes }, datagram)
}

/// Appends `frame` after its length as a QUIC variable-length integer.
fn put(out: &mut Vec<u8>, frame: &[u8]) {
    let n = frame.len();
    if n < 64 {
        out.push(n as u8);
    } else if n < 16_384 {
        out.extend_from_slice(&(0x4000 | n as u16).to_be_bytes());
    } else {
        out.extend_from_slice(&(0x8000_0000 | n as u32).to_be_bytes());
    }
    out.extend_from_slice(frame);
}

/// The width and value of the length prefix at the start of `buf`, once it is whole.
fn prefix(buf: &[u8]) -> Option<(usize, usize)> {
    let first = *buf.first()?;
    let width = 1usize << (first >> 6);
    if buf.len() < width {
        return None;
    }
    let mut len = usize::from(first & 0x3f);
    for &b in &buf[1..width] {
        len = (len << 8) | usize::from(b);
    }
    Some((width, len))
}

/// The development certificate's SHA-256 from the server's `GET /webtransport`.
async fn certificate_hash(addr: &str) -> Result<Sha256Digest, ClientError> {
    let mut tcp = tokio::net::TcpStream::connect(addr).await?;
    let request =
        format!("GET /webtransport HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .ok_or("GET /webtransport: no body")?;
    let info: serde_json::Value = serde_json::from_str(body.trim())?;
    let hex = info["certificateHash"]
        .as_str()
        .ok_or("GET /webtransport: no certificateHash")?;
    let mut bytes = [0u8; 32];
    if hex.len() != 64 {
        return Err(format!("GET /webtransport: a hash of {} digits", hex.len()).into());
    }
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)?;
    }
    Ok(Sha256Digest::new(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefixed_frame_reads_back_at_every_width() {
        for n in [0usize, 63, 64, 16_383, 16_384, 70_000] {
            let frame = vec![7u8; n];
            let mut out = Vec::new();
            put(&mut out, &frame);
            let (width, len) = prefix(&out).expect("whole prefix");
            assert_eq!(len, n);
            assert_eq!(out.len(), width + n);
        }
    }
}
