//! room-minimal: the smallest complete room server on tuplet, the one to copy. One room of
//! up to 40 players at `ws://HOST/ANY-PATH`: hello and join, moves relayed by interest
//! tier, input frames played out and acknowledged, a delta snapshot per client each tick.
//! Operations are the reference server's: docs/server.md lists where each one lives.

use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Mutex;

mod conn;
mod room;
mod stats;
mod tick;

/// Accepts WebSocket connections on `listener` into one room, for as long as it runs.
pub async fn serve(listener: TcpListener) {
    let room = room::Shared::new(Mutex::new(room::Room::new()));
    let ticking = room.clone();
    tokio::spawn(async move {
        let mut clock = tokio::time::interval(Duration::from_millis(50));
        loop {
            let due = clock.tick().await;
            ticking.lock().await.on_tick(due.into_std());
        }
    });
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors, say: wait, never spin.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let room = room.clone();
        let service = service_fn(move |req| conn::upgrade(req, room.clone()));
        // The request head must arrive within 5 s; then hyper hands the socket over.
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(5));
        tokio::spawn(http.serve_connection(TokioIo::new(stream), service).with_upgrades());
    }
}
