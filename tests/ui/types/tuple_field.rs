#[derive(tuplet::Record)]
pub struct Tile {
    pub at: (i32, i32),
}

fn main() {}
