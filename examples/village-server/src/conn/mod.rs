//! One WebSocket connection, from the upgrade to the close handshake:
//!
//! 1. The upgrade, within `handshake_timeout`: the path must name an allowed room (404
//!    otherwise, 503 past `max_rooms` or while draining).
//! 2. `session:hello`, within `hello_timeout`, checked here: its token verified (a bad or
//!    expired one is answered `session:error` and closed, code 1008); only then does the
//!    connection take a room slot.
//! 3. The session: every frame kind (binary, text, ping, pong) counts against the rate cap;
//!    a frame over a cap is counted in the room's [`FrameDrops`] here and never reaches the
//!    room; a client over its cap `flood_close_s` seconds in a row, silent `idle_timeout`,
//!    or with a write blocked `write_timeout` is closed. A connection reads at most
//!    [`READS_PER_RATE`](upgrade::READS_PER_RATE) times its rate cap in frames (each fragment of a message counted,
//!    `metered.rs`): past that it stops reading until it may again, and TCP makes the
//!    sender wait, so a flood costs the server what it reads, not what the sender can
//!    write.
//!
//! Every close the server makes is a WebSocket close handshake with a code, a protocol
//! error's too (1002, 1003, 1007 or 1009, with the library's reason).

mod closing;
mod frames;
mod hello;
mod upgrade;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use tokio::net::TcpStream;
use yawc::OpCode;

use crate::counters::Counter;
use crate::join::{self, Joined, Said};
use crate::limits::{Flood, RateCap};
use crate::room::{close, Event};
use crate::shared::{HelloSlot, Shared};

use closing::{close_now, close_on_error, close_with, finish_close};
use frames::{admit, answer_ping, write_batch};
use hello::{answer, hello};
use upgrade::upgrade;

pub(crate) use upgrade::{READ_BUFFER, WRITE_BUFFER};

/// Serves one accepted connection from peer `peer`; `slot` is its place in the budget of
/// connections yet to say hello, traded for a player's place at its hello. Behind a
/// trusted proxy the client's address is the one the proxy names, and every per-address
/// cap counts that one.
pub(crate) async fn serve(
    stream: TcpStream,
    shared: Arc<Shared>,
    conn: u64,
    mut slot: HelloSlot,
    peer: IpAddr,
) {
    let cfg = shared.config.clone();
    let _ = stream.set_nodelay(true);
    // What the kernel may hold for a reader that stopped reading.
    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(cfg.send_buffer);
    // A newcomer may take this connection's place until it says hello (the budget before
    // hello was full and this address held the most): then it ends here, counted
    // `evicted_before_hello` when the place was taken.
    let evicted = slot.evicted();
    let upgraded = tokio::select! {
        up = upgrade(stream, &shared, peer, &mut slot) => up,
        () = evicted.notified() => None,
    };
    let Some((mut ws, path, _deflate, ip)) = upgraded else {
        return;
    };
    let mut cap = RateCap::new(cfg.rate_per_s, cfg.rate_burst);
    let mut flood = Flood::default();
    let drops = shared.pre_hello_drops.clone();
    let greeted = tokio::select! {
        said = hello(&mut ws, &shared, &drops, &path, &mut cap) => Ok(said),
        () = evicted.notified() => Err(()),
    };
    let Some((hello, who, len)) = (match greeted {
        Ok(said) => said,
        Err(()) => return close_now(&mut ws, close::TRY_LATER, "evicted before hello").await,
    }) else {
        return;
    };
    // Said hello: a player's connection slot, then the room (opened now if it is not).
    let said = Said {
        hello,
        len,
        who,
        datagrams: false,
    };
    let Joined {
        room,
        mut rx,
        queued,
        _slot,
    } = match join::join(&shared, slot, &path, conn, ip, said).await {
        Ok(joined) => joined,
        Err(refused) => return answer(&mut ws, refused).await,
    };
    let idle = tokio::time::sleep(cfg.idle_timeout);
    tokio::pin!(idle);
    loop {
        tokio::select! {
            out = rx.recv() => {
                let write = write_batch(&mut ws, out, &mut rx, &queued);
                match tokio::time::timeout(cfg.write_timeout, write).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some((code, reason)))) => {
                        close_with(&mut ws, code, reason).await;
                        break;
                    }
                    Ok(Err(())) => break,
                    Err(_) => {
                        // Blocked on a reader that does not read: drop it, no handshake.
                        shared.counters.add(Counter::WriteTimeout);
                        break;
                    }
                }
            }
            _ = &mut idle => {
                shared.counters.add(Counter::IdleTimeout);
                close_with(&mut ws, close::GOING_AWAY, "idle").await;
                break;
            }
            incoming = ws.next_frame() => {
                idle.as_mut().reset(tokio::time::Instant::now() + cfg.idle_timeout);
                let bytes = match incoming {
                    // The library has queued its answer to the close frame: write it.
                    Ok(f) if f.opcode() == OpCode::Close => {
                        finish_close(&mut ws).await;
                        break;
                    }
                    Ok(frame) if frame.opcode() == OpCode::Ping && !answer_ping(&mut ws, &cfg).await => {
                        shared.counters.add(Counter::WriteTimeout);
                        break;
                    }
                    Ok(frame) => match admit(&frame, &cfg, &room.drops, &mut cap) {
                        Some(bytes) => bytes,
                        None => {
                            if flood.on_drop(Instant::now(), cfg.flood_close_s) {
                                shared.counters.add(Counter::Flooding);
                                close_with(&mut ws, close::POLICY, "over the rate cap").await;
                                break;
                            }
                            continue;
                        }
                    },
                    Err(e) => {
                        close_on_error(&mut ws, &shared, e).await;
                        break;
                    }
                };
                if room.tx.send(Event::Input { conn, bytes }).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = room.tx.send(Event::Close { conn }).await;
}
