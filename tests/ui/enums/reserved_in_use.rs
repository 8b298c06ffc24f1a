#[derive(tuplet::Enum)]
#[tuplet(reserved = [2])]
pub enum Species {
    Sparrow = 1,
    Robin = 2,
}

fn main() {}
