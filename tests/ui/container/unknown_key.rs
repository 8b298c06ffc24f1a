#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s", bugdet = 40)]
pub struct PlayerMove {
    pub t: u64,
}

fn main() {}
