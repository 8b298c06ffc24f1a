#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:down", id = 9, dir = "s2c")]
pub struct Down {
    pub a: u32,
}
