#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Message)]
#[tuplet(name = "m:fresh", id = 5, dir = "c2s")]
pub struct Fresh {
    pub b: u8,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_names = ["m:gone"])]
pub enum ClientMsg {
    Up(Up), Fresh(Fresh),
}
