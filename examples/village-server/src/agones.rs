//! The Agones lifecycle (cargo feature `agones`; `village-server --agones`), with the
//! official Rust SDK, the `agones` crate, talking gRPC to the SDK server beside the game
//! server (the sidecar in a pod; `AGONES_SDK_GRPC_PORT`, 9357 by default):
//!
//! - **Ready** ([`Agones::connect`], called once the server listens): `SDK.Ready`.
//! - **Health** while the rooms tick: one message on the `SDK.Health` stream every
//!   `health_every`, sent only when the rooms' tick count grew since the last one (or no
//!   room is open, so nothing should tick), and only while the store's writes succeed. A
//!   stuck room or a store that cannot write (a full disk) stops the pings and Agones
//!   marks the server Unhealthy.
//! - **Players**: the player-tracking API, which is alpha in Agones:
//!   `alpha.SDK.SetPlayerCapacity` once (`room_capacity` × `max_rooms`), then
//!   `alpha.SDK.PlayerConnect` and `PlayerDisconnect` with the session id as players join
//!   and leave a room. The count is also kept in the label `players` (`SDK.SetLabel`;
//!   Agones stores it as `agones.dev/sdk-players`), which works without the alpha feature
//!   gate (off by default in a cluster). After the first refused alpha call, the alpha
//!   calls stop and only the label is kept.
//! - **Allocated**: `SDK.WatchGameServer`. Once the GameServer is `Allocated` (a
//!   matchmaker handed it to players) the server is a session: when players have come and
//!   all left, [`Agones::session_over`] resolves; the binary then drains and shuts down,
//!   and the fleet starts a fresh Ready server.
//! - **Shutdown** ([`Agones::shutdown`], after [`crate::Server::drain`]): `SDK.Shutdown`.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use agones::errors::Error;
use agones::{GameServer, Sdk};
use futures_util::{Stream, StreamExt};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::server::Server;
use crate::shared::Shared;

/// How the lifecycle talks to the SDK server.
#[derive(Debug, Clone)]
pub struct Options {
    /// The SDK server's gRPC port on localhost; `None`: `AGONES_SDK_GRPC_PORT`, else 9357.
    pub port: Option<u16>,
    /// A health message at most this often (Agones' default `periodSeconds` is 5).
    pub health_every: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            port: None,
            health_every: Duration::from_secs(2),
        }
    }
}

/// What the lifecycle has seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// The GameServer was `Allocated`.
    pub allocated: bool,
    /// Allocated, and its players came and have all left.
    pub session_over: bool,
}

/// The lifecycle, running: connected, Ready sent, health, players and the watch going.
pub struct Agones {
    sdk: Sdk,
    task: JoinHandle<()>,
    seen: watch::Receiver<Seen>,
}

impl Agones {
    /// Connects to the SDK server (retrying for up to 30 s, as the SDK does), says Ready,
    /// and starts health, player counts and the watch for `server`.
    pub async fn connect(server: &Server, opts: Options) -> Result<Agones, Error> {
        let mut sdk = Sdk::new(opts.port, None).await?;
        let stream = sdk.watch_gameserver().await?;
        sdk.ready().await?;
        let (tx, seen) = watch::channel(Seen::default());
        let task = tokio::spawn(run(sdk.clone(), server.shared(), opts, stream, tx));
        Ok(Agones { sdk, task, seen })
    }

    /// What the lifecycle has seen so far.
    pub fn seen(&self) -> Seen {
        *self.seen.borrow()
    }

