#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub p: Position,
}

#[derive(tuplet::Record)]
pub struct Position {
    pub x: i16,
}
