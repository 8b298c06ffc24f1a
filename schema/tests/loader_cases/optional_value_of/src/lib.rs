#[derive(tuplet::Record)]
pub struct Odd {
    pub valueOf: Option<u8>,
}