    /// Resolves once the server was allocated and its players have all left (never, if it
    /// is not allocated).
    pub async fn session_over(&mut self) {
        if self.seen.wait_for(|s| s.session_over).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Stops health and player updates and says Shutdown (call it after the drain).
    pub async fn shutdown(mut self) -> Result<(), Error> {
        self.task.abort();
        self.sdk.shutdown().await
    }
}

/// Health, players and the watch, in one task (one SDK client, no shared state).
async fn run<S, E>(
    mut sdk: Sdk,
    shared: Arc<Shared>,
    opts: Options,
    mut stream: S,
    seen: watch::Sender<Seen>,
) where
    S: Stream<Item = Result<GameServer, E>> + Unpin + Send,
    E: std::fmt::Display,
{
    let mut alpha = Some(sdk.alpha().clone());
    let capacity = (shared.config.room_capacity * shared.config.max_rooms) as i64;
    if let Some(a) = alpha.as_mut() {
        let r = a.set_player_capacity(capacity).await;
        if r.is_err() {
            no_alpha(&r);
            alpha = None;
        }
    }
    let mut health = sdk.health_check();
    let mut every = tokio::time::interval(opts.health_every);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_ticks = None::<u64>;
    let mut count = shared.presence.watch();
    // What Agones was told: the players it has, the label's count.
    let mut told = BTreeSet::new();
    let mut label = None;
    // Allocated and at least one player came since: the session began.
    let mut began = false;
    let mut watching = true;
    loop {
        if label != Some(told.len()) {
            match sdk.set_label("players", told.len().to_string()).await {
                Ok(()) => label = Some(told.len()),
                Err(e) => eprintln!("village-server: agones: SetLabel failed: {}", why(&e)),
            }
        }
        tokio::select! {
            _ = every.tick() => {
                let ticks = shared.presence.ticks();
                // Saves failing (a full disk): no ping, so Agones marks the server
                // Unhealthy while the players' states wait in memory.
                let ticking = shared.room_count() == 0 || last_ticks.is_none_or(|t| ticks > t);
                if ticking && !shared.sessions.store.failing() {
                    // The SDK's stream ends if the SDK server drops it: open another.
                    if health.send(()).await.is_err() {
                        health = sdk.health_check();
                        let _ = health.send(()).await;
                    }
                }
                last_ticks = Some(ticks);
            }
            changed = count.changed() => {
                if changed.is_err() {
                    return;
                }
                count.borrow_and_update();
                let now = shared.presence.snapshot();
                if let Some(a) = alpha.as_mut() {
                    let mut refused = None;
                    for id in now.difference(&told) {
                        if let Err(e) = a.player_connect(id.clone()).await {
                            refused = Some(e);
                            break;
                        }
                    }
                    for id in told.difference(&now).filter(|_| refused.is_none()) {
                        if let Err(e) = a.player_disconnect(id.clone()).await {
                            refused = Some(e);
                            break;
                        }
                    }
                    if let Some(e) = refused {
                        no_alpha(&Err(e));
                        alpha = None;
                    }
                }
                told = now;
                // Told before the session may end: Shutdown follows at once.
                if label != Some(told.len()) {
                    match sdk.set_label("players", told.len().to_string()).await {
                        Ok(()) => label = Some(told.len()),
                        Err(e) => eprintln!("village-server: agones: SetLabel failed: {}", why(&e)),
                    }
                }
                let allocated = seen.borrow().allocated;
                began |= allocated && !told.is_empty();
                if began && told.is_empty() {
                    seen.send_modify(|s| s.session_over = true);
                }
            }
            gs = stream.next(), if watching => {
                let gs = match gs {
                    Some(Ok(gs)) => Some(gs),
                    // A stream error (the stand-in's, for one, when its watchers lag
                    // behind): read the state instead, and keep watching.
                    Some(Err(e)) => {
                        eprintln!("village-server: agones: WatchGameServer: {e}");
                        sdk.get_gameserver().await.ok()
                    }
                    None => {
                        watching = false;
                        None
                    }
                };
                let state = gs.as_ref().and_then(|g| g.status.as_ref()).map(|s| s.state.as_str());
                if state == Some("Allocated") && !seen.borrow().allocated {
                    eprintln!("village-server: agones: allocated");
                    began = !told.is_empty();
                    seen.send_modify(|s| s.allocated = true);
                }
            }
        }
    }
}

/// Says once that the alpha player-tracking calls are refused, and why.
fn no_alpha(r: &Result<(), Error>) {
    if let Err(e) = r {
        eprintln!(
            "village-server: agones: player tracking refused ({}); counting players in the label `players` only",
            why(e)
        );
    }
}

/// An SDK error with the gRPC status in it (the error's own text says only "rpc failure").
fn why(e: &Error) -> String {
    match e {
        Error::Rpc(status) => status.to_string(),
        e => e.to_string(),
    }
}
