#[derive(tuplet::Record)]
pub struct Odd {
    pub __proto__: u8,
}
