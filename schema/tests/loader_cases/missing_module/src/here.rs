#[derive(tuplet::Record)]
pub struct Here {
    pub a: u8,
}
