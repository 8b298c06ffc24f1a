#[derive(tuplet::Record)]
pub struct Vec3 {
    pub x: i32,
}

#[derive(tuplet::Enum)]
pub enum Mode {
    Walk = 1,
}
