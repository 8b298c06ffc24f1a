//! Every way of naming a type resolves: plain, `crate::`, `super::`, a child module path,
//! renamed, grouped and glob imports, `pub use` re-exports, `#[path]`, `x/mod.rs`.

pub mod common;
#[path = "elsewhere/zone.rs"]
pub mod zone;
pub mod nested;

pub use common::Vec3 as Position;

use crate::nested::deep::*;

#[derive(tuplet::Message)]
#[tuplet(name = "m", id = 1, dir = "c2s")]
pub struct Moved {
    pub a: Position,
    pub b: crate::common::Vec3,
    pub c: common::Vec3,
    pub d: Option<Mode>,
    pub e: zone::Zone,
    pub f: Vec<Deep>,
}
