//! The deploy orders (`deploy` in `tuplet.toml`, recorded in the lock). Which pair of
//! versions each one lets meet is `diff::deploy`'s.

use serde::{Deserialize, Serialize};

/// Which side deploys first (`deploy` in `tuplet.toml`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Deploy {
    /// Server and clients deploy in either order: every change must be safe both ways.
    #[default]
    AnyOrder,
    /// The server always deploys first: a server is never older than a client.
    ServerFirst,
    /// Clients always deploy first: a client is never older than the server.
    ClientFirst,
}

impl Deploy {
    /// Every order.
    pub const ALL: [Deploy; 3] = [Deploy::AnyOrder, Deploy::ServerFirst, Deploy::ClientFirst];

    /// As written in `tuplet.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Deploy::AnyOrder => "any-order",
            Deploy::ServerFirst => "server-first",
            Deploy::ClientFirst => "client-first",
        }
    }

    /// Parses the `tuplet.toml` spelling.
    pub fn parse(s: &str) -> Option<Deploy> {
        Deploy::ALL.into_iter().find(|d| d.as_str() == s)
    }
}
