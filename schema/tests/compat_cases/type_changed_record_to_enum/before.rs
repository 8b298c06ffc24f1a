#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: Thing,
}

#[derive(tuplet::Record)]
pub struct Thing {
    pub x: u8,
}
