//! A `use` of a crate path that does not exist.

pub mod common {
    #[derive(tuplet::Record)]
    pub struct Vec3 {
        pub x: i32,
    }
}

use crate::common::{Vec3, Vec4};

#[derive(tuplet::Message)]
#[tuplet(name = "m", id = 1, dir = "c2s")]
pub struct Moved {
    pub p: Vec3,
}
