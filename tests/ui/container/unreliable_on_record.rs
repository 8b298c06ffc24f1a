#[derive(tuplet::Record)]
#[tuplet(unreliable)]
pub struct Pos {
    pub x: i32,
}

fn main() {}
