//! The same type name twice in one module.

#[derive(tuplet::Record)]
pub struct Pos {
    pub x: i32,
}

#[derive(tuplet::Enum)]
pub enum Pos {
    A = 1,
}
