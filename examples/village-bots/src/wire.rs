//! A loopback TCP proxy that counts the bytes on the wire: what the server sent and
//! received, WebSocket framing and permessage-deflate included (what a byte meter inside
//! the server, counting messages, cannot see).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Bytes through the proxy so far.
#[derive(Debug, Default)]
pub struct Wire {
    /// Server to clients.
    pub down: AtomicU64,
    /// Clients to server.
    pub up: AtomicU64,
}

/// Listens on 127.0.0.1 (a free port) and forwards every connection to `server`
/// (`HOST:PORT`); returns the proxy's address and its counts.
pub async fn start(server: String) -> std::io::Result<(String, Arc<Wire>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?.to_string();
    let wire = Arc::new(Wire::default());
    let counts = wire.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(upstream) = TcpStream::connect(&server).await else {
                continue;
            };
            let _ = client.set_nodelay(true);
            let _ = upstream.set_nodelay(true);
            let (cr, cw) = client.into_split();
            let (ur, uw) = upstream.into_split();
            let w = counts.clone();
            tokio::spawn(pipe(ur, cw, w, true));
            tokio::spawn(pipe(cr, uw, counts.clone(), false));
        }
    });
    Ok((addr, wire))
}

async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    wire: Arc<Wire>,
    down: bool,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let counter = if down { &wire.down } else { &wire.up };
        counter.fetch_add(n as u64, Ordering::Relaxed);
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}
