/// A new message reusing the name of a removed one.
#[derive(tuplet::Message)]
#[tuplet(name = "player:wave", id = 12, dir = "c2s")]
pub struct Wave {
    pub at: u64,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_names = ["player:wave"])]
pub enum ClientMessage {
    Wave(Wave),
}

fn main() {}
