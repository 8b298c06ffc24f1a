#[derive(tuplet::Enum)]
pub enum Shape {
    #[tuplet(tag = 0)]
    Circle { kind: u8, radius: u16 },
    #[tuplet(tag = 1)]
    Odd { __proto__: u8 },
}

fn main() {}
