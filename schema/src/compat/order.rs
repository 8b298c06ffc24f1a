//! The deploy orders (`deploy` in `tuplet.toml`, recorded in the lock), and the [`Judge`]: the
//! order the deployed peers follow, the order `tuplet.toml` says now, and the
//! acknowledgement of a switch between them. Which pair of versions each order lets meet is
//! `diff::deploy`'s.

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

/// The deploy orders a check judges by: the old side's, the new side's, and the
/// acknowledgement of a switch between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judge {
    /// The order the deployed peers follow: the base's `deploy` (`tuplet compat --against`),
    /// else the one the lock records, else [`Judge::now`].
    pub was: Deploy,
    /// `deploy` in `tuplet.toml`.
    pub now: Deploy,
    /// `accept-deploy` in `tuplet.toml`, if written.
    pub accept: Option<DeployAccept>,
    /// Where `deploy` is written (`tuplet.toml:6`): a `deploy-changed` finding points there.
    pub location: String,
}

/// `accept-deploy = { was = "...", now = "...", reason = "..." }` in `tuplet.toml`: the
/// acknowledgement of a change of `deploy`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployAccept {
    /// The order before.
    pub was: Deploy,
    /// The order after.
    pub now: Deploy,
    /// Why.
    pub reason: String,
    /// Where it is written (`tuplet.toml:7`).
    pub location: String,
}

impl Judge {
    /// One order on both sides, nothing acknowledged.
    pub fn same(deploy: Deploy) -> Judge {
        Judge {
            was: deploy,
            now: deploy,
            accept: None,
            location: "tuplet.toml".to_string(),
        }
    }

    /// Whether `deploy` changed to an order other than `any-order` (which judges every
    /// change both ways, so switching to it hides nothing).
    pub fn loosened(&self) -> bool {
        self.was != self.now && self.now != Deploy::AnyOrder
    }

    /// Whether the acknowledgement names this switch.
    pub fn acknowledged(&self) -> bool {
        self.accept
            .as_ref()
            .is_some_and(|a| a.was == self.was && a.now == self.now)
    }

    /// The order the schema's changes are judged by: the new one, unless it loosens the old
    /// one without an acknowledgement (then the old one, so the switch hides nothing).
    pub fn effective(&self) -> Deploy {
        if self.loosened() && !self.acknowledged() {
            self.was
        } else {
            self.now
        }
    }
}
