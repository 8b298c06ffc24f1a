use std::collections::HashMap;

#[derive(tuplet::Record)]
pub struct Scores {
    pub by_player: HashMap<String, u32>,
}

fn main() {}
