#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "c2s", unreliable = true)]
pub struct Move {
    pub x: i32,
}

fn main() {}
