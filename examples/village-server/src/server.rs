//! The listener and the rooms: a room is created on the first connection to its path
//! (`ws://host/` is the room `village`, `ws://host/plaza` the room `plaza`) and runs as
//! its own task.

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::shared::Shared;

/// A running server.
pub struct Server {
    addr: SocketAddr,
    accept: JoinHandle<()>,
}

impl Server {
    /// Where it listens (the real port when `Config::addr` asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The WebSocket URL of room `room`.
    pub fn url(&self, room: &str) -> String {
        format!("ws://{}/{room}", self.addr)
    }

    /// Stops accepting connections (rooms end as their connections close).
    pub fn stop(&self) {
        self.accept.abort();
    }

    /// Runs until the listener fails.
    pub async fn wait(self) {
        let _ = self.accept.await;
    }
}

/// Binds `config.addr` and starts accepting connections on the current tokio runtime.
pub async fn start(config: Config) -> io::Result<Server> {
    let listener = TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared::new(config));
    let next = AtomicU64::new(1);
    let accept = tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    let conn = next.fetch_add(1, Ordering::Relaxed);
                    tokio::spawn(crate::conn::serve(stream, shared.clone(), conn));
                }
                Err(e) => {
                    eprintln!("village-server: accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
            }
        }
    });
    Ok(Server { addr, accept })
}
