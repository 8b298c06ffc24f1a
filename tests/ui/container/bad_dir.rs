#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "up")]
pub struct PlayerMove {
    pub t: u64,
}

fn main() {}
