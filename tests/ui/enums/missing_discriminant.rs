#[derive(tuplet::Enum)]
pub enum Species {
    Sparrow = 1,
    Robin,
}

fn main() {}
