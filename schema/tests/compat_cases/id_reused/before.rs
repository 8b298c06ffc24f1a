#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_ids = [5], reserved_names = ["m:gone"])]
pub enum ClientMsg {
    Up(Up),
}
