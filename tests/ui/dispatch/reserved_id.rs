/// A new message reusing the id of a removed one.
#[derive(tuplet::Message)]
#[tuplet(name = "player:wave", id = 11, dir = "c2s")]
pub struct Wave {
    pub at: u64,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_ids = [11])]
pub enum ClientMessage {
    Wave(Wave),
}

fn main() {}
