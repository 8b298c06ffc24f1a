//! room-minimal: the smallest complete room server on tuplet, the one to copy. One room of
//! up to 40 players at `ws://HOST/ANY-PATH`: hello and join, moves relayed by interest
//! tier, input frames played out and acknowledged, a delta snapshot per client each tick.
//!
//! `conn.rs` is one connection, `room.rs` the room and its dispatch, `tick.rs` its tick,
//! `stats.rs` what it counts. Operations are the reference server's (`examples/village-server`):
//! rooms by path, signed join tokens (`token.rs`; here every player is a guest), resuming
//! and saving sessions (`sessions.rs`, SQLite in `store.rs`), the PROXY protocol and
//! per-address caps (`proxy.rs`, `limits.rs`), rate limits (`metered.rs`),
//! permessage-deflate (`deflate.rs`), a timerfd tick (`ticker.rs`), Agones (`agones.rs`).

use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use yawc::{HttpResponse, WebSocket};

mod conn;
mod room;
mod stats;
mod tick;

/// Accepts WebSocket connections on `listener` into one room, for as long as it runs.
pub async fn serve(listener: TcpListener) {
    let (room, events) = mpsc::channel(room::EVENTS);
    tokio::spawn(room::Room::new().run(events));
    for conn in 1.. {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors, say: wait, never spin.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let room = room.clone();
        let service = service_fn(move |req| upgrade(req, room.clone(), conn));
        // The request head must arrive within 5 s; then hyper hands the socket over.
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(5));
        tokio::spawn(http.serve_connection(TokioIo::new(stream), service).with_upgrades());
    }
}

/// Answers the upgrade request (101, or 400) and runs the connection once upgraded.
async fn upgrade<B>(
    mut req: Request<B>,
    room: mpsc::Sender<room::Event>,
    conn: u64,
) -> Result<HttpResponse, std::convert::Infallible> {
    let Ok((response, upgraded)) = WebSocket::upgrade_with_options(&mut req, conn::options())
    else {
        let mut bad = HttpResponse::default();
        *bad.status_mut() = StatusCode::BAD_REQUEST;
        return Ok(bad);
    };
    tokio::spawn(async move {
        if let Ok(ws) = upgraded.await {
            conn::run(ws, conn, room).await;
        }
    });
    Ok(response)
}
