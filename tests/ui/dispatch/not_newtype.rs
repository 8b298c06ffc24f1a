#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s")]
pub struct PlayerMove {
    pub t: u64,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s")]
pub enum ClientMsg {
    Move(PlayerMove),
    Ping,
}

fn main() {}
