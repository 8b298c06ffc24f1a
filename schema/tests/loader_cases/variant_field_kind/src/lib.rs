#[derive(tuplet::Enum)]
pub enum Shape {
    #[tuplet(tag = 0)]
    Circle { kind: u8, radius: u16 },
}
