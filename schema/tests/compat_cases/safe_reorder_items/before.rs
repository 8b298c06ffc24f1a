#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub p: Pos,
}

#[derive(tuplet::Record)]
pub struct Pos {
    pub x: i16,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 1, dir = "s2c")]
pub struct Down {
    pub a: u32,
}
