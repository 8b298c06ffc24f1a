/// Two server messages that share a wire name.
#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 1, dir = "s2c")]
pub struct Moved {
    pub t: u64,
}

#[derive(tuplet::Message)]
#[tuplet(name = "player:move", id = 2, dir = "s2c")]
pub struct Corrected {
    pub t: u64,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "s2c")]
pub enum ServerMessage {
    Moved(Moved),
    Corrected(Corrected),
}

fn main() {}
