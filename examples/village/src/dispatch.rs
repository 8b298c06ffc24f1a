//! The dispatch enums: every message of each direction, by id. Messages sent both ways
//! appear in both. Removed ids and names stay reserved here so they are never reused.
//!
//! One file per direction: `client.rs` holds `ClientMessage` (c2s), `server.rs`
//! `ServerMessage` (s2c).

mod client;
mod server;

pub use client::ClientMessage;
pub use server::ServerMessage;
