//! The deploy orders, and which pair of versions each one lets meet.

use serde::{Deserialize, Serialize};

use crate::compat::lock::WireDir;
use crate::compat::rules::Hurts;

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

    /// Whether a change hurting `hurts`, in direction `dir`, breaks a deployment in this
    /// order. Under `server-first` a client never talks to an older server: in c2s only an
    /// old client reaching a new server matters, in s2c only a new server reaching an old
    /// client. `client-first` is the mirror image.
    pub fn breaks(self, dir: WireDir, hurts: Hurts) -> bool {
        match (self, dir) {
            (Deploy::AnyOrder, _) => true,
            (Deploy::ServerFirst, WireDir::C2s) | (Deploy::ClientFirst, WireDir::S2c) => {
                hurts.old_to_new()
            }
            (Deploy::ServerFirst, WireDir::S2c) | (Deploy::ClientFirst, WireDir::C2s) => {
                hurts.new_to_old()
            }
        }
    }
}
