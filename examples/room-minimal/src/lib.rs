//! room-minimal: the smallest complete room server on tuplet, the one to copy. A player
//! connects to `ws://HOST/ROOM`, says `session:hello`, joins, moves or sends input frames,
//! and gets what is near it.
//!
//! | file | what it does |
//! |---|---|
//! | `lib.rs` | accepts WebSockets, one room task per path |
//! | `conn.rs` | one connection: frames in, a bounded queue out |
//! | `room.rs` | hello and join, typed dispatch with the sender, relay by interest tier |
//! | `tick.rs` | the 20 Hz tick: input playout, `input:ack`, a snapshot per client |
//! | `stats.rs` | what the room counts, for `diag:ping` |
//!
//! Operations are left to the reference server, `examples/village-server`: signed join
//! tokens (`token.rs`; here every player is a guest), resuming a session (`sessions.rs`),
//! saving players (SQLite, `store.rs`), the PROXY protocol and per-address caps
//! (`proxy.rs`, `limits.rs`), rate limits (`metered.rs`), permessage-deflate
//! (`deflate.rs`), a timerfd tick clock (`ticker.rs`), draining and Agones (`agones.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use yawc::{HttpResponse, WebSocket};

mod conn;
mod room;
mod stats;
mod tick;

/// The most rooms open at once; a room closes when its last player leaves.
pub const MAX_ROOMS: usize = 64;
/// The longest room name (the URL's path), bytes.
const MAX_ROOM_NAME: usize = 64;

/// The open rooms by name: each is a task, reached through its bounded event channel.
type Rooms = Arc<Mutex<HashMap<String, mpsc::Sender<room::Event>>>>;

/// Accepts WebSocket connections on `listener` for as long as the returned future runs.
pub async fn serve(listener: TcpListener) {
    let rooms = Rooms::default();
    let mut conns = 0u64;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, say: wait, never spin.
                eprintln!("room-minimal: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        conns += 1;
        let (rooms, id) = (rooms.clone(), conns);
        let service = service_fn(move |req| upgrade(req, rooms.clone(), id));
        // An HTTP request head must arrive within 5 s; then hyper hands the socket over.
        let http = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(Duration::from_secs(5))
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::spawn(http);
    }
}

/// Answers the upgrade request (101, or 400/503) and runs the connection once upgraded.
async fn upgrade(
    mut req: Request<Incoming>,
    rooms: Rooms,
    id: u64,
) -> Result<HttpResponse, std::convert::Infallible> {
    let name = req.uri().path().trim_start_matches('/').to_string();
    let Ok((response, upgraded)) = WebSocket::upgrade_with_options(&mut req, conn::options())
    else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let Some(room) = room_for(&rooms, &name) else {
        return Ok(status(StatusCode::SERVICE_UNAVAILABLE));
    };
    tokio::spawn(async move {
        if let Ok(ws) = upgraded.await {
            conn::run(ws, id, room).await;
        }
    });
    Ok(response)
}

/// The room called `name`, opened if needed: `None` for a bad name or when
/// [`MAX_ROOMS`] are open. The sender is cloned under the lock, so a room that sees no
/// sender but the registry's may close (`room::Room::run`).
fn room_for(rooms: &Rooms, name: &str) -> Option<mpsc::Sender<room::Event>> {
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || name.len() > MAX_ROOM_NAME || !name.chars().all(ok) {
        return None;
    }
    let mut open = rooms.lock().ok()?;
    if let Some(tx) = open.get(name) {
        return Some(tx.clone());
    }
    if open.len() >= MAX_ROOMS {
        return None;
    }
    let (tx, rx) = mpsc::channel(room::EVENTS);
    open.insert(name.to_string(), tx.clone());
    tokio::spawn(room::Room::new(name.to_string(), rooms.clone()).run(rx));
    Some(tx)
}

fn status(code: StatusCode) -> HttpResponse {
    let mut r = Response::new(Default::default());
    *r.status_mut() = code;
    r
}
