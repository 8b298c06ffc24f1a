#[derive(tuplet::Message)]
#[tuplet(name = "m:move", id = 1, dir = "both")]
pub struct Move {
    pub x: i32,
    pub z: i32,
}
