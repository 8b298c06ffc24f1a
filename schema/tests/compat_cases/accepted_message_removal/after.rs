#[derive(tuplet::Message)]
#[tuplet(name = "m:up", id = 1, dir = "c2s")]
pub struct Up {
    pub a: u32,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", accept(rule = "message-removed", was = "m:other (id 2)", now = "", reason = "no client sends it since 1.2"))]
pub enum ClientMsg {
    Up(Up),
}
