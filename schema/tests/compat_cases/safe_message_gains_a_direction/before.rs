#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:side", id = 2, dir = "c2s")]
pub struct Side {
    pub a: u32,
}
