//! Cross-crate and cross-language tests for tuplet. The library holds the test protocols
//! the test files share; the tests live in `tests/tests/`.

#![allow(missing_docs)]

pub mod corpus;
pub mod counting;
pub mod kinds;
pub mod proto;

/// The guide's chapters (`docs/`): their Rust blocks are compiled and run as doctests of this
/// crate (`cargo test -p tuplet-tests --doc`).
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../../docs/README.md")]
    pub struct Index;
    #[doc = include_str!("../../docs/own-protocol.md")]
    pub struct OwnProtocol;
    #[doc = include_str!("../../docs/server.md")]
    pub struct Server;
    #[doc = include_str!("../../docs/frontend.md")]
    pub struct Frontend;
    #[doc = include_str!("../../docs/compat.md")]
    pub struct Compat;
    #[doc = include_str!("../../docs/delta.md")]
    pub struct Delta;
    #[doc = include_str!("../../docs/room-server.md")]
    pub struct RoomServer;
    #[doc = include_str!("../../docs/room-server-attacks.md")]
    pub struct RoomServerAttacks;
    #[doc = include_str!("../../docs/cloudflare.md")]
    pub struct Cloudflare;
    #[doc = include_str!("../../docs/cli.md")]
    pub struct Cli;
    #[doc = include_str!("../../docs/history.md")]
    pub struct History;
    #[doc = include_str!("../../docs/prediction.md")]
    pub struct Prediction;
}
