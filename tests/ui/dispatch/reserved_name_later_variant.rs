/// A reserved name used by the second of two messages: the error points at its variant.
#[derive(tuplet::Message)]
#[tuplet(name = "player:jump", id = 10, dir = "c2s")]
pub struct Jump {
    pub height: u8,
}

/// A new message reusing the name of a removed one.
#[derive(tuplet::Message)]
#[tuplet(name = "player:wave", id = 12, dir = "c2s")]
pub struct Wave {
    pub at: u64,
}

#[derive(tuplet::Dispatch)]
#[tuplet(dir = "c2s", reserved_names = ["player:hop", "player:wave"])]
pub enum ClientMessage {
    Jump(Jump),
    Wave(Wave),
}

fn main() {}
