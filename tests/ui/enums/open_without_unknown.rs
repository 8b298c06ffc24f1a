#[derive(tuplet::Enum)]
#[tuplet(open)]
pub enum Species {
    Sparrow = 1,
    Robin = 2,
}

fn main() {}
