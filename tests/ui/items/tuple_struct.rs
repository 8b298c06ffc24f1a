#[derive(tuplet::Record)]
pub struct Pos(f32, f32);

fn main() {}
