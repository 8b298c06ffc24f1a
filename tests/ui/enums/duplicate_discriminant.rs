#[derive(tuplet::Enum)]
pub enum Species {
    Sparrow = 1,
    Robin = 2,
    Gull = 1,
}

fn main() {}
