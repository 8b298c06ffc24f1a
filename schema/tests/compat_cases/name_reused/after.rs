#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:gone", id = 6, dir = "c2s")]
pub struct Gone {
    pub b: u8,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_ids = [5])]
pub enum ClientMsg {
    Up(Up), Gone(Gone),
}
