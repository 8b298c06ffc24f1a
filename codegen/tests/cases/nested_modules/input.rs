pub mod common {
    /// A point in whole centimetres.
    #[derive(tuplet::Record)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }
}

use common::Point;

#[derive(tuplet::Message)]
#[tuplet(name = "path:set", id = 4, dir = "c2s")]
pub struct PathSet {
    #[tuplet(len(max = 8))]
    pub points: Vec<Point>,
    pub start: crate::common::Point,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMessage {
    PathSet(PathSet),
}
