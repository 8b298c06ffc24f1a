//! village-server: the hardened reference room server for the village protocol on tuplet.
//!
//! Every client message is decoded and validated by the derived codecs; bad input is
//! dropped and counted by message type and error code, and its sender stays connected.
//! Moves are checked against the map and a speed limit (a rejected one is answered with a
//! correction to its sender alone) and relayed by distance tier
//! ([`tuplet::relay`]), silent while a pose does not change ([`tuplet::silence`]). Each
//! client gets the entity snapshot every tick and, when signed in and subscribed, the bird
//! stream. A room is one task: rooms, not players per room, are the unit of scale.
//!
//! Every resource a client can make it hold is bounded and counted ([`Config`],
//! [`counters`]), and who a client is comes from a signed join token ([`token`]).
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let server = village_server::start(village_server::Config::default()).await?;
//! println!("listening on {}", server.url("village"));
//! server.wait().await;
//! # Ok(()) }
//! ```

#[cfg(feature = "agones")]
pub mod agones;
mod before_hello;
pub mod client;
pub mod config;
mod conn;
pub mod counters;
pub mod deflate;
mod drip;
mod fanout;
mod fdlimit;
mod guests;
mod handshake;
mod input_playout;
mod join;
mod limits;
mod metered;
pub mod names;
mod presence;
pub mod proxy;
mod reserve;
mod room;
mod server;
mod sessions;
mod shared;
mod snapshot;
pub mod stats;
pub mod store;
mod ticker;
pub mod token;
mod trim;
pub mod webtransport;
pub mod world;

pub use config::Config;
pub use server::{start, Server};
